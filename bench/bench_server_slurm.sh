#!/usr/bin/env bash
# Submissions per second through Slurm's sbatch on a local Slurm cluster, next to Boreas's
# bench_server number (docs/PERFORMANCE.md). The cluster is the Slurm tests' fixture
# (tests/slurm/cluster.sh: one slurmctld and NODES slurmd on loopback, 8 fake h100 GPUs each, a
# private munged). Needs root and Slurm (scripts/install-deps.sh); skips without them.
#
#   bench/bench_server_slurm.sh [N] [CLIENTS]     (default 2000 jobs, 16 concurrent clients;
#                                                  N at most Slurm's MaxJobCount, 10,000)
#
# With BOREAS=path/to/boreas it then submits the same N jobs the same way through `boreas submit`
# (one CLI process per job, 16 at a time) to a `boreas serve` whose nodes are drained (the jobs stay
# queued, as Slurm's held ones do), so the two numbers share the method and the machine's load.
#
# Jobs are submitted held (`sbatch --hold --gres=gpu:1 --wrap true`) so the number measures the
# submission path only, like bench_server. Note the difference in durability: slurmctld answers
# once the job is in memory and saves state in the background, while Boreas answers only after
# the row is committed with fsync.
set -euo pipefail
N=${1:-2000}
CLIENTS=${2:-16}
NODES=${NODES:-2}
SRC=$(cd "$(dirname "$0")/.." && pwd)
LAB=$(mktemp -d /tmp/boreas-slurm-XXXXXX)
SERVE=
teardown() {
  [ -z "$SERVE" ] || kill "$SERVE" 2>/dev/null || true  # the boreas daemon, even after a failure
  [ ! -d "$LAB/etc" ] || "$SRC/tests/slurm/cluster.sh" stop "$LAB" >/dev/null || true
  rm -rf "$LAB"
}
trap teardown EXIT
rc=0
"$SRC/tests/slurm/cluster.sh" start "$LAB" "$NODES" >/dev/null 2>"$LAB/start.err" || rc=$?
if [ "$rc" = 77 ]; then echo "SKIP: $(cat "$LAB/start.err")"; exit 0; fi
[ "$rc" = 0 ] || { cat "$LAB/start.err" >&2; exit 1; }
export SLURM_CONF=$LAB/etc/slurm.conf

t0=$(date +%s.%N)
seq "$N" | xargs -P "$CLIENTS" -I{} sbatch --parsable --hold --gres=gpu:1 -N1 -o /dev/null --wrap true >/dev/null
t1=$(date +%s.%N)
queued=$(squeue -h -o %i | wc -l)
awk -v n="$N" -v q="$queued" -v a="$t0" -v b="$t1" -v c="$CLIENTS" 'BEGIN {
  printf "slurm sbatch: %d submissions (%d queued) with %d concurrent clients in %.2f s = %.0f submissions/s\n",
         n, q, c, b - a, n / (b - a) }'
[ "$queued" = "$N" ] || { echo "only $queued of $N jobs queued" >&2; exit 1; }

[ -n "${BOREAS:-}" ] || exit 0
DATA=$LAB/boreas
export BOREAS_TOKEN
BOREAS_TOKEN=$("$BOREAS" token create --data-dir "$DATA" --role admin --name bench 2>/dev/null)
# Root runs the bench; the drained nodes run nothing, so root's jobs are allowed (docs/live.md, Security).
"$BOREAS" serve --cluster "$SRC/tests/server/local.yaml" --data-dir "$DATA" --listen 127.0.0.1:0 \
  --allow-root-jobs >"$LAB/serve.out" 2>&1 &
SERVE=$!
export BOREAS_SERVER=
for _ in $(seq 200); do
  BOREAS_SERVER=$(sed -n 's|^boreas: listening on \(http://[0-9.:]*\)$|\1|p' "$LAB/serve.out")
  [ -z "$BOREAS_SERVER" ] || break
  sleep 0.05
done
[ -n "$BOREAS_SERVER" ] || { cat "$LAB/serve.out" >&2; echo "boreas serve did not start" >&2; exit 1; }
for node in $("$BOREAS" nodes --json | grep -o '"name": *"[^"]*"' | cut -d'"' -f4); do
  "$BOREAS" drain "$node" >/dev/null
done
t0=$(date +%s.%N)
seq "$N" | xargs -P "$CLIENTS" -I{} "$BOREAS" submit --gpus 1 -- true >/dev/null
t1=$(date +%s.%N)
queued=$("$BOREAS" jobs --json | grep -o '"state": *"pending"' | wc -l)
kill "$SERVE"; wait "$SERVE" || true
SERVE=
awk -v n="$N" -v q="$queued" -v a="$t0" -v b="$t1" -v c="$CLIENTS" 'BEGIN {
  printf "boreas submit: %d submissions (%d queued) with %d concurrent clients in %.2f s = %.0f submissions/s\n",
         n, q, c, b - a, n / (b - a) }'
[ "$queued" = "$N" ] || { echo "only $queued of $N jobs queued" >&2; exit 1; }
