#!/usr/bin/env bash
# A violation's entry is on disk before its test is minimized (fuzz/fuzz_adapter.c, on_violation): minimizing
# re-runs the code under test, which may crash with no run of the fuzzer's in progress (no CRASH entry then).
# fuzz_crash_in_minimization's counter answers wrong once an object has seen 40 calls and crashes at the next
# create, the first run of the minimization: the process dies there, and the entry must be in the violations
# directory, loading, without a minimized test; the violation line was printed before the minimization.
# Usage: test_early_entry.sh FUZZ_TARGET
set -uo pipefail
source "$(dirname "$0")/../lib.sh"
T=$1
mkdir -p "$tmp/work"
LINFUZZ_FUZZ_MODE=controlled LINFUZZ_VIOLATIONS_DIR="$tmp/v" LINFUZZ_FUZZ_ROOTCAUSE=0 LINFUZZ_CRASH_GRACE_SECONDS=10 \
  "$T" -seed=1 -max_total_time=120 -timeout=60 -artifact_prefix="$tmp/crash-" "$tmp/work" >"$tmp/log" 2>&1
rc=$?
check "the target stops (rc $rc)" test "$rc" -ne 0
has "$tmp/log" "VIOLATION in fuzz_crash_in_minimization" "the violation is found"
has "$tmp/log" "minimizing\.\.\." "its minimization starts"
check "the code crashed in the minimization (no minimized test was reported)" \
  bash -c "grep -q 'deadly signal\|SEGV' '$tmp/log' && ! grep -q 'minimizing the test: test' '$tmp/log'"
n=$(ls "$tmp"/v/*.lfz 2>/dev/null | wc -l)
check "one entry in the violations directory ($n)" test "$n" = 1
e=$(ls "$tmp"/v/*.lfz 2>/dev/null | head -1)
"$T" show --meta "$e" >"$tmp/meta" 2>&1
has "$tmp/meta" "^adapter: crash_in_minimization" "the entry loads and names its adapter"
has "$tmp/meta" "^schedule_mode: controlled" "it records its controlled schedule"
check "it has no minimized test (the crash came first)" bash -c "! grep -q '^test_ops:' '$tmp/meta'"
"$T" repro --runs 0 "$e" >"$tmp/repro" 2>&1
check "its saved history is still a violation (repro --runs 0 exits 1)" test $? = 1
[ "$fail" = 0 ] || { echo "--- log ---"; tail -n 40 "$tmp/log"; }
finish
