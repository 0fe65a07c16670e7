#!/usr/bin/env bash
# Services in the live daemon (docs/serving.md, "Services in the live daemon"): on a full 4-GPU
# node under the boreas policy, a service of real HTTP replicas (tests/server/replica.py, 1 s
# per request) scales from 1 to 2 replicas when 4 requests are in flight (target 2 per replica),
# its second replica (queue inference, class production) reclaims the GPU that a borrowing
# training job holds (the job is preempted), and when the load stops it scales back to 1 and the
# training job runs again. Cold starts are measured and exported; the service survives a restart
# with its replica adopted; bad input is refused with a message.
source "$(dirname "$0")/lib.sh"
command -v python3 >/dev/null || { echo "SKIP: python3 missing"; exit 77; }

cat >"$WORK/cluster.yaml" <<'YAML'
name: services
groups:
  - {name: node, count: 1, nodes_per_rack: 1, gpus_per_node: 4, gpu: H100-SXM, cpus: 16, memory_gib: 64}
YAML
cat >"$WORK/queues.yaml" <<'YAML'
priority_classes:
  - {name: production, value: 1000, preemptible: false}
  - {name: standard, value: 100}
queues:
  - {name: inference, quotas: [{gpu: "*", guaranteed: 2}]}
  - {name: training, quotas: [{gpu: "*", guaranteed: 2}]}
YAML
CLUSTER=$WORK/cluster.yaml start_daemon --policy boreas --queues "$WORK/queues.yaml"
ADMIN=$(token admin '*' alice)
export BOREAS_SERVER=$URL BOREAS_TOKEN=$ADMIN

# py EXPR: evaluates EXPR on the JSON read from stdin (as `j`).
py() { python3 -c "import json,sys; j=json.load(sys.stdin); print($1)"; }
show() { "$BOREAS" service show chat --json; }
wait_for() {  # wait_for WHAT CONDITION (a python expression on the service's JSON); 30 s at most
  for _ in $(seq 600); do
    [ "$(show | py "$2")" = True ] && return 0
    sleep 0.05
  done
  fail "$1 never happened: $(show)"
}
refused() {  # refused EXPECTED ARGS...: the create fails (exit 1) and says EXPECTED
  if "$BOREAS" service create bad "${@:2}" -- true 2>"$WORK/err"; then fail "accepted: ${*:2}"; fi
  grep -qF -- "$1" "$WORK/err" || fail "service create ${*:2} said: $(cat "$WORK/err")"
}

refused "3 is above max_replicas 2" --replicas 3..2 --gpus 1 -A inference
refused "unknown queue \`nope\`" --replicas 1..2 --gpus 1 -A nope
refused "a service's replicas need at least one GPU" --replicas 1..2 --gpus 0 -A inference
refused "--replicas 1..x: expected MIN..MAX" --replicas 1..x --gpus 1 -A inference
r=$(api "$ADMIN" POST /v1/services '{"name":"x","replica":{"command":["true"],"gpus":1,"env":{"BOREAS_REPLICA":"1"}}}')
[ "$(code_of "$r")" = 400 ] && grep -q 'BOREAS_REPLICA' <<<"$r" || fail "a reserved env name was accepted: $r"
[ "$("$BOREAS" service list --json | py 'len(j["services"])')" = 0 ] || fail "a refused service was kept"

# Training fills the node: 2 GPUs inside its guarantee, 1 borrowed; 1 is free.
for i in 1 2 3; do
  submit "$ADMIN" '{"command":["sleep","60"],"gpus":1,"queue":"training","priority_class":"standard"}' >/dev/null
done
for i in 1 2 3; do wait_state "$ADMIN" "$i" running; done

"$BOREAS" service create chat --replicas 1..3 --gpus 1 -A inference -q production --target-inflight 2 --interval 0.2 \
  --scale-down-delay 1 -- env LATENCY=1 COLD_START=0.5 python3 "$SRC/tests/server/replica.py" >/dev/null
