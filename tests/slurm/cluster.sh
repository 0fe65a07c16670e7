#!/usr/bin/env bash
# A private multi-node Slurm on loopback for the Slurm tests (recipe: docs/live.md, "Slurm").
#   cluster.sh start DIR [NODES]   one slurmctld + NODES slurmd (default 4), 8 fake h100 GPUs each,
#                                  topology/tree with 2 leaf switches; prints "export SLURM_CONF=..."
#   cluster.sh stop DIR            cancels every job, stops every daemon it started, checks none is left
# Needs root, the munge user and Debian's slurmctld slurmd slurm-client munge (scripts/install-deps.sh).
# Exit 77 (ctest: skipped) when it cannot run here at all: not root, or Slurm not installed.
# Ports: a block of 100 below the kernel's ephemeral range (10000-31999), the first one from a
# hash of DIR that no socket uses in any state (a stopped controller's port stays in TIME-WAIT
# for a minute and slurmctld cannot bind it then); SLURM_PORT_BASE forces one. Everything lives under DIR; nothing in /etc is used.
set -euo pipefail

die() { echo "cluster.sh: $*" >&2; exit 1; }

usage() { die "usage: cluster.sh start DIR [NODES] | stop DIR"; }

skip() { echo "cluster.sh: skipped: $*" >&2; exit 77; }

check_tools() {
  [ "$(id -u)" -eq 0 ] || skip "needs root (slurmd runs jobs as root here); run the Slurm tests as root"
  for t in slurmctld slurmd scontrol sinfo squeue scancel munged runuser; do
    command -v "$t" >/dev/null || skip "'$t' not found; install Slurm with scripts/install-deps.sh"
  done
  id munge >/dev/null 2>&1 || skip "no 'munge' user; install the munge package (scripts/install-deps.sh)"
}

ports_free() {  # BASE NODES: no TCP socket in any state uses BASE..BASE+NODES
  local busy
  busy=$(ss -Htan | awk '{print $4}' | sed 's/.*://' | awk -v lo="$1" -v hi="$(( $1 + $2 ))" '$1>=lo && $1<=hi')
  [ -z "$busy" ]
}

port_base() {  # DIR NODES
  if [ -n "${SLURM_PORT_BASE:-}" ]; then
    ports_free "$SLURM_PORT_BASE" "$2" || die "ports $SLURM_PORT_BASE..$(( SLURM_PORT_BASE + $2 )) are in use"
    echo "$SLURM_PORT_BASE"
    return
  fi
  local h i base
  h=$(printf '%s' "$1" | cksum | cut -d' ' -f1)
  for i in $(seq 0 219); do
    base=$(( 10000 + ((h + i) % 220) * 100 ))
    if ports_free "$base" "$2"; then echo "$base"; return; fi
  done
  die "no free block of ports in 10000-31999; set SLURM_PORT_BASE"
}

write_slurm_conf() {  # DIR NODES BASE HOST
  local d=$1 n=$2 base=$3 host=$4 i half=$(( ($2 + 1) / 2 ))
  cat >"$d/etc/slurm.conf" <<CONF
ClusterName=boreaslab
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$base
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$d/munge/munge.sock,cred_expire=10
StateSaveLocation=$d/state
SlurmdSpoolDir=$d/spool/%n
SlurmctldPidFile=$d/run/slurmctld.pid
SlurmdPidFile=$d/run/slurmd-%n.pid
SlurmctldLogFile=$d/log/slurmctld.log
SlurmdLogFile=$d/log/slurmd-%n.log
SlurmctldDebug=info
SlurmdDebug=info
MailProg=/bin/true
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/filetxt
JobCompLoc=$d/log/jobcomp.txt
SchedulerType=sched/backfill
SchedulerParameters=bf_interval=1,sched_interval=2
SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory
DefMemPerCPU=1024
GresTypes=gpu
TopologyPlugin=topology/tree
SlurmdParameters=config_overrides
ReturnToService=2
MpiDefault=none
SwitchType=switch/none
KillWait=5
MinJobAge=300
InactiveLimit=0
SlurmdTimeout=30
CONF
  for i in $(seq 1 "$n"); do
    local rack=$(( i <= half ? 1 : 2 ))
    echo "NodeName=n$i NodeHostname=$host NodeAddr=127.0.0.1 Port=$(( base + i )) CPUs=64 Boards=1" \
      "SocketsPerBoard=2 CoresPerSocket=32 ThreadsPerCore=1 RealMemory=1000000 Gres=gpu:h100:8" \
      "Feature=h100,nvlink,rack$rack State=UNKNOWN" >>"$d/etc/slurm.conf"
  done
  echo "PartitionName=gpu Nodes=n[1-$n] Default=YES MaxTime=INFINITE State=UP" >>"$d/etc/slurm.conf"
}

