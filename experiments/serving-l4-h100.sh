#!/usr/bin/env bash
# Llama-3-8B on an L4 vs on an H100 (issue 19; docs/serving.md "Experiments", docs/results.md
# "Serving: L4 vs H100"): max request rate at SLO of ONE replica (one GPU, tp 1), then the cost per
# million tokens at that rate from the catalog's on-demand prices (data/gpus.yaml):
#   $/Mtok = price per GPU-hour / (max rate x tokens per request x 3600) x 1e6,
# tokens = prompt + output of the window's requests (and, separately, output only).
# Seed claim: inference on cost-effective GPUs (L4, A30), training on H100s.
# - examples/services/llama3-8b-l4.yaml, autoscaler off, 1 replica; the H100 arm changes only the GPU.
#   SLO: Splitwise's slowdown SLO (the default; the example's absolute slo line is dropped), each GPU
#   against its own isolated run.
# - The Azure conversation trace in six 10-minute windows, each time-scaled by --find-max-rate.
# Usage: experiments/serving-l4-h100.sh [BOREAS] [OUT_DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
boreas=${1:-build/boreas}
out=${2:-out/serving-l4-h100}
source experiments/serving-maxrate-lib.sh
rm -rf "$out" && mkdir -p "$out"
trace=data/traces/azure-llm-inference-2023/AzureLLMInferenceTrace_conv.csv.gz
cluster=examples/clusters/hetero-4.yaml
for gpu in L4 H100-SXM; do
  sed -e "s/gpu: L4, tp: 1/gpu: $gpu, tp: 1/" -e '/^slo:/d' -e 's/kind: predictive, min_replicas: 2, max_replicas: 16, initial_replicas: 4,/kind: none, min_replicas: 1, max_replicas: 1, initial_replicas: 1,/' \
    examples/services/llama3-8b-l4.yaml >"$out/$gpu.yaml"
  grep -q "gpu: $gpu, tp: 1" "$out/$gpu.yaml" && grep -q "kind: none, min_replicas: 1" "$out/$gpu.yaml" &&
    ! grep -q "^slo:" "$out/$gpu.yaml" ||
    { echo "serving-l4-h100.sh: examples/services/llama3-8b-l4.yaml changed; update the sed lines" >&2; exit 1; }
  for window in 0:600 600:1200 1200:1800 1800:2400 2400:3000 3000:3600; do
    max_rate "$gpu" "$window" "$out/$gpu.yaml" "$trace" "$cluster" "$out"
  done
done
echo "Max rate at SLO, one replica:"
python3 experiments/serving-stats.py "$out/results.csv" L4 "max rate at SLO (req/s)"
# $/Mtok per window from the run at the max rate (its summary: cost, requests, and the trace's tokens).
python3 - "$out" <<'PY'
import csv, gzip, json, os, sys
out = sys.argv[1]
prices = {"L4": 0.75, "H100-SXM": 2.95}  # data/gpus.yaml on_demand, checked against summary.json below
rows = list(csv.reader(open(f"{out}/results.csv")))
tokens = {}
with gzip.open("data/traces/azure-llm-inference-2023/AzureLLMInferenceTrace_conv.csv.gz", "rt") as f:
    reader = csv.reader(f); next(reader)
    from datetime import datetime
    t0 = None
    for ts, ctx, gen in reader:
        t = datetime.fromisoformat(ts[:26]).timestamp()
        t0 = t if t0 is None else t0
        w = int((t - t0) // 600)
        a = tokens.setdefault(w, [0, 0, 0]); a[0] += 1; a[1] += int(ctx); a[2] += int(gen)
with open(f"{out}/cost.csv", "w") as c, open(f"{out}/cost-output.csv", "w") as co:
    for arm, window, rate in rows:
        s = json.load(open(f"{out}/{arm}/{window.replace(':', '-')}/summary.json"))
        assert abs(s["cost_usd"] / s["gpu_hours"] - prices[arm]) < 1e-9, "price differs from data/gpus.yaml"
        n, inp, outp = tokens[int(window.split(":")[0]) // 600]
        per_hour = float(rate) * 3600
        c.write(f"{arm},{window},{prices[arm] / (per_hour * (inp + outp) / n) * 1e6}\n")
        co.write(f"{arm},{window},{prices[arm] / (per_hour * outp / n) * 1e6}\n")
PY
echo "Cost per million tokens (prompt + output) at the max rate:"
python3 experiments/serving-stats.py "$out/cost.csv" L4 '$/Mtok'
echo "Cost per million output tokens at the max rate:"
python3 experiments/serving-stats.py "$out/cost-output.csv" L4 '$/Mtok output'
