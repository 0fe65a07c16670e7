#!/usr/bin/env bash
# The daemon's policy enforces the queue spec given with --queues: a job beyond its queue's
# ceiling stays pending while GPUs are free, `why` gives the policy's reason, and the job starts
# once its queue's usage allows it.
# --placement takes the names `boreas sim` takes.
source "$(dirname "$0")/lib.sh"

if "$BOREAS" serve --cluster "$SRC/tests/server/local.yaml" --data-dir "$DATA" --placement nope \
  >/dev/null 2>"$WORK/bad.err"; then
  fail "serve accepted --placement nope"
fi
grep -q -- "--placement: unknown placement 'nope'" "$WORK/bad.err" || fail "bad placement said: $(cat "$WORK/bad.err")"

start_daemon --policy boreas --placement pack --queues "$SRC/tests/server/queues.yaml"
ADMIN=$(token admin '*' root)

first=$(submit "$ADMIN" '{"command":["sleep","30"],"gpus":2,"queue":"capped"}')
wait_state "$ADMIN" "$first" running
second=$(submit "$ADMIN" '{"command":["true"],"gpus":2,"queue":"capped"}')
other=$(submit "$ADMIN" '{"command":["sleep","30"],"gpus":2,"queue":"open"}')
wait_state "$ADMIN" "$other" running
sleep 0.3
r=$(api "$ADMIN" GET "/v1/jobs/$second")
[ "$(json_field state "$r")" = pending ] || fail "capped queue went over its ceiling: $r"
# why: the policy's own explanation (kind and text), through the API and the CLI
r=$(api "$ADMIN" GET "/v1/jobs/$second/why")
grep -q '"kind":"quota-exceeded"' <<<"$r" || fail "why has no quota kind: $r"
grep -q '"reason":"quota-exceeded: queue capped' <<<"$r" || fail "why has no quota reason: $r"
out=$(BOREAS_SERVER=$URL BOREAS_TOKEN=$ADMIN "$BOREAS" why "$second")
grep -q '^pending: quota-exceeded: queue capped' <<<"$out" || fail "boreas why said: $out"
grep -q "{\"busy\":true,\"index\":0,\"job\":$first}" <<<"$(api "$ADMIN" GET /v1/nodes)" || fail "no per-GPU job in /v1/nodes"
free=$(api "$ADMIN" GET /v1/nodes | grep -o '"free_gpus":[0-9]*' | awk -F: '{s += $2} END {print s}')
[ "$free" = 4 ] || fail "expected 4 free GPUs beside the capped job, found $free"

api "$ADMIN" POST "/v1/jobs/$first/cancel" >/dev/null
wait_state "$ADMIN" "$second" completed
api "$ADMIN" POST "/v1/jobs/$other/cancel" >/dev/null
wait_state "$ADMIN" "$other" cancelled
stop_daemon
echo "live queues: ok"
