#!/usr/bin/env bash
# `boreas sim --param`: an unknown name or a value out of range exits 1 naming it (with a
# suggestion); a doubled energy price reaches the cost model (cost_usd grows by the energy cost).
set -euo pipefail
boreas=$1 src=$2 work=$3
rm -rf "$work" && mkdir -p "$work"
sim=("$boreas" sim --cluster "$src/examples/clusters/hybrid-512.yaml" --trace "$src/data/peer-cases/synth1000.csv"
  --policy fifo --physics all --seed 3)
if "${sim[@]}" --param thermal.inlet_rise=2 >"$work/unknown.txt" 2>&1; then
  echo "an unknown --param name was accepted"; exit 1
fi
grep -q "unknown parameter 'thermal.inlet_rise'; did you mean 'thermal.inlet_rise_c_per_kw'?" "$work/unknown.txt"
if "${sim[@]}" --param power.min_clock=3 >"$work/range.txt" 2>&1; then
  echo "an out-of-range --param value was accepted"; exit 1
fi
grep -q "min_clock must be in" "$work/range.txt"
"${sim[@]}" --out "$work/base" >/dev/null 2>&1
"${sim[@]}" --param cost.energy_usd_per_kwh=0.2 --out "$work/double" >/dev/null 2>&1
# cost = GPU-hours x price + facility kWh x energy price: doubling the price adds kWh x 0.10 $.
python3 - "$work/base/fifo/summary.json" "$work/double/fifo/summary.json" <<'PY'
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
expect = a["cost_usd"] + a["energy_facility_kwh"] * 0.10
assert a["energy_facility_kwh"] > 0, "no energy integrated"
assert abs(b["cost_usd"] - expect) < 1e-6 * expect, (a["cost_usd"], b["cost_usd"], expect)
assert b["avg_jct_s"] == a["avg_jct_s"], "the energy price must not move the schedule"
PY
