#!/usr/bin/env bash
# linfuzz inside another project's tree (add_subdirectory), as a user vendors it: a tiny parent project with
# `add_subdirectory(linfuzz)` builds a program on linfuzz::engines and, with clang, a libFuzzer target of its own
# adapter (the example's buggy queue) made by linfuzz_add_fuzz_target; the target finds the bug and its
# subcommands work. Only the parent's two targets are built (and what they need), so it stays short.
# Usage: test_add_subdirectory.sh SOURCE_DIR C_COMPILER
set -uo pipefail
source "$(dirname "$0")/../lib.sh"
SRC=$1 CC=$2
gen=()
command -v ninja >/dev/null && gen=(-G Ninja)
fuzz=0
case $(basename "$CC") in clang*) fuzz=1 ;; esac
mkdir -p "$tmp/parent"
{
  echo 'cmake_minimum_required(VERSION 3.20)'
  echo 'project(parent C)'
  echo "add_subdirectory(\"$SRC\" linfuzz)"
  echo "add_executable(check_history \"$SRC/tests/package/check_history.c\")"
  echo 'target_link_libraries(check_history PRIVATE linfuzz::engines)'
  if [ $fuzz = 1 ]; then
    echo "linfuzz_add_fuzz_target(fuzz_bounded_queue SOURCES \"$SRC/docs/example/bounded_queue.c\""
    echo "  \"$SRC/docs/example/bounded_queue_adapter.c\" COMPILE_DEFINITIONS BQ_BUG)"
  fi
} >"$tmp/parent/CMakeLists.txt"
expect_rc 0 "configure a parent project that does add_subdirectory(linfuzz)" \
  cmake -S "$tmp/parent" -B "$tmp/build" "${gen[@]}" -DCMAKE_C_COMPILER="$CC" -DCMAKE_BUILD_TYPE=Release
targets=(check_history)
[ $fuzz = 1 ] && targets+=(fuzz_bounded_queue)
expect_rc 0 "build its targets (${targets[*]})" cmake --build "$tmp/build" --target "${targets[@]}" -j 2
expect_rc 1 "its checking program works" "$tmp/build/check_history" "$SRC/tests/data/monitor_cases/Q2.hist"
has "$tmp/out" "Q2.hist: violation" "the verdict"
check "linfuzz's own tests are not part of the parent's build" test ! -e "$tmp/build/linfuzz/tests"
if [ $fuzz = 1 ]; then
  T=$tmp/build/fuzz_bounded_queue
  cd "$tmp" || exit 1
  "$T" -max_total_time=60 -timeout=30 >"$tmp/log" 2>&1
  check "the parent's fuzz target finds its adapter's bug" grep -q "linfuzz-fuzz: violation adapter=bounded_queue " "$tmp/log"
  entry=$(ls violations/bounded_queue/*.lfz 2>/dev/null | head -1)
  check "the entry is under violations/bounded_queue/ of the working directory" test -n "$entry"
  [ -n "$entry" ] && expect_rc 1 "fuzz_bounded_queue repro ENTRY" "$T" repro "$entry" --runs 20
  expect_rc 0 "fuzz_bounded_queue adapters: it carries the parent's adapter only" "$T" adapters --names
  check "the adapter list is exactly bounded_queue" bash -c "[ \"\$(cat '$tmp/out')\" = bounded_queue ]"
else
  echo "(not clang: the fuzz target part is skipped)"
fi
[ "$fail" = 0 ] || tail -n 20 "$tmp/log" 2>/dev/null
finish
