#!/usr/bin/env bash
# Installs what is missing, builds and runs the test suite: the clang build's tests, a gcc build (warnings are
# errors in both), the whole suite again under AddressSanitizer + UndefinedBehaviorSanitizer, a short
# fuzzing run of linfuzz's own parsers and engines (ci/fuzz_self.sh), and a ThreadSanitizer build running the
# correct adapters through the real runner (ci/tsan.sh). Each build shows its progress on one line of stderr.
#
# Every stage runs, whatever an earlier one did (a stage whose build failed is reported as skipped), so one
# run shows every failure; the end is a table of the stages with their times and results, and the tests that
# took more than a third of their ctest timeout. Exit status: 0 when every stage passed, 1 otherwise.
# docs/ci.md has the figures.
#
# Usage: ci/test.sh      LINFUZZ_BUILD_DIR=dir ci/test.sh builds in dir, dir-gcc, dir-asan, dir-tsan (default build)
set -uo pipefail
cd "$(dirname "$0")/.."
source ci/lib.sh
ci_no_args "$@"
b=${LINFUZZ_BUILD_DIR:-build}
for d in "$b" "$b-gcc" "$b-asan" "$b-tsan"; do ci_build_dir "$d"; done

stage_names=() stage_secs=() stage_results=() failed=0
# stage NAME COMMAND...: runs COMMAND as one stage of the run, timed; a failure is recorded, not fatal.
stage() {
  local name=$1 t0=$SECONDS rc
  shift
  echo "== $name =="
  "$@"
  rc=$?
  stage_names+=("$name")
  stage_secs+=($((SECONDS - t0)))
  if [ "$rc" = 0 ]; then
    stage_results+=("passed")
  else
    stage_results+=("FAILED (exit $rc)")
    failed=1
    echo "ci/test.sh: stage '$name' FAILED (exit $rc); going on with the others" >&2
  fi
  return "$rc"
}
# skip NAME WHY: a stage that cannot run (its build failed).
skip() {
  echo "== $1 == skipped: $2"
  stage_names+=("$1")
  stage_secs+=(0)
  stage_results+=("skipped: $2")
  failed=1
}
# The tests of a ctest run (its LastTest.log) that took more than a third of their timeout, one a line.
slow_tests() {
  local dir=$1 log
  log=$(mktemp) || return 0
  cp "$dir/Testing/Temporary/LastTest.log" "$log" 2>/dev/null || { rm -f "$log"; return 0; }
  # (--show-only rewrites LastTest.log: the copy is read)
  ctest --test-dir "$dir" --show-only=json-v1 2>/dev/null | python3 -c '
import json, re, sys
limits = {}
for t in json.load(sys.stdin).get("tests", []):
    for p in t.get("properties", []):
        if p.get("name") == "TIMEOUT":
            limits[t["name"]] = float(p["value"])
log = open(sys.argv[1], errors="replace").read()
times = {m.group(1): 3600 * int(m.group(2)) + 60 * int(m.group(3)) + int(m.group(4))
         for m in re.finditer(r"^.(\S+). time elapsed: (\d+):(\d+):(\d+)$", log, re.M)}
for name, secs in sorted(times.items(), key=lambda x: -x[1]):
    limit = limits.get(name, 1500.0)
    if secs > limit / 3:
        print("%s: %d s of its %d s timeout" % (name, secs, limit))
' "$log" 2>/dev/null
  rm -f "$log"
}
ctest_stage() { # DIR ARGS...: the suite in DIR, every test's time printed by ctest
  local dir=$1 rc
  shift
  ctest --test-dir "$dir" --output-on-failure -j2 "$@"
  rc=$?
  slow_notes+=("$(slow_tests "$dir" | sed "s|^|$dir: |")")
  return "$rc"
}
slow_notes=()

stage "installing what is missing" bash ci/deps.sh --browser # chromium too: the HTML pages are tested in it
clang_ok=0 asan_ok=0
stage "clang build (warnings are errors)" bash ci/build.sh "$b" && clang_ok=1
stage "gcc build (warnings are errors)" ci_build "$b-gcc" -DCMAKE_C_COMPILER=gcc
stage "sanitizer build (ASan + UBSan)" ci_build "$b-asan" -DLINFUZZ_SANITIZE=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo &&
  asan_ok=1
# (the tests labelled once build linfuzz on their own, whatever the build: the cflite build check, the
# add_subdirectory project; the browser test runs Chromium on the pages, which the sanitizers do not look
# into: once too; they run with the clang build's tests)
if [ "$asan_ok" = 1 ]; then
  stage "tests under ASan + UBSan" ctest_stage "$b-asan" -LE 'once|cflite|browser'
  stage "fuzzing linfuzz's own parsers and engines (ASan + UBSan, short budget)" \
    bash ci/fuzz_self.sh --build "$b-asan" 20
else
  skip "tests under ASan + UBSan" "the sanitizer build failed"
  skip "fuzzing linfuzz's own parsers and engines" "the sanitizer build failed"
fi
stage "ThreadSanitizer: the correct adapters through the runner" bash ci/tsan.sh "$b-tsan"
if [ "$clang_ok" = 1 ]; then
  stage "tests" ctest_stage "$b"
else
  skip "tests" "the clang build failed"
fi

echo
echo "== summary =="
echo "| stage | seconds | result |"
echo "|---|---|---|"
for i in "${!stage_names[@]}"; do
  echo "| ${stage_names[$i]} | ${stage_secs[$i]} | ${stage_results[$i]} |"
done
echo "total: $SECONDS s"
notes=$(printf '%s\n' "${slow_notes[@]}" | sed '/^$/d')
if [ -n "$notes" ]; then
  echo "tests that took more than a third of their ctest timeout (on a quiet machine none should):"
  echo "$notes"
fi
if [ "$failed" = 0 ]; then
  echo "ci/test.sh: every stage passed"
else
  echo "ci/test.sh: some stage failed (the table above says which)" >&2
fi
exit "$failed"
