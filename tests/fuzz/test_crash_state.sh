#!/usr/bin/env bash
# One crash per bug on ClusterFuzz/OSS-Fuzz (fuzz/bug_report.h): the fuzz target of r2_rwlock_list_both (two
# bugs in one adapter) aborts on two findings of its add bug and one of its remove bug (inputs written by
# crash_inputs.c); the crash type and state are computed from each output the way ClusterFuzz's stack analyzer
# does (crash_state.py). They must be ASSERT with the bug named in the state's first line, the same for the two
# add findings and different for the remove finding; with a sanitizer's stack trace in the output, the state's
# next line is the bug's own report frame. The bug's id is the triage group of the entry the target saved. With
# -timeout=1 and an analysis longer than that, the crash is still the bug's, not libFuzzer's timeout.
#
# Usage: test_crash_state.sh CRASH_INPUTS_PROGRAM FUZZ_TARGET_DIR
source "$(dirname "$0")/../lib.sh"
INPUTS=$1
TARGET=$2/fuzz_r2_rwlock_list_both
PARSE=$(cd "$(dirname "$0")" && pwd)/crash_state.py
command -v python3 >/dev/null || { echo "test_crash_state: no python3: skipped"; exit 0; }
cd "$tmp" || exit 1
mkdir -p in
"$INPUTS" in >inputs.log 2>&1 || { cat inputs.log; bad "crash inputs not found"; finish; }

