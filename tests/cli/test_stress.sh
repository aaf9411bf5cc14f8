#!/usr/bin/env bash
# `linfuzz stress` and `linfuzz adapters`: every known-buggy adapter is caught within a bounded time (the
# violating history is written and `linfuzz check` confirms it), correct adapters run clean in every mode,
# a controlled run replays exactly (--seed S --runs 1 --mode controlled: the same history file), the TSC
# clock works where available, and usage errors exit 2.
set -u
source "$(dirname "$0")/../lib.sh"
LF=$1

# --- adapters ---
expect_rc 0 "adapters" "$LF" adapters
grep -q '^treiber_aba  *stack  *no ' "$tmp/out" && ok || bad "adapters lists treiber_aba as a buggy stack"
grep -q '^ms_queue  *queue  *yes ' "$tmp/out" && ok || bad "adapters lists ms_queue as correct"
expect_rc 0 "adapters --json" "$LF" adapters --json
python3 -c 'import json,sys; a=json.load(open(sys.argv[1])); assert any(x["name"]=="k1_counter_lost_update" and x["linearizable"] is False and x["type"]=="counter" for x in a)' "$tmp/out" && ok || bad "adapters --json"
expect_rc 0 "adapters --help" "$LF" adapters --help
expect_rc 2 "adapters bad option" "$LF" adapters --frob

# --- usage ---
expect_rc 0 "stress --help" "$LF" stress --help
expect_rc 2 "stress without adapter" "$LF" stress
expect_rc 2 "stress unknown adapter" "$LF" stress no_such_adapter --seconds 1
expect_rc 2 "stress bad threads" "$LF" stress ms_queue --threads 0
expect_rc 2 "stress bad clock" "$LF" stress ms_queue --clock sundial
expect_rc 4 "stress missing out dir" "$LF" stress ms_queue --out "$tmp/nope" --seconds 1
expect_rc 2 "stress bad mode" "$LF" stress ms_queue --mode sometimes

