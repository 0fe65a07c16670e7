#!/usr/bin/env bash
# `boreas cluster import --slurm` from the fixture cluster (4 nodes, 2 leaf switches, 8 h100 each):
# the spec validates and holds 4 nodes, 32 H100-SXM GPUs and 2 racks (one per leaf switch).
set -euo pipefail
: "${BOREAS:?}" "${LAB:?}" "${SLURM_CONF:?}"
out=$LAB/import
mkdir -p "$out"
fail() { echo "FAIL: $*" >&2; exit 1; }

"$BOREAS" cluster import --slurm --slurm-conf "$SLURM_CONF" --name lab --out "$out/lab.yaml"
"$BOREAS" cluster validate "$out/lab.yaml" | grep -q "4 nodes, 32 GPUs" || fail "validate: not 4 nodes, 32 GPUs"
show=$("$BOREAS" cluster show --json "$out/lab.yaml")
totals=$(python3 -c 'import json,sys; t=json.load(sys.stdin)["totals"]; print(t["nodes"], t["gpus"], t["racks"])' <<<"$show")
[ "$totals" = "4 32 2" ] || fail "nodes gpus racks = '$totals', want '4 32 2'"
gpu=$(python3 -c 'import json,sys; print(json.load(sys.stdin)["gpus_by_type"][0]["type"])' <<<"$show")
[ "$gpu" = "H100-SXM" ] || fail "GPU type '$gpu', want H100-SXM (Slurm's GRES type h100)"
grep -q "# slurm nodes: n1,n2" "$out/lab.yaml" || fail "leaf1's nodes not named"

# Loud on a wrong slurm.conf: exit 1 and a message naming the file.
set +e
msg=$("$BOREAS" cluster import --slurm --slurm-conf "$out/missing.conf" --out "$out/x.yaml" 2>&1)
rc=$?
set -e
[ $rc -eq 1 ] || fail "missing slurm.conf: exit $rc, want 1"
grep -q "missing.conf' (--slurm-conf) is not a file" <<<"$msg" || fail "missing slurm.conf: message '$msg'"
[ ! -e "$out/x.yaml" ] || fail "a spec was written although the import failed"
echo "ok: import, validate, 4 nodes / 32 GPUs / 2 racks"
