#!/usr/bin/env bash
# ctest `report_browser`: builds the report of each fixture run folder with the `boreas` binary
# and checks it in headless chromium (web/browser-test.mjs). Screenshots land in OUT_DIR.
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
