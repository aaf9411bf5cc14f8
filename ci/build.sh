#!/usr/bin/env bash
# Configures and builds linfuzz with clang into BUILD_DIR (the command ends up at BUILD_DIR/bin/linfuzz),
# installing what is missing first (ci/deps.sh). The build's progress is one line on stderr; its log is
# BUILD_DIR/ci-build.log (printed when the build fails).
#
# Usage: ci/build.sh [BUILD_DIR [CMAKE_ARGS...]]   (default build)
#        e.g. ci/build.sh build-rel -DCMAKE_BUILD_TYPE=Release
#        LINFUZZ_BUILD_JOBS=N ninja's -j;  LINFUZZ_PROGRESS=0 no progress line
set -euo pipefail
cd "$(dirname "$0")/.."
source ci/lib.sh
ci_help "${1:-}"
dir=${1:-build}
ci_build_dir "$dir"
shift || true
for a in "$@"; do [[ $a == -D* || $a == -U* ]] || ci_die "'$a' is not a cmake -D or -U argument"; done
bash ci/deps.sh
ci_build "$dir" "$@"
