#!/usr/bin/env bash
# Benchmark (not a test): the self-spec (an adapter's own serial behaviour as its specification, after Line-Up)
# against the spec of the adapter's type, on the same histories of fuzz cases made as the fuzz targets make
# them (seed inputs under structured mutations, each run `repeats` times). Prints per adapter the median check
# time per fuzz case of both (thread CPU time), their ratio, the self-spec without the hitting families, the
# verdicts' agreement, which stage of the self-spec decided the linearizable histories (families at depth 1, 2,
# 3 under the default rule, or the complete search) and the ops run on the adapter per check; then, over all
# adapters, the share each depth of the families decides alone (no size or work limit).
# Usage: ci/bench_selfspec.sh [BUILD_DIR [linfuzz-bench-selfspec options: --cases N --seed S --adapters a,b
#        --depth D --work F --size S --no-alone]]
# Builds BUILD_DIR (default build-bench, Release) first. Timing-sensitive: compare figures of one run only.
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${1:-build-bench}
shift || true
if [ ! -f "$dir/build.ninja" ]; then
  cmake -S . -B "$dir" -G Ninja -DCMAKE_C_COMPILER=clang -DCMAKE_BUILD_TYPE=Release >/dev/null
fi
ninja -C "$dir" -j2 linfuzz-bench-selfspec >/dev/null
"$dir/bin/linfuzz-bench-selfspec" "$@"
