#!/usr/bin/env python3
"""Tables for the serving experiments (experiments/serving-*.sh): reads ARM,WINDOW,VALUE rows and
prints, per arm, the mean over trace windows with a 95% t-interval, and the paired change against the
baseline arm (same windows) with its 95% t-interval. The engine is deterministic: the windows (slices
of the trace) are the samples.
Usage: serving-stats.py RESULTS.csv BASELINE_ARM 'value name'"""
import csv
import math
import statistics
import sys

T95 = {1: 12.706, 2: 4.303, 3: 3.182, 4: 2.776, 5: 2.571, 6: 2.447, 7: 2.365, 8: 2.306, 9: 2.262, 10: 2.228,
       11: 2.201, 12: 2.179}


def ci(values):
    """Half-width of the 95% t-interval of the mean."""
    if len(values) < 2:
        return float("nan")
    return T95[len(values) - 1] * statistics.stdev(values) / math.sqrt(len(values))


def main():
    path, baseline, name = sys.argv[1], sys.argv[2], sys.argv[3]
    arms = {}
    for arm, window, value in csv.reader(open(path)):
        arms.setdefault(arm, {})[window] = float(value)
    if baseline not in arms:
        sys.exit(f"{path}: no rows for the baseline arm '{baseline}'; arms: {', '.join(arms)}")
    base = arms[baseline]
    print(f"| arm | {name}: mean ± 95% CI | vs {baseline} (paired) | windows |")
    print("|---|---|---|---|")
    for arm, by_window in arms.items():
        values = list(by_window.values())
        mean = statistics.mean(values)
        change = "–"
        if arm != baseline:
            ratios = [by_window[w] / base[w] - 1 for w in by_window if w in base and base[w] > 0]
            if ratios:
                change = f"{100 * statistics.mean(ratios):+.0f}% ± {100 * ci(ratios):.0f}%"
        print(f"| {arm} | {mean:.4g} ± {ci(values):.2g} | {change} | {len(values)} |")


if __name__ == "__main__":
    main()
