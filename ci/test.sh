#!/usr/bin/env bash
# Installs what is missing, builds and runs the test suite: the clang build's tests, a gcc build (warnings are
# errors in both), the whole suite again under AddressSanitizer + UndefinedBehaviorSanitizer, and a short
# fuzzing run of linfuzz's own parsers and engines (ci/fuzz_self.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
bash ci/build.sh build
echo "== gcc build (warnings are errors) =="
cmake -S . -B build-gcc -G Ninja -DCMAKE_C_COMPILER=gcc >/dev/null
ninja -C build-gcc >/dev/null
echo "== sanitizer build (ASan + UBSan) =="
cmake -S . -B build-asan -G Ninja -DCMAKE_C_COMPILER=clang -DLINFUZZ_SANITIZE=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
ninja -C build-asan >/dev/null
echo "== tests under ASan + UBSan =="
ctest --test-dir build-asan --output-on-failure -j2
echo "== fuzzing linfuzz's own parsers and engines (ASan + UBSan, short budget) =="
BUILD=build-asan bash ci/fuzz_self.sh 20
echo "== tests =="
ctest --test-dir build --output-on-failure -j2
