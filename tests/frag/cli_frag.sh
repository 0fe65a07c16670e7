#!/usr/bin/env bash
# `boreas frag` end to end: a small run writes every policy's summary.json and curve.csv, twice
# the same bytes (deterministic whatever --threads); bad input exits 1 saying what and where.
set -uo pipefail
boreas=$1 src=$2 work=$3
rm -rf "$work" && mkdir -p "$work"
cluster=$src/examples/clusters/openb.yaml
here=$src/tests/frag
fail() { echo "FAIL: $*"; exit 1; }

"$boreas" frag --cluster "$cluster" --trace "$here/small_pods.csv" --seeds 1-2 --ratio 0.3 --threads 1 --out "$work/a" \
  >/dev/null || fail "small run"
"$boreas" frag --cluster "$cluster" --trace "$here/small_pods.csv" --seeds 1-2 --ratio 0.3 --threads 2 --out "$work/b" \
  >/dev/null || fail "small run, 2 threads"
for p in fgd bestfit packing clustering dotprod random boreas; do
  [ -s "$work/a/$p/summary.json" ] && [ -s "$work/a/$p/curve.csv" ] || fail "$p: missing output"
  grep -q '"gpu_alloc_pct_at_130"' "$work/a/$p/summary.json" || fail "$p: no gpu_alloc_pct_at_130"
  cmp -s "$work/a/$p/curve.csv" "$work/b/$p/curve.csv" || fail "$p: curve differs between --threads 1 and 2"
done

# `boreas report` draws the curves of every policy from the output directory (three charts).
"$boreas" report "$work/a" -o "$work/frag.html" >/dev/null || fail "report on a frag output"
for p in fgd bestfit packing clustering dotprod random boreas; do
  [ "$(grep -c "<polyline data-policy=\"$p\"" "$work/frag.html")" -eq 3 ] || fail "report: not three curves of $p"
done
"$boreas" report "$work/a" --schedule-trace "$work/s.json" 2>"$work/err.txt"
[ $? -eq 1 ] && grep -q "is a boreas frag output: pass -o FILE.html" "$work/err.txt" || fail "report without -o"

# --gpu-nodes-only and --ignore-memory are recorded in the summary.
"$boreas" frag --cluster "$cluster" --trace "$here/small_pods.csv" --seeds 1 --ratio 0.3 --policy fgd \
  --gpu-nodes-only --ignore-memory --out "$work/g" >/dev/null || fail "flags run"
grep -q '"gpu_nodes_only": true' "$work/g/fgd/summary.json" && grep -q '"ignore_memory": true' "$work/g/fgd/summary.json" \
  || fail "flags not recorded"

# A GPU pod with gpu_milli 0: the reader names the file, the line and the field.
"$boreas" frag --cluster "$cluster" --trace "$here/bad_gpu_milli.csv" --out "$work/c" >"$work/out.txt" 2>"$work/err.txt"
[ $? -eq 1 ] || fail "a bad gpu_milli should exit 1"
grep -q "bad_gpu_milli.csv:3" "$work/err.txt" || fail "no location: $(cat "$work/err.txt")"

# No GPU pod at all: nothing to pack, said so with an example of a pod list that works.
"$boreas" frag --cluster "$cluster" --trace "$here/cpu_only.csv" --out "$work/d" 2>"$work/err.txt"
[ $? -eq 1 ] || fail "a CPU-only trace should exit 1"
grep -q "has no GPU pod" "$work/err.txt" || fail "cpu-only: $(cat "$work/err.txt")"

# Unknown policy and a bad coverage are refused with the accepted values.
"$boreas" frag --cluster "$cluster" --trace "$here/small_pods.csv" --policy fgd,tetris --out "$work/e" 2>"$work/err.txt"
[ $? -eq 1 ] || fail "an unknown policy should exit 1"
grep -q "unknown policy 'tetris'; use fgd, bestfit" "$work/err.txt" || fail "policy: $(cat "$work/err.txt")"
"$boreas" frag --cluster "$cluster" --trace "$here/small_pods.csv" --class-coverage 0 --out "$work/f" 2>"$work/err.txt"
[ $? -eq 1 ] || fail "--class-coverage 0 should exit 1"
echo "ok"
