#!/usr/bin/env bash
# Tests of the libFuzzer targets (registered by fuzz/CMakeLists.txt, so only in clang builds):
# every adapter has a target; a known-buggy adapter's target finds its bug from the seeds within seconds and
# leaves a valid corpus entry and a crash input; a correct adapter's target stays clean; the crash input of
# every committed controlled-mode entry reproduces its violation on every run (20 processes out of 20 for some,
# 20 executions of one process for all), and libFuzzer's -minimize_crash=1 shrinks one and it still crashes.
# The custom types out of the box: the buggy bank (checked against its spec) and map (no spec: its own serial
# behaviour) are found, replayed, shown and triaged, their correct twins stay clean; LINFUZZ_SPEC=self on a
# built-in adapter.
# Usage: test_fuzz_targets.sh LINFUZZ_BIN BIN_DIR CORPUS_DIR
set -uo pipefail
export LINFUZZ_FUZZ_ROOTCAUSE=0 # (the targets root-cause before aborting: tests/fuzz/test_crash_state.sh tests that)
source "$(dirname "$0")/../lib.sh"
LF=$1 BIN=$(cd "$2" && pwd) CORPUS=$(cd "$3" && pwd)

# 1. One target per adapter of the registry (the hard links fuzz_<adapter> to linfuzz-fuzz, made at build time).
missing=""
while read -r name _; do
  [ -x "$BIN/fuzz_$name" ] || missing="$missing $name"
done < <("$LF" adapters)
check "every adapter has a fuzz target (missing:${missing:- none})" test -z "$missing"

# 1a. The code under test carries libFuzzer's edge counters but no comparison tracing (the default
# LINFUZZ_FUZZ_INSTRUMENT): tracing calls into libFuzzer at every compare, writing tables all threads share,
# and made the races of free runs 3 times rarer (docs/fuzzing.md, "Third round: coverage without comparison
# tracing").
# k4's read does nothing but compare and CAS; libFuzzer itself defines the tracing functions, never calls them.
objdump -d --no-show-raw-insn "$BIN/linfuzz-fuzz" 2>/dev/null | awk '/^[0-9a-f]+ <hit_op>:$/ {f = 1; next} /^$/ {f = 0} f' >"$tmp/hit_op.s"
check "the adapters have edge counters (hit_op updates __sancov_cntrs)" grep -q "<__start___sancov_cntrs" "$tmp/hit_op.s"
check "the adapters have no comparison tracing (no __sanitizer_cov_trace_* call in hit_op)" \
  bash -c "! grep -q 'call.*__sanitizer_cov_trace' '$tmp/hit_op.s'"

