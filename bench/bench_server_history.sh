#!/usr/bin/env bash
# Restart time and durable submit rate of `boreas serve` with N completed jobs already in the
# store (issue 17, "Scale"). The completed jobs are inserted with sqlite3 directly, then the
# daemon is started (time until it listens = restart time), and C concurrent curl loops submit
# `true` jobs for S seconds; then three listings are timed: the active jobs (?state=running), a
# page of 100 (?limit=100) and the default response (a daemon without paging sends every job).
#   BOREAS=build/boreas bench/bench_server_history.sh [N=200000] [C=8] [S=10]
set -euo pipefail
BOREAS=${BOREAS:-build/boreas}
SRC=$(cd "$(dirname "$0")/.." && pwd)
N=${1:-200000}
C=${2:-8}
S=${3:-10}
WORK=$(mktemp -d /tmp/boreas-bench-XXXXXX)
DATA=$WORK/data
PID=
trap '[ -z "$PID" ] || kill -KILL "$PID" 2>/dev/null || true; rm -rf "$WORK"' EXIT

start() {  # start; RESTART_S = seconds until the daemon listens
  local t0 t1
  t0=$(date +%s.%N)
  "$BOREAS" serve --cluster "$SRC/tests/server/local.yaml" --data-dir "$DATA" --listen 127.0.0.1:0 \
    --allow-root-jobs >"$WORK/out" 2>"$WORK/err" &
  PID=$!
  until grep -q 'listening on' "$WORK/out" 2>/dev/null; do
    kill -0 "$PID" 2>/dev/null || { cat "$WORK/err" >&2; exit 1; }
    sleep 0.01
  done
  t1=$(date +%s.%N)
  PORT=$(grep -o '[0-9]*$' "$WORK/out")
  RESTART_S=$(echo "$t1 - $t0" | bc)
}
stop() { kill -TERM "$PID"; wait "$PID" || true; PID=; }

start
stop
sqlite3 "$DATA/boreas.db" <<SQL
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < $N)
INSERT INTO jobs(id, spec, queue, owner, state, submit_us, updated_us, start_us, end_us, attempts,
                 exit_code, reason)
SELECT i, '{"command":["true"],"queue":"default"}', 'default', 'root', 'completed',
       1700000000000000 + i, 1700000000000000 + i, 1700000000000000 + i, 1700000000000000 + i + 1, 1, 0, 'exit 0'
FROM n;
SQL
TOKEN=$("$BOREAS" token create --data-dir "$DATA" --role admin --queues "*" --name bench --unix-user "$(id -un)" 2>/dev/null)
start
restart_s=$RESTART_S
rss_kb=$(awk '/VmRSS/ {print $2}' "/proc/$PID/status")

submitter() {  # submits until the deadline; prints one latency (s) per acknowledged submit
  local end=$1
  while [ "$(date +%s)" -lt "$end" ]; do
    curl -s -o /dev/null -w '%{http_code} %{time_total}\n' -X POST "http://127.0.0.1:$PORT/v1/jobs" \
      -H "Authorization: Bearer $TOKEN" -d '{"command":["true"]}' | awk '$1 == 201 {print $2}'
  done
}
end=$(($(date +%s) + S))
for c in $(seq "$C"); do submitter "$end" >"$WORK/lat.$c" & done
wait $(jobs -p | grep -v "^$PID$")
acked=$(cat "$WORK"/lat.* | wc -l)
p50=$(cat "$WORK"/lat.* | sort -n | awk '{a[NR]=$1} END {print a[int(NR/2)+1]}')
list_time() { curl -s -o /dev/null -w '%{time_total} %{size_download}' "http://127.0.0.1:$PORT/v1/jobs$1" -H "Authorization: Bearer $TOKEN"; }
active=$(list_time '?state=running')
page=$(list_time '?limit=100')
list=$(list_time '')
stop
echo "completed jobs in store: $N"
echo "restart (start to listening): ${restart_s} s, RSS after start: $((rss_kb / 1024)) MiB"
echo "durable submits: $acked in ${S} s with $C clients = $((acked / S))/s, p50 latency ${p50} s"
echo "GET /v1/jobs?state=running: ${active% *} s (${active#* } bytes)"
echo "GET /v1/jobs?limit=100: ${page% *} s (${page#* } bytes)"
echo "GET /v1/jobs: ${list% *} s (${list#* } bytes)"