for i in add1 add2 remove1; do
  # (the target's own environment: root causing on, as when a violation ends the process)
  "$TARGET" "in/$i" >"$i.log" 2>&1
  rc=$?
  [ "$rc" != 0 ] && ok || bad "$i: the target did not abort (exit 0)"
  python3 "$PARSE" <"$i.log" >"$i.state"
  has "$i.state" "^ASSERT$" "$i: crash type"
  has "$i.log" "^linfuzz-fuzz: root cause: " "$i: root cause confirmed in the target"
  letters=$(sed -n 's/^linfuzz-fuzz: bug \([a-p]*\) = triage group \([0-9a-f]*\): .*/\1/p' "$i.log")
  group=$(sed -n 's/^linfuzz-fuzz: bug \([a-p]*\) = triage group \([0-9a-f]*\): .*/\2/p' "$i.log")
  [ ${#letters} = 16 ] && [ ${#group} = 16 ] && ok || bad "$i: no bug line ($(grep 'linfuzz-fuzz: bug' "$i.log"))"
  echo "$group" >"$i.group"
  # the line ClusterFuzz shows names the bug
  sed -n 2p "$i.state" | grep -q "^linearizability bug $letters in r2_rwlock_list_both: set, root cause: " &&
    ok || bad "$i: the state's first line does not name the bug: $(sed -n 2p "$i.state")"
  # with a sanitizer's stack (the ClusterFuzz builds), the frame below is the bug's own
  if grep -q '^    #[0-9]' "$i.log"; then
    sed -n 3p "$i.state" | grep -qx "linfuzz_bug_${letters:0:2}" && ok ||
      bad "$i: the frame below the message is not linfuzz_bug_${letters:0:2}: $(cat "$i.state")"
  fi
done
cmp -s add1.state add2.state && ok || bad "two findings of one bug, two crash states: $(cat add1.state add2.state)"
cmp -s add1.state remove1.state && bad "two bugs, one crash state: $(cat add1.state)" || ok
cmp -s add1.group add2.group && ok || bad "two findings of one bug, two triage groups"
cmp -s add1.group remove1.group && bad "two bugs, one triage group" || ok

# libFuzzer's -timeout (25 s on ClusterFuzz) counts the input's time; the analysis of the finding (here root
# causing made to take over 2 s) must not turn the bug into a "timeout" crash: the same state as without it
# (the schedules grow until the root causing takes 2 s: its speed varies with the build and the load; the
# baseline runs them all, LINFUZZ_FUZZ_ROOTCAUSE_BASELINE=0, and so does the validation that confirms)
for schedules in 20000 60000 180000; do
  LINFUZZ_FUZZ_ROOTCAUSE=$schedules LINFUZZ_FUZZ_ROOTCAUSE_BASELINE=0 LINFUZZ_FUZZ_ROOTCAUSE_WORK=0 \
    "$TARGET" -timeout=1 in/add1 >alarm.log 2>&1
  secs=$(sed -n 's/^linfuzz-fuzz: root cause: .* candidates*, \([0-9.]*\) s, .*/\1/p' alarm.log)
  awk -v s="${secs:-0}" 'BEGIN { exit !(s >= 2) }' && break
  grep -q "^linfuzz-fuzz: root cause: " alarm.log || break # (a timeout: no root cause line)
done
python3 "$PARSE" <alarm.log >alarm.state
cmp -s add1.state alarm.state && ok || bad "-timeout=1: $(cat alarm.state) $(grep -m3 -i 'timeout\|ALARM' alarm.log)"
awk -v s="${secs:-0}" 'BEGIN { exit !(s >= 2) }' && ok ||
  bad "-timeout=1: the root causing took ${secs:-?} s with $schedules schedules, too short to outlast libFuzzer's alarm"

# The root causing's work budget (LINFUZZ_FUZZ_ROOTCAUSE_WORK) is counted in switches and points, not time: the
# same cut, and the same crash state, on every run; a validation it cuts short confirms nothing (its schedules
# are fewer than the baseline's). add1's full analysis confirms its one candidate in the last family it runs.
# When the workload's analysis confirms nothing, the minimized test is root-caused with a budget of its own: it
# confirms the same cause, and the crash is the same as add1's (one crash per bug even when the budget cuts the
# workload's analysis). With a budget too small for either, the crash names no root cause.
# (The counts of runs and work are left out of the comparison: a run the watchdog releases on a busy machine
# is not deterministic.)
work=$(sed -n 's/^linfuzz-fuzz: root cause: .*, work \([0-9]*\))$/\1/p' add1.log)
[ -n "$work" ] && [ "$work" -gt 100 ] && ok || bad "no work figure on add1's root cause line: $(grep 'root cause' add1.log)"
cut=$(( ${work:-1000} * 9 / 10 ))
for i in 1 2; do
  LINFUZZ_FUZZ_ROOTCAUSE_WORK=$cut "$TARGET" in/add1 >cut$i.log 2>&1
  python3 "$PARSE" <cut$i.log >cut$i.state
  grep '^linfuzz-fuzz: \(on the minimized test: \)\{0,1\}\(root cause\|no confirmed root cause\|no root cause\)' cut$i.log |
    sed 's/ ([0-9]* candidates, [0-9.]* s, [0-9]* runs, work [0-9]*/ (/' >cut$i.line
done
has cut1.line "^linfuzz-fuzz: no confirmed root cause (: its budget, LINFUZZ_FUZZ_ROOTCAUSE_WORK)$" \
  "a budget of 9/10 of the full analysis ($cut of $work) cuts the confirming validation short"
has cut1.line "^linfuzz-fuzz: on the minimized test: root cause: r2_add() " "the minimized test confirms the cause"
has cut1.log "^linfuzz-fuzz: root causing (.*work budget $cut, $((cut * 3)) for the minimized test;" \
  "the minimized test's analysis gets three times the workload's budget"
cmp -s cut1.line cut2.line && cmp -s cut1.state cut2.state && ok || bad "the cut differs between runs: $(cat cut1.line cut2.line)"
cmp -s cut1.state add1.state && ok || bad "cut: another crash than add1's: $(cat cut1.state add1.state)"
LINFUZZ_FUZZ_ROOTCAUSE_WORK=50 "$TARGET" in/add1 >tiny.log 2>&1
python3 "$PARSE" <tiny.log >tiny.state
has tiny.log "^linfuzz-fuzz: on the minimized test: no confirmed root cause" "a budget of 50: the test confirms nothing"
sed -n 2p tiny.state | grep -q "no root cause$" && ok || bad "budget 50: the crash state names a root cause: $(cat tiny.state)"

# triage groups the saved entries as the crash reports did: two groups, with the ids the targets printed
"$TARGET" triage --json violations >triage.json 2>triage.err
python3 - triage.json "$(cat add1.group)" "$(cat remove1.group)" <<'EOF' && ok || bad "triage: $(head -c 1500 triage.json)"
import json, sys
d = json.load(open(sys.argv[1]))
ids = sorted(g["id"] for g in d["groups"])
assert ids == sorted(sys.argv[2:4]), (ids, sys.argv[2:4])
EOF
finish