# 2. A known-buggy adapter: violation found, entry saved, crash input written.
# (controlled mode and -seed=1: the same executions in every run of one build, so a busy machine finds the bug
# later, never not; the time limits are generous backstops: capturing an entry under a sanitizer on a loaded
# machine, with its test minimized and its history checked against a self-spec, can take tens of seconds)
fuzz_buggy() { # ADAPTER
  local a=$1 work="$tmp/work-$1"
  mkdir -p "$work"
  LINFUZZ_FUZZ_MODE=controlled LINFUZZ_VIOLATIONS_DIR="$tmp/violations-$a" "$BIN/fuzz_$a" -seed=1 \
    -max_total_time=120 -timeout=120 -artifact_prefix="$tmp/crash-$a-" "$work" "$CORPUS/$a/seeds" >"$tmp/log-$a" 2>&1
}
fuzz_buggy k3_trylock_queue
rc=$?
check "fuzz_k3_trylock_queue stops on a violation (rc $rc)" test "$rc" -ne 0
check "the violation line names the saved entry" grep -q "linfuzz-fuzz: violation adapter=k3_trylock_queue .*entry=$tmp/violations-k3_trylock_queue/" "$tmp/log-k3_trylock_queue"
check "the report is printed" grep -q "=== LINEARIZABILITY VIOLATION  adapter=k3_trylock_queue" "$tmp/log-k3_trylock_queue"
entry=$(ls "$tmp"/violations-k3_trylock_queue/*.lfz 2>/dev/null | head -1)
check "one entry in the violations directory" test -n "$entry"
check "libFuzzer wrote the crash input" bash -c "ls '$tmp'/crash-k3_trylock_queue-* >/dev/null 2>&1"
if [ -n "$entry" ]; then
  check "the entry is named <bucket>-<content>.lfz" bash -c "basename '$entry' | grep -Eq '^[0-9a-f]{16}-[0-9a-f]{16}\.lfz$'"
  "$LF" repro "$entry" --runs 0 >"$tmp/repro" 2>&1
  check "linfuzz repro re-checks the saved histories as violations (exit 1)" test $? -eq 1
  "$LF" show "$entry" >"$tmp/show" 2>&1
  check "linfuzz show prints the report" grep -q "LINEARIZABILITY VIOLATION" "$tmp/show"
  "$LF" show --input "$tmp/input" "$entry" 2>/dev/null
  crash=$(ls "$tmp"/crash-k3_trylock_queue-* | head -1)
  check "the entry's input bytes are the crash input" cmp -s "$tmp/input" "$crash"
fi

# 2a. The entry is on disk when the violation line is printed, before the analysis that re-runs the code under
# test (twin search, root causing: it may crash, the process may be killed). Killed at the line, the entry is
# whole; the line comes before the root causing.
mkdir -p "$tmp/work-kill"
LINFUZZ_FUZZ_ROOTCAUSE=2000 LINFUZZ_FUZZ_MODE=controlled LINFUZZ_VIOLATIONS_DIR="$tmp/violations-kill" \
  "$BIN/fuzz_k3_trylock_queue" -seed=1 -max_total_time=120 -timeout=120 -artifact_prefix="$tmp/crash-kill-" \
  "$tmp/work-kill" "$CORPUS/k3_trylock_queue/seeds" >"$tmp/log-kill" 2>&1 &
pid=$!
for _ in $(seq 1 12000); do # (at most 120 s)
  grep -q "linfuzz-fuzz: violation adapter=" "$tmp/log-kill" && break
  kill -0 "$pid" 2>/dev/null || break
  sleep 0.01
done
kill -9 "$pid" 2>/dev/null
wait "$pid" 2>/dev/null
killed_entry=$(sed -n 's/^linfuzz-fuzz: violation adapter=.* entry=\([^ ]*\) .*/\1/p' "$tmp/log-kill" | head -1)
check "the violation line names an entry (killed at the line)" test -n "$killed_entry"
if [ -n "$killed_entry" ]; then
  "$LF" show "$killed_entry" >"$tmp/show-kill" 2>&1
  check "the entry named by the line is whole when the process is killed at it" grep -q "LINEARIZABILITY VIOLATION" "$tmp/show-kill"
fi
awk '/^linfuzz-fuzz: violation adapter=/ && !v {v = NR} /^linfuzz-fuzz: root causing/ && !r {r = NR}
     END {exit !(v && (!r || v < r))}' "$tmp/log-kill" && ok || bad "the violation line comes after the root causing"

# 2a'. libFuzzer's -print_funcs (newly covered functions, through a symbolizer started at the first: tens of
# milliseconds) is off by default in the targets; a -print_funcs given still wins.
mkdir -p "$tmp/work-funcs" "$tmp/work-funcs2"
"$BIN/fuzz_treiber_stack" -seed=1 -runs=40 "$tmp/work-funcs" >"$tmp/log-funcs" 2>&1
check "no NEW_FUNC line by default" bash -c "! grep -q NEW_FUNC '$tmp/log-funcs'"
"$BIN/fuzz_treiber_stack" -seed=1 -runs=40 -print_funcs=2 "$tmp/work-funcs2" >"$tmp/log-funcs2" 2>&1
check "-print_funcs=2 given: NEW_FUNC lines" grep -q NEW_FUNC "$tmp/log-funcs2"

# 2b. Without LINFUZZ_VIOLATIONS_DIR or LINFUZZ_CORPUS, entries go to violations/<adapter>/ of the working
# directory, never into the source tree's corpus.
before=$(find "$CORPUS" -newer "$tmp/log-k3_trylock_queue" -name '*.lfz' | wc -l)
mkdir -p "$tmp/cwd/work"
(cd "$tmp/cwd" && env -u LINFUZZ_VIOLATIONS_DIR -u LINFUZZ_CORPUS "$BIN/fuzz_k3_trylock_queue" -max_total_time=20 \
  -timeout=20 work "$CORPUS/k3_trylock_queue/seeds" >log 2>&1)
check "the default entry directory is violations/k3_trylock_queue/ in the working directory" \
  bash -c "ls '$tmp'/cwd/violations/k3_trylock_queue/*.lfz >/dev/null 2>&1"
check "the log names it" grep -q "violations -> violations/k3_trylock_queue" "$tmp/cwd/log"
check "nothing new in the source tree's corpus" \
  test "$(find "$CORPUS" -newer "$tmp/log-k3_trylock_queue" -name '*.lfz' | wc -l)" = "$before"

# 3. A correct adapter stays clean (exit 0, no entry).
mkdir -p "$tmp/work-ok"
LINFUZZ_VIOLATIONS_DIR="$tmp/violations-ok" "$BIN/fuzz_mutex_queue" -runs=300 -max_total_time=20 \
  -artifact_prefix="$tmp/crash-ok-" "$tmp/work-ok" "$CORPUS/mutex_queue/seeds" >"$tmp/log-ok" 2>&1
rc=$?
check "fuzz_mutex_queue runs clean (rc $rc)" test "$rc" -eq 0
check "no entry for the correct adapter" test ! -e "$tmp/violations-ok"
# 4. The harness answers linfuzz's subcommands with its own adapters, and says which adapter it cannot find.
"$BIN/fuzz_mutex_queue" adapters --names >"$tmp/names" 2>&1
check "fuzz_<adapter> adapters --names lists the adapters it carries" grep -qx treiber_aba "$tmp/names"
if [ -n "${entry:-}" ]; then
  "$BIN/fuzz_k3_trylock_queue" repro "$entry" --runs 0 >"$tmp/repro-target" 2>&1
  check "fuzz_<adapter> repro ENTRY works like linfuzz repro (exit 1)" test $? -eq 1
  "$BIN/fuzz_k3_trylock_queue" show "$entry" >"$tmp/show-target" 2>&1
  check "fuzz_<adapter> show ENTRY prints the report" grep -q "LINEARIZABILITY VIOLATION" "$tmp/show-target"
fi
LINFUZZ_ADAPTER=no_such_adapter "$BIN/linfuzz-fuzz" -runs=1 >"$tmp/noadapter" 2>&1
rc=$?
check "an unknown LINFUZZ_ADAPTER is an error (rc $rc) naming the adapters there are" \
  bash -c "[ $rc -eq 2 ] && grep -q \"no adapter 'no_such_adapter'.*treiber_aba\" '$tmp/noadapter'"
"$BIN/linfuzz-fuzz" -runs=1 >"$tmp/unnamed" 2>&1
rc=$?
check "linfuzz-fuzz without an adapter name asks for one (rc $rc)" \
  bash -c "[ $rc -eq 2 ] && grep -q 'LINFUZZ_ADAPTER=NAME' '$tmp/unnamed'"

# 5. Controlled mode replays exactly (docs/scheduling.md). The committed controlled-mode entry of every
# known-buggy adapter (corpus/<adapter>/violations, "fuzz-case 2") gives the crash input libFuzzer would have
# written; run on its own it must violate again every time. Exact replay holds within one build (the
# scheduling points are the adapters' loads and stores as compiled): when the entry comes from another build
# (the sanitizer build, say), this build finds its own controlled-mode crash input first.
build=$("$BIN/fuzz_k1_counter_lost_update" -runs=0 2>&1 | sed -n 's/.*, build \([^ ,]*\), .*/\1/p' | head -1)
check "the targets name their build ($build)" test -n "$build"
controlled_entry() { # ADAPTER: the committed entry found in controlled mode
  local f
  for f in "$CORPUS/$1"/violations/*.lfz; do
    "$LF" show --meta "$f" 2>/dev/null | grep -qx "schedule_mode: controlled" && { echo "$f"; return; }
  done
}
for a in $("$LF" adapters | awk '$3 == "no" {print $1}'); do
  e=$(controlled_entry "$a")
  # a bug that makes an op never return is a STUCK entry (its replays: tests/fuzz/test_real_structures.sh)
  [ -n "$e" ] && "$LF" show --meta "$e" | grep -qx "finding: stuck" && continue
  # a bug that makes the code crash is a CRASH entry (its replays: tests/fuzz/test_crash_entry.sh)
  [ -n "$e" ] && "$LF" show --meta "$e" | grep -qx "finding: crash" && continue
  check "$a has a committed controlled-mode entry" test -n "$e"
  [ -n "$e" ] || continue
  if "$LF" show --meta "$e" | grep -qx "schedule_build: $build"; then
    "$LF" show --input "$tmp/crash-$a" "$e" 2>/dev/null
  else
    mkdir -p "$tmp/find-$a" "$tmp/entry-seed-$a"
    # The entry's own input first (in another build its schedule may still violate: then it is found at once;
    # treiber_tag_wrap took 40 s under ASan from the seeds alone), then the seeds. No test minimization: the
    # replay below runs the entry's input, not its test.
    "$LF" show --input "$tmp/entry-seed-$a/entry" "$e" 2>/dev/null
    LINFUZZ_FUZZ_MINIMIZE_TEST=0 LINFUZZ_FUZZ_MODE=controlled LINFUZZ_VIOLATIONS_DIR="$tmp/found-$a" \
      "$BIN/fuzz_$a" -max_total_time=120 -artifact_prefix="$tmp/found-$a-" "$tmp/find-$a" "$tmp/entry-seed-$a" \
      "$CORPUS/$a/seeds" >"$tmp/log-find-$a" 2>&1
    # (the entry's input, not libFuzzer's crash file: with LINFUZZ_FUZZ_MODE the entry records the mode that ran)
    found=$(ls "$tmp/found-$a"/*.lfz 2>/dev/null | head -1)
    check "fuzz_$a finds its bug in controlled mode (this build's own crash input)" test -n "$found"
    [ -n "$found" ] || continue
    "$LF" show --input "$tmp/crash-$a" "$found" 2>/dev/null
  fi
  # One process, 20 executions of the input, continuing after violations: every execution has as many violating
  # runs as the first. (Counted per execution from the summary: under LeakSanitizer libFuzzer runs an input once
  # more when its mallocs and frees do not match, so -runs=N can mean N + 1 executions.)
  per_execution() { # LINE: violations / executions, or nothing when they do not divide evenly
    local v e
    v=$(sed -n 's/.*summary .* executions=\([0-9]*\) .* violations=\([0-9]*\) .*/\2/p' <<<"$1")
    e=$(sed -n 's/.*summary .* executions=\([0-9]*\) .* violations=\([0-9]*\) .*/\1/p' <<<"$1")
    [ -n "$v" ] && [ -n "$e" ] && [ "$e" -gt 0 ] && [ $((v % e)) = 0 ] && echo "$((v / e)) $e"
  }
  one=$(per_execution "$(LINFUZZ_FUZZ_CONTINUE=1 LINFUZZ_VIOLATIONS_DIR="$tmp/replay" "$BIN/fuzz_$a" -runs=1 \
        "$tmp/crash-$a" 2>&1 | grep "summary")")
  twenty=$(per_execution "$(LINFUZZ_FUZZ_CONTINUE=1 LINFUZZ_VIOLATIONS_DIR="$tmp/replay" "$BIN/fuzz_$a" -runs=20 \
           "$tmp/crash-$a" 2>&1 | grep "summary")")
  check "fuzz_$a replays its crash input in every one of 20 executions (violating runs per execution, executions: $one; $twenty)" \
    bash -c "[ -n '$one' ] && [ '${one%% *}' -ge 1 ] && [ '${twenty%% *}' = '${one%% *}' ] && [ '${twenty##* }' -ge 20 ]"
done
# 20 separate processes (10 under a sanitizer, whose start-up is slow), as a user (or ClusterFuzzLite) runs
# `fuzz_<adapter> crash-file`, for the four hard adapters (no LF_YIELD() in their windows) and k3.
nm "$BIN/linfuzz-fuzz" 2>/dev/null >"$tmp/symbols"
processes=20
grep -q " __asan_init" "$tmp/symbols" && processes=10
for a in k3_trylock_queue treiber_tag_wrap elim_stack_takes_claimed seqlock_register_no_recheck \
         harris_list_unmarked_remove; do
  [ -f "$tmp/crash-$a" ] || continue
  n=0
  for _ in $(seq "$processes"); do
    # (no test minimization: this is about the replay; each process would minimize the same test again)
    LINFUZZ_FUZZ_MINIMIZE_TEST=0 LINFUZZ_VIOLATIONS_DIR="$tmp/replay" "$BIN/fuzz_$a" "$tmp/crash-$a" >"$tmp/one" 2>&1
    grep -q "linfuzz-fuzz: violation adapter=$a .* mode=controlled " "$tmp/one" && n=$((n + 1))
  done
  check "fuzz_$a crash-file reproduces $processes times out of $processes (got $n)" test "$n" -eq "$processes"
done
# -minimize_crash=1 on a controlled-mode crash: the result is no larger, and it still crashes.
a=harris_list_unmarked_remove
if [ -f "$tmp/crash-$a" ]; then
  LINFUZZ_VIOLATIONS_DIR="$tmp/replay" "$BIN/fuzz_$a" -minimize_crash=1 -runs=300 \
    -exact_artifact_path="$tmp/minimized" "$tmp/crash-$a" >"$tmp/log-minimize" 2>&1
  check "-minimize_crash=1 wrote a minimized input" test -s "$tmp/minimized"
  if [ -s "$tmp/minimized" ]; then
    check "the minimized input is no larger ($(stat -c %s "$tmp/minimized") <= $(stat -c %s "$tmp/crash-$a") bytes)" \
      test "$(stat -c %s "$tmp/minimized")" -le "$(stat -c %s "$tmp/crash-$a")"
    n=0
    for _ in 1 2 3 4 5; do
      LINFUZZ_VIOLATIONS_DIR="$tmp/replay" "$BIN/fuzz_$a" "$tmp/minimized" >"$tmp/one" 2>&1
      grep -q "linfuzz-fuzz: violation adapter=$a " "$tmp/one" && n=$((n + 1))
    done
    check "the minimized input crashes every time (5 of 5, got $n)" test "$n" -eq 5
  fi
fi
# 6. Custom types: found, replayed (saved histories re-checked as they were: spec or self-spec), shown, triaged.
for a in bank_read_before_lock pia_map_unlocked_check; do
  fuzz_buggy "$a"
  rc=$?
  check "fuzz_$a stops on a violation (rc $rc)" test "$rc" -ne 0
  e=$(ls "$tmp"/violations-$a/*.lfz 2>/dev/null | head -1)
  check "fuzz_$a saved an entry" test -n "$e"
  [ -n "$e" ] || continue
  "$LF" repro "$e" --runs 20 >"$tmp/repro-$a" 2>&1
  check "linfuzz repro $a: the saved histories are violations (exit 1)" test $? -eq 1
  check "linfuzz repro $a: re-checked as found" grep -q "saved histories are violations" "$tmp/repro-$a"
  "$LF" show "$e" >"$tmp/show-$a" 2>&1
  check "linfuzz show $a: report with the type's declaration" \
    bash -c "grep -q 'LINEARIZABILITY VIOLATION  adapter=$a' '$tmp/show-$a' && grep -q '^method ' '$tmp/show-$a'"
done
check "the map's entry was checked against its own serial behaviour" \
  bash -c "'$LF' show --meta '$tmp'/violations-pia_map_unlocked_check/*.lfz | grep -qx 'spec: self'"
check "fuzz_pia_map_unlocked_check names the self-spec" grep -q "checked against the self-spec" "$tmp/log-pia_map_unlocked_check"
"$LF" triage "$tmp"/violations-bank_read_before_lock "$tmp"/violations-pia_map_unlocked_check >"$tmp/triage" 2>&1
check "triage groups the custom-type entries as known bugs (exit 0)" test $? -eq 0
check "triage names the map's bug" \
  grep -q "KNOWN_BUG | 1 | pia_map_unlocked_check | map, no root cause | " "$tmp/triage"
for a in bank pia_map; do
  mkdir -p "$tmp/work-$a"
  LINFUZZ_VIOLATIONS_DIR="$tmp/violations-$a" "$BIN/fuzz_$a" -runs=150 -max_total_time=15 \
    -artifact_prefix="$tmp/crash-$a-" "$tmp/work-$a" "$CORPUS/$a/seeds" >"$tmp/log-$a" 2>&1
  rc=$?
  check "fuzz_$a (the correct twin) runs clean (rc $rc)" test "$rc" -eq 0
  check "no entry for $a" test ! -e "$tmp/violations-$a"
done
# the self-spec on a built-in adapter; bad or impossible LINFUZZ_SPEC values stop the target at once
# (the crash input of section 5 replays the ABA in controlled mode: deterministic, and quick in every build; a
# campaign from the seeds is the fallback, about 1-2 executions/s under ASan with the self-spec's memo)
mkdir -p "$tmp/work-self"
if [ -f "$tmp/crash-treiber_aba" ]; then
  LINFUZZ_SPEC=self LINFUZZ_VIOLATIONS_DIR="$tmp/violations-self" "$BIN/fuzz_treiber_aba" -runs=2 -timeout=60 \
    -artifact_prefix="$tmp/crash-self-" "$tmp/crash-treiber_aba" >"$tmp/log-self" 2>&1
else
  LINFUZZ_SPEC=self LINFUZZ_VIOLATIONS_DIR="$tmp/violations-self" "$BIN/fuzz_treiber_aba" -max_total_time=20 \
    -timeout=20 -artifact_prefix="$tmp/crash-self-" "$tmp/work-self" "$CORPUS/treiber_aba/seeds" >"$tmp/log-self" 2>&1
fi
check "LINFUZZ_SPEC=self: fuzz_treiber_aba finds the ABA against its own serial behaviour" \
  grep -q "linfuzz-fuzz: violation adapter=treiber_aba .*entry=$tmp/violations-self/" "$tmp/log-self"
LINFUZZ_SPEC=magic "$BIN/fuzz_ms_queue" -runs=1 >"$tmp/badspec" 2>&1
check "LINFUZZ_SPEC=magic is an error naming the variable" bash -c "[ $? -eq 2 ] && grep -q LINFUZZ_SPEC '$tmp/badspec'"
LINFUZZ_ONE_CPU=maybe "$BIN/fuzz_ms_queue" -runs=1 >"$tmp/badcpu" 2>&1
check "LINFUZZ_ONE_CPU=maybe stops the start (exit 2, the variable named), not an execution" \
  bash -c "[ $? -eq 2 ] && grep -q 'LINFUZZ_ONE_CPU=maybe' '$tmp/badcpu' && ! grep -q 'libFuzzer: fuzz target exited' '$tmp/badcpu'"
LINFUZZ_FUZZ_STRATEGY=bogus "$BIN/fuzz_ms_queue" -runs=1 >"$tmp/badstrategy" 2>&1
check "LINFUZZ_FUZZ_STRATEGY=bogus is an error listing the strategies, aba included" \
  bash -c "[ $? -eq 2 ] && grep -q 'surw or aba' '$tmp/badstrategy'"
# treiber_tag_wrap's tag wraps after 256 updates: no preemption-based strategy finds it but by luck (stress in
# 2 of 3 runs of 30 s); ABA parks a pop at its CAS until the head word comes back (docs/scheduling.md). Forced,
# it finds the bug from an empty corpus in well under a second (the limit is a backstop), and the entry replays.
mkdir -p "$tmp/aba-work"
LINFUZZ_FUZZ_STRATEGY=aba LINFUZZ_FUZZ_MINIMIZE_TEST=0 LINFUZZ_VIOLATIONS_DIR="$tmp/violations-aba" \
  "$BIN/fuzz_treiber_tag_wrap" -seed=1 -max_total_time=60 -artifact_prefix="$tmp/crash-aba-" "$tmp/aba-work" \
  >"$tmp/log-aba" 2>&1
check "LINFUZZ_FUZZ_STRATEGY=aba finds treiber_tag_wrap" grep -q "linfuzz-fuzz: violation adapter=treiber_tag_wrap .*mode=controlled" "$tmp/log-aba"
aba_entry=$(ls "$tmp"/violations-aba/*.lfz 2>/dev/null | head -1)
check "its entry's schedule is ABA" bash -c "'$LF' show --meta '$aba_entry' | grep -q '^schedule: aba park='"
"$LF" repro "$aba_entry" --runs 0 >"$tmp/repro-aba" 2>&1
check "and replays exactly" grep -q "replayed exactly: violation again, same history" "$tmp/repro-aba"
# striped_hash_set_resize_one_lock's first resize comes with the 17th key: a case of at most 16 keys never
# reaches it. Fresh cases of a set take a wide key domain (stress's keys: a fresh key per add) half of the
# time, so the target finds it from an empty corpus in well under a second (the limit is a backstop), with a
# wide domain in its case, and the entry replays.
mkdir -p "$tmp/wide-work"
LINFUZZ_FUZZ_MODE=controlled LINFUZZ_FUZZ_MINIMIZE_TEST=0 LINFUZZ_VIOLATIONS_DIR="$tmp/violations-wide" \
  "$BIN/fuzz_striped_hash_set_resize_one_lock" -seed=1 -max_total_time=60 -artifact_prefix="$tmp/crash-wide-" \
  "$tmp/wide-work" >"$tmp/log-wide" 2>&1
check "a wide key domain finds striped_hash_set_resize_one_lock" \
  grep -q "linfuzz-fuzz: violation adapter=striped_hash_set_resize_one_lock .*mode=controlled" "$tmp/log-wide"
wide_entry=$(ls "$tmp"/violations-wide/*.lfz 2>/dev/null | head -1)
check "its entry's case has a wide key domain" bash -c "'$LF' show '$wide_entry' | grep -Eq '^workload: .* keys=(32|64|128|256) '"
"$LF" repro "$wide_entry" --runs 0 >"$tmp/repro-wide" 2>&1
check "and replays exactly" grep -q "replayed exactly: violation again, same history" "$tmp/repro-wide"
# ck_stack_batch_npsc's pop_all once shifted by -8 on a node whose value a stale read (c11) saw as the arena's
# zero: UBSan's "shift exponent -8 is negative" ended the quickstart's run of it. This input's runs reach it in
# the sanitizer build (continuing after its violations); such a value now counts in a byte no serial run has.
LINFUZZ_FUZZ_CONTINUE=1 LINFUZZ_FUZZ_MINIMIZE_TEST=0 LINFUZZ_FUZZ_TWIN=0 LINFUZZ_VIOLATIONS_DIR="$tmp/violations-stale" \
  "$BIN/fuzz_ck_stack_batch_npsc" -runs=3 "$(dirname "$0")/../data/regressions/ck_stack_batch_npsc_stale_value.input" \
  >"$tmp/log-stale" 2>&1
rc=$?
check "ck_stack_batch_npsc: a stale node value is a violation, no undefined shift (exit $rc)" \
  bash -c "[ $rc = 0 ] && ! grep -q 'runtime error' '$tmp/log-stale' && grep -q 'summary .* violations=[1-9]' '$tmp/log-stale'"
LINFUZZ_SPEC=type "$BIN/fuzz_pia_map" -runs=1 >"$tmp/nospec" 2>&1
check "LINFUZZ_SPEC=type on a type without a spec is an error" bash -c "[ $? -eq 2 ] && grep -q 'has no specification' '$tmp/nospec'"
LINFUZZ_SPEC=self "$BIN/fuzz_scal_k_fifo" -runs=1 >"$tmp/nondet" 2>&1
check "LINFUZZ_SPEC=self on an adapter not marked deterministic is an error" \
  bash -c "[ $? -eq 2 ] && grep -q 'not marked deterministic' '$tmp/nondet'"

[ "$fail" = 0 ] || { echo "--- logs ---"; tail -n 30 "$tmp"/log-*; }
finish
