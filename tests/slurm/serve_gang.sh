#!/usr/bin/env bash
# `boreas serve --executor slurm` on the fixture cluster (4 nodes x 8 fake h100), part 2:
#   1. a 16-GPU gang is placed by the policy on 2 whole nodes, runs as one Slurm job across both,
#      shows both nodes (API and `boreas jobs`), survives kill -9 of the daemon (adopted, run once),
#      completes, and every GPU of both nodes is free again;
#   2. Slurm's own reason: a job Boreas released that Slurm keeps pending (a job outside Boreas
#      holds the GPUs) shows squeue's reason in the API, `boreas why`, `boreas jobs` and /metrics;
#      once it ran, its start and end are Slurm's (not the release), in the API and `boreas jobs`,
#      and a restart keeps them;
#   3. drain memory: a node Boreas drained because Slurm drained it (or had it down) is resumed when
#      Slurm gives it back, also after a restart in between, or while the daemon was stopped (not
#      taken for an operator's drain).
source "$SRC/tests/slurm/lib.sh"
trap 'rc=$?; [ $rc = 0 ] || tail -20 "$WORK/serve.err" >&2 || true; stop_daemon KILL; kill_jobs; scancel -n foreign 2>/dev/null || true; scontrol update NodeName=n[3-4] State=RESUME 2>/dev/null || true; rm -rf "$WORK"' EXIT

py() { python3 -c "import json,sys; j=json.load(sys.stdin); $1"; }
job_json() { api "$ADMIN" GET "/v1/jobs/$1" | cut -d' ' -f2-; }
free_gpus() { api "$ADMIN" GET /v1/nodes | cut -d' ' -f2- | py 'print(sum(n["free_gpus"] for n in j["nodes"]))'; }
cli() { BOREAS_SERVER=$URL BOREAS_TOKEN=$ADMIN "$BOREAS" "$@"; }

"$BOREAS" cluster import --slurm --out "$WORK/lab.yaml" >/dev/null
CLUSTER=$WORK/lab.yaml
start_daemon --executor slurm
ADMIN=$(token admin '*' root)

# 1. A gang of 16 on 8-GPU nodes.
# It runs until the test lets it go (a file; at most 60 s), so a loaded machine cannot end it
# before the restart's checks (a fixed `sleep 4` ended it there once in a CI-like run).
gang=$(submit "$ADMIN" "{\"command\":[\"sh\",\"-c\",\"echo \$SLURM_JOB_NUM_NODES \$SLURM_JOB_NODELIST >> $WORK/gang; for i in \$(seq 600); do [ -e $WORK/gang-go ] && break; sleep 0.1; done\"],\"gpus\":16}")
wait_state "$ADMIN" "$gang" running
nodes=$(job_json "$gang" | py 'print(" ".join(n["node"] + ":" + str(len(n["gpu_indexes"])) for n in j["nodes"]))')
[ "$(wc -w <<<"$nodes")" = 2 ] || fail "the gang runs on '$nodes', want 2 nodes"
for n in $nodes; do [ "${n#*:}" = 8 ] || fail "the gang has $n, want 8 GPUs on each node"; done
[ "$(free_gpus)" = 16 ] || fail "$(free_gpus) GPUs free with the gang running, want 16"
# Boreas counts a released job as running; Slurm may take a moment to start it.
gsid=
for _ in $(seq 100); do
  gsid=$(squeue -h -t running -o '%i %k' | awk -v k="boreas:$gang" '$2 == k {print $1}')
  [ -n "$gsid" ] && break
  sleep 0.1
