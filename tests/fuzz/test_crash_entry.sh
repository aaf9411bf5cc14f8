#!/usr/bin/env bash
# A crash is a finding too (findings/crash.h, testcase/crash_watch.h): under AddressSanitizer the fuzz target of
# treiber_uaf (pop frees the node at once) dies of a heap-use-after-free, and leaves a CRASH entry next to
# libFuzzer's crash input: the controlled schedule that produced it, the history up to the crash, the sanitizer's
# report with the access and the free; `show` names the free in pop as the root cause, `repro` crashes again at
# the recorded run (an exact replay), `triage` groups the entry and the crash input as one known bug, and triage
# of the crash input alone replays it in a child that sends back the same entry. The correct twin (treiber_hp,
# hazard pointers) stays clean under the sanitizer. Needs a sanitizer build of the targets: skipped (77) in others.
#
# Usage: test_crash_entry.sh FUZZ_TARGET_DIR SOURCE_DIR
source "$(dirname "$0")/../lib.sh"
BIN=$1
SRC=$2
T=$BIN/fuzz_treiber_uaf
nm "$BIN/linfuzz-fuzz" >"$tmp/symbols" 2>&1
grep -q " __asan_init" "$tmp/symbols" || { echo "test_crash_entry: not a sanitizer build: skipped"; exit 77; }
export LINFUZZ_FUZZ_ROOTCAUSE=0
cd "$tmp" || exit 1
mkdir -p work work-hp

# the free the report must name: the line of pop's free in the buggy variant
free_line=$(awk 'index($0, "free(top); /* treiber_uaf") { print NR; exit }' "$SRC/adapters/buggy/treiber_reclaim.c")
[ -n "$free_line" ] && ok || bad "no free line in treiber_reclaim.c"

# (controlled mode and -seed=1: the same executions in every run of one build; a busy machine only slows them)
LINFUZZ_FUZZ_MODE=controlled LINFUZZ_VIOLATIONS_DIR=$tmp/v "$T" -seed=1 -max_total_time=240 -timeout=120 \
  -artifact_prefix="$tmp/" work "$SRC/corpus/treiber_uaf/seeds" >log 2>&1
rc=$?
[ "$rc" != 0 ] && ok || bad "fuzz_treiber_uaf did not crash (exit 0)"
has log "ERROR: AddressSanitizer: heap-use-after-free" "the sanitizer's report"
has log "^linfuzz-fuzz: crash adapter=treiber_uaf .* mode=controlled entry=$tmp/v/" "the target's crash line"
entry=$(ls v/*.lfz 2>/dev/null | head -1)
input=$(ls crash-* 2>/dev/null | head -1)
[ -n "$entry" ] && [ -n "$input" ] && ok || { bad "no entry ($entry) or no crash input ($input)"; finish; }

# show: the crash, its root cause and the history up to it
"$T" show "$entry" >show.txt 2>&1
has show.txt "^=== CRASH  adapter=treiber_uaf  type=stack  kind=heap-use-after-free ===" "show: the header"
has show.txt "^root cause: memory freed in tr_op (treiber_reclaim.c:$free_line) while another thread" "show: the free"
"$T" show --meta "$entry" >meta.txt 2>&1
has meta.txt "^finding: crash$" "meta: a crash"
has meta.txt "^schedule_mode: controlled$" "meta: its schedule"
"$T" show --history full "$entry" >hist.txt 2>&1
grep -Eq '^[0-9]+ [0-9]+ \? ' hist.txt && ok || bad "the history has no op in flight"

# repro: the recorded run crashes again, the same crash
expect_rc 1 "repro of a CRASH entry (exit 1)" "$T" repro "$entry"
has "$tmp/out" "CRASH entry (heap-use-after-free); crashed again, at the recorded run (replayed exactly)" "repro"

# triage: the entry and its crash input, one known bug
expect_rc 0 "triage of the entry and its input" "$T" triage v "$input"
has "$tmp/out" "| KNOWN_BUG | 1 | treiber_uaf | stack, crash: heap-use-after-free of memory freed in tr_op (treiber_reclaim.c:$free_line) |" "triage: one group"
has "$tmp/out" "(0 replayed, 1 the input of an entry)" "triage: the input is the entry's"
# the crash input alone, replayed in a child: the same crash, captured as an entry and saved
expect_rc 0 "triage of the crash input alone" "$T" triage --adapter treiber_uaf --save saved "$input"
has "$tmp/out" "| KNOWN_BUG | 1 | treiber_uaf | stack, crash: heap-use-after-free of memory freed in tr_op (treiber_reclaim.c:$free_line) |" "triage of the input: the same group"
saved=$(ls saved/treiber_uaf/*.lfz 2>/dev/null | head -1)
[ -n "$saved" ] && [ "$(basename "$saved" | cut -d- -f1)" = "$(basename "$entry" | cut -d- -f1)" ] && ok ||
  bad "the replayed crash's entry is not of the same bucket ($saved, $entry)"

# the twin with hazard pointers: no crash, no violation
LINFUZZ_VIOLATIONS_DIR=$tmp/v-hp "$BIN/fuzz_treiber_hp" -seed=1 -runs=600 -artifact_prefix="$tmp/hp-" work-hp \
  "$SRC/corpus/treiber_hp/seeds" >log-hp 2>&1
rc=$?
[ "$rc" = 0 ] && ok || bad "fuzz_treiber_hp failed (exit $rc): $(grep -m3 'ERROR\|linfuzz-fuzz: [A-Z]' log-hp)"
finish
