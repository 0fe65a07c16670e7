#!/usr/bin/env bash
# The main job: the digital twin on the bundled Philly trace (82,247 real jobs), comparing strict
# FIFO, EASY backfilling and Tiresias' 2D-LAS on the Philly-sized cluster spec.
set -euo pipefail
build=${1:-build}
out=${OUT:-out/demo}
cluster=examples/clusters/philly.yaml
[ -f "$cluster" ] || cluster=examples/clusters/hybrid.yaml
if [ ! -f "$cluster" ]; then
  echo "demo: no cluster spec found (examples/clusters/philly.yaml or hybrid.yaml)" >&2
  exit 1
fi
trace=data/traces/philly-sia/philly.csv.gz
echo "== boreas sim: $trace on $cluster"
"$build/boreas" sim --cluster "$cluster" --trace "$trace" --policy fifo,easy-backfill,las --out "$out"
echo
echo "Outputs: $out/<policy>/summary.json, jobs.csv, timeseries.csv, runs.csv (format: docs/formats/sim-output.md)"
