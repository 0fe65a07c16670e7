#!/usr/bin/env bash
# ctest `deploy_dashboard_metrics`: starts a real `boreas serve` (with a queue tree, so the queue
# families have series), scrapes /metrics, checks the scrape with promtool, and checks that every
# query of deploy/grafana/boreas.json and deploy/prometheus/alerts.yml names a metric it exports.
# Needs BOREAS (the binary) and SRC (the source tree) in the environment, as tests/server/*.sh.
source "$SRC/tests/server/lib.sh"
start_daemon --policy boreas --placement pack --queues "$SRC/tests/server/queues.yaml"
curl -sf "$URL/metrics" >"$WORK/metrics.txt" || fail "GET /metrics failed"
promtool check metrics <"$WORK/metrics.txt" || fail "the /metrics answer does not pass promtool check metrics"
grep -q '^boreas_build_info{version="[^"]*",git="[^"]*"} 1$' "$WORK/metrics.txt" || fail "no boreas_build_info sample"
grep -q '^boreas_queue_guarantee_gpus{queue="open",gpu_type="\*"} 6$' "$WORK/metrics.txt" ||
  fail "queue 'open' is guaranteed 6 GPUs in tests/server/queues.yaml; /metrics says: $(grep guarantee "$WORK/metrics.txt")"
node "$SRC/deploy/grafana/check-metrics.mjs" "$WORK/metrics.txt" "$SRC" "$SRC/deploy/grafana/boreas.json" \
  "$SRC/deploy/prometheus/alerts.yml"
stop_daemon