done
[ -n "$gsid" ] || fail "Slurm never ran the gang (squeue: $(squeue -h -o '%i %k %T %r'))"
[ "$(squeue -h -j "$gsid" -o %D)" = 2 ] || fail "Slurm job $gsid has $(squeue -h -j "$gsid" -o %D) nodes, want 2"
# Boreas sees it running at its next squeue poll (200 ms); until then it shows "(Slurm: REASON)".
for _ in $(seq 40); do [ "$(job_json "$gang" | py 'print("executor_wait" in j)')" = False ] && break; sleep 0.05; done
shown=$(cli jobs -o id,nodelist | awk -v id="$gang" '$1 == id {print $2}')
[ "$shown" = "$(job_json "$gang" | py 'print(j["node"])')" ] && [ "${shown//[^,]/}" = "," ] ||
  fail "boreas jobs shows the gang on '$shown', want both nodes"
for _ in $(seq 100); do [ -s "$WORK/gang" ] && break; sleep 0.05; done
stop_daemon KILL  # mid-run: Slurm keeps running it
start_daemon --executor slurm
[ "$(job_json "$gang" | py 'print(j["state"], j["attempts"], len(j["nodes"]))')" = "running 1 2" ] ||
  fail "after the restart the gang is '$(job_json "$gang" | py 'print(j["state"], j["attempts"], len(j["nodes"]))')', want adopted: running 1 2"
[ "$(free_gpus)" = 16 ] || fail "after the restart $(free_gpus) GPUs are free, want 16 (the gang's 16 held)"
touch "$WORK/gang-go"
wait_state "$ADMIN" "$gang" completed
[ "$(cat "$WORK/gang")" = "2 $(squeue -h -j "$gsid" -t all -o %N)" ] || fail "the gang ran as '$(cat "$WORK/gang")', want once on 2 nodes"
[ "$(free_gpus)" = 32 ] || fail "$(free_gpus) GPUs free after the gang, want 32"

# 2. A job outside Boreas takes every GPU of every node; Boreas (which does not see it) starts a
#    job, and Slurm keeps it pending with its own reason until the outsider is gone.
sbatch -J foreign -N 4 --gres=gpu:h100:8 -o /dev/null --wrap 'sleep 60' >/dev/null
for _ in $(seq 100); do [ "$(squeue -h -n foreign -o %T)" = RUNNING ] && break; sleep 0.05; done
held=$(submit "$ADMIN" '{"command":["sleep","2"],"gpus":1}')
# Just released, Slurm says "None" until its scheduler has looked at the job; then its reason.
for _ in $(seq 100); do
  sid=$(squeue -h -t pending -o '%i %k' | awk -v k="boreas:$held" '$2 == k {print $1}')
  reason=$( [ -z "$sid" ] || squeue -h -j "$sid" -o %r)
  [ -n "$reason" ] && [ "$reason" != None ] && break; sleep 0.05
done
[ "$(squeue -h -j "$sid" -o %T)" = PENDING ] && [ "$reason" != None ] || fail "Slurm job $sid is $(squeue -h -j "$sid" -o '%T %r')"
for _ in $(seq 40); do [ "$(job_json "$held" | py 'print(j.get("executor_wait"))')" = "Slurm: $reason" ] && break; sleep 0.05; done
[ "$(job_json "$held" | py 'print(j["executor_wait"])')" = "Slurm: $reason" ] ||
  fail "the API shows '$(job_json "$held")', want executor_wait Slurm: $reason"
[ "$(cli why "$held")" = "running: started by Boreas; Slurm keeps it pending: $reason" ] ||
  fail "boreas why says '$(cli why "$held")'"
[ "$(cli jobs -o id,nodelist | awk -v id="$held" '$1 == id {print $2, $3}')" = "(Slurm: $reason)" ] ||
  fail "boreas jobs shows '$(cli jobs -o id,nodelist | grep "^ *$held ")'"
# Slurm may move its reason on (Priority -> Resources) between squeue and here: /metrics must show,
# counted once, the reason the API shows for the job at the same moment.
# (The scrape is read whole before grep: `curl | grep -q` under pipefail fails when grep exits
# before curl has written everything, which made this check flaky.)
for _ in $(seq 40); do
  now=$(job_json "$held" | py 'print(j.get("executor_wait", "")[len("Slurm: "):])')
  scrape=$(curl -sf "$URL/metrics")
  grep -qx "boreas_executor_waiting_jobs{executor=\"Slurm\",reason=\"$now\"} 1" <<<"$scrape" && break
  sleep 0.05
