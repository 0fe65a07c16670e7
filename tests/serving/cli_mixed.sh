#!/bin/sh
# The mixed cluster's refusals through the binary (docs/serving.md "Mixed cluster"): each bad
# combination exits 1 and says what to fix. Usage: cli_mixed.sh BOREAS SOURCE_DIR
set -u
B=$1
cd "$2" || exit 2
fail=0
TRAIN="--cluster examples/clusters/mixed-h100.yaml --trace data/traces/philly-sia/philly.csv.gz --reference-gpu H100-SXM --slice 20"
SVC="--service examples/services/llama2-70b-h100-tp4.yaml"
REQ="--service-trace data/traces/azure-llm-inference-2023/AzureLLMInferenceTrace_conv.csv.gz"
expect() {  # expect WHAT MESSAGE ARGS...
  what=$1 msg=$2
  shift 2
  out=$("$B" sim "$@" 2>&1)
  rc=$?
  if [ "$rc" -ne 1 ] || ! printf '%s' "$out" | grep -qF -- "$msg"; then
    echo "FAIL $what: rc $rc, wanted 1 and '$msg'; got: $out"
    fail=1
  fi
}
expect "service without trace" "--service and --service-trace go together" $TRAIN $SVC
expect "trace without service" "--service and --service-trace go together" $TRAIN $REQ
expect "two policies" "runs one policy" $TRAIN $SVC $REQ --policy fifo,boreas
expect "physics" "runs without physics" $TRAIN $SVC $REQ --physics all
expect "report" "--report and --schedule-trace do not draw" $TRAIN $SVC $REQ --report /tmp/x.html
expect "negative start" "--service-start: give seconds >= 0" $TRAIN $SVC $REQ --service-start -5
expect "queue missing" "queue 'inference' is not in the --queues tree" $TRAIN $SVC $REQ --policy boreas \
  --queues examples/queues/mixed-h100.yaml --service-queue inference
expect "preemptible class" "must be declared with preemptible: false" $TRAIN $SVC $REQ --policy boreas \
  --queues examples/queues/mixed-h100.yaml --service-class standard
expect "GPU type the cluster lacks" "has no L4 GPUs" $TRAIN --service examples/services/llama3-8b-l4.yaml $REQ
# A good run exits 0 and reports both sides.
out=$("$B" sim $TRAIN $SVC $REQ --policy boreas --queues examples/queues/mixed-h100.yaml 2>&1)
if [ $? -ne 0 ] || ! printf '%s' "$out" | grep -q "^service: TTFT" || ! printf '%s' "$out" | grep -q "^training: jobs 20 "; then
  echo "FAIL good run: $out"
  fail=1
fi
[ $fail -eq 0 ] && echo "cli_mixed: all passed"
exit $fail
