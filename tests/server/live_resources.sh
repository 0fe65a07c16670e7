#!/usr/bin/env bash
# CPU and memory (issue 17, "Containment"): the daemon counts each job's CPUs and memory on its
# node beside its GPUs. On tests/server/local.yaml (2 nodes × 16 CPUs, 64 GiB) 40 `gpus: 0` jobs
# (one CPU each by default) start 32 at once, not 40 — the issue saw 60 of them all running —
# and the other 8 wait saying why; requests larger than any node are refused at submit. Where the
# machine has a writable cgroup v2 with the cpu and memory controllers, a job's cgroup gets cpu.max
# and memory.max from its request.
source "$(dirname "$0")/lib.sh"
start_daemon
ADMIN=$(token admin '*' root)

count() {  # count STATE: jobs in STATE
  api "$ADMIN" GET "/v1/jobs?state=$1" | grep -o '"state":"'"$1"'"' | wc -l
}

r=$(api "$ADMIN" POST /v1/jobs '{"command":["true"],"cpus":17}')
[ "$(code_of "$r")" = 400 ] && grep -q '\$.cpus: 17 CPUs can never fit: the largest node has 16' <<<"$r" ||
  fail "cpus 17 on 16-CPU nodes was not refused: $r"
r=$(api "$ADMIN" POST /v1/jobs '{"command":["true"],"memory":"65G"}')
[ "$(code_of "$r")" = 400 ] && grep -q '\$.memory: 66560 MiB can never fit' <<<"$r" || fail "memory 65G was not refused: $r"
r=$(api "$ADMIN" POST /v1/jobs '{"command":["true"],"memory":"4X"}')
[ "$(code_of "$r")" = 400 ] && grep -q 'unknown unit `X`' <<<"$r" || fail "memory 4X was not refused: $r"

for i in $(seq 40); do
  submit "$ADMIN" "{\"command\":[\"sleep\",\"6$$\"]}" >/dev/null
done
for _ in $(seq 200); do [ "$(count running)" -ge 32 ] && break; sleep 0.05; done
sleep 0.3  # a further round must not start more
[ "$(count running)" = 32 ] || fail "$(count running) one-CPU jobs run on 32 CPUs"
[ "$(count pending)" = 8 ] || fail "$(count pending) jobs pending, expected 8"
pending=$(api "$ADMIN" GET "/v1/jobs?state=pending")
grep -q 'waiting for CPUs or memory: no undrained node has room' <<<"$pending" || fail "no reason given: $pending"

# A GPU job needs its share of the node (1 of 4 GPUs: 4 CPUs): it waits too.
gpu=$(submit "$ADMIN" '{"command":["true"],"gpus":1}')
sleep 0.3
r=$(api "$ADMIN" GET "/v1/jobs/$gpu")
[ "$(json_field state "$r")" = pending ] && grep -q 'needs 4 CPUs and 16384 MiB' <<<"$r" ||
  fail "a 1-GPU job started on full CPUs: $r"

# The request as given is kept (and shown); cancelling a running job lets one waiting job start.
small=$(submit "$ADMIN" '{"command":["true"],"cpus":0.5,"memory":"1G"}')
r=$(api "$ADMIN" GET "/v1/jobs/$small")
grep -q '"cpus":0.5' <<<"$r" && grep -q '"memory":1024' <<<"$r" || fail "cpus/memory not in the request: $r"
first=$(api "$ADMIN" GET "/v1/jobs?state=running" | grep -o '"id":[0-9]*' | head -1 | cut -d: -f2)
api "$ADMIN" POST "/v1/jobs/$first/cancel" >/dev/null
wait_state "$ADMIN" "$first" cancelled
sleep 0.3
[ "$(count running)" = 32 ] || fail "$(count running) running after one cancel, expected 32 again"
stop_daemon KILL
kill_jobs

V2=$(awk '$3 == "cgroup2" { print $2; exit }' /proc/mounts)
CG=${V2:+$V2/boreas-test-res-$$}
if [ -z "$V2" ] || ! grep -qw cpu "$V2/cgroup.controllers" || ! grep -qw memory "$V2/cgroup.controllers" ||
  ! mkdir "$CG" 2>/dev/null; then
  echo "live resources: ok — 32 of 40 one-CPU jobs run on 32 CPUs, the rest wait saying why; oversized requests refused (no cgroup v2 with cpu and memory controllers: cpu.max/memory.max not checked)"
  exit 0
fi
trap 'rc=$?; stop_daemon KILL; kill_jobs; for d in "$CG"/*/; do [ -d "$d" ] && rmdir "$d"; done; rmdir "$CG" || true
      rm -rf "$WORK"; exit $rc' EXIT
rm -rf "$DATA"
start_daemon --cgroup-root "$CG"
ADMIN=$(token admin '*' root)
id=$(submit "$ADMIN" '{"command":["sleep","300"],"cpus":0.5,"memory":"256M"}')
wait_state "$ADMIN" "$id" running
[ "$(cat "$CG/boreas-job-$id/cpu.max")" = "50000 100000" ] || fail "cpu.max: $(cat "$CG/boreas-job-$id/cpu.max")"
[ "$(cat "$CG/boreas-job-$id/memory.max")" = 268435456 ] || fail "memory.max: $(cat "$CG/boreas-job-$id/memory.max")"
api "$ADMIN" POST "/v1/jobs/$id/cancel" >/dev/null
wait_state "$ADMIN" "$id" cancelled
stop_daemon
echo "live resources: ok — CPU/memory admission, oversized requests refused, cpu.max and memory.max set under $CG"
