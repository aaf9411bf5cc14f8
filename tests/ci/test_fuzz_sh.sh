#!/usr/bin/env bash
# ci/fuzz.sh on a tiny budget: a correct adapter (mutex_queue) and a known-buggy one (k3_trylock_queue, found
# within the budget from its seeds) give the summary table, entries, a page per entry, a merged corpus and
# exit 0; the same run
# with k3 declared linearizable (--expect) fails with exit 1 and says why; in a sanitizer build, treiber_uaf's
# use after free is a CRASH entry, expected; bad usage exits 2.
# Usage: test_fuzz_sh.sh BUILD_DIR
set -u
source "$(dirname "$0")/../lib.sh"
BUILD=$(cd "$1" && pwd)
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
fuzz() { bash "$ROOT/ci/fuzz.sh" --build "$BUILD" --jobs 1 "$@" >"$tmp/out" 2>"$tmp/err"; }

fuzz --seconds 2 --self-seconds 1 --adapters mutex_queue,k3_trylock_queue --out "$tmp/run1"
rc=$?
[ "$rc" = 0 ] && ok || bad "correct clean, buggy found: exit $rc: $(cat "$tmp/out" "$tmp/err")"
has "$tmp/out" "| adapter | expected linearizable | executions | violations | distinct signatures | example entry | result |" "table header"
has "$tmp/out" "| mutex_queue | yes | [1-9][0-9]* | 0 | 0 | - | clean |" "the correct adapter's row"
has "$tmp/out" "| k3_trylock_queue | no | [1-9][0-9]* | [1-9][0-9]* | [1-9][0-9]* | violations/k3_trylock_queue/[0-9a-f]*-[0-9a-f]*.lfz | found (expected) |" "the buggy adapter's row"
for t in parse_text parse_lfz check_diff; do
  has "$tmp/out" "| fuzz_$t | [1-9][0-9]* | clean |" "self target $t"
done
has "$tmp/out" "Every adapter expected to be linearizable stayed clean" "verdict line"
has "$tmp/out" "### Triage" "triage section"
has "$tmp/out" "| KNOWN_BUG | [0-9]* | k3_trylock_queue |" "triage of the entries"
cmp -s "$tmp/run1/summary.md" <(sed -n '/^## linfuzz fuzzing/,/^Every adapter/p; /^Root causes (/p' "$tmp/out") && ok || bad "summary.md is the printed table"
ls "$tmp"/run1/violations/k3_trylock_queue/*.lfz >/dev/null 2>&1 && ok || bad "entries saved"
# one HTML page per entry, next to the summary
n_entries=$(ls "$tmp"/run1/violations/k3_trylock_queue/*.lfz 2>/dev/null | wc -l)
[ "$(ls "$tmp"/run1/html/k3_trylock_queue/*.html 2>/dev/null | wc -l)" = "$n_entries" ] && ok ||
  bad "one page per entry: $(ls -R "$tmp/run1/html" 2>&1)"
page=$(ls "$tmp"/run1/html/k3_trylock_queue/*.html 2>/dev/null | head -1)
[ -n "$page" ] && grep -q "First impossible result" "$page" && grep -q '<g class="op' "$page" && ok ||
  bad "the page shows the violation"
has "$tmp/out" "HTML pages: $n_entries in html/ADAPTER/" "the pages are announced"
[ "$(ls "$tmp/run1/corpus/mutex_queue" | wc -l)" -gt 0 ] && ok || bad "corpus merged into OUT/corpus/ADAPTER"
[ "$(ls "$tmp/run1/corpus/self/parse_text" | wc -l)" -gt 0 ] && ok || bad "self corpus merged"

# A correct adapter that violates: simulated by declaring the known-buggy one linearizable. Reuses the corpus.
fuzz --seconds 2 --no-self --adapters mutex_queue,k3_trylock_queue --expect k3_trylock_queue=yes \
  --out "$tmp/run2" --corpus "$tmp/run1/corpus"
rc=$?
[ "$rc" = 1 ] && ok || bad "a violation of an adapter expected to be linearizable: exit $rc, wanted 1"
has "$tmp/out" "| k3_trylock_queue | yes | .* | FAIL: violation of an adapter expected to be linearizable |" "failing row"
has "$tmp/out" "| mutex_queue | yes | .* | clean |" "the other row still clean"
has "$tmp/out" "FAILED" "verdict line"
grep -q "fuzz_parse_text" "$tmp/out" && bad "--no-self ran the self targets" || ok

# A memory error is a finding (a sanitizer build, the job's default): treiber_uaf's use after free is saved
# as a CRASH entry, triaged, and expected of a known-buggy adapter; its hazard-pointer twin stays clean.
nm "$BUILD/bin/linfuzz-fuzz" 2>/dev/null >"$tmp/symbols"
if grep -q " __asan_init" "$tmp/symbols"; then
  fuzz --seconds 3 --no-self --adapters treiber_hp,treiber_uaf --out "$tmp/run3"
  rc=$?
  [ "$rc" = 0 ] && ok || bad "a known-buggy adapter's crash: exit $rc: $(cat "$tmp/out" "$tmp/err")"
  has "$tmp/out" "| treiber_uaf | no | .* | CRASH: heap-use-after-free (entry saved; log: logs/fuzz_treiber_uaf.log) (expected) |" "the crash row"
  has "$tmp/out" "| treiber_hp | yes | [1-9][0-9]* | 0 | 0 | - | clean |" "the twin's row"
  has "$tmp/out" "| KNOWN_BUG | [0-9]* | treiber_uaf | stack, crash: heap-use-after-free of memory freed in tr_op" "triage of the crash"
  ls "$tmp"/run3/html/treiber_uaf/*.html >/dev/null 2>&1 && ok || bad "no page of the crash entry"
fi

# Usage.
fuzz --seconds 0; [ $? = 2 ] && ok || bad "--seconds 0 accepted"
fuzz --adapters no_such_adapter; [ $? = 2 ] && ok || bad "an unknown adapter accepted"
has "$tmp/err" "no adapter 'no_such_adapter'" "unknown adapter named"
fuzz --expect mutex_queue=maybe; [ $? = 2 ] && ok || bad "--expect NAME=maybe accepted"
fuzz --bogus; [ $? = 2 ] && ok || bad "unknown option accepted"

finish