# --- every known-buggy adapter is caught (seed 1 is only for a reproducible workload sequence; the schedule
# is up to the machine, so the budget is generous) ---
buggy=$("$LF" adapters | awk '$3 == "no" {print $1}')
nm "$LF" 2>/dev/null >"$tmp/symbols"
sanitized=0
grep -q " __asan_init" "$tmp/symbols" && sanitized=1
[ -n "$buggy" ] && ok || bad "no buggy adapters listed"
for a in $buggy; do
  # a race by the C11 standard only (docs/findings.md), which stress does not reach in 30 s, not even under c11
  # alone; its fuzz target finds it in 31 executions and its committed entry replays (test_corpus_entries)
  [ "$a" = dpdk_ring_mpmc ] && continue
  # likewise c11 only, and rarer: stress found it in none of 3 runs of 60 s; its fuzz target finds it in a few
  # seconds (docs/fuzzing.md, "Eighth round") and its committed entry replays (test_corpus_entries)
  [ "$a" = ms_queue_acq_rel ] && continue
  if "$LF" adapters | grep -q "^$a .*\[.*blocks: "; then
    # a blocking structure whose bug makes an op never return: balanced runs (its default). Free runs: the
    # watchdog's STUCK (exit 5) with its history; controlled runs: the scheduler sees every thread blocked
    # (a deadlock, exit 5) at once
    "$LF" stress "$a" --mode free --seconds 30 --seed 1 --ops 20 --out "$tmp" -q >"$tmp/out" 2>"$tmp/err"; rc=$?
    file=$(head -1 "$tmp/out")
    if [ "$rc" = 5 ] && [ -f "$file" ] && [[ "$file" == "$tmp/stuck-$a-"[0-9]*.hist ]] &&
       grep -q "shape=STUCK_LOST_WAKEUP" "$tmp/err"; then ok; else bad "$a: not stuck (exit $rc): $(tail -c 300 "$tmp/err")"; fi
    "$LF" stress "$a" --mode controlled --seconds 30 --seed 1 --ops 20 --out "$tmp" -q >"$tmp/out" 2>"$tmp/err"; rc=$?
    if [ "$rc" = 5 ] && grep -q "a deadlock: every unfinished thread is blocked" "$tmp/err" &&
       grep -q "shape=STUCK_LOST_WAKEUP" "$tmp/err"; then ok; else bad "$a: no controlled deadlock (exit $rc): $(tail -c 300 "$tmp/err")"; fi
    continue
  fi
  if [ "$a" = treiber_uaf ]; then
    # its bug is a use after free: under AddressSanitizer the process dies of the report (the fuzz targets make
    # it a CRASH entry: tests/fuzz/test_crash_entry.sh); without it, the freed node's garbage is read (a
    # violation) or followed (a segmentation fault), whichever the machine's schedule gives first
    "$LF" stress "$a" --seconds 30 --seed 1 --out "$tmp" -q >"$tmp/out" 2>"$tmp/err"; rc=$?
    if [ "$sanitized" = 1 ]; then
      [ "$rc" != 0 ] && grep -q "ERROR: AddressSanitizer: heap-use-after-free" "$tmp/err" && ok ||
        bad "$a: no use after free reported (exit $rc): $(tail -c 300 "$tmp/err")"
    else
      { [ "$rc" = 1 ] && [ -f "$(head -1 "$tmp/out")" ]; } || [ "$rc" -gt 128 ] && ok ||
        bad "$a: neither a violation nor a crash (exit $rc): $(tail -c 300 "$tmp/err")"
    fi
    continue
  fi
  if [ "$a" = ledger_lock_order ]; then
    # a lock-order deadlock of a custom type: no history is wrong, the run never ends (exit 5, STUCK), and the
    # stuck history names its type and methods
    "$LF" stress "$a" --seconds 30 --seed 1 --out "$tmp" -q >"$tmp/out" 2>"$tmp/err"; rc=$?
    file=$(head -1 "$tmp/out")
    if [ "$rc" = 5 ] && [ -f "$file" ] && grep -q "^type ledger$" "$file" && grep -Eq " transfer [0-9]+ [0-9]+ [0-9]+$" "$file"
    then ok; else bad "$a: no deadlock (exit $rc): $(tail -c 300 "$tmp/err")"; fi
    continue
  fi
  args=(--seconds 30 --seed 1)
  # The 8-bit tag wraps only when 256 updates fall inside one pop: the default mixed search finds it at run
  # 46917 of seed 1 (about half a minute here, longer under the sanitizers), so start at that run's seed, in
  # controlled mode, which replays it exactly.
  [ "$a" = treiber_tag_wrap ] && args=(--seconds 30 --seed 46917 --mode controlled)
  # Found by free runs in seconds on a quiet machine, but not within 30 s under ASan beside a second ci/test.sh
  # (free runs get no real parallelism there): start at the controlled run of seed 1 that finds them, which
  # replays exactly on any machine.
  [ "$a" = backoff_elim_stack_withdraw_race ] && args=(--seconds 30 --seed 18354 --mode controlled)
  [ "$a" = ck_hp_stack_unprotected ] && args=(--seconds 30 --seed 13106 --mode controlled)
  "$LF" stress "$a" "${args[@]}" --out "$tmp" -q >"$tmp/out" 2>"$tmp/err"; rc=$?
  file=$(head -1 "$tmp/out")
  if [ "$rc" = 1 ] && [ -f "$file" ] && [[ "$file" == "$tmp/violation-$a-"[0-9]*.hist ]]; then
    ok
    # --adapter: its type's spec, or for a custom type without one its own serial behaviour (the self-spec)
    "$LF" check -q --adapter "$a" "$file"; [ $? = 1 ] && ok || bad "$a: written history does not check as a violation"
  else
    bad "$a: not caught (exit $rc): $(tail -c 300 "$tmp/err")"
  fi
done

# --- correct adapters run clean, and the run statistics are printed ---
# (a fixed number of runs of seed 1, not a wall-clock amount: 500 each, 150 under the sanitizers, which run
# three to five times slower; --seconds is only a backstop)
clean_runs=500
[ "$sanitized" = 1 ] && clean_runs=150
for a in ms_queue harris_list_set atomic_counter mutex_kv; do
  expect_rc 0 "$a clean" "$LF" stress "$a" --seed 1 --runs "$clean_runs" --seconds 120 --threads 3 --ops 50
  grep -q "no violation" "$tmp/err" && ok || bad "$a: summary line"
