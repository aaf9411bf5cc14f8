#!/usr/bin/env bash
# Regression test over the violation entries kept in corpus/<adapter>/violations/ (one minimized violation
# per known-buggy adapter is committed; campaigns add more): each must still load, its saved histories must
# still check as violations (`linfuzz repro --runs 0`, deterministic), its report must render, and its
# minimized history, printed as text, must still be a violation for `linfuzz check`.
# Usage: test_corpus_entries.sh LINFUZZ_BIN TEST_DATA_DIR
set -uo pipefail
LF=$1
corpus=$(cd "$(dirname "$0")/../../corpus" && pwd)
fail=0 n=0
for entry in "$corpus"/*/violations/*.lfz; do
  [ -e "$entry" ] || continue
  n=$((n + 1))
  dir_adapter=$(basename "$(dirname "$(dirname "$entry")")")
  meta=$("$LF" show --meta "$entry" 2>&1) || { echo "FAIL: $entry does not load: $meta"; fail=1; continue; }
  grep -qx "adapter: $dir_adapter" <<<"$meta" || { echo "FAIL: $entry is not an entry of $dir_adapter"; fail=1; }
  "$LF" repro --runs 0 -q "$entry" >/dev/null 2>&1
  rc=$?
  [ "$rc" = 1 ] || { echo "FAIL: $entry: saved histories no longer violations (repro exit $rc)"; fail=1; }
  "$LF" show "$entry" 2>&1 | grep -q "=== LINEARIZABILITY VIOLATION  adapter=$dir_adapter" ||
    { echo "FAIL: $entry: the report does not render"; fail=1; }
  "$LF" show --history minimized "$entry" | "$LF" check - >/dev/null 2>&1
  rc=$?
  [ "$rc" = 1 ] || { echo "FAIL: $entry: minimized history checks with exit $rc, not 1"; fail=1; }
done
# The committed entries: one per known-buggy adapter.
for a in $("$LF" adapters | awk '$3 == "no" {print $1}'); do
  ls "$corpus/$a/violations/"*.lfz >/dev/null 2>&1 || { echo "FAIL: no entry in corpus/$a/violations"; fail=1; }
done
echo "$n entries checked"
exit "$fail"
