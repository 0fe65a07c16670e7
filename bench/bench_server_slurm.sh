#!/usr/bin/env bash
# Submissions per second through Slurm's sbatch on a local Slurm cluster, next to Boreas's
# bench_server number (docs/PERFORMANCE.md). Recipe: /work/shared/SLURM-LOCAL.md (one slurmctld
# and NODES slurmd on loopback, fake GPUs, a private munged). Needs root and the Debian packages
#   slurmctld slurmd slurm-client munge
# (not in scripts/install-deps.sh: only this optional comparison uses them). Skips when absent.
#
#   bench/bench_server_slurm.sh [N] [CLIENTS]     (default 2000 jobs, 16 concurrent clients)
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
for tool in slurmctld slurmd sbatch munged runuser; do
  command -v "$tool" >/dev/null || { echo "SKIP: $tool absent (apt-get install slurmctld slurmd slurm-client munge)"; exit 0; }
done
[ "$(id -u)" = 0 ] || { echo "SKIP: needs root (private munged runs as user munge)"; exit 0; }

LAB=$(mktemp -d /tmp/boreas-slurm-XXXXXX)
HOST=$(hostname)
export SLURM_CONF=$LAB/etc/slurm.conf
SERVE=
teardown() {
  [ -z "$SERVE" ] || kill "$SERVE" 2>/dev/null || true  # the boreas daemon, even after a failure
  squeue -h -o %i 2>/dev/null | xargs -r scancel 2>/dev/null || true
  scontrol shutdown >/dev/null 2>&1 || true
  sleep 1
  for f in "$LAB"/run/*.pid "$LAB"/munge/munged.pid; do
    [ -f "$f" ] && kill -TERM "$(cat "$f")" 2>/dev/null || true
  done
  sleep 0.5
  rm -rf "$LAB"
}
trap teardown EXIT

mkdir -p "$LAB"/{etc,state,run,log,munge} && chmod 755 "$LAB" "$LAB/munge"
{
  cat <<CONF
ClusterName=bench
SlurmctldHost=$HOST(127.0.0.1)
SlurmctldPort=16817
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$LAB/munge/munge.sock,cred_expire=10
StateSaveLocation=$LAB/state
SlurmdSpoolDir=$LAB/spool/%n
SlurmctldPidFile=$LAB/run/slurmctld.pid
SlurmdPidFile=$LAB/run/slurmd-%n.pid
SlurmctldLogFile=$LAB/log/slurmctld.log
SlurmdLogFile=$LAB/log/slurmd-%n.log
MailProg=/bin/true
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SchedulerType=sched/backfill
SchedulerParameters=bf_interval=1,sched_interval=2
SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory
DefMemPerCPU=1024
GresTypes=gpu
SlurmdParameters=config_overrides
ReturnToService=2
MpiDefault=none
SwitchType=switch/none
MaxJobCount=100000
CONF
  for i in $(seq "$NODES"); do
    echo "NodeName=n$i NodeHostname=$HOST NodeAddr=127.0.0.1 Port=$((17000 + i)) CPUs=16 RealMemory=65536 Gres=gpu:h100:4 State=UNKNOWN"
  done
  echo "PartitionName=gpu Nodes=n[1-$NODES] Default=YES MaxTime=INFINITE State=UP"
} >"$SLURM_CONF"
: >"$LAB/etc/gres.conf"
echo "AutoDetect=off" >>"$LAB/etc/gres.conf"
for i in $(seq "$NODES"); do
  mkdir -p "$LAB/spool/n$i" "$LAB/fakedev/n$i"
  for g in 0 1 2 3; do ln -s /dev/null "$LAB/fakedev/n$i/nvidia$g"; done
  echo "NodeName=n$i Name=gpu Type=h100 File=$LAB/fakedev/n$i/nvidia[0-3]" >>"$LAB/etc/gres.conf"
done

dd if=/dev/urandom of="$LAB/munge/munge.key" bs=1024 count=1 status=none
chown -R munge:munge "$LAB/munge" && chmod 600 "$LAB/munge/munge.key"
runuser -u munge -- /usr/sbin/munged --socket="$LAB/munge/munge.sock" --key-file="$LAB/munge/munge.key" \
  --log-file="$LAB/munge/munged.log" --pid-file="$LAB/munge/munged.pid" --seed-file="$LAB/munge/munged.seed"
slurmctld
for _ in $(seq 100); do scontrol ping 2>/dev/null | grep -q UP && break; sleep 0.1; done
for i in $(seq "$NODES"); do slurmd -N "n$i"; done
for _ in $(seq 100); do
  [ "$(sinfo -h -N -t idle -o %N 2>/dev/null | wc -l)" = "$NODES" ] && break
  sleep 0.1
done

t0=$(date +%s.%N)
seq "$N" | xargs -P "$CLIENTS" -I{} sbatch --parsable --hold --gres=gpu:1 -N1 -o /dev/null --wrap true >/dev/null
t1=$(date +%s.%N)
queued=$(squeue -h -o %i | wc -l)
awk -v n="$N" -v q="$queued" -v a="$t0" -v b="$t1" -v c="$CLIENTS" 'BEGIN {
  printf "slurm sbatch: %d submissions (%d queued) with %d concurrent clients in %.2f s = %.0f submissions/s\n",
         n, q, c, b - a, n / (b - a) }'
[ "$queued" = "$N" ] || { echo "only $queued of $N jobs queued" >&2; exit 1; }

[ -n "${BOREAS:-}" ] || exit 0
SRC=$(cd "$(dirname "$0")/.." && pwd)
DATA=$LAB/boreas
export BOREAS_TOKEN
BOREAS_TOKEN=$("$BOREAS" token create --data-dir "$DATA" --role admin --name bench 2>/dev/null)
"$BOREAS" serve --cluster "$SRC/tests/server/local.yaml" --data-dir "$DATA" --listen 127.0.0.1:0 >"$LAB/serve.out" 2>&1 &
SERVE=$!
for _ in $(seq 200); do grep -q 'listening on' "$LAB/serve.out" && break; sleep 0.05; done
export BOREAS_SERVER
BOREAS_SERVER=$(grep -o 'http://[0-9.:]*' "$LAB/serve.out")
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
