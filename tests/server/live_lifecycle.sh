#!/usr/bin/env bash
# Lifecycle with real processes through the real daemon: GPUs, failure, cancel, time limit,
# checkpoint (SIGUSR1 handler runs, job resumes), and /metrics through promtool and Prometheus.
source "$(dirname "$0")/lib.sh"

start_daemon
ADMIN=$(token admin '*' root)

# submit → running with the right CUDA_VISIBLE_DEVICES → completed
id=$(submit "$ADMIN" "{\"command\":[\"sh\",\"-c\",\"echo \$CUDA_VISIBLE_DEVICES > $WORK/gpus\"],\"gpus\":3}")
wait_state "$ADMIN" "$id" completed
[ "$(cat "$WORK/gpus")" = "0,1,2" ] || fail "CUDA_VISIBLE_DEVICES was '$(cat "$WORK/gpus")'"

# failure exit
id=$(submit "$ADMIN" '{"command":["sh","-c","exit 7"]}')
wait_state "$ADMIN" "$id" failed
r=$(api "$ADMIN" GET "/v1/jobs/$id")
[ "$(json_field exit_code "$r")" = 7 ] || fail "exit code not recorded: $r"

# restart on-failure: fails once, then runs again and succeeds; a bad policy is a 400
id=$(submit "$ADMIN" "{\"command\":[\"sh\",\"-c\",\"[ -f $WORK/failed ] || { touch $WORK/failed; exit 5; }\"],\"restart\":\"on-failure:2\"}")
wait_state "$ADMIN" "$id" completed
r=$(api "$ADMIN" GET "/v1/jobs/$id")
[ "$(json_field restarts "$r")" = 1 ] && [ "$(json_field attempts "$r")" = 2 ] || fail "restart: $r"
grep -q '^400 .*\$.restart' <<<"$(api "$ADMIN" POST /v1/jobs '{"command":["true"],"restart":"always"}')" || fail "restart always"

# cancel a running job
id=$(submit "$ADMIN" '{"command":["sleep","30"],"gpus":1}')
wait_state "$ADMIN" "$id" running
r=$(api "$ADMIN" POST "/v1/jobs/$id/cancel"); [ "$(code_of "$r")" = 200 ] || fail "cancel refused: $r"
wait_state "$ADMIN" "$id" cancelled

# time limit
id=$(submit "$ADMIN" '{"command":["sleep","30"],"time_limit_s":1}')
wait_state "$ADMIN" "$id" failed
r=$(api "$ADMIN" GET "/v1/jobs/$id/why")
grep -q "time limit" <<<"$r" || fail "time-limited job says $r"

# checkpoint: the SIGUSR1 handler runs before the job stops, then it resumes and completes
script="if [ -f $WORK/ckpt ]; then echo resumed > $WORK/resumed; exit 0; fi; trap 'echo saved > $WORK/ckpt; exit 0' USR1; while true; do sleep 0.05; done"
id=$(submit "$ADMIN" "{\"command\":[\"sh\",\"-c\",\"$script\"],\"gpus\":1}")
wait_state "$ADMIN" "$id" running
sleep 0.2
[ "$(code_of "$(api "$ADMIN" POST "/v1/jobs/$id/checkpoint")")" = 200 ] || fail "checkpoint refused"
wait_state "$ADMIN" "$id" completed
[ "$(cat "$WORK/ckpt")" = saved ] || fail "checkpoint handler did not run"
[ "$(cat "$WORK/resumed")" = resumed ] || fail "job did not resume"
r=$(api "$ADMIN" GET "/v1/jobs/$id")
[ "$(json_field attempts "$r")" = 2 ] || fail "expected 2 attempts: $r"

