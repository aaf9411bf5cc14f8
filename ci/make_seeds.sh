#!/usr/bin/env bash
# Regenerates the committed seed inputs of the fuzz targets, corpus/<adapter>/seeds/ (linfuzz-make-seeds).
# Usage: ci/make_seeds.sh [BUILD_DIR]      (default build; the build must have the fuzz targets, i.e. clang)
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${1:-build}
[ -x "$dir/bin/linfuzz-make-seeds" ] || bash ci/build.sh "$dir" >/dev/null
"$dir/bin/linfuzz-make-seeds" corpus
