#!/usr/bin/env bash
# End to end through `boreas serve --executor slurm` (docs/PERFORMANCE.md, "Slurm executor"):
#   BOREAS=build/boreas SRC=. tests/slurm/bench_serve.sh [JOBS]   (root; starts its own cluster)
# Submits JOBS (default 32) one-GPU `sleep 30` jobs through the HTTP API and times (a) the API
# acknowledgements, (b) until Slurm runs all of them (4 nodes x 8 GPUs: 32 fit at once); then
# JOBS `true` jobs until Boreas reports them all completed; then, 5 times, one 16-GPU gang (2 whole
# nodes, one Slurm job) from its submission until Slurm runs it.
set -euo pipefail
JOBS=${1:-32}
LAB=$(mktemp -d /tmp/boreas-slurm-bench-XXXXXX)
"$SRC/tests/slurm/cluster.sh" start "$LAB" 4 >/dev/null
export SLURM_CONF=$LAB/etc/slurm.conf
source "$SRC/tests/server/lib.sh"
trap 'stop_daemon; "$SRC/tests/slurm/cluster.sh" stop "$LAB"; rm -rf "$WORK" "$LAB"' EXIT
"$BOREAS" cluster import --slurm --out "$WORK/lab.yaml" >/dev/null
: >"$WORK/serve.out"
CLUSTER=$WORK/lab.yaml
start_daemon --executor slurm
ADMIN=$(token admin '*' root)
now() { date +%s.%N; }
elapsed() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.0f", (b - a) * 1000 }'; }
t0=$(now)
for i in $(seq "$JOBS"); do submit "$ADMIN" '{"command":["sleep","30"],"gpus":1}' >/dev/null; done
t1=$(now)
until [ "$(squeue -h -t R -o %k | grep -c '^boreas:' || true)" -ge "$JOBS" ]; do sleep 0.01; done
t2=$(now)
echo "API: $JOBS submissions acknowledged in $(elapsed "$t0" "$t1") ms; all running in Slurm $(elapsed "$t0" "$t2") ms after the first"
squeue -h -o %i | xargs -r scancel
until [ "$(squeue -h -t PD,R,CG -o %i | wc -l)" -eq 0 ]; do sleep 0.05; done
ids=()
t3=$(now)
for i in $(seq "$JOBS"); do ids+=("$(submit "$ADMIN" '{"command":["true"],"gpus":1}')"); done
for id in "${ids[@]}"; do wait_state "$ADMIN" "$id" completed; done
t4=$(now)
echo "$JOBS 'true' jobs submitted and completed through Slurm in $(elapsed "$t3" "$t4") ms"
for i in $(seq 5); do
  t5=$(now)
  gang=$(submit "$ADMIN" '{"command":["sleep","30"],"gpus":16}')
  until squeue -h -t R -o '%k %D' | grep -qx "boreas:$gang 2"; do sleep 0.01; done
  t6=$(now)
  echo "16-GPU gang $i: submission -> RUNNING in Slurm on 2 nodes in $(elapsed "$t5" "$t6") ms"
  squeue -h -o %i | xargs -r scancel
  wait_state "$ADMIN" "$gang" cancelled
  until [ "$(squeue -h -t PD,R,CG -o %i | wc -l)" -eq 0 ]; do sleep 0.05; done
done
