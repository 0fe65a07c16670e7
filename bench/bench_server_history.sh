#!/usr/bin/env bash
# Restart time and durable submit rate of `boreas serve` with N completed jobs already in the
# store (issue 17, "Scale"). The completed jobs are inserted with sqlite3 directly, then the
# daemon is started (time until it listens = restart time), and one `curl --parallel` process
# keeps C keep-alive connections busy submitting `true` jobs for about S seconds; then three
# listings are timed: the active jobs (?state=running), a page of 100 (?limit=100) and the
# default response (a daemon without paging sends every job).
# MODE=full drains every node first, so the jobs stay pending and the rate is the durable submit
# path alone; MODE=run (the default) lets every job start, so it includes each job's launch.
# COUNT=N submits N in the measured pass instead of about S seconds' worth: with MODE=full each
# submit grows the queue, so builds compare at the same count.
# At the end: the daemon's RSS with those jobs in memory, and its scheduling rounds from /metrics
# (boreas_schedule_round_seconds: how many, their mean, and the histogram bucket that holds the
# median and the 99th percentile: an upper bound, as coarse as the buckets).
#   BOREAS=build/boreas [MODE=full|run] bench/bench_server_history.sh [N=200000] [C=8] [S=10]
set -euo pipefail
BOREAS=${BOREAS:-build/boreas}
SRC=$(cd "$(dirname "$0")/.." && pwd)
N=${1:-200000}
C=${2:-8}
S=${3:-10}
MODE=${MODE:-run}
case "$MODE" in full|run) ;; *) echo "MODE must be full or run, not \`$MODE'" >&2; exit 1 ;; esac
WORK=$(mktemp -d /tmp/boreas-bench-XXXXXX)
DATA=$WORK/data
PID=
trap '[ -z "$PID" ] || kill -KILL "$PID" 2>/dev/null || true; rm -rf "$WORK"' EXIT

start() {  # start; RESTART_S = seconds until the daemon listens
  local t0 t1
  rm -f "$WORK/out"  # else the last start's "listening on" can be read before the shell truncates it
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

api() { curl -sf "http://127.0.0.1:$PORT/v1/$1" -H "Authorization: Bearer $TOKEN" "${@:2}"; }
if [ "$MODE" = full ]; then
  for node in $(api nodes | grep -o '"name": *"[^"]*"' | cut -d'"' -f4); do
    api "nodes/$node/drain" -X POST -d "" -o /dev/null
  done
fi
# A first pass of 200 submits sizes the measured pass to last about S seconds.
submit_batch() {  # COUNT: submits C at a time; prints "CODE SECONDS" per submit
  curl -s -Z --parallel-max "$C" -X POST -H "Authorization: Bearer $TOKEN" -d '{"command":["true"]}' \
    -w '\n%{http_code} %{time_total}\n' "http://127.0.0.1:$PORT/v1/jobs?n=[1-$1]" 2>/dev/null |
    grep -E '^[0-9]{3} [0-9.]+$'
}
t0=$(date +%s.%N); submit_batch 200 >/dev/null; t1=$(date +%s.%N)
count=${COUNT:-$(echo "200 * $S / ($t1 - $t0)" | bc)}  # COUNT=N: that many instead (compare builds)
t0=$(date +%s.%N); submit_batch "$count" >"$WORK/lat"; t1=$(date +%s.%N)
elapsed=$(echo "$t1 - $t0" | bc)
acked=$(awk '$1 == 201' "$WORK/lat" | wc -l)
[ "$acked" = "$count" ] || { echo "only $acked of $count submits answered 201:" >&2; sort "$WORK/lat" | cut -c1-3 | uniq -c >&2; }
p50=$(awk '$1 == 201 {print $2}' "$WORK/lat" | sort -n | awk '{a[NR]=$1} END {print a[int(NR/2)+1]}')
p99=$(awk '$1 == 201 {print $2}' "$WORK/lat" | sort -n | awk '{a[NR]=$1} END {print a[int(NR*0.99)+1]}')
list_time() { curl -s -o /dev/null -w '%{time_total} %{size_download}' "http://127.0.0.1:$PORT/v1/jobs$1" -H "Authorization: Bearer $TOKEN"; }
active=$(list_time '?state=running')
page=$(list_time '?limit=100')
list=$(list_time '')
rss_end_kb=$(awk '/VmRSS/ {print $2}' "/proc/$PID/status")
rounds=$(curl -sf "http://127.0.0.1:$PORT/metrics" | awk '
  /^boreas_schedule_round_seconds_bucket/ { match($0, /le="[^"]*"/); le[n] = substr($0, RSTART + 4, RLENGTH - 5); c[n++] = $NF }
  /^boreas_schedule_round_seconds_sum/ { sum = $NF }
  /^boreas_schedule_round_seconds_count/ { count = $NF }
  function at(q,  i) { for (i = 0; i < n; i++) if (c[i] >= q * count) return le[i]; return "?" }
  END { if (count == 0) print "none"; else printf "%d rounds, mean %.2f ms, p50 <= %s s, p99 <= %s s", count, 1000 * sum / count, at(0.5), at(0.99) }')
stop
echo "completed jobs in store: $N"
echo "restart (start to listening): ${restart_s} s, RSS after start: $((rss_kb / 1024)) MiB"
echo "mode $MODE: durable submits: $acked in ${elapsed} s with $C connections = $(echo "$acked / $elapsed" | bc)/s, latency p50 ${p50} s, p99 ${p99} s"
echo "GET /v1/jobs?state=running: ${active% *} s (${active#* } bytes)"
echo "GET /v1/jobs?limit=100: ${page% *} s (${page#* } bytes)"
echo "GET /v1/jobs: ${list% *} s (${list#* } bytes)"
echo "RSS at the end: $((rss_end_kb / 1024)) MiB; rounds: $rounds"