write_gres_and_topology() {  # DIR NODES
  local d=$1 n=$2 i half=$(( ($2 + 1) / 2 ))
  echo "AutoDetect=off" >"$d/etc/gres.conf"
  for i in $(seq 1 "$n"); do
    mkdir -p "$d/fakedev/n$i" "$d/spool/n$i"
    for g in 0 1 2 3 4 5 6 7; do ln -sf /dev/null "$d/fakedev/n$i/nvidia$g"; done
    echo "NodeName=n$i Name=gpu Type=h100 File=$d/fakedev/n$i/nvidia[0-7]" >>"$d/etc/gres.conf"
  done
  {
    echo "SwitchName=leaf1 Nodes=n[1-$half]"
    if [ "$n" -gt "$half" ]; then
      echo "SwitchName=leaf2 Nodes=n[$(( half + 1 ))-$n]"
      echo "SwitchName=spine Switches=leaf[1-2]"
    fi
  } >"$d/etc/topology.conf"
}

start_munge() {  # DIR
  local m=$1/munge
  mkdir -p "$m"
  dd if=/dev/urandom of="$m/munge.key" bs=1024 count=1 status=none
  chown -R munge:munge "$m"
  chmod 755 "$m"  # munged refuses a socket folder others cannot enter
  chmod 600 "$m/munge.key"
  runuser -u munge -- /usr/sbin/munged --socket="$m/munge.sock" --key-file="$m/munge.key" \
    --log-file="$m/munged.log" --pid-file="$m/munged.pid" --seed-file="$m/munged.seed" \
    || die "munged did not start; see $m/munged.log"
}

wait_for() {  # TRIES DESCRIPTION COMMAND...: polls every 0.05 s
  local tries=$1 what=$2; shift 2
  for _ in $(seq 1 "$tries"); do
    if "$@" >/dev/null 2>&1; then return 0; fi
    sleep 0.05
  done
  die "timed out waiting for $what"
}

controller_up() { scontrol ping | grep -q UP; }
all_idle() { [ "$(sinfo -h -N -t idle -o %N | sort -u | wc -l)" -eq "$1" ]; }

