#!/usr/bin/env bash
# The quota rows of issue 23, timed: user+sys CPU seconds (median of RUNS) and peak RSS for full
# Philly with --queues under fifo and boreas (physics none and the demo configuration), one run
# of experiments/sharing.yaml's static arm, every other policy without queues and in the demo
# configuration (also as scripts/demo.sh reads the trace), and the openb trace with --physics all. Usage: bench/quota_rows.sh [BOREAS] [OUTDIR] [RUNS] [ROWS]
# BOREAS defaults to build/boreas; OUTDIR keeps each row's outputs (jobs.csv, summary.json) so two
# binaries can be compared byte for byte; ROWS is a regex over the row names (default: all).
set -euo pipefail
cd "$(dirname "$0")/.."
demo=(--production-fraction 0.1 --physics all --placement pack)
# shellcheck source=bench/row_timer.sh
. bench/row_timer.sh
rows_args /tmp/boreas-quota-rows "$@"
row fifo-queues --policy fifo --queues $vcs
row boreas-queues --policy boreas --queues $vcs
row fifo-demo --policy fifo --queues $vcs "${demo[@]}"
row boreas-demo --policy boreas --queues $vcs "${demo[@]}"
row sharing-static --policy boreas --queues examples/queues/philly-vcs-static.yaml --slice 10000 --load 0.9 --seed 1
# The issue's other full-Philly rows: every policy alone, physics none, no queues; the demo
# configuration for the rest; the openb trace with physics all.
for policy in fifo fjf easy-backfill srtf srtf-gpu las gittins; do
  row "none-$policy" --policy "$policy"
done
for policy in fjf easy-backfill srtf srtf-gpu las gittins; do
  row "$policy-demo" --policy "$policy" --queues $vcs "${demo[@]}"
done
# scripts/demo.sh's own reading of the demo configuration: Philly's durations as V100 work
# (--reference-gpu V100-16G), so the offered load is 0.73 rather than the P100 rule's ~0.13.
for policy in fifo fjf easy-backfill srtf srtf-gpu las gittins boreas las-quota; do
  row "$policy-demo-v100" --policy "$policy" --queues $vcs "${demo[@]}" --seed 1 --reference-gpu V100-16G
done
cluster=examples/clusters/openb.yaml
trace=data/traces/alibaba-pai-gpu-2023/openb_pod_list_default.csv.gz
row openb-physics-all --policy fifo --physics all
