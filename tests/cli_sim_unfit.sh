#!/usr/bin/env bash
# Jobs that can never run make `boreas sim` exit 1 naming how many, which and why, unless
# --drop-unfit (then summary.json counts them) or --gpu-type-map makes them fit; `trace stats
# --cluster` reports the same. Tool spellings of GPU types (Kubernetes, Slurm, NVML) just work.
set -uo pipefail
boreas=$1 src=$2 work=$3
rm -rf "$work" && mkdir -p "$work"
trace=$src/tests/fixtures/traces/slurm_typed.txt
typed=$src/tests/fixtures/config/typed-16.yaml
a100=$src/tests/fixtures/config/a100-8.yaml
fail() { echo "FAIL: $*"; exit 1; }

# Every spelling matches a type of typed-16: all 8 jobs run and complete.
"$boreas" sim --cluster "$typed" --trace "$trace" --policy fifo --out "$work/typed" >/dev/null || fail "typed-16 run"
grep -q '"completed_jobs": 8' "$work/typed/fifo/summary.json" || fail "typed-16: not every job completed"
grep -q '"dropped_jobs": 0' "$work/typed/fifo/summary.json" || fail "typed-16: dropped_jobs should be 0"

# On the A100-only cluster the three H100 jobs can never run: exit 1, counted, named, with the fix.
"$boreas" sim --cluster "$a100" --trace "$trace" --policy fifo >"$work/out.txt" 2>"$work/err.txt"
[ $? -eq 1 ] || fail "unfit jobs should exit 1"
grep -q "3 of 8 jobs can never run on cluster 'a100-8' (8 GPUs):" "$work/err.txt" || fail "count: $(cat "$work/err.txt")"
grep -q "2 job(s): GPU type 'h100' (H100-SXM) is not in the cluster, which has A100-80G ×8 (jobs 2001, 2002)" \
  "$work/err.txt" || fail "cause: $(cat "$work/err.txt")"
grep -q -- "--gpu-type-map FROM=TO" "$work/err.txt" && grep -q -- "--drop-unfit" "$work/err.txt" || fail "no fix given"
[ ! -s "$work/out.txt" ] || fail "no table may be printed for a refused trace"

# --drop-unfit: the other five run, the three dropped are counted.
"$boreas" sim --cluster "$a100" --trace "$trace" --policy fifo --drop-unfit --out "$work/drop" \
  >/dev/null 2>"$work/err.txt" || fail "--drop-unfit run"
grep -q "dropped (--drop-unfit): 3 of 8 jobs" "$work/err.txt" || fail "drop not reported: $(cat "$work/err.txt")"
grep -q '"jobs": 5,' "$work/drop/fifo/summary.json" || fail "5 jobs should run"
grep -q '"dropped_jobs": 3' "$work/drop/fifo/summary.json" || fail "dropped_jobs should be 3"

# --gpu-type-map sends the H100 jobs to the A100s (FROM matches every spelling of the same key).
"$boreas" sim --cluster "$a100" --trace "$trace" --policy fifo --out "$work/map" \
  --gpu-type-map h100=A100-80G,nvidia_h100_80gb_hbm3=A100-80G >/dev/null || fail "mapped run"
grep -q '"completed_jobs": 8' "$work/map/fifo/summary.json" || fail "mapped: not every job completed"
"$boreas" sim --cluster "$a100" --trace "$trace" --gpu-type-map h100=B300 2>"$work/err.txt" >/dev/null
[ $? -eq 1 ] && grep -q "'B300' is not one GPU type of the catalog" "$work/err.txt" || fail "bad map target"

# trace stats --cluster reports the same jobs, and still prints the stats (exit 0).
"$boreas" trace stats "$trace" --cluster "$a100" >"$work/out.txt" 2>"$work/err.txt" || fail "trace stats"
grep -q "3 of 8 jobs can never run on cluster 'a100-8'" "$work/err.txt" || fail "stats: $(cat "$work/err.txt")"
grep -q "offered load" "$work/out.txt" || fail "stats output missing"
"$boreas" trace stats "$trace" --cluster "$a100" --gpu-type-map h100=A100-80G,nvidia_h100_80gb_hbm3=A100-80G \
  2>"$work/err.txt" >/dev/null || fail "mapped trace stats"
[ ! -s "$work/err.txt" ] || fail "mapped stats should warn of nothing: $(cat "$work/err.txt")"
echo "cli sim unfit ok"
