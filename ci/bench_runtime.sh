#!/usr/bin/env bash
# Recorder ns per event (ticket and TSC clocks) and workloads per second, for 2, 4 and 8 threads.
# Usage: ci/bench_runtime.sh [BUILD_DIR] [SECONDS_PER_MEASUREMENT]   (not a test; Release build)
set -euo pipefail
cd "$(dirname "$0")/.."
bash ci/deps.sh
dir=${1:-build}
secs=${2:-2}
cmake -S . -B "$dir" -G Ninja -DCMAKE_C_COMPILER=clang >/dev/null
ninja -C "$dir" -j2 linfuzz-bench-runtime >/dev/null
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
"$dir/bin/linfuzz-bench-runtime" "$secs"
