#!/usr/bin/env bash
# Operating `boreas serve`: one daemon per data dir (the second exits 1 naming the holder's pid);
# SIGHUP reloads --queues and keeps serving; audit rows name the token and the peer; SIGTERM exits 0 leaving jobs running, and the next start
# adopts them; JSON-lines logs with --log-file; 100 connections trickling headers cannot make
# /healthz unreachable.
source "$(dirname "$0")/lib.sh"
LOG=$WORK/boreas.log
QUEUES=$WORK/queues.yaml
echo 'queues: [{name: default, quotas: [{gpu: "*", guaranteed: 8}]}]' >"$QUEUES"
start_daemon --log-file "$LOG" --queues "$QUEUES"
ADMIN=$(token admin '*' root)

# One daemon per data dir.
rc=0
timeout 10 "$BOREAS" serve --cluster "$SRC/tests/server/local.yaml" --data-dir "$DATA" \
  --listen 127.0.0.1:0 >"$WORK/second.out" 2>"$WORK/second.err" || rc=$?
[ "$rc" = 1 ] || fail "a second daemon on the same data dir exited $rc, not 1: $(cat "$WORK/second.err")"
grep -q "pid $DAEMON_PID" "$WORK/second.err" || fail "the refusal does not name pid $DAEMON_PID: $(cat "$WORK/second.err")"
[ "$(code_of "$(api "" GET /healthz)")" = 200 ] || fail "the first daemon stopped serving"

# SIGHUP: re-reads --queues (a queue added to the file takes submissions after it; logged) and
# keeps serving.
late='{"command":["true"],"queue":"late"}'
[ "$(code_of "$(api "$ADMIN" POST /v1/jobs "$late")")" = 400 ] || fail "queue 'late' accepted before it exists"
cat >"$QUEUES" <<'YAML'
queues:
  - {name: default, quotas: [{gpu: "*", guaranteed: 6}]}
  - {name: late, quotas: [{gpu: "*", guaranteed: 2}]}
YAML
kill -HUP "$DAEMON_PID"
for _ in $(seq 100); do grep -q '"event":"reload"' "$LOG" && break; sleep 0.05; done
grep -q '"event":"reload"' "$LOG" || fail "SIGHUP left no reload line in the log"
kill -0 "$DAEMON_PID" 2>/dev/null || fail "SIGHUP killed the daemon"
[ "$(code_of "$(api "" GET /healthz)")" = 200 ] || fail "no answer after SIGHUP"
late_id=$(submit "$ADMIN" "$late")
wait_state "$ADMIN" "$late_id" completed
peer=$(sqlite3 "$DATA/boreas.db" "SELECT who || ' ' || peer FROM audit WHERE target='job/$late_id'")
[ "$peer" = "root 127.0.0.1" ] || fail "the submit's audit row names '$peer', not the token and the peer"

# A job that runs across a SIGTERM.
id=$(submit "$ADMIN" '{"command":["sleep","30"],"gpus":1}')
wait_state "$ADMIN" "$id" running
pid=$(sqlite3 "$DATA/boreas.db" "SELECT pid FROM jobs WHERE id=$id")
kill -TERM "$DAEMON_PID"
rc=0
wait "$DAEMON_PID" || rc=$?
DAEMON_PID=
[ "$rc" = 0 ] || fail "SIGTERM: the daemon exited $rc, not 0"
kill -0 "$pid" 2>/dev/null || fail "SIGTERM: job $id (pid $pid) did not keep running"
start_daemon --log-file "$LOG" --queues "$QUEUES"
r=$(api "$ADMIN" GET "/v1/jobs/$id")
[ "$(json_field state "$r")" = running ] || fail "job $id was not adopted by the next start: $r"
grep -q '"event":"recovery".*"adopted":1' "$LOG" || fail "the recovery log line does not say one job was adopted"

# The log: one JSON object a line, each with ts, level and event; the events the docs promise.
bad=$(grep -v '^{"ts":"[0-9T:.-]*Z","level":"[a-z]*","event":"[a-z._]*"' "$LOG" || true)
[ -z "$bad" ] || fail "log lines not in the documented shape: $bad"
for event in listening request job.submitted round job.started shutdown recovery reload; do
  grep -q "\"event\":\"$event\"" "$LOG" || fail "no $event line in the log"
done

# Slow clients: 100 connections from 127.0.0.2 send a header line now and then, never finishing a
# request. The per-peer cap admits 32 (the rest are answered 503 at once); /healthz from
# 127.0.0.1 still answers within 2 s.
python3 - "$PORT" >"$WORK/trickle.out" <<'PY' &
import socket, sys, time
conns, refused = [], 0
for _ in range(100):
    s = socket.create_connection(("127.0.0.1", int(sys.argv[1])), source_address=("127.0.0.2", 0))
    s.sendall(b"GET /healthz HTTP/1.1\r\n")
    conns.append(s)
end = time.time() + 6
i = 0
while time.time() < end:
    for s in conns:
        try:
            s.sendall(b"X-%d: y\r\n" % i)
        except OSError:
            pass
    i += 1
    time.sleep(0.5)
for s in conns:
    s.settimeout(0.2)
    try:
        refused += s.recv(100).startswith(b"HTTP/1.1 503")
    except OSError:
        pass
print(refused, flush=True)
PY
trickler=$!
sleep 1.5
code=$(curl -s -m 2 -o /dev/null -w '%{http_code}' "$URL/healthz" || true)
wait "$trickler" || fail "the trickling client failed"
[ "$code" = 200 ] || fail "with 100 trickling connections /healthz answered '$code' within 2 s"
[ "$(cat "$WORK/trickle.out")" = 68 ] || fail "expected 68 of 100 connections refused with 503, got $(cat "$WORK/trickle.out")"

api "$ADMIN" POST "/v1/jobs/$id/cancel" >/dev/null
wait_state "$ADMIN" "$id" cancelled
# SIGINT stops as SIGTERM does.
kill -INT "$DAEMON_PID"
rc=0
wait "$DAEMON_PID" || rc=$?
DAEMON_PID=
[ "$rc" = 0 ] || fail "SIGINT: the daemon exited $rc, not 0"
echo "live ops: ok — lock, SIGHUP reload, SIGTERM (exit 0, job $id adopted), SIGINT, JSON logs, 100 slow clients"
