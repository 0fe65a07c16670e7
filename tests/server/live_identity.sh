#!/usr/bin/env bash
# Jobs run as their token's Unix account (issue 17): as root, the daemon runs user A's job as A,
# and that job cannot read B's logs, read the store, mint a token or signal B's job; tokens that
# would make jobs run as root are refused. Needs root (to create accounts and switch to them).
if [ "$(id -u)" != 0 ]; then
  echo "SKIP: live identity needs root (it creates two accounts and runs jobs as them)"
  exit 77
fi
source "$(dirname "$0")/lib.sh"
UA=brs-a-$$
UB=brs-b-$$
GA=brs-g-$$
groupadd "$GA"
useradd -M -s /bin/sh -G "$GA" "$UA"  # a supplementary group the job must carry
useradd -M -s /bin/sh "$UB"
trap 'rc=$?; [ $rc = 0 ] || tail -20 "$WORK/serve.err" >&2 || true; stop_daemon KILL; kill_jobs
      pkill -KILL -u "$UA" || true; pkill -KILL -u "$UB" || true; sleep 0.1
      userdel "$UA" || true; userdel "$UB" || true; groupdel "$GA" || true; rm -rf "$WORK"; exit $rc' EXIT
chmod 0711 "$WORK"  # mktemp made it 0700; the job accounts must reach $DATA/jobs/N (not list it)

ROOT_JOBS= start_daemon  # as in production: no --allow-root-jobs
mint() { "$BOREAS" token create --data-dir "$DATA" "$@" 2>>"$WORK/token.err"; }
ADMIN=$(mint --role admin --name root-admin --unix-user root)
A=$(mint --role user --queues default --name alice --unix-user "$UA")
B=$(mint --role user --queues default --name bob --unix-user "$UB")
NOBODY=$(mint --role user --queues default --name no-account)

# Tokens that would run jobs as root are refused at submit, saying how to fix it.
r=$(api "$NOBODY" POST /v1/jobs '{"command":["true"]}')
[ "$(code_of "$r")" = 403 ] && grep -q -- '--unix-user' <<<"$r" || fail "a token without an account submitted: $r"
r=$(api "$ADMIN" POST /v1/jobs '{"command":["true"]}')
[ "$(code_of "$r")" = 403 ] && grep -q 'uid 0' <<<"$r" || fail "a token mapped to root submitted: $r"
# An account that does not exist cannot be mapped.
if mint --role user --queues default --name ghost --unix-user no-such-user-$$ >/dev/null; then
  fail "token create accepted a missing account"
fi
grep -q "no-such-user-$$" "$WORK/token.err" || fail "token create did not name the missing account"

# B's job: a secret in its log, then a process to signal.
BID=$(submit "$B" '{"command":["sh","-c","echo secret-of-b; exec sleep 3007"]}')
wait_state "$B" "$BID" running
for _ in $(seq 200); do BPID=$(pgrep -u "$UB" -f 'sleep 3007' || true); [ -n "$BPID" ] && break; sleep 0.05; done
[ -n "$BPID" ] || fail "B's job process not found"

cat >"$WORK/probe.sh" <<PROBE
echo "uid=\$(id -u) gid=\$(id -g) groups=\$(id -G) user=\$USER logname=\$LOGNAME home=\$HOME cwd=\$(pwd)"
cat "$DATA/jobs/$BID/stdout.log" >/dev/null 2>&1 && echo read-b-log || echo no-b-log
cat "$DATA/boreas.db" >/dev/null 2>&1 && echo read-db || echo no-db
"$BOREAS" token create --data-dir "$DATA" --role admin --name evil >/dev/null 2>&1 && echo minted || echo no-mint
kill -TERM $BPID 2>/dev/null && echo signalled || echo no-signal
echo mine > own-file
PROBE
chmod 0644 "$WORK/probe.sh"
AID=$(submit "$A" "{\"command\":[\"sh\",\"$WORK/probe.sh\"]}")
wait_state "$A" "$AID" completed
out=$(cat "$DATA/jobs/$AID/stdout.log")
expected="uid=$(id -u "$UA") gid=$(id -g "$UA") groups=$(id -G "$UA") user=$UA logname=$UA home=$(getent passwd "$UA" | cut -d: -f6) cwd=$DATA/jobs/$AID
no-b-log
no-db
no-mint
no-signal"
[ "$out" = "$expected" ] || fail "A's job saw:
$out
expected:
$expected"
[ "$(stat -c '%U %a' "$DATA/jobs/$AID")" = "$UA 700" ] || fail "A's job dir is $(stat -c '%U %a' "$DATA/jobs/$AID")"
[ "$(stat -c %U "$DATA/jobs/$AID/own-file")" = "$UA" ] || fail "A's file is not A's"
[ "$(stat -c %a "$DATA")" = 711 ] || fail "data dir mode $(stat -c %a "$DATA")"
for f in "$DATA"/boreas.db*; do
  [ "$(stat -c '%U %a' "$f")" = "root 600" ] || fail "$f is $(stat -c '%U %a' "$f")"
done
[ "$(sqlite3 "$DATA/boreas.db" "SELECT COUNT(*) FROM tokens WHERE name='evil'")" = 0 ] || fail "A minted a token"
r=$(api "$B" GET "/v1/jobs/$BID")
[ "$(json_field state "$r")" = running ] || fail "B's job did not survive A's signal: $r"
kill -0 "$BPID" || fail "B's process is gone"

api "$B" POST "/v1/jobs/$BID/cancel" >/dev/null
wait_state "$B" "$BID" cancelled
stop_daemon
echo "live identity: ok — jobs run as $UA/$UB; A could not read B's log or the store, mint a token or signal B"
