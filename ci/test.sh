#!/usr/bin/env bash
# Installs what is missing, builds (clang; gcc too, to keep both warning-clean) and runs the test suite.
set -euo pipefail
cd "$(dirname "$0")/.."
bash ci/build.sh build
echo "== gcc build (warnings are errors) =="
cmake -S . -B build-gcc -G Ninja -DCMAKE_C_COMPILER=gcc >/dev/null
ninja -C build-gcc >/dev/null
echo "== tests =="
ctest --test-dir build --output-on-failure -j2
