#!/usr/bin/env bash
# Auth matrix through the real daemon: every role × own/other queue (and own/other job) × every
# mutating route gives the expected 2xx/401/403, and every one of those requests is audited (the
# 401s in aggregate: one row per peer per minute, each counted in boreas_http_unauthenticated_total).
# Then tokens (unique names, list, revoke, expiry) and who sees a job's env.
source "$(dirname "$0")/lib.sh"
# Its queues must exist: a daemon without --queues refuses any queue but `default`.
printf 'queues:\n  - {name: default}\n  - {name: team-a}\n  - {name: team-b}\n' >"$WORK/queues.yaml"
start_daemon --queues "$WORK/queues.yaml"
ADMIN=$(token admin '*' root)
QA=$(token queue-admin team-a qa)
ALICE=$(token user team-a alice)
BOB=$(token user team-a bob)
CAROL=$(token user team-b carol)
VIEWER=$(token viewer team-a vera)
declare -A TOK=([admin]=$ADMIN [queue-admin]=$QA [user]=$ALICE [viewer]=$VIEWER [none]=)

# Expected codes, written by hand. Columns: alice's job in team-a, bob's job in team-a, carol's
# job in team-b (for submit: queue team-a, team-a, team-b).
declare -A EXPECT=(
  [admin submit]="201 201 201"      [admin cancel]="200 200 200"      [admin checkpoint]="200 200 200"
  [queue-admin submit]="201 201 403" [queue-admin cancel]="200 200 403" [queue-admin checkpoint]="200 200 403"
  [user submit]="201 201 403"       [user cancel]="200 403 403"       [user checkpoint]="200 403 403"
  [viewer submit]="403 403 403"     [viewer cancel]="403 403 403"     [viewer checkpoint]="403 403 403"
  [none submit]="401 401 401"       [none cancel]="401 401 401"       [none checkpoint]="401 401 401"
  [admin drain]=200 [queue-admin drain]=403 [user drain]=403 [viewer drain]=403 [none drain]=401
)
sleeper='{"command":["sleep","60"],"queue":"QUEUE"}'
owners=("$ALICE team-a" "$BOB team-a" "$CAROL team-b")
requests=0
unauthenticated=0
failures=0

check() {  # check WHAT EXPECTED GOT
  requests=$((requests + 1))
  [ "$3" != 401 ] || unauthenticated=$((unauthenticated + 1))
  if [ "$2" != "$3" ]; then echo "  $1: expected $2, got $3" >&2; failures=$((failures + 1)); fi
}

for role in admin queue-admin user viewer none; do
  for action in submit cancel checkpoint; do
    read -ra want <<<"${EXPECT[$role $action]}"
    for col in 0 1 2; do
      read -r owner queue <<<"${owners[$col]}"
      if [ "$action" = submit ]; then
        got=$(code_of "$(api "${TOK[$role]}" POST /v1/jobs "${sleeper/QUEUE/$queue}")")
      else
        id=$(submit "$owner" "${sleeper/QUEUE/$queue}")
        requests=$((requests + 1))  # the setup submission is a mutation too
        wait_state "$ADMIN" "$id" running
        got=$(code_of "$(api "${TOK[$role]}" POST "/v1/jobs/$id/$action")")
      fi
      check "$role $action column $col" "${want[$col]}" "$got"
    done
  done
  for verb in drain resume; do
    got=$(code_of "$(api "${TOK[$role]}" POST "/v1/nodes/node-r00-n01/$verb")")
    check "$role $verb" "${EXPECT[$role drain]}" "$got"
  done
done
[ "$failures" = 0 ] || fail "$failures of $requests auth checks failed"

# Every mutating request (allowed or not) left one audit row, but the unauthenticated ones (all
# from 127.0.0.1 within a minute) one row between them; the metric counts each.
[ "$unauthenticated" = 11 ] || fail "expected 11 unauthenticated requests, made $unauthenticated"
expected_rows=$((requests - unauthenticated + 1))
for _ in $(seq 100); do
  rows=$(sqlite3 "$DATA/boreas.db" 'SELECT COUNT(*) FROM audit')
  [ "$rows" -ge "$expected_rows" ] && break
  sleep 0.05
