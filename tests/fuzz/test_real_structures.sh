#!/usr/bin/env bash
# What real structures need, through the fuzz targets and the command line (docs/writing-an-adapter.md):
#   roles     the Chase-Lev deque's owner-only push_back/pop_back: the take/steal race of chase_lev_take_race is
#             found, the correct chase_lev_deque stays clean;
#   bounded   ring_queue (capacity 4, enq answers full): ring_queue_early_free is found, its entry's
#             histories carry the capacity, the correct ring stays clean;
#   blocking  by default (balanced runs) the lost wakeup of blocking_queue_lost_wakeup is found as STUCK and the
#             correct blocking_queue stays clean; with LINFUZZ_FUZZ_BLOCKING=any a blocking deq left on an
#             empty queue is reported as STUCK within the fuzzer's time limit (never a hang): entry, crash input,
#             `fuzz_x repro` (exit 5, stuck again), `fuzz_x show`, `fuzz_x triage` (a STUCK group, also from the
#             crash input alone); `linfuzz stress --blocking any` ends with exit 5 and the history.
# Usage: test_real_structures.sh LINFUZZ_BIN BIN_DIR CORPUS_DIR
set -uo pipefail
export LINFUZZ_FUZZ_ROOTCAUSE=0 # (the targets root-cause before aborting: tests/fuzz/test_crash_state.sh tests that)
source "$(dirname "$0")/../lib.sh"
LF=$(cd "$(dirname "$1")" && pwd)/$(basename "$1") BIN=$(cd "$2" && pwd) CORPUS=$3

