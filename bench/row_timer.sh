# Sourced by bench/quota_rows.sh and bench/policy_rows.sh (from the repository root).
# rows_args DEFAULT_OUT [BOREAS] [OUTDIR] [RUNS] [ROWS] sets bin, out, runs and only from the
# script's arguments, and cluster, trace and vcs to full Philly with its virtual clusters.
rows_args() {
  bin=${2:-build/boreas}
  out=${3:-$1}
  runs=${4:-3}
  only=${5:-.}
  cluster=examples/clusters/philly.yaml
  trace=data/traces/philly-sia/philly.csv.gz
  vcs=examples/queues/philly-vcs.yaml
  mkdir -p "$out"
}

# row NAME ARGS... times `$bin sim
# --cluster $cluster --trace $trace --out $out/NAME ARGS...` $runs times (when NAME matches the
# regex $only) and prints the median user+sys CPU seconds, each run's CPU and peak RSS, and the
# load average at the end. The sim's outputs of the last run stay in $out/NAME. With
# BOREAS_BENCH_CPU set (a CPU list for taskset), every run is pinned there: the development VM's two
# vCPUs differ by ~40% in speed (docs/PERFORMANCE.md, "Rows after session 12's merges"), so A/B
# pairs compare only on one of them.
row() {
  local name=$1; shift
  [[ $name =~ $only ]] || return 0
  local times=() pin=()
  [[ -n ${BOREAS_BENCH_CPU:-} ]] && pin=(taskset -c "$BOREAS_BENCH_CPU")
  for _ in $(seq "$runs"); do
    rm -rf "${out:?}/$name"
    /usr/bin/time -o "$out/time" -f "%U %S %M" "${pin[@]}" "$bin" sim --cluster "$cluster" --trace "$trace" --out "$out/$name" "$@" \
      >/dev/null 2>"$out/stderr" || { cat "$out/stderr" >&2; exit 1; }
    times+=("$(tail -1 "$out/time" | awk '{printf "%.2f %d", $1 + $2, $3 / 1024}')")
  done
  printf '%-32s %s   (cpu_s rss_mib per run: %s; load %s)\n' "$name" \
    "$(printf '%s\n' "${times[@]}" | sort -n | awk '{a[NR]=$1} END {print a[int((NR + 1) / 2)] " s"}')" \
    "$(IFS=,; echo "${times[*]}")" "$(cut -d' ' -f1 /proc/loadavg)"
}
