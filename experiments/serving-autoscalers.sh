#!/usr/bin/env bash
# Reactive vs predictive autoscaling in the serving twin (issue 19; docs/results.md "Serving:
# autoscalers"). `boreas experiment run` drives `boreas sim`, not `sim serving`, hence a script.
# Llama-3-8B on L4 (examples/services/llama3-8b-l4.yaml, 2-16 replicas, target 16 in flight per
# replica), on both Azure 2023 traces; the engine is deterministic, so one run per cell.
# Usage: experiments/serving-autoscalers.sh [BOREAS] [OUT_DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
boreas=${1:-build/boreas}
out=${2:-out/serving-autoscalers}
mkdir -p "$out"
cluster=examples/clusters/hetero-4.yaml
base=examples/services/llama3-8b-l4.yaml
printf '| trace | autoscaler | TTFT p50 / p99 (s) | SLO attainment | GPU-hours | cold starts | max replicas |\n'
printf '|---|---|---|---|---|---|---|\n'
for trace in code conv; do
  for kind in reactive predictive; do
    spec="$out/$kind.yaml"
    sed "s/kind: predictive/kind: $kind/" "$base" >"$spec"
    dir="$out/$trace-$kind"
    "$boreas" sim serving --cluster "$cluster" --service "$spec" --out "$dir" \
      --trace "data/traces/azure-llm-inference-2023/AzureLLMInferenceTrace_$trace.csv.gz" >/dev/null
    python3 - "$dir/summary.json" "$trace" "$kind" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
print(f"| {sys.argv[2]} | {sys.argv[3]} | {s['ttft_p50_s']:.3f} / {s['ttft_p99_s']:.3f} | {s['slo_attainment']:.3f} "
      f"| {s['gpu_hours']:.2f} | {s['cold_starts']} | {s['max_replicas']} |")
PY
  done
done
