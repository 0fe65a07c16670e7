#!/usr/bin/env bash
# `boreas serve --executor slurm` on the fixture cluster (4 nodes x 8 fake h100), part 3: jobs
# resume from their checkpoint.
#   1. `boreas checkpoint ID`: the job gets SIGUSR1 through Slurm, saves its step and stops, goes
#      back to the queue, runs again as a new Slurm job and resumes from the saved step;
#   2. node failure: Slurm has the node of a running 8-GPU job down; Boreas drains the node within
#      the watcher's poll, the job comes back and runs again on another node from its last
#      checkpoint; resumed in Slurm, the node is back in Boreas.
source "$SRC/tests/slurm/lib.sh"
trap 'rc=$?; [ $rc = 0 ] || tail -20 "$WORK/serve.err" >&2 || true; stop_daemon KILL; kill_jobs; [ -z "${down:-}" ] || scontrol update NodeName="$down" State=RESUME 2>/dev/null || true; rm -rf "$WORK"' EXIT

py() { python3 -c "import json,sys; j=json.load(sys.stdin); $1"; }
job_json() { api "$ADMIN" GET "/v1/jobs/$1" | cut -d' ' -f2-; }
cli() { BOREAS_SERVER=$URL BOREAS_TOKEN=$ADMIN "$BOREAS" "$@"; }

# job.sh DIR: 50 steps of 0.1 s, the step saved after each (its checkpoint); SIGUSR1: save, stop.
# 50 steps and a 20 s wait for a step: a checkpoint must land before the job ends on a loaded machine.
cat >"$WORK/job.sh" <<'JOB'
d=$1
step=$(cat "$d/ckpt" 2>/dev/null || echo 0)
echo "start $step $SLURM_JOB_NODELIST" >>"$d/log"
trap 'echo $step >"$d/ckpt"; echo "usr1 $step" >>"$d/log"; exit 0' USR1
while [ "$step" -lt 50 ]; do sleep 0.1 & wait $!; step=$((step + 1)); echo $step >"$d/ckpt"; done
echo "done $step" >>"$d/log"
JOB
at_step() {  # at_step DIR N: wait until the job saved step N or later
  for _ in $(seq 400); do [ "$(cat "$1/ckpt" 2>/dev/null || echo 0)" -ge "$2" ] && return 0; sleep 0.05; done
  fail "the job in $1 never reached step $2 (log: $(cat "$1/log" 2>/dev/null))"
}
starts() { grep '^start ' "$1/log" | cut -d' ' -f2- | tr '\n' ';'; }

"$BOREAS" cluster import --slurm --out "$WORK/lab.yaml" >/dev/null
CLUSTER=$WORK/lab.yaml
start_daemon --executor slurm
ADMIN=$(token admin '*' root)

# 1. boreas checkpoint.
mkdir "$WORK/a"
a=$(submit "$ADMIN" "{\"command\":[\"bash\",\"$WORK/job.sh\",\"$WORK/a\"],\"gpus\":1}")
at_step "$WORK/a" 5
cli checkpoint "$a" >/dev/null
wait_state "$ADMIN" "$a" completed
grep -q '^usr1 ' "$WORK/a/log" || fail "SIGUSR1 never reached job $a: $(cat "$WORK/a/log")"
saved=$(sed -n 's/^usr1 //p' "$WORK/a/log")
read -r first second <<<"$(starts "$WORK/a" | tr ';' '\n' | cut -d' ' -f1 | tr '\n' ' ')"
[ "$first" = 0 ] && [ "$second" = "$saved" ] && [ "$saved" -ge 5 ] ||
  fail "job $a started at steps '$(starts "$WORK/a")', want 0 then the saved $saved (>= 5)"
[ "$(tail -1 "$WORK/a/log")" = "done 50" ] || fail "job $a ended with '$(tail -1 "$WORK/a/log")'"
[ "$(job_json "$a" | py 'print(j["attempts"])')" = 2 ] || fail "job $a: $(job_json "$a")"

# 2. Node failure: an 8-GPU job takes a whole node; Slurm has that node down.
mkdir "$WORK/b"
b=$(submit "$ADMIN" "{\"command\":[\"bash\",\"$WORK/job.sh\",\"$WORK/b\"],\"gpus\":8}")
at_step "$WORK/b" 5
down=$(starts "$WORK/b" | cut -d' ' -f2 | tr -d ';')
spec_node=$(job_json "$b" | py 'print(j["node"])')
# Drained first: with ReturnToService=2 a node only DOWN comes back as soon as its slurmd registers.
scontrol update NodeName="$down" State=DRAIN Reason="serve_resume test"
scontrol update NodeName="$down" State=DOWN Reason="serve_resume test"
wait_drained "$spec_node" true
wait_state "$ADMIN" "$b" completed
read -r s1 s2 <<<"$(starts "$WORK/b" | tr ';' '\n' | cut -d' ' -f1 | tr '\n' ' ')"
read -r n1 n2 <<<"$(starts "$WORK/b" | tr ';' '\n' | cut -d' ' -f2 | tr '\n' ' ')"
[ "$s1" = 0 ] && [ "$s2" -ge 5 ] && [ "$n1" = "$down" ] && [ -n "$n2" ] && [ "$n2" != "$down" ] ||
  fail "job $b started at '$(starts "$WORK/b")', want step 0 on $down, then its checkpoint (>= 5) elsewhere"
[ "$(tail -1 "$WORK/b/log")" = "done 50" ] || fail "job $b ended with '$(tail -1 "$WORK/b/log")'"
[ "$(job_json "$b" | py 'print(j["node"] != "'"$spec_node"'")')" = True ] || fail "job $b still shows $spec_node"
scontrol update NodeName="$down" State=RESUME
wait_drained "$spec_node" false
echo "slurm serve_resume: ok — boreas checkpoint: USR1 at step $saved, resumed from it;" \
  "node $down down: drained, job $b resumed from step $s2 on $n2"
down=
stop_daemon
