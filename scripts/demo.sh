#!/usr/bin/env bash
# The main job: the digital twin on the bundled Philly trace (82,247 real jobs), comparing strict
# FIFO, EASY backfilling and Tiresias' 2D-LAS on the Philly-sized cluster spec, then the report.
set -euo pipefail
build=${1:-build}
out=${OUT:-out/demo}
cluster=examples/clusters/philly.yaml
trace=data/traces/philly-sia/philly.csv.gz
echo "== boreas sim: $trace on $cluster"
"$build/boreas" sim --cluster "$cluster" --trace "$trace" --policy fifo,easy-backfill,las --out "$out" \
  --report "$out/report.html" --schedule-trace "$out/schedule.json"
echo
echo "Outputs:"
echo "  $out/<policy>/summary.json, jobs.csv, timeseries.csv, runs.csv (docs/formats/sim-output.md)"
echo "  $out/report.html      open in a browser (self-contained, works offline)"
echo "  $out/schedule.json    open in https://ui.perfetto.dev or chrome://tracing"
