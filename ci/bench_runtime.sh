#!/usr/bin/env bash
# Recorder ns per event (ticket and TSC clocks) and workloads per second, for 2, 4 and 8 threads.
# Usage: ci/bench_runtime.sh [BUILD_DIR [SECONDS_PER_MEASUREMENT]]   (default build, 2; not a test)
set -euo pipefail
cd "$(dirname "$0")/.."
source ci/lib.sh
ci_help "$@"
[ $# -le 2 ] || ci_die "unexpected argument '$3' (--help says what it takes)"
dir=${1:-build}
secs=${2:-2}
ci_build_dir "$dir"
ci_seconds SECONDS_PER_MEASUREMENT "$secs"
bash ci/deps.sh
ci_build "$dir" --target=linfuzz-bench-runtime
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
"$dir/bin/linfuzz-bench-runtime" "$secs"