done
for a in mutex_queue rwlock_list_set treiber_tag32 elim_stack seqlock_register harris_list_marked urcu_lfstack \
         ck_fifo_mpmc; do
  "$LF" adapters --names | grep -qx "$a" || continue
  expect_rc 0 "$a clean in controlled mode" "$LF" stress "$a" --seed 1 --runs "$clean_runs" --seconds 120 \
    --mode controlled
  grep -q "controlled, 0 of them not deterministic" "$tmp/err" && ok || bad "$a: controlled summary: $(tail -1 "$tmp/err")"
done
# A condition wait releases its mutex and starts waiting in one step: with a scheduling point in between, a
# signal could come first and be lost (seed 1809790495822785 deadlocked the correct queue at run 1794 so).
expect_rc 0 "blocking_queue clean in controlled mode" "$LF" stress blocking_queue --mode controlled \
  --seed 1809790495822785 --runs 2500 --seconds 60
expect_rc 0 "free mode" "$LF" stress ms_queue --seed 1 --runs "$clean_runs" --seconds 120 --mode free
grep -q "(.*/s; 0 controlled" "$tmp/err" && ok || bad "--mode free ran controlled runs: $(tail -1 "$tmp/err")"
expect_rc 0 "mixed mode" "$LF" stress ms_queue --runs 40 --seconds 100
grep -q ": 40 runs in .*; 30 controlled" "$tmp/err" && ok || bad "--mode mixed: 3 runs in 4 controlled: $(tail -1 "$tmp/err")"
# A controlled finding replays exactly: the command it prints writes the same history again.
mkdir -p "$tmp/a" "$tmp/b"
expect_rc 1 "controlled finding" "$LF" stress treiber_aba --mode controlled --seconds 30 --seed 7 --out "$tmp/a"
again=$(sed -n 's/^  replay exactly: //p' "$tmp/err")
[ -n "$again" ] && ok || bad "no replay command: $(cat "$tmp/err")"
first=$(head -1 "$tmp/out")
for k in 1 2 3; do
  # shellcheck disable=SC2086 # the printed command, split into its words
  "$LF" ${again#linfuzz } --out "$tmp/b" -q >"$tmp/out" 2>"$tmp/err"; rc=$?
  [ "$rc" = 1 ] && cmp -s "$first" "$(head -1 "$tmp/out")" && ok || bad "replay $k: exit $rc, history differs"
done
# --- the self-spec: any deterministic adapter against its own serial behaviour ---
# (the self-spec's search replays the adapter over many of its states: 20 runs, about a second)
expect_rc 0 "ms_queue self-spec clean" "$LF" stress ms_queue --spec self --seed 1 --runs 20 --seconds 120 \
  --threads 3 --ops 30
grep -q "checked against the self-spec (ms_queue's own serial behaviour)" "$tmp/err" && ok || bad "self-spec named"
expect_rc 1 "treiber_aba self-spec caught" "$LF" stress treiber_aba --spec self --seconds 30 --seed 1 --out "$tmp" -q
expect_rc 0 "pia_map (no spec) clean" "$LF" stress pia_map --seed 1 --runs "$clean_runs" --seconds 120 --threads 3 \
  --ops 30
grep -q "checked against the self-spec" "$tmp/err" && ok || bad "pia_map is checked against its self-spec"
expect_rc 2 "stress bad spec" "$LF" stress ms_queue --spec magic
expect_rc 2 "self-spec of a nondeterministic adapter" "$LF" stress scal_k_fifo --spec self --seconds 1
grep -q "not marked deterministic" "$tmp/err" && ok || bad "scal_k_fifo: why not"
expect_rc 2 "type spec of a type without one" "$LF" stress pia_map --spec type --seconds 1
grep -q "has no specification" "$tmp/err" && ok || bad "pia_map --spec type: why not"

expect_rc 0 "runs limit" "$LF" stress treiber_stack --runs 5 --seconds 100
grep -q ": 5 runs in" "$tmp/err" && ok || bad "--runs 5: $(tail -1 "$tmp/err")"

# --- the TSC clock (x86-64 with an invariant TSC) records sound histories too ---
if "$LF" stress ms_queue --clock tsc --runs 1 -q 2>/dev/null; then
  expect_rc 0 "tsc clean" "$LF" stress treiber_stack --clock tsc --seed 1 --runs "$clean_runs" --seconds 120
  expect_rc 1 "tsc catches" "$LF" stress treiber_aba --clock tsc --seconds 30 --seed 1 --out "$tmp" -q
fi

finish