start() {  # DIR NODES
  local d=$1 n=$2 base host
  [[ "$n" =~ ^[0-9]+$ ]] && [ "$n" -ge 1 ] && [ "$n" -le 64 ] || die "NODES must be 1..64, got '$n'"
  check_tools
  [ ! -e "$d/run/slurmctld.pid" ] || die "$d holds a running cluster; run 'cluster.sh stop $d' first"
  base=$(port_base "$d" "$n")
  host=$(hostname)
  rm -rf "$d/state" "$d/spool" "$d/run" "$d/etc" "$d/log" "$d/munge" "$d/fakedev" "$d/env"
  mkdir -p "$d/etc" "$d/state" "$d/spool" "$d/run" "$d/log"
  # munged runs as 'munge' and must reach its socket folder: the lab and every folder above it must
  # let others pass (mktemp -d gives 0700, e.g. a clone under a temporary folder).
  local up=$d
  while [ "$up" != / ] && [ -n "$up" ]; do
    chmod a+x "$up"
    up=$(dirname "$up")
  done
  write_slurm_conf "$d" "$n" "$base" "$host"
  write_gres_and_topology "$d" "$n"
  start_munge "$d"
  export SLURM_CONF=$d/etc/slurm.conf
  slurmctld || die "slurmctld did not start; see $d/log/slurmctld.log"
  wait_for 100 "slurmctld (see $d/log/slurmctld.log)" controller_up
  for i in $(seq 1 "$n"); do slurmd -N "n$i" || die "slurmd n$i did not start; see $d/log/slurmd-n$i.log"; done
  wait_for 200 "$n idle nodes (see $d/log/)" all_idle "$n"
  echo "export SLURM_CONF=$SLURM_CONF" | tee "$d/env"
}

# A daemon is only signalled while its pid still names a Slurm/munge process (pids are reused).
is_ours() { [ -r "/proc/$1/comm" ] && grep -qE '^(slurmctld|slurmd|munged)$' "/proc/$1/comm"; }

alive() { [ -r "/proc/$1/stat" ] && ! awk '{exit $3=="Z" ? 0 : 1}' "/proc/$1/stat"; }

stop_pid() {  # PID: TERM after 2 s, KILL after 12 s
  local pid=$1 t
  for t in $(seq 1 240); do
    alive "$pid" && is_ours "$pid" || return 0
    [ "$t" -eq 40 ] && kill -TERM "$pid" 2>/dev/null
    [ "$t" -eq 200 ] && kill -KILL "$pid" 2>/dev/null
    sleep 0.05
  done
}

# slurmstepd outlives slurmd and ignores SIGTERM: kill any whose cwd is under DIR, with its session.
kill_stray_steps() {  # DIR
  local pid sid
  for pid in $(pgrep -x slurmstepd || true); do
    [[ "$(readlink "/proc/$pid/cwd" 2>/dev/null)" == "$1"* ]] || continue
    sid=$(ps -o sid= -p "$pid" | tr -d ' ')
    pkill -KILL -s "$sid" 2>/dev/null || true
    kill -KILL "$pid" 2>/dev/null || true
  done
}

stop() {  # DIR
  local d=$1 pids=() f
  [ -d "$d/etc" ] || skip "$d holds no cluster (no etc/ folder): nothing to stop"
  export SLURM_CONF=$d/etc/slurm.conf
  for f in "$d"/run/*.pid; do [ -r "$f" ] && pids+=("$(cat "$f")"); done
  if controller_up 2>/dev/null; then
    squeue -h -o %i | xargs -r scancel 2>/dev/null || true
    for _ in $(seq 1 100); do [ -z "$(squeue -h -o %i -t all 2>/dev/null | head -1)" ] && break
      [ -z "$(squeue -h -o %i -t PD,R,CG,S 2>/dev/null)" ] && break; sleep 0.05; done
    scontrol shutdown >/dev/null 2>&1 || true
  fi
  for f in "${pids[@]}"; do stop_pid "$f"; done
  kill_stray_steps "$d"
  if [ -r "$d/munge/munged.pid" ]; then
    local mp; mp=$(cat "$d/munge/munged.pid")
    if is_ours "$mp"; then kill -TERM "$mp" 2>/dev/null || true; stop_pid "$mp"; fi
  fi
  rm -f "$d"/run/*.pid
  for f in "${pids[@]}"; do
    if alive "$f" && is_ours "$f"; then die "daemon $f is still running after stop"; fi
  done
}

[ $# -ge 2 ] || usage
dir=$(realpath -m "$2")
case "$1" in
  start) mkdir -p "$dir"; start "$dir" "${3:-4}" ;;
  stop) stop "$dir" ;;
  *) usage ;;
esac
