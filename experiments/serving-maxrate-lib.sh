# Shared by experiments/serving-{batching,routers,l4-h100}.sh (sourced): max rate at SLO of one
# service spec on one trace window, appended to a results CSV as ARM,WINDOW,VALUE.
# A window where the SLO fails at every rate (the search's error, kept in DIR/error.txt) counts 0.
# max_rate ARM WINDOW SPEC TRACE CLUSTER OUT_DIR [extra boreas args...]
max_rate() {
  local arm=$1 window=$2 spec=$3 trace=$4 cluster=$5 out=$6
  shift 6
  local dir="$out/$arm/${window/:/-}"
  mkdir -p "$dir"
  if ! "$boreas" sim serving --cluster "$cluster" --service "$spec" --trace "$trace" --trace-window "$window" \
    --find-max-rate --out "$dir" "$@" >/dev/null 2>"$dir/error.txt"; then
    grep -q "misses its SLO even at" "$dir/error.txt" || { cat "$dir/error.txt" >&2; exit 1; }
    echo "$arm,$window,0" >>"$out/results.csv"
    return
  fi
  python3 -c 'import json,sys; print(sys.argv[2] + "," + sys.argv[3] + "," + str(json.load(open(sys.argv[1]))["max_rate_rps"]))' \
    "$dir/summary.json" "$arm" "$window" >>"$out/results.csv"
}
