#!/usr/bin/env bash
# Sharing a GPU (docs/live.md, "Sharing a GPU"; issue 20's last line) with the local executor on
# tests/server/local.yaml (2 nodes × 4 H100 of 80 GiB). Two 0.5-GPU jobs share one GPU (the same
# CUDA_VISIBLE_DEVICES, MPS at 50 %, 40 GiB each); a third takes another GPU; a whole-GPU job never
# lands on a shared GPU, even one with room; a share whose memory would over-commit the GPU waits;
# a kill -9 restart holds the running shares again; cancelling a share frees it.
source "$(dirname "$0")/lib.sh"
start_daemon
export BOREAS_SERVER=$URL BOREAS_TOKEN
BOREAS_TOKEN=$(token admin '*' root)
T=$BOREAS_TOKEN

refused() {  # refused BODY PATTERN: the submit answers 400 with PATTERN in its message
  local r
  r=$(api "$T" POST /v1/jobs "$1")
  [ "$(code_of "$r")" = 400 ] && grep -q -- "$2" <<<"$r" || fail "$1 was not refused with '$2': $r"
}
refused '{"command":["true"],"gpus":1.5}' '\$.gpus: 1.5 is more than one GPU but not a whole number'
refused '{"command":["true"],"gpus":0.0}' '\$.gpus: 0.0 is not a share'
refused '{"command":["true"],"gpus":-0.5}' '\$.gpus: -0.5 is negative'
refused '{"command":["true"],"gpus":0.0005}' 'finer than a thousandth'
refused '{"command":["true"],"gpu_memory":"81G"}' '\$.gpu_memory: 81 GiB is more than the largest GPU here has (80 GiB)'
refused '{"command":["true"],"gpus":2,"gpu_memory":"20G"}' 'a GPU memory limit is for a job on a share of one GPU, but gpus is 2'
refused '{"command":["true"],"gpus":0.5,"env":{"CUDA_MPS_ACTIVE_THREAD_PERCENTAGE":"100"}}' 'is set by the daemon'

where() {  # where ID → "NODE/GPU" of a running job
  local r
  r=$(api "$T" GET "/v1/jobs/$1")
  echo "$(json_field node "$r")/$(sed -n 's/.*"gpu_indexes":\[\([0-9,]*\)\].*/\1/p' <<<"$r" | head -1)"
}
envof() {  # envof ID NAME → the value the job saw
  for _ in $(seq 100); do
    grep -q "^$2=" "$DATA/jobs/$1/stdout.log" 2>/dev/null && break
    sleep 0.05
  done
  sed -n "s/^$2=//p" "$DATA/jobs/$1/stdout.log"
}
ENV_SLEEP='["sh","-c","env; exec sleep 600"]'

a=$("$BOREAS" submit --parsable --gpus 0.5 -- sh -c 'env; exec sleep 600')  # the CLI's flag
b=$(submit "$T" "{\"command\":$ENV_SLEEP,\"gpus\":0.5}")
wait_state "$T" "$a" running
wait_state "$T" "$b" running
[ "$(where "$a")" = "$(where "$b")" ] || fail "two halves on $(where "$a") and $(where "$b"), not one GPU"
[ "$(envof "$a" CUDA_VISIBLE_DEVICES)" = "$(envof "$b" CUDA_VISIBLE_DEVICES)" ] || fail "CUDA_VISIBLE_DEVICES differ"
for j in "$a" "$b"; do
  [ "$(envof "$j" CUDA_MPS_ACTIVE_THREAD_PERCENTAGE)" = 50 ] || fail "job $j: MPS percentage $(envof "$j" CUDA_MPS_ACTIVE_THREAD_PERCENTAGE)"
  [ "$(envof "$j" CUDA_MPS_PINNED_DEVICE_MEM_LIMIT)" = 0=40G ] || fail "job $j: memory limit $(envof "$j" CUDA_MPS_PINNED_DEVICE_MEM_LIMIT)"
  [ "$(envof "$j" BOREAS_GPU_MEMORY_BYTES)" = 42949672960 ] || fail "job $j: memory bytes $(envof "$j" BOREAS_GPU_MEMORY_BYTES)"
