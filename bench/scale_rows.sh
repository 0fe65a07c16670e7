#!/usr/bin/env bash
# The scale rows of issue 23, timed: user+sys CPU seconds and peak RSS (one run each unless RUNS)
# of `boreas sim` on synthetic Philly-preset traces (`boreas trace synth --preset philly --seed 1`)
# on uniform V100 clusters of 8-GPU nodes, 32 per rack, with five queues (the preset's tenants)
# each guaranteed a fifth of the cluster.
# Usage: bench/scale_rows.sh [BOREAS] [OUTDIR] [ROWS] [RUNS] [LIMIT_S]
#   ROWS is a regex over the row names (default: all):
#   flat-<policy>-<gpus>      100k jobs at offered load 0.5 (`--load`; 100k jobs cannot offer 0.8 of
#                             99,840 GPUs: the longest job outlasts the span) on 512 / 5,120 /
#                             51,200 / 99,840 GPUs (fifo, las, boreas)
#   jobs-<policy>-<n>         10k / 100k / 1M jobs arriving every 0.536 s on average (offered load
#                             ≈ 0.8 of 99,840 GPUs once the cluster has filled), pack (growth in jobs)
#   physics-fifo-<n>          10k / 100k / 1M jobs, fifo, pack, --physics all (against jobs-fifo-<n>:
#                             within 3× of physics none, and growth in jobs)
# A run past LIMIT_S (default 600) seconds is stopped and reported as "> LIMIT_S s".
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-build/boreas}
out=${2:-/tmp/boreas-scale-rows}
only=${3:-.}
runs=${4:-1}
limit=${5:-600}
mkdir -p "$out"

trace_of() {  # jobs [mean inter-arrival s] -> path, made once
  local path="$out/synth-$1${2:+-every-$2}.jsonl.gz"
  [[ -f $path ]] || "$bin" trace synth "$path" --preset philly --jobs "$1" --seed 1 ${2:+--mean-interarrival "$2"} >/dev/null
  echo "$path"
}

cluster_of() {  # gpus -> path of a cluster spec and, beside it, its queues
  local gpus=$1 path="$out/cluster-$1.yaml"
  if [[ ! -f $path ]]; then
    printf 'name: uniform-%s\nzones:\n  - {name: main, cooling: air, inlet_c: 24, pue: 1.5}\ngroups:\n' "$gpus" >"$path"
    printf '  - {name: v100, count: %s, gpu: V100-16G, gpus_per_node: 8, nvlink: true, nodes_per_rack: 32, cpus: 64, memory_gib: 512}\n' \
      "$((gpus / 8))" >>"$path"
    printf 'queues:\n' >"$out/queues-$gpus.yaml"
    for q in 6214e9 11cb48 6c71a0 b436b2 other; do
      printf "  - {name: '%s', quotas: [{gpu: '*', guaranteed: %s}]}\n" "$q" "$((gpus / 5))" >>"$out/queues-$gpus.yaml"
    done
  fi
  echo "$path"
}

row() {  # name jobs inter-arrival ('' = the preset's) gpus policy [extra sim flags]
  local name=$1 jobs=$2 every=$3 gpus=$4 policy=$5
  shift 5
  [[ $name =~ $only ]] || return 0
  local trace cluster times=()
  trace=$(trace_of "$jobs" "$every")
  cluster=$(cluster_of "$gpus")
  for _ in $(seq "$runs"); do
    rm -rf "${out:?}/$name"
    if timeout "$limit" /usr/bin/time -o "$out/time" -f "%U %S %M" "$bin" sim --cluster "$cluster" --trace "$trace" \
      --policy "$policy" --queues "$out/queues-$gpus.yaml" --out "$out/$name" "$@" >/dev/null 2>"$out/stderr"; then
      times+=("$(tail -1 "$out/time" | awk '{printf "%.2f s %d MiB", $1 + $2, $3 / 1024}')")
    elif [[ $? == 124 ]]; then
      times+=("> $limit s")
    else
      cat "$out/stderr" >&2
      exit 1
    fi
  done
  printf '%-28s %s\n' "$name" "$(IFS=,; echo "${times[*]}")"
}

for policy in fifo las boreas; do
  for gpus in 512 5120 51200 99840; do
    row "flat-$policy-$gpus" 100000 '' "$gpus" "$policy" --load 0.5
  done
done
for policy in fifo las boreas; do
  for jobs in 10000 100000 1000000; do
    row "jobs-$policy-$jobs" "$jobs" 0.536 99840 "$policy" --placement pack
  done
done
for jobs in 10000 100000 1000000; do
  row "physics-fifo-$jobs" "$jobs" 0.536 99840 fifo --placement pack --physics all
done
