#!/usr/bin/env bash
# Containment (issue 17): a job cannot set the variables that carry its allocation or identity;
# nothing a job starts outlives it — a `setsid` child dies on cancel and when the job ends; with
# --cgroup-root (where this machine has a writable cgroup v2) every job process is in the job's
# cgroup and cancel empties and removes it.
source "$(dirname "$0")/lib.sh"
start_daemon
ADMIN=$(token admin '*' root)

# Reserved variables: refused at submit, naming the variable.
for var in CUDA_VISIBLE_DEVICES NVIDIA_VISIBLE_DEVICES ROCR_VISIBLE_DEVICES HIP_VISIBLE_DEVICES BOREAS_JOB_ID; do
  r=$(api "$ADMIN" POST /v1/jobs "{\"command\":[\"true\"],\"gpus\":1,\"env\":{\"$var\":\"0,1,2,3\"}}")
  [ "$(code_of "$r")" = 400 ] && grep -q "env.$var" <<<"$r" || fail "env $var was not refused by name: $r"
done

gone() {  # gone PATTERN: waits until no process matches
  for _ in $(seq 100); do pgrep -f "$1" >/dev/null || return 0; sleep 0.05; done
  return 1
}
started() {  # started PATTERN
  for _ in $(seq 200); do pgrep -f "$1" >/dev/null && return 0; sleep 0.05; done
  fail "no process matches $1"
}

# A child that left the job's session with setsid dies with the job on cancel...
id=$(submit "$ADMIN" "{\"command\":[\"sh\",\"-c\",\"setsid sleep 91$$ & exec sleep 300\"]}")
wait_state "$ADMIN" "$id" running
started "sleep 91$$"
api "$ADMIN" POST "/v1/jobs/$id/cancel" >/dev/null
wait_state "$ADMIN" "$id" cancelled
gone "sleep 91$$" || fail "the setsid child of job $id survived cancel"
# ...and when the job's command ends on its own.
id=$(submit "$ADMIN" "{\"command\":[\"sh\",\"-c\",\"setsid sleep 92$$ & sleep 0.3\"]}")
wait_state "$ADMIN" "$id" completed
gone "sleep 92$$" || fail "the setsid child of job $id outlived it"
stop_daemon

# A --cgroup-root that is not cgroup v2 is refused before the daemon starts.
if "$BOREAS" serve --cluster "$SRC/tests/server/local.yaml" --data-dir "$DATA" --listen 127.0.0.1:0 \
  --cgroup-root "$WORK" 2>"$WORK/cg.err"; then
  fail "serve accepted --cgroup-root $WORK"
fi
grep -q 'not on a cgroup v2' "$WORK/cg.err" || fail "unclear --cgroup-root error: $(cat "$WORK/cg.err")"

V2=$(awk '$3 == "cgroup2" { print $2; exit }' /proc/mounts)
CG=${V2:+$V2/boreas-test-$$}
if [ -z "$V2" ] || ! mkdir "$CG" 2>/dev/null; then
  echo "live containment: ok — reserved variables refused, setsid children killed (no writable cgroup v2: cgroup part not run)"
  exit 0
fi
trap 'rc=$?; stop_daemon KILL; kill_jobs; for d in "$CG"/*/; do [ -d "$d" ] && rmdir "$d"; done; rmdir "$CG" || true
      rm -rf "$WORK"; exit $rc' EXIT
start_daemon --cgroup-root "$CG"
id=$(submit "$ADMIN" "{\"command\":[\"sh\",\"-c\",\"setsid sleep 93$$ & exec sleep 300\"]}")
wait_state "$ADMIN" "$id" running
started "sleep 93$$"
escaped=$(pgrep -f "sleep 93$$")
grep -qx "$escaped" "$CG/boreas-job-$id/cgroup.procs" || fail "the setsid child is not in the job's cgroup"
[ "$(wc -l <"$CG/boreas-job-$id/cgroup.procs")" = 3 ] || fail "job cgroup holds $(cat "$CG/boreas-job-$id/cgroup.procs")"
api "$ADMIN" POST "/v1/jobs/$id/cancel" >/dev/null
wait_state "$ADMIN" "$id" cancelled
gone "sleep 93$$" || fail "the setsid child survived cancel in a cgroup"
for _ in $(seq 100); do [ -d "$CG/boreas-job-$id" ] || break; sleep 0.05; done
[ ! -d "$CG/boreas-job-$id" ] || fail "the job's cgroup was not removed: $(cat "$CG/boreas-job-$id/cgroup.procs")"
stop_daemon
echo "live containment: ok — reserved variables refused, setsid children killed, per-job cgroup under $CG emptied and removed"
