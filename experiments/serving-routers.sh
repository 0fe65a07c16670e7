#!/usr/bin/env bash
# Router policies on Mooncake (issue 19; docs/serving.md "Experiments", docs/results.md "Serving:
# routers"): max request rate at SLO for round-robin, join-shortest-queue and prefix-aware routing.
# Seed claim: "routing by model and hardware affinity +45% throughput".
# - Llama-2-70B on 12 H100 TP4 replicas (examples/services/llama2-70b-prefix.yaml), an unbounded
#   prefix cache per replica (--prefix-cache-tokens inf), its absolute SLO: 99% of requests with
#   TTFT <= 30 s and mean TBT <= 0.2 s.
# - The Mooncake conversation trace in six 10-minute windows, each time-scaled by --find-max-rate.
#   A window where an arm misses the SLO at every rate counts 0 (its error is in DIR/error.txt).
# Usage: experiments/serving-routers.sh [BOREAS] [OUT_DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
boreas=${1:-build/boreas}
out=${2:-out/serving-routers}
source experiments/serving-maxrate-lib.sh
rm -rf "$out" && mkdir -p "$out"
trace=data/traces/mooncake-fast25/conversation_trace.jsonl.gz
cluster=examples/clusters/hetero-4.yaml
for arm in round-robin shortest-queue prefix; do
  sed "s/^router: prefix$/router: $arm/" examples/services/llama2-70b-prefix.yaml >"$out/$arm.yaml"
  grep -q "^router: $arm$" "$out/$arm.yaml" || { echo "serving-routers.sh: no router line to set" >&2; exit 1; }
  for window in 0:600 600:1200 1200:1800 1800:2400 2400:3000 3000:3600; do
    max_rate "$arm" "$window" "$out/$arm.yaml" "$trace" "$cluster" "$out" --prefix-cache-tokens inf
  done
done
python3 experiments/serving-stats.py "$out/results.csv" round-robin "max rate at SLO (req/s)"
