#!/usr/bin/env bash
# `boreas sim serving` end to end: summary.json has the keys issue 19's checks read, two runs give
# the same bytes, bad input exits 1 saying what and where, and plain `boreas sim` still requires
# its own options.
set -uo pipefail
boreas=$1 src=$2 work=$3
rm -rf "$work" && mkdir -p "$work"
cluster=$src/examples/clusters/hetero.yaml
service=$src/examples/services/llama2-70b-h100-tp4.yaml
trace=$src/data/traces/azure-llm-inference-2023/AzureLLMInferenceTrace_code.csv.gz
fail() { echo "FAIL: $*"; exit 1; }

"$boreas" sim serving --cluster "$cluster" --trace "$trace" --service "$service" --out "$work/a" >/dev/null || fail "run"
"$boreas" sim serving --cluster "$cluster" --trace "$trace" --service "$service" --out "$work/b" >/dev/null || fail "rerun"
cmp -s "$work/a/summary.json" "$work/b/summary.json" || fail "two runs differ"
for key in ttft_p50_s ttft_p99_s tbt_p50_s tbt_p99_s e2e_p99_s slo_attainment goodput_rps gpu_hours cold_starts \
  prefix_hit_ratio ttft_p90_s e2e_p90_s cost_usd energy_kwh; do
  grep -q "\"$key\": [0-9]" "$work/a/summary.json" || fail "summary.json has no numeric $key"
done
grep -q '"requests": 8819' "$work/a/summary.json" || fail "not every request was simulated"
grep -q '"slo_kind": "slowdown"' "$work/a/summary.json" || fail "the default SLO is not Splitwise's slowdown"
grep -q '"slo_met": \(true\|false\)' "$work/a/summary.json" || fail "summary.json has no slo_met"

# --find-max-rate: the rate found and every probe are reported; the run described is at that rate.
"$boreas" sim serving --cluster "$cluster" --trace "$trace" --service "$service" --find-max-rate --out "$work/r" \
  >/dev/null || fail "find-max-rate run"
grep -q '"max_rate_rps": [0-9]' "$work/r/summary.json" || fail "no max_rate_rps"
grep -q '"max_rate_probes": \[' "$work/r/summary.json" || fail "no max_rate_probes"
grep -q '"slo_met": true' "$work/r/summary.json" || fail "the run at the max rate does not meet the SLO"

# Mooncake with an unbounded prefix cache reuses prompt tokens; without a cache it does not.
moon=$src/data/traces/mooncake-fast25/conversation_trace.jsonl.gz
prefix=$src/examples/services/llama2-70b-prefix.yaml
"$boreas" sim serving --cluster "$cluster" --trace "$moon" --service "$prefix" --prefix-cache-tokens inf --out "$work/m" \
  >/dev/null || fail "mooncake run"
grep -q '"prefix_hit_ratio": 0\.[1-9]' "$work/m/summary.json" || fail "no prefix reuse: $(grep prefix_hit "$work/m/summary.json")"

expect_error() {  # expect_error WHAT_TO_FIND ARGS...
  local want=$1
  shift
  "$boreas" sim serving "$@" >/dev/null 2>"$work/err.txt"
  [ $? -eq 1 ] || fail "should exit 1: $*"
  grep -q -- "$want" "$work/err.txt" || fail "no '$want' in: $(cat "$work/err.txt")"
}
printf 'TIMESTAMP,ContextTokens,GeneratedTokens\n2023-11-16 18:00:00.1,12,x\n' >"$work/bad.csv"
expect_error "bad.csv:2: GeneratedTokens 'x'" --cluster "$cluster" --trace "$work/bad.csv" --service "$service"
expect_error "instance trace" --cluster "$cluster" --service "$service" \
  --trace "$src/data/traces/alibaba-dlrm-serving-2025/disaggregated_DLRM_trace.csv.gz"
printf 'name: x\nmodel: {params_b: 8, layers: 32, hidden: 4096, kv_bytes_per_token: 1}\nreplica: {gpu: L4}\n' \
  >"$work/l4.yaml"
expect_error "has no L4 GPUs" --cluster "$cluster" --trace "$trace" --service "$work/l4.yaml"
expect_error "prefix-cache-tokens 'lots'" --cluster "$cluster" --trace "$trace" --service "$service" \
  --prefix-cache-tokens lots
expect_error "trace-window '10'" --cluster "$cluster" --trace "$trace" --service "$service" --trace-window 10
expect_error "rate-tolerance 2 is not a fraction" --cluster "$cluster" --trace "$trace" --service "$service" \
  --find-max-rate --rate-tolerance 2

# `boreas sim` itself: its required options still are.
"$boreas" sim --trace "$trace" >/dev/null 2>"$work/err.txt" && fail "sim without --cluster should fail"
grep -q -- "--cluster" "$work/err.txt" || fail "sim: no word about --cluster: $(cat "$work/err.txt")"
echo ok