done
SHARED=$(where "$a")
c=$(submit "$T" "{\"command\":$ENV_SLEEP,\"gpus\":0.5}")  # the shared GPU is full: another GPU
wait_state "$T" "$c" running
C_GPU=$(where "$c")
[ "$C_GPU" != "$SHARED" ] || fail "a third half joined the full GPU $SHARED"

# Whole GPUs fill the rest (4 on the other node, then the 2 left beside the shares).
y=$(submit "$T" '{"command":["sleep","600"],"gpus":4}')
wait_state "$T" "$y" running
x=$(submit "$T" '{"command":["sleep","600"],"gpus":2}')
wait_state "$T" "$x" running
# A whole GPU job waits although C's GPU has half its compute and memory free.
w=$(submit "$T" '{"command":["sleep","600"],"gpus":1}')
# 60 GiB would over-commit C's GPU (40 GiB left): it waits too, saying why.
e=$(submit "$T" "{\"command\":$ENV_SLEEP,\"gpus\":0.25,\"gpu_memory\":\"60G\"}")
sleep 0.4
r=$(api "$T" GET "/v1/jobs/$w")
[ "$(json_field state "$r")" = pending ] || fail "a whole-GPU job started beside shares: $r"
r=$(api "$T" GET "/v1/jobs/$e")
[ "$(json_field state "$r")" = pending ] && grep -q 'no fit: no undrained GPU has room for 0.25 GPU with 60 GiB' <<<"$r" ||
  fail "a 60 GiB share did not wait for room: $r"
"$BOREAS" jobs | grep -q " 0.25/61440M " || fail "boreas jobs does not show the share: $("$BOREAS" jobs)"

# kill -9 and restart: the running shares are held again (else C's GPU would look free to E).
stop_daemon KILL
start_daemon
export BOREAS_SERVER=$URL
for j in "$a" "$b" "$c" "$x" "$y"; do wait_state "$T" "$j" running; done
api "$T" POST "/v1/jobs/$w/cancel" >/dev/null
sleep 0.4
[ "$(json_field state "$(api "$T" GET "/v1/jobs/$e")")" = pending ] || fail "after a restart the 60 GiB share started"
"$BOREAS" why "$a" | grep -q "sharing 0.5 GPU and 40 GiB of its memory" ||
  fail "boreas why does not show the share: $("$BOREAS" why "$a")"

# Cancelling C frees its share: E takes that GPU, with its own limits.
api "$T" POST "/v1/jobs/$c/cancel" >/dev/null
wait_state "$T" "$e" running
[ "$(where "$e")" = "$C_GPU" ] || fail "E runs on $(where "$e"), not the GPU C left ($C_GPU)"
[ "$(envof "$e" CUDA_MPS_ACTIVE_THREAD_PERCENTAGE)" = 25 ] && [ "$(envof "$e" CUDA_MPS_PINNED_DEVICE_MEM_LIMIT)" = 0=60G ] ||
  fail "E's limits: $(envof "$e" CUDA_MPS_ACTIVE_THREAD_PERCENTAGE) $(envof "$e" CUDA_MPS_PINNED_DEVICE_MEM_LIMIT)"

# Quotas: a share counts milli/1000 GPU against its queue's ceiling (`capped`: 2 GPUs), so four
# halves run and the fifth waits saying so.
stop_daemon KILL
kill_jobs
DATA=$WORK/data2 PORT=0
start_daemon --queues "$SRC/tests/server/queues.yaml"
T=$(token admin '*' root)
halves=()
for _ in 1 2 3 4 5; do
  halves+=("$(submit "$T" '{"command":["sleep","600"],"gpus":0.5,"queue":"capped"}')")
done
for j in "${halves[@]:0:4}"; do wait_state "$T" "$j" running; done
sleep 0.3
r=$(api "$T" GET "/v1/jobs/${halves[4]}/why")
[ "$(json_field state "$r")" = pending ] && grep -q 'quota-exceeded: queue capped holds 2000 milli-GPU; 500 more would pass its ceiling of 2000' <<<"$r" ||
  fail "a fifth half in a 2-GPU queue did not wait for its quota: $r"
echo "live sharing: ok — two halves share $SHARED (MPS 50 %, 0=40G), a third takes $C_GPU, whole jobs and an over-committing share wait, shares survive kill -9, a cancelled share's GPU is reused, four halves fill a 2-GPU ceiling"
