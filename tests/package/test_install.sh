#!/usr/bin/env bash
# The installed package, from a clean prefix, as a user's project sees it (docs/writing-an-adapter.md):
#   1. `cmake --install BUILD --prefix P` puts the linfuzz command, the headers, the static libraries, the
#      harness object, the CMake package and linfuzz.pc in place;
#   2. a program that only checks histories builds against it with find_package(linfuzz) + linfuzz::engines,
#      and with pkg-config, and gives the right verdicts;
#   3. the example project (docs/example: a bounded MPMC queue) builds against it with
#      linfuzz_add_fuzz_target: its buggy build (BQ_BUG) finds the bug and writes an entry that
#      `fuzz_bounded_queue repro`, `show` and `triage` handle; its correct build stays clean.
# Part 3 needs the harness, i.e. a package built with clang.
# Usage: test_install.sh BUILD_DIR SOURCE_DIR C_COMPILER
set -uo pipefail
source "$(dirname "$0")/../lib.sh"
BUILD=$1 SRC=$2 CC=$3
P=$tmp/prefix
gen=()
command -v ninja >/dev/null && gen=(-G Ninja)

# ---- 1. install ----
expect_rc 0 "cmake --install into an empty prefix" cmake --install "$BUILD" --prefix "$P"
for f in bin/linfuzz include/linfuzz/linfuzz.h include/linfuzz/adapter.h include/linfuzz/version.h \
         lib/liblinfuzz_engines.a lib/liblinfuzz_runtime.a lib/liblinfuzz_cli.a lib/cmake/linfuzz/linfuzzConfig.cmake \
         lib/cmake/linfuzz/linfuzzConfigVersion.cmake lib/cmake/linfuzz/linfuzzTargets.cmake \
         lib/cmake/linfuzz/linfuzz_fuzz_target.cmake lib/pkgconfig/linfuzz.pc share/doc/linfuzz/LICENSE; do
  check "installed: $f" test -e "$P/$f"
done
version=$(sed -n 's/^#define LF_VERSION "\(.*\)"/\1/p' "$SRC/include/linfuzz/version.h")
expect_rc 0 "the installed linfuzz runs" "$P/bin/linfuzz" --version
has "$tmp/out" "linfuzz $version" "linfuzz --version"
expect_rc 1 "the installed linfuzz checks a history" "$P/bin/linfuzz" check "$SRC/tests/data/monitor_cases/Q2.hist"
# nothing of the build or source tree is needed any more: the package names only the prefix
check "the CMake package does not point into the build tree" bash -c "! grep -rq '$BUILD' '$P/lib/cmake/linfuzz'"

# ---- 2. a program that checks histories ----
good=$SRC/tests/data/monitor_cases/Q1.hist bad_h=$SRC/tests/data/monitor_cases/Q2.hist
expect_rc 1 "(test data: Q2 is a violation)" "$P/bin/linfuzz" check -q "$bad_h"
expect_rc 0 "(test data: Q1 is linearizable)" "$P/bin/linfuzz" check -q "$good"
expect_rc 0 "configure a consumer with find_package(linfuzz CONFIG)" \
  cmake -S "$SRC/tests/package" -B "$tmp/consumer" "${gen[@]}" -DCMAKE_C_COMPILER="$CC" -DCMAKE_PREFIX_PATH="$P"
expect_rc 0 "build it (linfuzz::engines)" cmake --build "$tmp/consumer"
expect_rc 1 "it checks histories" "$tmp/consumer/check_history" "$good" "$bad_h"
has "$tmp/out" "Q1.hist: linearizable" "its verdict on a linearizable history"
has "$tmp/out" "Q2.hist: violation" "its verdict on a violation"
has "$tmp/out" "linfuzz $version" "it sees the installed version"
if command -v pkg-config >/dev/null; then
  flags=$(PKG_CONFIG_PATH=$P/lib/pkgconfig pkg-config --cflags --libs linfuzz)
  check "pkg-config knows linfuzz $version" bash -c "PKG_CONFIG_PATH='$P/lib/pkgconfig' pkg-config --modversion linfuzz | grep -qx '$version'"
  # shellcheck disable=SC2086  # flags are words
  expect_rc 0 "build it with pkg-config ($flags)" "$CC" -std=c11 -o "$tmp/check_pc" "$SRC/tests/package/check_history.c" $flags
  expect_rc 0 "the pkg-config build checks a history" "$tmp/check_pc" "$good"
else
  bad "pkg-config is missing (ci/deps.sh installs pkgconf)"
fi

# ---- 3. the example project: a libFuzzer target of the user's own adapter ----
if [ ! -e "$P/lib/cmake/linfuzz/link_targets.cmake" ] || ! grep -q 'linfuzz::fuzz' "$P/lib/cmake/linfuzz/linfuzzTargets.cmake"; then
  echo "(this package has no libFuzzer harness: built without clang; the example is skipped)"
  finish
fi
for variant in correct buggy; do
  def=OFF; [ $variant = buggy ] && def=ON
  expect_rc 0 "configure the example ($variant) against the installed package" \
    cmake -S "$SRC/docs/example" -B "$tmp/ex-$variant" "${gen[@]}" -DCMAKE_C_COMPILER="$CC" -DCMAKE_PREFIX_PATH="$P" -DBQ_BUG=$def
  expect_rc 0 "build the example ($variant)" cmake --build "$tmp/ex-$variant"
