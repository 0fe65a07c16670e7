#!/usr/bin/env bash
# Ended jobs leave memory but not the API: GET /v1/jobs pages them from the store (limit, after,
# next_after) and refuses bad paging parameters; `serve --retain-days` deletes ended jobs and
# their directories once they are older than that (here 2 s; the controller prunes every 10 s).
source "$(dirname "$0")/lib.sh"

if "$BOREAS" serve --cluster "$SRC/tests/server/local.yaml" --data-dir "$DATA" --retain-days -1 \
  >/dev/null 2>"$WORK/bad.err"; then
  fail "serve accepted --retain-days -1"
fi
grep -q -- "--retain-days" "$WORK/bad.err" || fail "bad --retain-days said: $(cat "$WORK/bad.err")"

start_daemon --retain-days 0.00002315  # 2 s
ADMIN=$(token admin '*' root)
for i in 1 2 3; do
  id=$(submit "$ADMIN" '{"command":["true"]}')
done
wait_state "$ADMIN" "$id" completed
sleep 0.2
r=$(api "$ADMIN" GET '/v1/jobs?limit=2')
[ "$(grep -o '"id":[0-9]*' <<<"$r" | tr '\n' ' ')" = '"id":1 "id":2 ' ] || fail "first page: $r"
grep -q '"next_after":2' <<<"$r" || fail "first page has no next_after: $r"
r=$(api "$ADMIN" GET '/v1/jobs?limit=2&after=2')
[ "$(grep -o '"id":[0-9]*' <<<"$r")" = '"id":3' ] || fail "second page: $r"
! grep -q next_after <<<"$r" || fail "the last page has a next_after: $r"
for bad in 'limit=0' 'limit=x' 'after=-1' 'state=done'; do
  [ "$(code_of "$(api "$ADMIN" GET "/v1/jobs?$bad")")" = 400 ] || fail "GET /v1/jobs?$bad was not refused"
done
[ -d "$DATA/jobs/1" ] || fail "job 1 has no directory"
for _ in $(seq 150); do
  [ "$(code_of "$(api "$ADMIN" GET /v1/jobs/1)")" = 404 ] && break
  sleep 0.1
done
[ "$(code_of "$(api "$ADMIN" GET /v1/jobs/1)")" = 404 ] || fail "job 1 was not pruned after 15 s"
[ ! -d "$DATA/jobs/1" ] || fail "job 1's directory outlived its row"
grep -q '"event":"retention","oldest_end_us":[0-9]*,"pruned":3' "$WORK/serve.err" ||
  fail "no retention log line: $(grep retention "$WORK/serve.err")"
echo "live history: ok — paging by id, bad parameters refused, 3 ended jobs pruned with their directories"
stop_daemon