done
[ "$rows" = "$expected_rows" ] || fail "audit has $rows rows for $requests mutating requests ($unauthenticated unauthenticated)"
anon=$(sqlite3 "$DATA/boreas.db" "SELECT peer FROM audit WHERE action='unauthenticated'")
[ "$anon" = 127.0.0.1 ] || fail "the unauthenticated requests' audit row names peer '$anon', not 127.0.0.1"
counted=$(curl -s "$URL/metrics" | sed -n 's/^boreas_http_unauthenticated_total \([0-9]*\).*/\1/p')
[ "$counted" = "$unauthenticated" ] || fail "boreas_http_unauthenticated_total is '$counted', not $unauthenticated"
denied=$(sqlite3 "$DATA/boreas.db" "SELECT COUNT(*) FROM audit WHERE who='vera' AND action='cancel' AND result='403'")
[ "$denied" = 3 ] || fail "viewer's denied cancels are not audited ($denied)"
# Token names are unique (they own jobs); without --name one is generated.
if token user team-b alice >/dev/null; then fail "a second token named alice was created"; fi
grep -q '`alice` already exists' "$WORK/token.err" || fail "duplicate name refused unclearly: $(cat "$WORK/token.err")"
for n in 1 2; do
  "$BOREAS" token create --data-dir "$DATA" --role viewer --queues team-a >/dev/null 2>"$WORK/gen.err"
  grep -q "token \`viewer-$n\`" "$WORK/gen.err" || fail "generated name is not viewer-$n: $(cat "$WORK/gen.err")"
done
# list: one line per token with its role, queues and account, never a secret.
list=$("$BOREAS" token list --data-dir "$DATA")
grep -qP '^alice\tuser\tteam-a\t-\t\S+\tnever\tlive$' <<<"$list" || fail "token list misses alice: $list"
[ "$(grep -c . <<<"$list")" = 9 ] || fail "token list has not header + 8 tokens: $list"
for t in "$ADMIN" "$ALICE" "$BOB"; do
  ! grep -q "${t##*_}" <<<"$list" || fail "token list shows a secret"
done
# Revoked and expired tokens get 401.
[ "$(code_of "$(api "$BOB" GET /v1/queues)")" = 200 ] || fail "bob's token does not work before revocation"
"$BOREAS" token revoke bob --data-dir "$DATA" 2>/dev/null
[ "$(code_of "$(api "$BOB" GET /v1/queues)")" = 401 ] || fail "a revoked token still works"
"$BOREAS" token list --data-dir "$DATA" | grep -qP '^bob\t.*\trevoked ' || fail "list does not show bob revoked"
if "$BOREAS" token revoke bob --data-dir "$DATA" 2>/dev/null; then fail "revoking twice succeeded"; fi
SHORT=$("$BOREAS" token create --data-dir "$DATA" --role viewer --queues team-a --name short --expires 1s 2>/dev/null)
[ "$(code_of "$(api "$SHORT" GET /v1/queues)")" = 200 ] || fail "a fresh expiring token does not work"
sleep 1.1
[ "$(code_of "$(api "$SHORT" GET /v1/queues)")" = 401 ] || fail "an expired token still works"
if "$BOREAS" token create --data-dir "$DATA" --role viewer --queues a --expires 5x 2>"$WORK/exp.err"; then
  fail "--expires 5x accepted"
fi
grep -q 'e.g. 30d' "$WORK/exp.err" || fail "bad --expires not explained: $(cat "$WORK/exp.err")"

# A job's env is shown to its owner and admins only; queue members see the job without it.
id=$(submit "$ALICE" '{"command":["sleep","60"],"queue":"team-a","env":{"API_KEY":"s3cret"}}')
for who in ALICE ADMIN; do
  api "${!who}" GET "/v1/jobs/$id" | grep -q s3cret || fail "$who does not see the env of alice's job"
done
DAVE=$(token user team-a dave)
for who in QA VIEWER DAVE; do
  r=$(api "${!who}" GET "/v1/jobs/$id")
  [ "$(code_of "$r")" = 200 ] && ! grep -q s3cret <<<"$r" || fail "$who sees the env of alice's job: $r"
  r=$(api "${!who}" GET "/v1/jobs?queue=team-a")
  grep -q "\"id\":$id," <<<"$r" && ! grep -q s3cret <<<"$r" || fail "$who's list shows alice's env: $r"
done

for id in $(api "$ADMIN" GET "/v1/jobs?state=running" | grep -o '"id":[0-9]*' | cut -d: -f2); do
  api "$ADMIN" POST "/v1/jobs/$id/cancel" >/dev/null
done
stop_daemon
echo "live auth: ok — $requests mutating requests, all as expected and audited"
