#!/usr/bin/env bash
# ctest `report_browser`: builds the report of each fixture run folder, and of a real simulator
# run with queues and every physical model, with the `boreas` binary and checks it in headless
# chromium (web/browser-test.mjs). Screenshots land in OUT_DIR.
#   web/run-browser-test.sh BOREAS_BINARY SOURCE_DIR OUT_DIR
set -euo pipefail
boreas=$1 src=$2 out=$3
mkdir -p "$out"
for fixture in basic:2 hybrid:2; do
  name=${fixture%%:*} rows=${fixture##*:}
  "$boreas" report "$src/tests/fixtures/runs/$name" -o "$out/$name.html" --title "Fixture runs: $name" \
    --schedule-trace "$out/$name.trace.json"
  profile=$(mktemp -d)
  trap 'rm -rf "$profile"' EXIT
  node "$src/web/browser-test.mjs" "$out/$name.html" "$rows" "$out/$name.png" "$profile"
  rm -rf "$profile"
done
# Real output: the per-queue and per-zone charts must be drawn from what the simulator writes.
"$boreas" sim --cluster "$src/examples/clusters/philly.yaml" --trace "$src/tests/fixtures/traces/philly_small.csv" \
  --queues "$src/examples/queues/philly-vcs.yaml" --physics all --policy fifo,boreas --out "$out/sim" \
  --report "$out/sim.html" >/dev/null
profile=$(mktemp -d)
node "$src/web/browser-test.mjs" "$out/sim.html" 2 "$out/sim.png" "$profile" queue-share,zones,by-queue
rm -rf "$profile"
