#!/usr/bin/env bash
# Crash safety: under concurrent submissions, kill -9 the daemon at random moments and restart
# it. Every acknowledged job must complete exactly once (each appends its id to a file) and no
# job may run twice. KILLS (default 20) sets how many crashes.
source "$(dirname "$0")/lib.sh"
KILLS=${KILLS:-20}
CLIENTS=${CLIENTS:-4}

start_daemon
ADMIN=$(token admin '*' root)
: >"$WORK/ran"
job="{\"command\":[\"sh\",\"-c\",\"sleep 0.05; echo \$BOREAS_JOB_ID >> $WORK/ran\"],\"gpus\":1}"

submitter() {  # appends the id of every acknowledged (201) submission to acked.N
  while [ -d "$WORK" ] && [ ! -f "$WORK/stop" ]; do  # ends with the test, even a failed one
    out=$(curl -s -m 5 -X POST "http://127.0.0.1:$PORT/v1/jobs" -H "Authorization: Bearer $ADMIN" \
      -d "$job" -w ' %{http_code}' 2>/dev/null || true)
    if [ "${out##* }" = 201 ]; then
      sed -n 's/.*"id":\([0-9]*\).*/\1/p' <<<"$out" >>"$WORK/acked.$1"
    fi
  done
}
for c in $(seq "$CLIENTS"); do submitter "$c" & done

for k in $(seq "$KILLS"); do
  sleep "0.$((RANDOM % 4 + 1))$((RANDOM % 10))"
  stop_daemon KILL
  start_daemon
done
touch "$WORK/stop"
wait $(jobs -p | grep -v "^$DAEMON_PID$") 2>/dev/null || true

# Let everything finish, then check exactly-once.
for _ in $(seq 600); do
  r=$(api "$ADMIN" GET "/v1/jobs?state=pending")$(api "$ADMIN" GET "/v1/jobs?state=running")
  grep -q '"id"' <<<"$r" || break
  sleep 0.1
done
cat "$WORK"/acked.* | sort >"$WORK/acked"
acked=$(wc -l <"$WORK/acked")
[ "$acked" -gt 0 ] || fail "no submission was acknowledged"
dups=$(sort -n "$WORK/ran" | uniq -d)
[ -z "$dups" ] || fail "jobs ran twice: $dups"
missing=$(comm -23 "$WORK/acked" <(sort -u "$WORK/ran"))
[ -z "$missing" ] || fail "acknowledged jobs never ran: $missing"
bad=$(api "$ADMIN" GET /v1/jobs | grep -o '"state":"[a-z]*"' | sort | uniq -c | grep -v completed || true)
[ -z "$bad" ] || fail "jobs not completed: $bad"
echo "live crash: ok — $KILLS kill -9s, $acked acknowledged, $(wc -l <"$WORK/ran") ran, each exactly once"
stop_daemon
