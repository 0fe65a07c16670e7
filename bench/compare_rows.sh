#!/usr/bin/env bash
# Compares two output folders of bench/policy_rows.sh (or quota_rows.sh) row by row: jobs.csv,
# runs.csv, timeseries.csv, zones.csv (physics runs) and summary.json (but wall_time_s) must be
# byte-identical. Prints each row's verdict;
# exits 1 when a row differs or is missing from the second folder.
# Usage: bench/compare_rows.sh BEFORE_DIR AFTER_DIR
set -euo pipefail
before=${1:?usage: bench/compare_rows.sh BEFORE_DIR AFTER_DIR}
after=${2:?usage: bench/compare_rows.sh BEFORE_DIR AFTER_DIR}
bad=0
for row in "$after"/*/; do
  name=$(basename "$row")
  before_bad=$bad
  for run in "$row"*/; do
    policy=$(basename "$run")
    for f in jobs.csv runs.csv timeseries.csv zones.csv summary.json; do
      a="$before/$name/$policy/$f" b="$after/$name/$policy/$f"
      if [[ $f == zones.csv && ! -f $a && ! -f $b ]]; then
        continue  # written only with physics on
      fi
      if [[ ! -f $a ]]; then
        echo "$name: $f missing in $before" >&2; bad=1; continue
      fi
      if [[ $f == summary.json ]]; then
        cmp -s <(grep -v wall_time_s "$a") <(grep -v wall_time_s "$b") || { echo "$name: $f differs"; bad=1; }
      else
        cmp -s "$a" "$b" || { echo "$name: $f differs"; bad=1; }
      fi
    done
  done
  if [[ $bad == "$before_bad" ]]; then echo "$name: identical"; fi
done
exit $bad
