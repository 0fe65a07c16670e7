#!/usr/bin/env bash
# The main job: the digital twin on the bundled real traces, measured as experiments (docs/experiments.md):
# each question is a file in experiments/, run as arms that differ in one factor, at offered loads 0.5,
# 0.7 and 0.9, over 10 seeds (seeded 10,000-job slices of the Philly trace), with 95% confidence
# intervals against a named baseline arm. Then one full-trace replay with every model on, for the
# detailed report (queues over time, power and heat per zone) and the Perfetto schedule.
set -euo pipefail
build=${1:-build}
out=${OUT:-out/demo}
mkdir -p "$out"
for name in policies-philly quotas-tree heterogeneity thermal-same-type topology-helios spot recovery; do
  echo "== boreas experiment run experiments/$name.yaml"
  "$build/boreas" experiment run "experiments/$name.yaml" --out "$out/$name" 2>/dev/null
  "$build/boreas" experiment summary "$out/$name/results.json"
  echo
done
cluster=examples/clusters/philly.yaml
trace=data/traces/philly-sia/philly.csv.gz
echo "== boreas sim: the whole $trace on $cluster (one seed, every model on), for the detailed report"
# philly.yaml's V100s stand in for Philly's own GPUs, so the durations are read as V100 durations
# (the Philly rule would read them as P100 work, which these GPUs finish five times faster: load 0.13).
"$build/boreas" sim --cluster "$cluster" --trace "$trace" --queues examples/queues/philly-vcs.yaml \
  --production-fraction 0.1 --seed 1 --physics all --placement pack --reference-gpu V100-16G \
  --policy fifo,easy-backfill,las,boreas --out "$out/philly-full" \
  --report "$out/philly-full/report.html" --schedule-trace "$out/philly-full/schedule.json.gz"
echo
echo "Outputs:"
echo "  $out/<experiment>/report.html   each experiment's arms with 95% CIs against its baseline"
echo "  $out/<experiment>/results.json  every metric's mean, CI and per-seed values (docs/experiments.md)"
echo "  $out/philly-full/report.html     the full-trace replay (self-contained, works offline)"
echo "  $out/philly-full/schedule.json.gz open in https://ui.perfetto.dev or chrome://tracing"
