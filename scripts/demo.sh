#!/usr/bin/env bash
# The main job. Until the simulator lands this prints the flagship cluster's summary.
set -euo pipefail
build=${1:-build}
"$build/boreas" cluster show examples/clusters/hybrid.yaml
