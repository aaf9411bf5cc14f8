#!/usr/bin/env bash
# Tests of the libFuzzer targets (registered by fuzz/targets/CMakeLists.txt, so only in clang builds):
# every adapter has a target; a known-buggy adapter's target finds its bug from the seeds within seconds and
# leaves a valid corpus entry and a crash input; a correct adapter's target stays clean.
# Usage: test_fuzz_targets.sh LINFUZZ_BIN BIN_DIR CORPUS_DIR
set -uo pipefail
source "$(dirname "$0")/../lib.sh"
LF=$1 BIN=$(cd "$2" && pwd) CORPUS=$(cd "$3" && pwd)

# 1. One target per adapter of the registry (the hard links fuzz_<adapter> to linfuzz-fuzz, made at build time).
missing=""
while read -r name _; do
  [ -x "$BIN/fuzz_$name" ] || missing="$missing $name"
done < <("$LF" adapters)
check "every adapter has a fuzz target (missing:${missing:- none})" test -z "$missing"

# 2. A known-buggy adapter: violation found, entry saved, crash input written.
fuzz_buggy() { # ADAPTER
  local a=$1 work="$tmp/work-$1"
  mkdir -p "$work"
  LINFUZZ_VIOLATIONS_DIR="$tmp/violations-$a" "$BIN/fuzz_$a" -max_total_time=20 -timeout=20 \
    -artifact_prefix="$tmp/crash-$a-" "$work" "$CORPUS/$a/seeds" >"$tmp/log-$a" 2>&1
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

[ "$fail" = 0 ] || { echo "--- logs ---"; tail -n 30 "$tmp"/log-*; }
finish