# a pending job explains itself
big=$(submit "$ADMIN" '{"command":["sleep","30"],"gpus":4}')
big2=$(submit "$ADMIN" '{"command":["sleep","30"],"gpus":4}')
wait_state "$ADMIN" "$big" running
wait_state "$ADMIN" "$big2" running
id=$(submit "$ADMIN" '{"command":["true"],"gpus":4}')
sleep 0.2
grep -q "no fit: needs 4 GPUs" <<<"$(api "$ADMIN" GET "/v1/jobs/$id/why")" || fail "no pending reason"
api "$ADMIN" POST "/v1/jobs/$big/cancel" >/dev/null
api "$ADMIN" POST "/v1/jobs/$big2/cancel" >/dev/null
wait_state "$ADMIN" "$id" completed

# malformed requests are 400 with where; oversize bodies are refused
grep -q '^400 .*\$.gpus' <<<"$(api "$ADMIN" POST /v1/jobs '{"command":["true"],"gpus":-1}')" || fail "gpus -1"
grep -q '^400 .*\$.colour' <<<"$(api "$ADMIN" POST /v1/jobs '{"command":["true"],"colour":1}')" || fail "unknown field"
grep -q '^400 .*gpu_type' <<<"$(api "$ADMIN" POST /v1/jobs '{"command":["true"],"gpus":1,"gpu_type":"TPU"}')" || fail "gpu type"
grep -q '^400 .*can never fit' <<<"$(api "$ADMIN" POST /v1/jobs '{"command":["true"],"gpus":64}')" || fail "impossible"
grep -q '^400 .*not valid JSON' <<<"$(api "$ADMIN" POST /v1/jobs '{"command":')" || fail "bad json"
head -c 2000000 /dev/zero | tr '\0' ' ' >"$WORK/big.json"
code=$(curl -s -o /dev/null -w '%{http_code}' -X POST "$URL/v1/jobs" -H "Authorization: Bearer $ADMIN" --data-binary @"$WORK/big.json")
[ "$code" = 413 ] || fail "oversize body answered $code"
[ "$(code_of "$(api "" GET /healthz)")" = 200 ] || fail "daemon died on bad input"

# /metrics passes promtool, and a real Prometheus scrapes it
curl -s "$URL/metrics" >"$WORK/metrics.txt"
grep -q '^boreas_jobs{state="completed",queue="default"}' "$WORK/metrics.txt" || fail "no job gauge"
if command -v promtool >/dev/null; then
  promtool check metrics <"$WORK/metrics.txt" || fail "promtool check metrics"
else
  echo "SKIP promtool: install the Debian package prometheus" >&2
fi
if command -v prometheus >/dev/null; then
  cat >"$WORK/prom.yml" <<YML
global: {scrape_interval: 1s}
scrape_configs: [{job_name: boreas, static_configs: [{targets: ["127.0.0.1:$PORT"]}]}]
YML
  # A random port can be taken by a test running beside this one: Prometheus then exits at once,
  # so start it again on another port (three tries) instead of waiting on a dead process.
  ok=
  for _ in 1 2 3; do
    PROM_PORT=$((20000 + RANDOM % 20000))
    prometheus --config.file="$WORK/prom.yml" --storage.tsdb.path="$WORK/tsdb" \
      --web.listen-address="127.0.0.1:$PROM_PORT" >"$WORK/prom.log" 2>&1 &
    PROM=$!
    for _ in $(seq 100); do
      sleep 0.2
      kill -0 "$PROM" 2>/dev/null || break
      if curl -s "http://127.0.0.1:$PROM_PORT/api/v1/query?query=boreas_jobs" | grep -q '"state":"completed"'; then ok=1; break; fi
    done
    kill "$PROM" 2>/dev/null || true
    wait "$PROM" 2>/dev/null || true
    [ -n "$ok" ] && break
    echo "Prometheus on port $PROM_PORT did not scrape boreas_jobs; its log:" >&2
    cat "$WORK/prom.log" >&2
  done
  [ -n "$ok" ] || fail "Prometheus did not scrape boreas_jobs (three ports tried)"
fi
stop_daemon
echo "live lifecycle: ok"
