#!/usr/bin/env bash
# Benchmark (not a test): `--engine auto` (monitor -> hitting families -> WGL) against `--engine wgl`, on
# small highly concurrent ambiguous histories of every type and on the etcd suite; prints one table row per
# class: time of each engine, how many parts each stage decided, histories where auto was > 1.5x slower,
# and the share of linearizable histories that the hitting families alone prove at depth <= d; --explore adds
# the table behind the pipeline's hitting rule (tiny histories per type and size: no families, families on
# every part, default rule).
# Usage: ci/bench_pipeline.sh [BUILD_DIR [bench_pipeline options: --per-class N --reps R --depth D --work F
#        --depth-curve D --csv FILE --explore]] (--depth and --work override the pipeline's hitting depth and work factor)
# Builds BUILD_DIR (default build-bench, Release) first. Run it on a quiet machine: it is timing-sensitive.
set -euo pipefail
cd "$(dirname "$0")/.."
source ci/lib.sh
ci_help "$@"
dir=build-bench
if [ $# -gt 0 ] && [[ $1 != -* ]]; then # the build directory, then the options of bench_pipeline
  dir=$1
  shift
fi
ci_build_dir "$dir"
ci_build "$dir" --target=linfuzz-bench-pipeline -DCMAKE_BUILD_TYPE=Release
"$dir/bin/linfuzz-bench-pipeline" --etcd "$(pwd)/tests/data/etcd" "$@"
