#!/usr/bin/env bash
# The main job: the digital twin on the bundled Philly trace (82,247 real jobs): strict FIFO, EASY
# backfilling, Tiresias' 2D-LAS and the quota-aware `boreas` policy on the Philly-sized cluster, then the report;
# then the same trace on the hybrid-cooled cluster, best-fit `pack` against thermal-aware `cool`.
set -euo pipefail
build=${1:-build}
out=${OUT:-out/demo}
cluster=examples/clusters/philly.yaml
trace=data/traces/philly-sia/philly.csv.gz
echo "== boreas sim: $trace on $cluster"
# Four policies side by side, with the Philly virtual clusters as queues (10% of jobs marked
# production, seeded), every physical model on (throughput, communication, power, heat, failures,
# checkpoints, cost; docs/models.md) and best-fit placement.
"$build/boreas" sim --cluster "$cluster" --trace "$trace" --queues examples/queues/philly-vcs.yaml \
  --production-fraction 0.1 --seed 1 --physics all --placement pack \
  --policy fifo,easy-backfill,las,boreas --out "$out" \
  --report "$out/report.html" --schedule-trace "$out/schedule.json"
echo
hybrid=examples/clusters/hybrid.yaml
echo "== boreas sim: $trace on $hybrid, fifo with pack and with cool placement"
for placement in pack cool; do
  "$build/boreas" sim --cluster "$hybrid" --trace "$trace" --seed 1 --physics all --policy fifo \
    --placement "$placement" --out "$out-hybrid/$placement" | sed -n 2p
done
"$build/boreas" report "$out-hybrid/pack" "$out-hybrid/cool" -o "$out-hybrid/report.html" \
  --title "Philly on hybrid.yaml: pack vs cool"
echo
echo "Outputs:"
echo "  $out/<policy>/summary.json, jobs.csv, timeseries.csv, runs.csv (docs/formats/sim-output.md)"
echo "  $out/report.html      open in a browser (self-contained, works offline)"
echo "  $out/schedule.json    open in https://ui.perfetto.dev or chrome://tracing"
echo "  $out-hybrid/report.html  the hybrid-cooled cluster: throttling, energy and JCT, pack vs cool"
