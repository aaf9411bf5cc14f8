#!/usr/bin/env bash
# `linfuzz minimize-test` on the committed controlled-mode entries of k1_counter_lost_update,
# k4_reread_cas_register, treiber_aba and r1_afek_stack_no_swap (testcase/minimize_test.h): the minimized
# test has fewer calls than the original, its run replays exactly to a violation (`linfuzz repro`: "minimized
# test replayed exactly: violation again, same history"), the new entry keeps the original workload and
# history, its report names the test and the first impossible result, and the lost update of k1 ends at a
# handful of ops (at most 6 in the minimized test's history). An entry whose recorded run does not replay
# exactly in this build (another compiler or sanitizers: other scheduling points) is skipped. Also the usage:
# --help, no entry, a free-mode entry (exit 1, "not minimized").
# Usage: test_minimize_test.sh LINFUZZ_BIN TEST_DATA_DIR
set -uo pipefail
source "$(dirname "$0")/../lib.sh"
LF=$1
corpus=$(cd "$(dirname "$0")/../../corpus" && pwd)

expect_rc 0 "--help" "$LF" minimize-test --help
has "$tmp/out" "usage: linfuzz minimize-test" "--help"
expect_err 2 "which entry" "no entry" "$LF" minimize-test

tried=0
for adapter in k1_counter_lost_update k4_reread_cas_register treiber_aba r1_afek_stack_no_swap; do
  for entry in "$corpus/$adapter"/violations/*.lfz; do
    meta=$("$LF" show --meta "$entry" 2>&1) || { bad "$entry does not load"; continue; }
    if ! grep -qx "schedule_mode: controlled" <<<"$meta"; then
      free_entry=$entry
      continue
    fi
    "$LF" repro --runs 0 "$entry" >"$tmp/repro0" 2>&1
    # only where the recorded run replays exactly (another build's scheduling points may differ)
    grep -q "replayed exactly: violation again, same history" "$tmp/repro0" || continue
    tried=$((tried + 1))
    rm -rf "$tmp/min" && mkdir "$tmp/min"
    expect_rc 0 "$adapter: minimize-test" "$LF" minimize-test -q --seconds 20 -o "$tmp/min" "$entry"
    line=$(cat "$tmp/out")
    if [[ $line =~ test\ ([0-9]+)\ threads?,\ ([0-9]+)\ calls\ -\>\ ([0-9]+)\ threads?,\ ([0-9]+)\ calls\ \(history\ ([0-9]+)\ -\>\ ([0-9]+)\ ops\) ]]; then
      calls0=${BASH_REMATCH[2]} calls1=${BASH_REMATCH[4]} ops1=${BASH_REMATCH[6]}
      [ "$calls1" -lt "$calls0" ] && ok || bad "$adapter: the minimized test has $calls1 calls, the original $calls0"
      if [ "$adapter" = k1_counter_lost_update ]; then
        [ "$ops1" -le 6 ] && ok || bad "$adapter: the minimized test's history has $ops1 ops (wanted <= 6)"
      fi
    else
      bad "$adapter: no summary line in '$line'"
      continue
    fi
    new=$(ls "$tmp"/min/*.lfz 2>/dev/null | head -1)
    [ -n "$new" ] && ok || { bad "$adapter: no entry saved"; continue; }
    "$LF" repro --runs 0 "$new" >"$tmp/repro" 2>&1
    rc=$?
    [ "$rc" = 1 ] && ok || bad "$adapter: repro of the minimized entry exits $rc"
    has "$tmp/repro" "; replayed exactly: violation again, same history" "$adapter: the original still replays"
    has "$tmp/repro" "minimized test replayed exactly: violation again, same history" "$adapter: the test replays"
    # the original workload and history stay
    "$LF" show --history full "$entry" >"$tmp/h0"
    "$LF" show --history full "$new" >"$tmp/h1"
    cmp -s "$tmp/h0" "$tmp/h1" && ok || bad "$adapter: the recorded history changed"
    # the minimized test's own run: printed by --history test, a violation for `linfuzz check`
    "$LF" show --history test "$new" >"$tmp/ht"
    [ $? = 0 ] && ok || bad "$adapter: show --history test"
    "$LF" check - <"$tmp/ht" >/dev/null 2>&1
    [ $? = 1 ] && ok || bad "$adapter: the test's history is not a violation for linfuzz check"
    "$LF" show --meta "$new" >"$tmp/meta"
    has "$tmp/meta" "test_minimize: test " "$adapter: meta test_minimize"
    "$LF" show "$new" >"$tmp/show" 2>&1
    has "$tmp/show" "test:       test " "$adapter: the report names the test"
    has "$tmp/show" "first bad:" "$adapter: the report keeps the first impossible result"
  done
done
[ "$tried" -gt 0 ] || echo "test_minimize_test: no entry replays exactly in this build: nothing minimized here"

if [ -n "${free_entry:-}" ]; then
  expect_rc 1 "a free-mode entry" "$LF" minimize-test -q "$free_entry"
  has "$tmp/out" "not minimized" "a free-mode entry"
  expect_err 2 "has no minimized test" "show --history test of an entry without a test" \
    "$LF" show --history test "$free_entry"
fi
finish