done
grep -qx "boreas_executor_waiting_jobs{executor=\"Slurm\",reason=\"$now\"} 1" <<<"$scrape" ||
  fail "/metrics: $(grep executor_waiting <<<"$scrape"), want reason $now (the API's) once"
# Until Slurm runs it, its start is Boreas's launch (the release); keep it pending 2 s past that.
released_us=$(job_json "$held" | py 'print(j["start_us"])')
sleep "$(awk -v r="$released_us" -v now="$(date +%s.%N)" 'BEGIN { w = r / 1e6 + 2 - now; print (w > 0 ? w : 0) }')"
scancel -n foreign
wait_state "$ADMIN" "$held" completed
read -r slurm_start slurm_end < <(squeue --json | py "
s = [x for x in j['jobs'] if x['job_id'] == $sid][0]
n = lambda v: v['number'] if isinstance(v, dict) else v
print(n(s['start_time']), n(s['end_time']))")
held_times() { job_json "$held" | py 'print(j["start_us"], j["end_us"])'; }
[ "$(held_times)" = "${slurm_start}000000 ${slurm_end}000000" ] ||
  fail "job $held has start/end $(held_times) us, want Slurm's ${slurm_start} ${slurm_end} s (released at $released_us us)"
[ $(( slurm_start * 1000000 - released_us )) -ge 1000000 ] ||
  fail "Slurm started job $held at ${slurm_start} s, within a second of its release at $released_us us: not kept pending"
ran=$(( slurm_end - slurm_start ))
[ "$(cli jobs --all -o id,time | awk -v id="$held" '$1 == id {print $2}')" = "$(printf '%d:%02d' $((ran / 60)) $((ran % 60)))" ] ||
  fail "boreas jobs shows TIME '$(cli jobs --all -o id,time | grep "^ *$held ")', want Slurm's $ran s"

# 3. Slurm drains n4 (leaf2-r00-n01): drained in Boreas by the watcher; the daemon restarts; Slurm
#    gives n4 back: Boreas resumes it, and does not carry a drain into Slurm as an operator's.
scontrol update NodeName=n4 State=DRAIN Reason="serve_gang test"
wait_drained leaf2-r00-n01 true
stop_daemon
start_daemon --executor slurm
[ "$(node_drained leaf2-r00-n01)" = true ] || fail "the drain was not kept across the restart"
[ "$(held_times)" = "${slurm_start}000000 ${slurm_end}000000" ] || fail "after a restart job $held has start/end $(held_times)"
scontrol update NodeName=n4 State=RESUME
wait_drained leaf2-r00-n01 false
sleep 1.2  # one more watcher pass: it must not drain n4 in Slurm as an operator's drain
[ "$(slurm_reason n4)" = none ] || fail "Slurm's reason for n4 is '$(slurm_reason n4)' after it came back, want none"
# And when Slurm has n3 down (and drained) and gives it back while the daemon is stopped: resumed at
# the start.
scontrol update NodeName=n3 State=DRAIN Reason="serve_gang test"  # else DOWN ends at slurmd's next
scontrol update NodeName=n3 State=DOWN Reason="serve_gang test"   # registration (ReturnToService=2)
wait_drained leaf2-r00-n00 true
stop_daemon
scontrol update NodeName=n3 State=RESUME
start_daemon --executor slurm
wait_drained leaf2-r00-n00 false
echo "slurm serve_gang: ok — 16 GPUs on $nodes as Slurm job $gsid, adopted after kill -9, all" \
  "32 GPUs free after; Slurm's reason '$reason' shown, then Slurm's start ($(( slurm_start - released_us / 1000000 )) s" \
  "after the release) and end; Slurm's drain and down resumed across restarts"
stop_daemon
