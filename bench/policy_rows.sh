#!/usr/bin/env bash
# Issue 23's policy rows, timed: every registered policy on full Philly with --physics none, without
# and with --queues examples/queues/philly-vcs.yaml, then gittins, srtf, easy-backfill and boreas
# (with queues) under every placement. Prints user+sys CPU seconds (median of RUNS) and peak RSS.
# Usage: bench/policy_rows.sh [BOREAS] [OUTDIR] [RUNS] [ROWS]
# OUTDIR keeps each row's outputs (jobs.csv, runs.csv, summary.json) so two binaries can be compared
# byte for byte (bench/compare_rows.sh); ROWS is a regex over the row names (default: all).
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=bench/row_timer.sh
. bench/row_timer.sh
rows_args /tmp/boreas-policy-rows "$@"
policies=$("$bin" sim --help | sed -n 's/.*comma-separated policies: //p' | tr ',' ' ')
placements=$("$bin" sim --help | sed -n 's/.*--placement TEXT *\([a-z| -]*\)(default.*/\1/p' | tr -d '|')
for policy in $policies; do
  row "$policy" --physics none --policy "$policy"
  row "$policy-queues" --physics none --policy "$policy" --queues $vcs
done
for placement in $placements; do
  for policy in gittins srtf easy-backfill; do
    row "$policy-$placement" --physics none --policy "$policy" --placement "$placement"
  done
  row "boreas-queues-$placement" --physics none --policy boreas --queues $vcs --placement "$placement"
done
