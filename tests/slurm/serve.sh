#!/usr/bin/env bash
# `boreas serve --executor slurm` on the fixture cluster (4 nodes x 8 fake h100):
#   1. a spec that disagrees with Slurm is refused, saying where;
#   2. submit-run-complete: a job runs as a Slurm job on the node Boreas chose, its exit code
#      comes back (0 -> completed, 3 -> failed);
#   3. node state: a node Slurm drains is drained in Boreas within the watcher's second, and back after;
#   4. restart reconciliation: kill -9 the daemon while Slurm runs its jobs, start it again:
#      every acknowledged job runs exactly once (0 lost, 0 run twice).
source "$SRC/tests/slurm/lib.sh"

"$BOREAS" cluster import --slurm --out "$WORK/lab.yaml" >/dev/null

# 1. The local test spec (2 nodes) is not this Slurm cluster.
rc=0
"$BOREAS" serve --cluster "$SRC/tests/server/local.yaml" --data-dir "$DATA" \
  --listen 127.0.0.1:0 --executor slurm >"$WORK/refused.out" 2>&1 || rc=$?
[ $rc -eq 1 ] || fail "a spec unlike Slurm's: exit $rc, want 1"
grep -q "disagrees with Slurm: the cluster spec has 2 nodes, Slurm has 4" "$WORK/refused.out" ||
  fail "refusal does not say where: $(cat "$WORK/refused.out")"

# 2. Submit, run, complete.
CLUSTER=$WORK/lab.yaml
start_daemon --executor slurm
ADMIN=$(token admin '*' root)
ok=$(submit "$ADMIN" "{\"command\":[\"sh\",\"-c\",\"echo ok-\$CUDA_VISIBLE_DEVICES > $WORK/ok\"],\"gpus\":2}")
bad=$(submit "$ADMIN" '{"command":["sh","-c","exit 3"],"gpus":1}')
wait_state "$ADMIN" "$ok" completed
wait_state "$ADMIN" "$bad" failed
grep -q "^ok-[0-7],[0-7]$" "$WORK/ok" || fail "job output '$(cat "$WORK/ok" 2>/dev/null)', want two GPU indexes"
[ "$(json_field exit_code "$(api "$ADMIN" GET "/v1/jobs/$bad")")" = 3 ] || fail "exit code of 'exit 3' lost"
squeue -h -t all -o '%k %T' | grep -q "^boreas:$ok COMPLETED$" || fail "no COMPLETED Slurm job for Boreas job $ok"

# The job runs as its token's Unix account: Slurm is told the uid (--uid, root only), and the job's
# directory (its stdout.log) belongs to that account.
UA=bslurm$$
useradd -M -s /bin/sh "$UA"
chmod 0711 "$WORK"  # mktemp made it 0700; the account must reach $DATA/jobs/N (not list it)
trap 'rc=$?; [ $rc = 0 ] || tail -20 "$WORK/serve.err" >&2 || true; stop_daemon KILL; kill_jobs; userdel "$UA" 2>/dev/null || true; rm -rf "$WORK"' EXIT
USER_TOKEN=$("$BOREAS" token create --data-dir "$DATA" --role user --queues '*' --name "$UA" --unix-user "$UA" 2>/dev/null)
as=$(submit "$USER_TOKEN" '{"command":["sh","-c","id -u; pwd"],"gpus":1}')
wait_state "$USER_TOKEN" "$as" completed
out="$DATA/jobs/$as/stdout.log"
[ "$(head -1 "$out")" = "$(id -u "$UA")" ] || fail "the job ran as uid '$(head -1 "$out")', not $UA's $(id -u "$UA")"
[ "$(stat -c %U "$DATA/jobs/$as")" = "$UA" ] || fail "the job's directory belongs to $(stat -c %U "$DATA/jobs/$as"), not $UA"

# Node state: Slurm drains n4 (the second node under leaf2 = leaf2-r00-n01 in the imported spec);
# Boreas shows it drained within the watcher's second, and resumed once Slurm has it back.
scontrol update NodeName=n4 State=DRAIN Reason="serve test"
wait_drained leaf2-r00-n01 true
[ "$(node_drained leaf2-r00-n00)" = false ] || fail "n3 (leaf2-r00-n00) drained too"
scontrol update NodeName=n4 State=RESUME
wait_drained leaf2-r00-n01 false
# And back: `boreas drain` of leaf1-r00-n00 (n1) drains n1 in Slurm, resume lifts it.
wait_reason() {  # wait_reason NODE TEXT
  for _ in $(seq 60); do [ "$(slurm_reason "$1")" = "$2" ] && return 0; sleep 0.05; done
  fail "Slurm's reason for $1 is '$(slurm_reason "$1")', want '$2'"
}
[ "$(code_of "$(api "$ADMIN" POST /v1/nodes/leaf1-r00-n00/drain)")" = 200 ] || fail "drain refused"
wait_reason n1 "boreas: drained in Boreas"
[ "$(code_of "$(api "$ADMIN" POST /v1/nodes/leaf1-r00-n00/resume)")" = 200 ] || fail "resume refused"
wait_reason n1 none
for _ in $(seq 60); do sinfo -h -n n1 -o %T | grep -qx idle && break; sleep 0.05; done

# 4. kill -9 while Slurm runs the jobs: 8 jobs of 8 GPUs on 4 nodes, 1.5 s each.
: >"$WORK/ran"
acked=()
for i in $(seq 8); do
  acked+=("$(submit "$ADMIN" "{\"command\":[\"sh\",\"-c\",\"echo $i >> $WORK/ran; sleep 1.5\"],\"gpus\":8}")")
done
for _ in $(seq 100); do [ "$(wc -l <"$WORK/ran")" -ge 2 ] && break; sleep 0.05; done
stop_daemon KILL
running_in_slurm=$(squeue -h -t R -o '%k' | grep -c '^boreas:' || true)
[ "$running_in_slurm" -ge 1 ] || fail "no Slurm job was running when the daemon was killed"
start_daemon --executor slurm
for id in "${acked[@]}"; do wait_state "$ADMIN" "$id" completed; done
dups=$(sort -n "$WORK/ran" | uniq -d)
[ -z "$dups" ] || fail "jobs ran twice: $dups"
[ "$(sort -u "$WORK/ran" | wc -l)" -eq 8 ] || fail "ran $(sort -u "$WORK/ran" | tr '\n' ' '), want 1..8"
echo "slurm serve: ok — refused a foreign spec, completed/failed with exit codes, Slurm drain/resume seen, kill -9 with" \
  "$running_in_slurm Slurm jobs running: 8 acknowledged, 8 ran, each once"
stop_daemon
