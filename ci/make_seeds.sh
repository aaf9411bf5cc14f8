#!/usr/bin/env bash
# Regenerates the committed seed inputs of the fuzz targets, corpus/<adapter>/seeds/ (linfuzz-make-seeds),
# of every adapter, or of the adapters named.
#
# Usage: ci/make_seeds.sh [--build DIR] [ADAPTER...]
#   --build DIR   the build to use (default $LINFUZZ_BUILD_DIR or build; built when it lacks linfuzz-make-seeds,
#                 which needs clang)
set -euo pipefail
cd "$(dirname "$0")/.."
source ci/lib.sh
ci_help "$@"
dir=${LINFUZZ_BUILD_DIR:-build}
adapters=()
while [ $# -gt 0 ]; do
  case $1 in
    --build) [ $# -ge 2 ] || ci_die "--build needs a directory"; dir=$2; shift ;;
    -*) ci_die "unknown option '$1' (--help lists them)" ;;
    *) adapters+=("$1") ;; # linfuzz-make-seeds refuses a name that is not an adapter of the build
  esac
  shift
done
ci_use_build "$dir" linfuzz-make-seeds
"$dir/bin/linfuzz-make-seeds" corpus "${adapters[@]}"
