#!/usr/bin/env bash
# Every LINFUZZ_* variable with absurd values (docs/security.md, "The environment"): a malformed flag, number or
# duration (a word, negative, NaN, infinite, beyond its range, bytes that are not text, 5000 characters) stops
# the command or fuzz target with exit 2 and a message naming the variable, shown escaped; a directory name
# too long to hold an entry's path is refused instead of being cut short (entries went to the shortened
# directory); a summary file that cannot be appended to is reported; nothing from a value reaches the terminal
# as a control character.
# Usage: test_environment.sh LINFUZZ_BIN TEST_DATA_DIR
set -u
source "$(dirname "$0")/../lib.sh"
LF=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
FUZZ=$(dirname "$LF")/fuzz_lock_queue
SEED=$(cd "$(dirname "$0")/../../corpus/lock_queue/seeds" && pwd)/natural
LONG=$(head -c 5000 /dev/zero | tr '\0' a)
export LINFUZZ_PROGRESS=0
cd "$tmp" || exit 1

# stderr free of control characters but line feeds and tabs
no_controls() { # FILE WHAT
  if LC_ALL=C grep -q $'[\x01-\x08\x0b-\x1f\x7f]' "$1"; then bad "$2: a raw control character: $(head -c 300 "$1" | od -c | head -5)"; else ok; fi
}

values=(maybe -1 nan inf 1e308 99999999999999999999999 $'\xff\xfe\x1b]0;T\x07' "$LONG")
# the fuzz target's flags, counts and durations (a build without libFuzzer, gcc's, has no fuzz targets)
[ -x "$FUZZ" ] || echo "test_environment: no fuzz targets in this build: only the commands' variables tested"
[ -x "$FUZZ" ] && for var in LINFUZZ_FUZZ_SIGNAL LINFUZZ_FUZZ_MUTATOR LINFUZZ_FUZZ_PERTURB LINFUZZ_KEEP_DUPLICATES LINFUZZ_FUZZ_CONTINUE \
  LINFUZZ_FUZZ_CAPTURE LINFUZZ_FUZZ_SECONDS LINFUZZ_FUZZ_MINIMIZE_TEST LINFUZZ_FUZZ_MODE LINFUZZ_FUZZ_SCHED_FEEDBACK \
  LINFUZZ_FUZZ_BLOCKING LINFUZZ_SPEC LINFUZZ_STUCK_SECONDS LINFUZZ_ADAPTER LINFUZZ_FUZZ_PROBE LINFUZZ_MEMORY_MODEL; do
  for v in "${values[@]}"; do
    env "$var=$v" "$FUZZ" -runs=1 "$SEED" >/dev/null 2>"$tmp/err"; rc=$?
    [ "$rc" = 2 ] && grep -q "${var}\|no adapter" "$tmp/err" && ok || bad "$var=${v:0:20}: exit $rc ($(head -c 200 "$tmp/err"))"
    no_controls "$tmp/err" "$var=${v:0:20}"
  done
done
# the commands' own
for v in "${values[@]}"; do
  env LINFUZZ_STUCK_SECONDS="$v" "$LF" stress lock_queue --runs 1 --out "$tmp" >/dev/null 2>"$tmp/err"; rc=$?
  [ "$rc" = 2 ] && grep -q LINFUZZ_STUCK_SECONDS "$tmp/err" && ok || bad "stress, LINFUZZ_STUCK_SECONDS=${v:0:20}: exit $rc"
  no_controls "$tmp/err" "stress, LINFUZZ_STUCK_SECONDS=${v:0:20}"
  env LINFUZZ_MEMORY_MODEL="$v" "$LF" stress lock_queue --runs 1 --out "$tmp" >/dev/null 2>"$tmp/err"; rc=$?
  [ "$rc" = 2 ] && grep -q LINFUZZ_MEMORY_MODEL "$tmp/err" && ok || bad "stress, LINFUZZ_MEMORY_MODEL=${v:0:20}: exit $rc"
  no_controls "$tmp/err" "stress, LINFUZZ_MEMORY_MODEL=${v:0:20}"
  env LINFUZZ_PROGRESS=1 LINFUZZ_PROGRESS_SECONDS="$v" "$LF" triage "$SEED" --adapter lock_queue --runs 1 >/dev/null 2>"$tmp/err"
  grep -q "LINFUZZ_PROGRESS_SECONDS=.*(progress line off)" "$tmp/err" && ok || bad "triage, LINFUZZ_PROGRESS_SECONDS=${v:0:20}: $(head -c 200 "$tmp/err")"
  no_controls "$tmp/err" "triage, LINFUZZ_PROGRESS_SECONDS=${v:0:20}"
done

# directories: too long to hold an entry's path is refused; escapes in a name are shown escaped
[ -x "$FUZZ" ] && for var in LINFUZZ_VIOLATIONS_DIR LINFUZZ_CORPUS; do
  env "$var=$LONG" "$FUZZ" -runs=1 "$SEED" >/dev/null 2>"$tmp/err"; rc=$?
  [ "$rc" = 2 ] && grep -q "$var=a*\.\.\.: the directory name is longer than" "$tmp/err" && ok ||
    bad "$var of 5000 characters: exit $rc ($(head -c 200 "$tmp/err"))"
  env "$var=$tmp/v"$'\x1b[2J' "$FUZZ" -runs=1 "$SEED" >/dev/null 2>"$tmp/err"; rc=$?
  [ "$rc" = 0 ] && grep -q 'violations -> .*v\\x1b\[2J' "$tmp/err" && ok || bad "$var with an escape: exit $rc ($(head -c 300 "$tmp/err"))"
  no_controls "$tmp/err" "$var with an escape"
done
if [ -x "$FUZZ" ]; then
  LINFUZZ_FUZZ_SUMMARY_FILE=/nonexistent/summary "$FUZZ" -runs=1 "$SEED" >/dev/null 2>"$tmp/err"
  has "$tmp/err" "cannot append the summary to /nonexistent/summary" "an unwritable summary file"
  LINFUZZ_FUZZ_SUMMARY_FILE="$tmp/summary" "$FUZZ" -runs=1 "$SEED" >/dev/null 2>&1
  has "$tmp/summary" "linfuzz-fuzz: summary adapter=lock_queue" "the summary file"
fi

finish