wait_for "replica 0 ready" 'len(j["replicas"]) == 1 and j["replicas"][0]["state"] == "ready"'
port=$(show | py 'j["replicas"][0]["port"]')
first_job=$(show | py 'j["replicas"][0]["job"]')
[ "$(curl -s "http://127.0.0.1:$port/")" = "service=chat replica=0" ] || fail "the replica's env did not name it"
r=$(api "$ADMIN" GET "/v1/jobs/$first_job")
grep -q '"priority_class":"production"' <<<"$r" && grep -q '"queue":"inference"' <<<"$r" && grep -q '"name":"chat-0"' <<<"$r" ||
  fail "the replica job is not chat-0 in inference with class production: $r"
cold=$(show | py 'j["replicas"][0]["cold_start_s"]')
python3 -c "import sys; c=float(sys.argv[1]); sys.exit(0 if 0.5 <= c < 5 else 1)" "$cold" ||
  fail "cold start $cold s: the replica sleeps 0.5 s before it listens"

# 4 clients in a loop: 4 requests in flight, target 2 per replica -> 2 replicas. Each loop also ends
# when $WORK is gone (the EXIT trap removes it), so a failed check cannot leave them running.
for _ in 1 2 3 4; do
  (while [ -d "$WORK" ] && [ ! -f "$WORK/stop" ]; do curl -s -m 15 "http://127.0.0.1:$port/" >/dev/null || true; done) &
done
# One poll sees both replicas ready and wants exactly 2. (Checked in one read: under load a later
# poll whose /metrics request timed out counts that replica's load as 0 and may want 1 for a moment.)
wait_for "scale-up to 2 ready replicas, 2 desired" \
  '[r["state"] for r in j["replicas"]] == ["ready", "ready"] and j["desired_replicas"] == 2'
preempted=$(api "$ADMIN" GET "/v1/jobs?queue=training" | sed 's/^[0-9]* //' | py 'sum(1 for x in j["jobs"] if x["state"] != "running")')
[ "$preempted" = 1 ] || fail "the second replica should have preempted the borrowing training job: $(api "$ADMIN" GET '/v1/jobs?queue=training')"
second_job=$(show | py 'j["replicas"][1]["job"]')

touch "$WORK/stop"
wait_for "scale-down to 1 replica" 'len(j["replicas"]) == 1'
[ "$(show | py 'j["replicas"][0]["job"]')" = "$first_job" ] || fail "scale-down kept the newest replica: $(show)"
wait_state "$ADMIN" "$second_job" cancelled
for _ in $(seq 200); do
  running=$(api "$ADMIN" GET "/v1/jobs?queue=training&state=running" | sed 's/^[0-9]* //' | py 'len(j["jobs"])')
  [ "$running" = 3 ] && break
  sleep 0.05
done
[ "$running" = 3 ] || fail "the preempted training job did not resume after the scale-down"

m=$(curl -s "$URL/metrics")
grep -q '^boreas_service_cold_start_seconds_count{service="chat"} 2$' <<<"$m" || fail "cold starts: $(grep cold_start <<<"$m")"
grep -q '^boreas_service_replicas{service="chat",state="ready"} 1$' <<<"$m" || fail "replicas gauge: $(grep service_replicas <<<"$m")"

# A restart keeps the service and adopts its running replica.
stop_daemon
CLUSTER=$WORK/cluster.yaml start_daemon --policy boreas --queues "$WORK/queues.yaml"
export BOREAS_SERVER=$URL
wait_for "the adopted replica answering" '[(r["job"], r["state"]) for r in j["replicas"]] == [('"$first_job"', "ready")]'
"$BOREAS" service delete chat >/dev/null
wait_state "$ADMIN" "$first_job" cancelled
if "$BOREAS" service show chat 2>"$WORK/err"; then fail "a deleted service is shown"; fi
grep -q "no service chat" "$WORK/err" || fail "show of a deleted service said: $(cat "$WORK/err")"
stop_daemon
echo "live services: ok"
