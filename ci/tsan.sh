#!/usr/bin/env bash
# ThreadSanitizer build and run of the correct adapters (not a ctest: it needs its own build).
# Usage: ci/tsan.sh [BUILD_DIR] [SECONDS_PER_ADAPTER]
#
# Covered: every adapter expected to be linearizable whose code is ours (adapters/correct and the correct
# twins in adapters/buggy), driven by the real runner and recorder, so races in the harness show up too.
# Not covered: ck_* and urcu_* (Concurrency Kit's ck_pr uses inline assembly that TSan cannot see, and
# liburcu is a prebuilt uninstrumented library: both give false reports) and the known-buggy adapters
# (their bugs are atomicity violations on _Atomic fields, invisible to TSan by design).
set -euo pipefail
cd "$(dirname "$0")/.."
bash ci/deps.sh
dir=${1:-build-tsan}
secs=${2:-2}
cmake -S . -B "$dir" -G Ninja -DCMAKE_C_COMPILER=clang -DLINFUZZ_TSAN=ON >/dev/null
ninja -C "$dir" -j2 linfuzz test_runtime >/dev/null
export TSAN_OPTIONS="halt_on_error=1 exitcode=66 ${TSAN_OPTIONS:-}"
"$dir/bin/test_runtime" >/dev/null
adapters=$("$dir/bin/linfuzz" adapters | awk '$3 == "yes" && $1 !~ /^(ck|urcu)_/ {print $1}')
failed=0
for a in $adapters; do
  if "$dir/bin/linfuzz" stress "$a" --seconds "$secs" --threads 4 --ops 60 --seed 1 -q --out "${TMPDIR:-/tmp}"; then
    echo "tsan: $a clean"
  else
    echo "tsan: $a FAILED (exit $?)"
    failed=1
  fi
done
exit $failed