# Fuzzes ADAPTER from its seeds for at most SECONDS; extra environment before the command. libFuzzer's -seed=1:
# with LINFUZZ_FUZZ_MODE=controlled (a campaign that must find a violation) every execution is the same in every
# run of one build, so the violation comes at the same execution however busy the machine: a slower answer,
# never none (the SECONDS are a generous backstop, not the budget).
fuzz() { # ADAPTER SECONDS [VAR=VALUE...]
  local a=$1 secs=$2; shift 2
  mkdir -p "$tmp/work-$a"
  env "$@" LINFUZZ_VIOLATIONS_DIR="$tmp/violations-$a" "$BIN/fuzz_$a" -seed=1 -max_total_time="$secs" \
    -timeout=120 -artifact_prefix="$tmp/crash-$a-" "$tmp/work-$a" "$CORPUS/$a/seeds" >"$tmp/log-$a" 2>&1
}
entry_of() { ls "$tmp/violations-$1"/*.lfz 2>/dev/null | head -1; }

# ---- roles: the work-stealing deque ----
fuzz chase_lev_take_race 240 LINFUZZ_FUZZ_MODE=controlled
check "fuzz_chase_lev_take_race finds the take/steal race of the last element" \
  grep -q "=== LINEARIZABILITY VIOLATION  adapter=chase_lev_take_race  type=deque  shape=VALUE_RETURNED_TWICE" \
  "$tmp/log-chase_lev_take_race"
e=$(entry_of chase_lev_take_race)
check "its entry is saved" test -n "$e"
if [ -n "$e" ]; then
  expect_rc 1 "fuzz_chase_lev_take_race repro ENTRY (exit 1)" "$BIN/fuzz_chase_lev_take_race" repro "$e" --runs 50
  has "$tmp/out" "saved histories are violations" "repro re-checks the saved histories"
  "$BIN/fuzz_chase_lev_take_race" show --history minimized "$e" >"$tmp/min" 2>&1
  # the value taken twice: by the owner (pop_back) and by a thief (pop_front)
  check "the minimized history has the owner's take and a thief's steal" \
    bash -c "grep -q 'pop_back -> ' '$tmp/min' && grep -q 'pop_front -> ' '$tmp/min'"
fi
fuzz chase_lev_deque 4 LINFUZZ_FUZZ_SECONDS=3
check "fuzz_chase_lev_deque stays clean" grep -q "linfuzz-fuzz: summary adapter=chase_lev_deque .* violations=0 " \
  "$tmp/log-chase_lev_deque"
# owner-only methods: in every recorded history of the correct deque, push_back/pop_back come from one worker
"$LF" stress chase_lev_deque --seconds 1 --threads 4 --ops 50 -q --out "$tmp" >/dev/null 2>&1
check "linfuzz stress chase_lev_deque stays clean (roles respected)" test $? -eq 0

# ---- bounded: the ring that answers full ----
fuzz ring_queue_early_free 240 LINFUZZ_FUZZ_MODE=controlled
check "fuzz_ring_queue_early_free finds the overwritten slot" \
  grep -q "=== LINEARIZABILITY VIOLATION  adapter=ring_queue_early_free  type=queue" "$tmp/log-ring_queue_early_free"
e=$(entry_of ring_queue_early_free)
check "its entry is saved" test -n "$e"
if [ -n "$e" ]; then
  "$BIN/fuzz_ring_queue_early_free" show --history full "$e" >"$tmp/full" 2>&1
  # (whether the run also had an enq answer full depends on the run: the ring only has to be full once for
  # the bug; test_sched checks that full answers are recorded, deterministically)
  check "the recorded history is bounded (capacity 4)" grep -qx 'capacity 4' "$tmp/full"
  expect_rc 1 "linfuzz check of the saved history: a violation" "$LF" check "$tmp/full"
fi
fuzz ring_queue 4 LINFUZZ_FUZZ_SECONDS=3
check "fuzz_ring_queue stays clean" grep -q "linfuzz-fuzz: summary adapter=ring_queue .* violations=0 " "$tmp/log-ring_queue"

# ---- blocking: STUCK, never a hang ----
# (the free-mode watchdog's deadline: short for the runs whose point is a STUCK on a correct queue, so that the
# test is quick; the other runs keep the default, which a stall of a loaded machine does not reach)
export LINFUZZ_STUCK_SECONDS=1
start=$(date +%s)
fuzz blocking_queue 60 LINFUZZ_FUZZ_BLOCKING=any
rc=$? took=$(( $(date +%s) - start ))
check "a blocking deq on an empty queue: fuzz_blocking_queue stops (rc $rc) within the time limit (${took} s of 60)" \
  test "$rc" -ne 0 -a "$took" -lt 60
check "the STUCK report names the deq and why it waits" \
  bash -c "grep -q '=== STUCK  adapter=blocking_queue  type=queue  shape=STUCK_EMPTY' '$tmp/log-blocking_queue' &&
           grep -q 'why: t[0-9]* \[[0-9]*,?\] deq.* never returned' '$tmp/log-blocking_queue'"
check "the line for scripts names the entry" \
  grep -q "linfuzz-fuzz: stuck adapter=blocking_queue .*entry=$tmp/violations-blocking_queue/" "$tmp/log-blocking_queue"
check "libFuzzer wrote the crash input" bash -c "ls '$tmp'/crash-blocking_queue-* >/dev/null 2>&1"
e=$(entry_of blocking_queue)
if [ -n "$e" ]; then
  check "the entry records how the run was planned" \
    bash -c "'$BIN/fuzz_blocking_queue' show --meta '$e' | grep -qx 'blocking: any'"
  expect_rc 5 "fuzz_blocking_queue repro STUCK-ENTRY (exit 5)" "$BIN/fuzz_blocking_queue" repro "$e"
  has "$tmp/out" "stuck again (deq, shape STUCK_EMPTY)" "repro re-runs the workload until it gets stuck again"
  has "$tmp/out" "never returned: t" "repro names the ops that never returned"
  expect_rc 0 "fuzz_blocking_queue show STUCK-ENTRY" "$BIN/fuzz_blocking_queue" show "$e"
  has "$tmp/out" "=== STUCK  adapter=blocking_queue" "show prints the STUCK report"
  "$BIN/fuzz_blocking_queue" show --history full "$e" >"$tmp/stuck.hist" 2>&1
  check "the saved history has the deq pending ('?')" grep -Eq '^[0-9]+ [0-9]+ \? deq$' "$tmp/stuck.hist"
  expect_rc 1 "fuzz_blocking_queue triage: a STUCK group (exit 1)" "$BIN/fuzz_blocking_queue" triage "$tmp/violations-blocking_queue"
  has "$tmp/out" "| STUCK | 1 | blocking_queue | queue STUCK_EMPTY deq |" "triage groups it as STUCK"
  has "$tmp/out" "fuzz_blocking_queue repro " "triage's command reproduces it with the target itself"
  # the crash input alone (no entry to recognise it by): replayed in a child, whose watchdog captures it
  mkdir -p "$tmp/inputs/blocking_queue" && cp "$tmp"/crash-blocking_queue-* "$tmp/inputs/blocking_queue/"
  expect_rc 1 "triage of the crash input alone: STUCK (exit 1)" env LINFUZZ_FUZZ_BLOCKING=any "$BIN/fuzz_blocking_queue" \
    triage "$tmp/inputs"
  # (its STUCK_EMPTY signature when the child captures the stuck run, as it does here; under ASan one CI run
  # saw the child give no answer within triage's limit, which is grouped as STUCK "replay hung")
  has "$tmp/out" "| STUCK | 1 | blocking_queue | " "the replayed input is grouped as STUCK"
fi
start=$(date +%s)
(cd "$tmp" && "$LF" stress blocking_queue --blocking any --seconds 30 -q >"$tmp/stress.out" 2>"$tmp/stress.err")
rc=$? took=$(( $(date +%s) - start ))
check "linfuzz stress blocking_queue: exit 5 (stuck, rc $rc) within ${took} s, not a hang" test "$rc" -eq 5 -a "$took" -lt 30
check "stress writes the history of the stuck run" bash -c "ls '$tmp'/stuck-blocking_queue-*.hist >/dev/null 2>&1"
h=$(ls "$tmp"/stuck-blocking_queue-*.hist 2>/dev/null | head -1)
[ -n "$h" ] && expect_rc 0 "the stuck history parses and its returned ops are linearizable" "$LF" check "$h"
unset LINFUZZ_STUCK_SECONDS
fuzz blocking_queue_lost_wakeup 60
check "balanced (the default of blocking adapters): the lost wakeup is found (STUCK_LOST_WAKEUP)" \
  grep -q "=== STUCK  adapter=blocking_queue_lost_wakeup  type=queue  shape=STUCK_LOST_WAKEUP" \
  "$tmp/log-blocking_queue_lost_wakeup"
e=$(entry_of blocking_queue_lost_wakeup)
[ -n "$e" ] && check "the entry records the balanced planning" \
  bash -c "'$BIN/fuzz_blocking_queue_lost_wakeup' show --meta '$e' | grep -qx 'blocking: balanced'"
rm -rf "$tmp/work-blocking_queue" "$tmp/violations-blocking_queue"
fuzz blocking_queue 5 LINFUZZ_FUZZ_SECONDS=3
check "balanced (the default): the correct blocking_queue stays clean" \
  grep -q "linfuzz-fuzz: summary adapter=blocking_queue .* violations=0 " "$tmp/log-blocking_queue"

[ "$fail" = 0 ] || { echo "--- logs ---"; tail -n 20 "$tmp"/log-*; }
finish
