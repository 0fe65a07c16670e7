#!/usr/bin/env bash
# ctest `console_browser`: the web console in headless chromium against a real daemon
# (web/console/browser-test.mjs says what it checks). Screenshots land in $SHOTS
# (default build/test-output/console); docs/img/console-*.png are taken from there.
source "$(dirname "$0")/../server/lib.sh"
SHOTS=${SHOTS:-$WORK/shots}
mkdir -p "$SHOTS"
start_daemon --policy boreas --queues "$SRC/tests/server/queues.yaml"
ADMIN=$(token admin '*' root)
ALICE=$(token user open alice)
BOB=$(token user open bob)
bob_job=$(submit "$BOB" '{"command":["sleep","30"],"queue":"open","gpus":1,"name":"bob-long"}')
wait_state "$BOB" "$bob_job" running
URL=$URL ADMIN=$ADMIN ALICE=$ALICE BOB_JOB=$bob_job SHOTS=$SHOTS node "$SRC/web/console/browser-test.mjs"
