#!/usr/bin/env bash
# Regression test over the violation entries kept in corpus/<adapter>/violations/ (one minimized violation
# per known-buggy adapter is committed; campaigns add more): each must still load, its saved histories must
# still check as violations (`linfuzz repro --runs 0`, deterministic), its report must render, and its
# minimized history, printed as text, must still be a violation for `linfuzz check`.
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
  "$LF" repro --runs 0 -q "$entry" >/dev/null 2>&1
  rc=$?
  [ "$rc" = 1 ] && ok || bad "$entry: saved histories no longer violations (repro exit $rc)"
  "$LF" show "$entry" 2>&1 | grep -q "=== LINEARIZABILITY VIOLATION  adapter=$dir_adapter" && ok ||
    bad "$entry: the report does not render"
  "$LF" show --history minimized "$entry" | "$LF" check - >/dev/null 2>&1
  rc=$?
  [ "$rc" = 1 ] && ok || bad "$entry: minimized history checks with exit $rc, not 1"
done
# The committed entries: one per known-buggy adapter.
for a in $("$LF" adapters | awk '$3 == "no" {print $1}'); do
  ls "$corpus/$a/violations/"*.lfz >/dev/null 2>&1 && ok || bad "no entry in corpus/$a/violations"
done
echo "$n entries checked"
finish
