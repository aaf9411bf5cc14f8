#!/usr/bin/env bash
# Benchmark (not a test): the self-spec (an adapter's own serial behaviour as its specification, after Line-Up)
# against the spec of the adapter's type, on the same histories of fuzz cases made as the fuzz targets make
# them (seed inputs under structured mutations, each run `repeats` times). Prints per adapter the median check
# time per fuzz case of both (thread CPU time), their ratio, the self-spec without the hitting families, the
# verdicts' agreement, which stage of the self-spec decided the linearizable histories (families at depth 1, 2,
# 3 under the default rule, or the complete search) and the ops run on the adapter per check; then, over all
# adapters, the share each depth of the families decides alone (no size or work limit).
# Usage: ci/bench_selfspec.sh [BUILD_DIR] [--cases N] [--seed S] [--adapters a,b,...] [--depth D] [--work F]
#        [--size S] [--no-alone]   (--depth, --work, --size: the self-spec's families rule under study)
# Builds BUILD_DIR (default build-bench, Release) first. Timing-sensitive: compare figures of one run only.
set -euo pipefail
cd "$(dirname "$0")/.."
source ci/lib.sh
ci_help "$@"
dir=build-bench
if [ $# -gt 0 ] && [[ $1 != -* ]]; then # the build directory, then the benchmark's options
  dir=$1
  shift
fi
args=("$@")
while [ $# -gt 0 ]; do
  case $1 in
    --cases | --seed | --depth | --work | --size)
      [ $# -ge 2 ] || ci_die "$1 needs a value"
      [[ $2 =~ ^[0-9]+$ ]] || ci_die "$1 takes a whole number, not '$2'"
      shift 2 ;;
    --adapters)
      [[ ${2:-} =~ ^[a-z0-9_,-]+$ ]] || ci_die "--adapters takes a comma-separated list of adapters, not '${2:-}'"
      shift 2 ;;
    --no-alone) shift ;;
    *) ci_die "unknown option '$1' (--help says what it takes)" ;;
  esac
done
ci_build_dir "$dir"
ci_build "$dir" --target=linfuzz-bench-selfspec -DCMAKE_BUILD_TYPE=Release
"$dir/bin/linfuzz-bench-selfspec" "${args[@]}"
