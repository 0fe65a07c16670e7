#!/usr/bin/env bash
# The one list of Debian packages Boreas needs to build, test and benchmark.
# Installs only what is missing; with everything present it touches no network.
set -euo pipefail

PACKAGES=(
  build-essential cmake ninja-build pkg-config git
  clang libclang-rt-14-dev clang-format
  libyaml-cpp-dev nlohmann-json3-dev libfmt-dev libcli11-dev zlib1g-dev
  libgtest-dev libgmock-dev libbenchmark-dev
  libsqlite3-dev libcpp-httplib-dev libssl-dev prometheus curl sqlite3
  libglpk-dev  # the hetero placement's LP (Gavel-style max-min allocation)
  chromium  # the HTML report's browser test (headless, driven by web/'s playwright-core)
  slurmctld slurmd slurm-client munge  # the Slurm executor's tests: a private cluster (tests/slurm/cluster.sh)
)
# The report inlines its charting library from npm at build time; keep a node that is already there.
if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
  PACKAGES+=(nodejs npm)
fi

missing=()
for pkg in "${PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$pkg")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi

echo "install-deps: installing ${missing[*]}" >&2
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
