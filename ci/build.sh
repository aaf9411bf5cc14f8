#!/usr/bin/env bash
# Configures and builds linfuzz with clang into build/ (the command ends up at build/bin/linfuzz).
# Usage: ci/build.sh [BUILD_DIR [extra cmake args...]]
set -euo pipefail
cd "$(dirname "$0")/.."
bash ci/deps.sh
dir=${1:-build}
shift || true
cmake -S . -B "$dir" -G Ninja -DCMAKE_C_COMPILER=clang "$@" >/dev/null
ninja -C "$dir"
