#!/usr/bin/env bash
# Builds the libFuzzer targets with clang in build-fuzz and runs each for SECONDS (default 10) on
# its corpus in fuzz/corpus/<name>/. New inputs go to build-fuzz/corpus/<name>/ (the repo's corpus
# is only read); a crash leaves build-fuzz/crash-<name>-* and fails the script.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-10}"
build=build-fuzz
flags="-fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer"
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_COMPILER=clang++ \
  -DBOREAS_FUZZ=ON -DCMAKE_CXX_FLAGS="$flags" -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=address,undefined" >/dev/null
cmake --build "$build" --target fuzz_all -j "${JOBS:-$(nproc)}"
for dir in fuzz/corpus/*/; do
  name="$(basename "$dir")"
  mkdir -p "$build/corpus/$name"
  echo "fuzz: $name for ${seconds}s" >&2
  "$build/fuzz/fuzz_$name" -max_total_time="$seconds" -max_len=4096 -timeout=10 -print_final_stats=0 \
    -artifact_prefix="$build/crash-$name-" "$build/corpus/$name" "$dir" 2>"$build/fuzz-$name.log" || {
    tail -40 "$build/fuzz-$name.log" >&2
    echo "fuzz: $name failed; the input is in $build/crash-$name-*" >&2
    exit 1
  }
  grep -E '^#[0-9]+.*DONE' "$build/fuzz-$name.log" | tail -1 >&2 || true
done
