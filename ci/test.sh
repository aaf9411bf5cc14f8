#!/usr/bin/env bash
# Installs what is missing, builds and runs the test suite: the clang build's tests, a gcc build (warnings are
# errors in both), the whole suite again under AddressSanitizer + UndefinedBehaviorSanitizer, a short
# fuzzing run of linfuzz's own parsers and engines (ci/fuzz_self.sh), and a ThreadSanitizer build running the
# correct adapters through the real runner (ci/tsan.sh). Each build shows its progress on one line of stderr.
# docs/ci.md has the figures.
#
# Usage: ci/test.sh      LINFUZZ_BUILD_DIR=dir ci/test.sh builds in dir, dir-gcc, dir-asan, dir-tsan (default build)
set -euo pipefail
cd "$(dirname "$0")/.."
source ci/lib.sh
ci_no_args "$@"
b=${LINFUZZ_BUILD_DIR:-build}
bash ci/deps.sh --browser # chromium too: the HTML pages are tested in it (test_html_browser)
for d in "$b" "$b-gcc" "$b-asan" "$b-tsan"; do ci_build_dir "$d"; done
echo "== clang build (warnings are errors) =="
bash ci/build.sh "$b"
echo "== gcc build (warnings are errors) =="
ci_build "$b-gcc" -DCMAKE_C_COMPILER=gcc
echo "== sanitizer build (ASan + UBSan) =="
ci_build "$b-asan" -DLINFUZZ_SANITIZE=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo
echo "== tests under ASan + UBSan =="
# (the cflite test builds on its own, whatever the build: it runs once, with the clang build's tests; the
# browser test runs Chromium on the pages, which the sanitizers do not look into: once too)
ctest --test-dir "$b-asan" --output-on-failure -j2 -LE 'cflite|browser'
echo "== fuzzing linfuzz's own parsers and engines (ASan + UBSan, short budget) =="
bash ci/fuzz_self.sh --build "$b-asan" 20
echo "== ThreadSanitizer: the correct adapters through the runner =="
bash ci/tsan.sh "$b-tsan" 2
echo "== tests =="
ctest --test-dir "$b" --output-on-failure -j2
