# Helpers for the live daemon's integration tests: start/stop a real `boreas serve` on a loopback
# port with a temporary data dir, call the API with curl, wait for job states.
set -eEuo pipefail
# A command failing under `set -e` would end the test silently; say which one.
trap 'echo "FAIL: line $LINENO: $BASH_COMMAND (exit $?)" >&2' ERR

BOREAS=${BOREAS:?set BOREAS to the boreas binary}
SRC=${SRC:?set SRC to the source tree}
WORK=$(mktemp -d /tmp/boreas-live-XXXXXX)
DATA=$WORK/data
PORT=0
DAEMON_PID=
# On failure the daemon's stderr is shown: a silent `set -e` exit (curl refused) means it died.
trap 'rc=$?; [ $rc = 0 ] || tail -20 "$WORK/serve.err" >&2 || true; stop_daemon KILL; kill_jobs; rm -rf "$WORK"' EXIT

# Jobs outlive the daemon by design; the tests end theirs (each is its own process group).
kill_jobs() {
  [ -f "$DATA/boreas.db" ] || return 0
  for pid in $(sqlite3 "$DATA/boreas.db" "SELECT pid FROM jobs WHERE state='running' AND pid > 0" 2>/dev/null); do
    kill -KILL -- "-$pid" 2>/dev/null || true
  done
}

fail() { echo "FAIL: $*" >&2; exit 1; }

# start_daemon [extra serve args...]: starts on $PORT (0 the first time) and waits until ready.
# Tests run as root with tokens mapped to no Unix account, so their jobs run as root: allowed
# explicitly (ROOT_JOBS= turns that off, as live_identity.sh does).
start_daemon() {
  # Emptied first: on a restart the background shell may not have truncated it yet, and the loop
  # below would read the previous daemon's port.
  : >"$WORK/serve.out"
  "$BOREAS" serve --cluster "${CLUSTER:-$SRC/tests/server/local.yaml}" --data-dir "$DATA" \
    --listen "127.0.0.1:$PORT" --grace 1 ${ROOT_JOBS---allow-root-jobs} "$@" >"$WORK/serve.out" 2>>"$WORK/serve.err" &
  DAEMON_PID=$!
  for _ in $(seq 200); do
    if grep -q 'listening on' "$WORK/serve.out" 2>/dev/null; then
      PORT=$(grep -o '[0-9]*$' "$WORK/serve.out")
      URL=http://127.0.0.1:$PORT
      return 0
    fi
    kill -0 "$DAEMON_PID" 2>/dev/null || { cat "$WORK/serve.err" >&2; fail "daemon exited at start"; }
    sleep 0.05
  done
  fail "daemon did not start"
}

stop_daemon() {  # stop_daemon [SIGNAL]
  if [ -n "$DAEMON_PID" ]; then
    kill "-${1:-TERM}" "$DAEMON_PID" 2>/dev/null || true
    wait "$DAEMON_PID" 2>/dev/null || true
    DAEMON_PID=
  fi
}

token() {  # token ROLE QUEUES NAME
  "$BOREAS" token create --data-dir "$DATA" --role "$1" --queues "$2" --name "$3" 2>"$WORK/token.err" ||
    { cat "$WORK/token.err" >&2; return 1; }
}

# api TOKEN METHOD PATH [BODY] → prints "CODE BODY"
api() {
  local out
  printf '%s' "${4:-}" >"$WORK/req"
  out=$(curl -s -o "$WORK/body" -w '%{http_code}' -X "$2" "$URL$3" \
    ${1:+-H "Authorization: Bearer $1"} $([ "$2" = POST ] && echo --data-binary @"$WORK/req"))
  echo "$out $(cat "$WORK/body")"
}

code_of() { echo "${1%% *}"; }
json_field() { sed -n "s/.*\"$1\":\"\\{0,1\\}\\([^,\"}]*\\).*/\\1/p" <<<"$2" | head -1; }

submit() {  # submit TOKEN JSON → job id (fails the test unless 201)
  local r
  r=$(api "$1" POST /v1/jobs "$2")
  [ "$(code_of "$r")" = 201 ] || fail "submit answered $r"
  json_field id "$r"
}

wait_state() {  # wait_state TOKEN ID STATE
  local r
  for _ in $(seq 400); do
    r=$(api "$1" GET "/v1/jobs/$2")
    [ "$(json_field state "$r")" = "$3" ] && return 0
    sleep 0.05
  done
  fail "job $2 never became $3: $r"
}
