#!/usr/bin/env bash
# Regression test over the violation entries kept in corpus/<adapter>/violations/ (one minimized violation
# per known-buggy adapter is committed; campaigns add more): each must still load, its saved histories must
# still check as violations (`linfuzz repro --runs 0`, deterministic), its report and its HTML page must render
# and name its first impossible result, and its minimized history, printed as text, must still be a violation
# for `linfuzz check`. A STUCK entry (a known bug that makes an operation never return) must load, repro with
# exit 5 and show its pending ops, its type and methods named (a custom type's too); a CRASH entry (a known bug
# that makes the code die) repro with exit 1 and show its crash site and the op in flight. An entry found in
# controlled mode must replay exactly (same history) when this
# is the build that recorded it (schedule_build: another compiler or other flags compile other loads and stores,
# hence other scheduling points); one of the first workload format ("fuzz-case 1", before schedules) must still
# decode and be re-run in free mode.
# Usage: test_corpus_entries.sh LINFUZZ_BIN TEST_DATA_DIR
set -uo pipefail
source "$(dirname "$0")/../lib.sh"
LF=$1
corpus=$(cd "$(dirname "$0")/../../corpus" && pwd)
n=0
for entry in "$corpus"/*/violations/*.lfz; do
  [ -e "$entry" ] || continue
  n=$((n + 1))
  dir_adapter=$(basename "$(dirname "$(dirname "$entry")")")
  meta=$("$LF" show --meta "$entry" 2>&1) || { bad "$entry does not load: $meta"; continue; }
  grep -qx "adapter: $dir_adapter" <<<"$meta" && ok || bad "$entry is not an entry of $dir_adapter"
  if grep -qx "finding: crash" <<<"$meta"; then
    # a CRASH entry (the code under test died: findings/crash.h): repro exits 1, the report renders with the
    # crash's kind and root site, the history holds the op in flight pending (its replays:
    # tests/fuzz/test_crash_entry.sh, in a sanitizer build)
    "$LF" repro --runs 0 -q "$entry" >/dev/null 2>&1
    rc=$?
    [ "$rc" = 1 ] && ok || bad "$entry: a CRASH entry, but repro exits $rc, not 1"
    "$LF" show "$entry" >"$tmp/crash-report" 2>&1
    grep -q "=== CRASH  adapter=$dir_adapter" "$tmp/crash-report" && ok || bad "$entry: the report does not render"
    grep -q "^root cause: memory freed in \|^crashed in: " "$tmp/crash-report" && ok || bad "$entry: no crash site"
    "$LF" show --history full "$entry" >"$tmp/crash-history" 2>&1
    grep -Eq '^[0-9]+ [0-9]+ \? ' "$tmp/crash-history" && ok || bad "$entry: no op in flight in its history"
    continue
  fi
  if grep -qx "finding: stuck" <<<"$meta"; then
    # a STUCK entry (an operation never returned): repro exits 5, the report names the pending ops, the
    # history parses with them pending
    "$LF" repro --runs 0 -q "$entry" >/dev/null 2>&1
    rc=$?
    [ "$rc" = 5 ] && ok || bad "$entry: a STUCK entry, but repro exits $rc, not 5"
    # (into files first: grep -q stops reading at the first match, and under pipefail the writer's SIGPIPE
    # would fail the pipeline on a long report)
    "$LF" show "$entry" >"$tmp/stuck-report" 2>&1
    grep -q "=== STUCK  adapter=$dir_adapter" "$tmp/stuck-report" && ok || bad "$entry: the report does not render"
    # the type and the methods by their names (a custom type's STUCK history once lost its declaration: type=?)
    grep -Eq "type=\?|^[0-9]+ [0-9]+ [0-9?]+ \?( |$)" "$tmp/stuck-report" && bad "$entry: its type or a method is '?'" || ok
    "$LF" show --history full "$entry" >"$tmp/stuck-history" 2>&1
    grep -Eq '^[0-9]+ [0-9]+ \? ' "$tmp/stuck-history" && ok || bad "$entry: no pending op in its history"
    continue
  fi
  "$LF" repro --runs 0 "$entry" >"$tmp/repro" 2>&1
  rc=$?
  [ "$rc" = 1 ] && ok || bad "$entry: saved histories no longer violations (repro exit $rc)"
  if grep -qx "schedule_mode: controlled" <<<"$meta"; then
    if grep -q "the entry was recorded by build" "$tmp/repro"; then
      has "$tmp/repro" "replayed" "$entry: replay in another build"
    else
      has "$tmp/repro" "replayed exactly: violation again, same history" "$entry: exact replay"
    fi
  elif grep -qx "workload_format: fuzz-case 1" <<<"$meta"; then
    "$LF" repro --runs 30 -q "$entry" >"$tmp/repro" 2>&1
    grep -Eq "found in free mode(: no exact replay; no controlled twin|; its controlled twin: schedule [0-9]+ of the search).*; violation reappeared in " "$tmp/repro" &&
      ok || bad "$entry: re-run free, twin searched: $(cat "$tmp/repro")"
  fi
  "$LF" show "$entry" >"$tmp/report" 2>&1
  grep -Eq "=== (LINEARIZABILITY|CONTRACT) VIOLATION  adapter=$dir_adapter" "$tmp/report" && ok ||
    bad "$entry: the report does not render"
  # its HTML page renders too, and names the report's first impossible result the same way (custom types: with
  # the method names of their declaration)
  first=$(sed -n 's/^first bad:  [A-Z0-9]*: \(.*\) (the first impossible result of the run)$/\1/p' "$tmp/report" |
    head -1 | sed -E 's/ \[(prefix|drain)\]//; s/ \((recorded|in flight)[^)]*\)$//' |
    sed 's/&/\&amp;/g; s/>/\&gt;/g; s/</\&lt;/g')
  "$LF" show --html -o "$tmp/page.html" "$entry" >/dev/null 2>&1 && ok || bad "$entry: the HTML page does not render"
  [ -n "$first" ] && grep -qF "<code>$first</code>" "$tmp/page.html" && ok ||
    bad "$entry: the page does not name the first impossible result '$first'"
  # --adapter: the adapter's type spec, or its self-spec when its type has none (as the entry was checked)
  "$LF" show --history minimized "$entry" | "$LF" check --adapter "$dir_adapter" - >/dev/null 2>&1
  rc=$?
  [ "$rc" = 1 ] && ok || bad "$entry: minimized history checks with exit $rc, not 1"
done
# The committed entries: at least one per known-buggy adapter, and one found in controlled mode.
for a in $("$LF" adapters | awk '$3 == "no" {print $1}'); do
  ls "$corpus/$a/violations/"*.lfz >/dev/null 2>&1 && ok || bad "no entry in corpus/$a/violations"
  found=no
  for entry in "$corpus/$a/violations/"*.lfz; do
    "$LF" show --meta "$entry" 2>/dev/null | grep -qx "schedule_mode: controlled" && found=yes
  done
  [ "$found" = yes ] && ok || bad "no controlled-mode entry in corpus/$a/violations"
done
echo "$n entries checked"
finish