done
T=$tmp/ex-buggy/fuzz_bounded_queue
mkdir -p "$tmp/run-buggy" && cd "$tmp/run-buggy" || exit 1
"$T" -max_total_time=60 -timeout=30 >"$tmp/log-buggy" 2>&1
check "the buggy queue's target stops on a violation" grep -q "linfuzz-fuzz: violation adapter=bounded_queue " "$tmp/log-buggy"
entry=$(ls violations/bounded_queue/*.lfz 2>/dev/null | head -1)
check "its entry is under violations/bounded_queue/ of the working directory" test -n "$entry"
check "libFuzzer wrote the crash input" bash -c "ls crash-* >/dev/null 2>&1"
if [ -n "$entry" ]; then
  expect_rc 1 "fuzz_bounded_queue repro ENTRY (exit 1)" "$T" repro "$entry" --runs 100
  has "$tmp/out" "saved histories are violations" "repro re-checks the saved histories"
  has "$tmp/out" "violation reappeared in" "repro re-runs the workload on the user's adapter"
  expect_rc 0 "fuzz_bounded_queue show ENTRY" "$T" show "$entry"
  has "$tmp/out" "=== LINEARIZABILITY VIOLATION  adapter=bounded_queue  type=queue" "show prints the report"
  expect_rc 1 "fuzz_bounded_queue triage . (a BUG group: exit 1)" "$T" triage .
  # (one group, however many entries: a free finding is saved with its controlled twin, docs/fuzzing.md)
  grep -Eq '^\| 1 \| BUG \| [0-9]+ \| bounded_queue \| queue' "$tmp/out" && ok ||
    bad "triage: not one BUG group of bounded_queue: $(head -c 600 "$tmp/out")"
  has "$tmp/out" "^1 groups from" "triage groups the entries and the crash input as one bug"
  has "$tmp/out" "fuzz_bounded_queue repro .*violations/bounded_queue/" "triage's command reproduces it with the target"
  # the stock linfuzz does not carry the user's adapter: it says so instead of guessing
  "$P/bin/linfuzz" repro "$entry" >"$tmp/stock" 2>&1
  has "$tmp/stock" "adapter 'bounded_queue' is not in this build" "the stock linfuzz re-checks but cannot re-run it"
fi
# the user's sources are compiled for the controlled scheduler (access points, lock redirection) as linfuzz's own
# adapters: a controlled-mode finding replays exactly with the target
mkdir -p "$tmp/run-controlled" && cd "$tmp/run-controlled" || exit 1
# (-seed=1: with controlled runs, the campaign and so the entry that root causing gets are the same every time
# in one build; sc: this is the interleaving bug whose region root causing names, tests/fuzz covers weak ones)
LINFUZZ_FUZZ_MODE=controlled LINFUZZ_MEMORY_MODEL=sc "$T" -seed=1 -max_total_time=60 -timeout=30 >"$tmp/log-controlled" 2>&1
check "in controlled mode too, the buggy queue's target finds it" \
  grep -q "linfuzz-fuzz: violation adapter=bounded_queue .* mode=controlled " "$tmp/log-controlled"
entry=$(ls violations/bounded_queue/*.lfz 2>/dev/null | head -1)
if [ -n "$entry" ]; then
  expect_rc 1 "fuzz_bounded_queue repro CONTROLLED-ENTRY (exit 1)" "$T" repro "$entry" --runs 10
  has "$tmp/out" "replayed exactly: violation again, same history" "the user's target replays its controlled finding exactly"
  has "$tmp/out" "scheduling points" "the replay went through the user's instrumented accesses"
  # root causing names the user's own lines (the target's code under test has debug information), in the function
  # they are in, with the op
  "$T" rootcause --schedules 300 "$entry" >"$tmp/rootcause" 2>&1
  # (alone, or joined with a second region of it when the first alone was refuted: docs/rootcause.md)
  grep -Eq "^  1\. bq_(enqueue|dequeue)\(\) bounded_queue\.c:[0-9]+-[0-9]+ \(in (enq|deq)\)( and bq_(enqueue|dequeue)\(\) bounded_queue\.c:[0-9]+-[0-9]+ \(in (enq|deq)\))? must be atomic" \
    "$tmp/rootcause" && ok ||
    bad "rootcause does not name a region of bounded_queue.c: $(grep -E '^  [0-9]+\. ' "$tmp/rootcause" | head -3)"
fi
# a target of one adapter under another name (fuzz_<anything>) fuzzes its one adapter
ln "$tmp/ex-correct/fuzz_bounded_queue" "$tmp/fuzz_queue_renamed"
expect_rc 0 "a one-adapter target under another name runs" "$tmp/fuzz_queue_renamed" -runs=2
has "$tmp/err" "linfuzz-fuzz: adapter bounded_queue " "it fuzzes its only adapter"
mkdir -p "$tmp/run-correct" && cd "$tmp/run-correct" || exit 1
LINFUZZ_FUZZ_SECONDS=5 "$tmp/ex-correct/fuzz_bounded_queue" -max_total_time=30 >"$tmp/log-correct" 2>&1
rc=$?
check "the correct queue's target stays clean for 5 s (rc $rc)" \
  bash -c "[ $rc = 0 ] && grep -q 'linfuzz-fuzz: summary adapter=bounded_queue .* violations=0 ' '$tmp/log-correct'"
check "and writes no entry" test ! -e violations

[ "$fail" = 0 ] || { echo "--- logs ---"; tail -n 15 "$tmp"/log-*; }
finish
