# Helpers of the `boreas serve --executor slurm` tests (serve.sh, serve_gang.sh): tests/server/lib.sh
# with jobs that are Slurm jobs, and a daemon start that waits for its "listening" line.
source "$SRC/tests/server/lib.sh"
: "${SLURM_CONF:?}"
# lib.sh ends leftover jobs by process group; here a job's "pid" is its Slurm job id.
kill_jobs() {
  squeue -h -o '%i %k' 2>/dev/null | awk '$2 ~ /^boreas:/ {print $1}' | xargs -r scancel 2>/dev/null || true
}

# As lib.sh's, but the output file exists before it is read and the whole "listening on
# ...:PORT" line is awaited: under ctest lib.sh's version failed about 1 run in 3.
start_daemon() {
  : >"$WORK/serve.out"  # exists before the first look (the background job's redirect may be later)
  "$BOREAS" serve --cluster "$CLUSTER" --data-dir "$DATA" --listen "127.0.0.1:$PORT" --grace 1 \
    ${ROOT_JOBS---allow-root-jobs} "$@" \
    >>"$WORK/serve.out" 2>>"$WORK/serve.err" &
  DAEMON_PID=$!
  local got
  for _ in $(seq 200); do
    got=$(sed -n 's|^boreas: listening on http://127.0.0.1:\([0-9][0-9]*\)$|\1|p' "$WORK/serve.out" 2>/dev/null)
    if [ -n "$got" ]; then PORT=$got; URL=http://127.0.0.1:$PORT; return 0; fi
    kill -0 "$DAEMON_PID" 2>/dev/null || { cat "$WORK/serve.err" >&2; fail "daemon exited at start"; }
    sleep 0.05
  done
  fail "daemon did not start"
}


# Node state as Boreas and Slurm see it ($ADMIN: an admin token).
node_drained() {  # node_drained NAME -> true/false from GET /v1/nodes
  api "$ADMIN" GET /v1/nodes | cut -d' ' -f2- |
    python3 -c 'import json,sys; print(str([n["drained"] for n in json.load(sys.stdin)["nodes"] if n["name"]==sys.argv[1]][0]).lower())' "$1"
}
wait_drained() {  # wait_drained NAME true|false
  for _ in $(seq 60); do [ "$(node_drained "$1")" = "$2" ] && return 0; sleep 0.05; done
  fail "node $1 drained=$(node_drained "$1"), want $2 (3 s after Slurm changed it)"
}
slurm_reason() { sinfo -h -n "$1" -o '%E'; }
