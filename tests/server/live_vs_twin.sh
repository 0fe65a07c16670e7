#!/usr/bin/env bash
# The same workload live and in the twin gives the same start order (issue 8).
#
# tests/server/live_vs_twin.csv holds 50 jobs (1-4 GPUs, 0.5-2.5 s) on one 8-GPU node. Live, each
# job is `sleep DURATION` under the real daemon and local executor; in the twin it is a trace row
# with that duration. What makes the two comparable:
#  - every job is submitted before the first round (the node is drained, then resumed), so both
#    see the whole queue at once, in id order (the twin's submit times are all 0);
#  - one node, so placement cannot differ;
#  - the workload was chosen (seed search, scripts kept out of the repo) so that no two jobs end
#    within TWIN_GAP of each other in the twin under fjf and boreas: a live exit is seen a few ms
#    late, and two ends closer than that could be seen in the other order. The test checks this
#    precondition. (Strict fifo starts jobs in id order whatever the end times, so it needs none;
#    POLICIES="fifo ..." runs it too.)
# Starts are compared as the sequence of job ids ordered by (start time, id).
source "$(dirname "$0")/lib.sh"
WORKLOAD=$SRC/tests/server/live_vs_twin.csv
CLUSTER=$SRC/tests/server/one_node.yaml
POLICIES=${POLICIES:-boreas fjf}
TWIN_GAP=${TWIN_GAP:-0.12}

# twin_order POLICY → $WORK/twin-POLICY.order: job ids in start order; checks the precondition
twin_order() {
  "$BOREAS" sim --cluster "$CLUSTER" --trace "$WORKLOAD" --policy "$1" --out "$WORK/twin" >/dev/null \
    || fail "boreas sim --policy $1 failed"
  local jobs=$WORK/twin/$1/jobs.csv
  [ "$1" = fifo ] || awk -F, -v gap="$TWIN_GAP" 'NR > 1 { print $8 }' "$jobs" | sort -g | awk -v gap="$TWIN_GAP" \
    'NR > 1 && $1 - prev < gap { printf "ends %s and %s closer than %s s\n", prev, $1, gap; bad = 1 }
     { prev = $1 } END { exit bad }' >&2 || fail "workload not separable under $1; see the header"
  awk -F, 'NR > 1 { print $7, $2 }' "$jobs" | sort -k1,1g -k2,2n | awk '{ print $2 }' >"$WORK/twin-$1.order"
}

# live_order POLICY → $WORK/live-POLICY.order: job ids in start order from a fresh daemon
live_order() {
  DATA=$WORK/data-$1
  PORT=0
  start_daemon --policy "$1"
  local admin node
  admin=$(token admin '*' root)
  node=$(api "$admin" GET /v1/nodes | grep -o '"name":"[^"]*"' | head -1 | cut -d'"' -f4)
  [ "$(code_of "$(api "$admin" POST "/v1/nodes/$node/drain")")" = 200 ] || fail "drain $node"
  tail -n +2 "$WORKLOAD" | while IFS=, read -r id _ gpus dur; do
    got=$(submit "$admin" "{\"command\":[\"sleep\",\"$dur\"],\"gpus\":$gpus,\"name\":\"$id\"}")
    [ "$got" = "$id" ] || fail "job $id was given id $got"
  done
  [ "$(code_of "$(api "$admin" POST "/v1/nodes/$node/resume")")" = 200 ] || fail "resume $node"
  local n
  n=$(($(wc -l <"$WORKLOAD") - 1))
  for _ in $(seq 1200); do
    [ "$(api "$admin" GET '/v1/jobs?state=completed' | grep -o '"state":"completed"' | wc -l)" = "$n" ] && break
    sleep 0.1
  done
  api "$admin" GET /v1/jobs >"$WORK/live-$1.json"
  stop_daemon
  # nlohmann::json writes keys sorted, so each job yields attempts, id, start_us, state in turn.
  grep -o '"attempts":[0-9]*\|"id":[0-9]*\|"start_us":[0-9]*\|"state":"[a-z]*"' "$WORK/live-$1.json" |
    cut -d: -f2 | tr -d '"' | paste - - - - >"$WORK/live-$1.tsv"
  [ "$(awk '$1 == 1 && $4 == "completed"' "$WORK/live-$1.tsv" | wc -l)" = "$n" ] ||
    fail "live run under $1 did not complete every job exactly once: $(cat "$WORK/live-$1.tsv")"
  sort -k3,3n -k2,2n "$WORK/live-$1.tsv" | cut -f2 >"$WORK/live-$1.order"
}

# Live starts lag the twin's by up to ~0.6 s, and two chains of starts can lag by different amounts,
# so on a loaded machine two ends TWIN_GAP apart in the twin are now and then seen in the other order
# (about 1 run in 20 under the full suite). A policy whose orders differ gets one more live run, which
# must agree.
for policy in $POLICIES; do
  twin_order "$policy"
  n=$(wc -l <"$WORK/twin-$policy.order")
  [ "$n" = 50 ] || fail "the twin started $n jobs under $policy"
  live_order "$policy"
  if ! diff "$WORK/twin-$policy.order" "$WORK/live-$policy.order" >&2; then
    echo "$policy: start order differs between the twin (<) and the live daemon (>); one more live run" >&2
    rm -rf "$WORK/data-$policy"
    live_order "$policy"
    diff "$WORK/twin-$policy.order" "$WORK/live-$policy.order" >&2 ||
      fail "start order differs between the twin (<) and the live daemon (>) under $policy, twice"
  fi
  # How far live starts drifted from the twin's (for the log; the order is what is asserted).
  lag=$(awk -F'\t' 'NR == FNR { live[$2] = $3; if (min == "" || $3 < min) min = $3; next }
    FNR > 1 { split($0, f, ","); d = (live[f[2]] - min) / 1e6 - f[7]; if (d > max) max = d }
    END { printf "%.3f", max }' "$WORK/live-$policy.tsv" "$WORK/twin/$policy/jobs.csv")
  echo "$policy: same start order for $n jobs (live starts at most ${lag} s behind the twin's)"
done
echo "live vs twin: ok"
