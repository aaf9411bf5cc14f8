#!/usr/bin/env bash
# Hostile files and budgets through the command line (docs/budgets.md): a device behind a name is refused at
# once (exit 4; a symlink to /dev/zero was read for minutes into 8 GB), a FIFO never hangs a reader (nobody
# writing: it reads as empty; an endless writer of junk: refused after its first bytes), a 100 MB junk .lfz
# is refused from its header with little memory, `check --timeout` answers unknown when the budget runs out
# inside a monitor (the monitors ignored it), and `gen --bad` is bounded; triage reads fuzzer inputs the same
# way (a FIFO named as an input hung it).
# Usage: test_hostile_reads.sh LINFUZZ_BIN TEST_DATA_DIR
set -u
source "$(dirname "$0")/../lib.sh"
LF=$1
T="timeout 60" # a hang fails the check instead of the whole test

for ext in lfz hist; do
  ln -s /dev/zero "$tmp/zero.$ext"
  ln -s /dev/urandom "$tmp/random.$ext"
  for f in zero random; do
    expect_err 4 "$f\.$ext: not a regular file or a pipe \(a character device\)" "check $f.$ext" \
      $T "$LF" check "$tmp/$f.$ext"
  done
done
for cmd in show repro triage; do
  expect_err 4 "zero\.lfz: not a regular file or a pipe" "$cmd of a symlink to /dev/zero" $T "$LF" $cmd "$tmp/zero.lfz"
done
expect_err 4 "not a regular file or a pipe \(a directory\)" "check of a directory" $T "$LF" check "$tmp"
# fuzzer inputs named to triage: read like histories (a FIFO nobody writes to waited for ever; a device was read)
HEX=0123456789abcdef0123456789abcdef01234567
ln -s /dev/zero "$tmp/zero-crash-$HEX"
expect_err 4 "zero-crash-$HEX: not a regular file or a pipe \(a character device\)" "triage of an input linked to /dev/zero" \
  $T "$LF" triage -q --adapter lock_queue "$tmp/zero-crash-$HEX"
mkfifo "$tmp/crash-$HEX"
expect_rc 0 "triage of an input that is a FIFO nobody writes" $T "$LF" triage -q --adapter lock_queue --runs 1 "$tmp/crash-$HEX"
truncate -s 2M "$tmp/big-crash-$HEX"
expect_err 2 "big-crash-$HEX: more than 1048576 bytes: too large" "triage of a 2 MB input" \
  $T "$LF" triage -q --adapter lock_queue "$tmp/big-crash-$HEX"

# FIFOs: nobody writing reads as empty (opening for reading no longer waits for a writer)
mkfifo "$tmp/empty.lfz" "$tmp/empty.hist"
expect_err 2 "empty\.lfz: truncated: 0 bytes" "check of a FIFO nobody writes (.lfz)" $T "$LF" check "$tmp/empty.lfz"
expect_err 2 "empty\.hist:1: missing 'type' line" "check of a FIFO nobody writes (.hist)" \
  $T "$LF" check "$tmp/empty.hist"
# an endless writer: refused after the magic bytes (the test holds the FIFO open, so the writer is there first)
mkfifo "$tmp/endless.lfz"
exec 3<>"$tmp/endless.lfz"
cat /dev/zero >"$tmp/endless.lfz" 2>/dev/null &
writer=$!
expect_err 2 "endless\.lfz: not an \.lfz file \(bad magic bytes\)" "check of a FIFO fed endless zeros" \
  $T "$LF" check "$tmp/endless.lfz"
exec 3>&-
kill "$writer" 2>/dev/null
wait "$writer" 2>/dev/null

# 100 MB of junk named .lfz: its header is enough (sparse, so making it costs nothing)
truncate -s 100M "$tmp/junk.lfz"
expect_err 2 "junk\.lfz: not an \.lfz file \(bad magic bytes\)" "check of 100 MB of junk" $T "$LF" check "$tmp/junk.lfz"
if [ -x /usr/bin/time ]; then
  printf 'type counter\n0 1 2 inc\n' >"$tmp/one.hist"
  base=$({ /usr/bin/time -f '%M' "$LF" check -q "$tmp/one.hist" 2>&1 >/dev/null; } | tail -1)
  kb=$({ /usr/bin/time -f '%M' "$LF" check -q "$tmp/junk.lfz" 2>&1 >/dev/null; } | tail -1)
  [ "$kb" -lt $((base + 16384)) ] && ok || bad "check of 100 MB of junk peaked at $kb KB (one op: $base KB)"
fi

# The time budget inside the monitors: a 1 ms budget on 200,000 ops is unknown (it was linearizable).
"$LF" gen stack 200000 --threads 8 --peek 0.2 -q -o "$tmp/stack.hist" || bad "gen stack"
for engine in monitor auto; do
  out=$("$LF" check --engine $engine --timeout 1ms "$tmp/stack.hist"); rc=$?
  [ $rc = 3 ] && [[ "$out" == *"unknown: time budget exhausted"* ]] && ok ||
    bad "check --engine $engine --timeout 1ms: exit $rc, '$out'"
done
out=$("$LF" check --engine monitor "$tmp/stack.hist"); rc=$?
[ $rc = 0 ] && ok || bad "check --engine monitor without a budget: exit $rc, '$out'"

# gen --bad: at most one corruption per op
expect_err 2 "11 corruptions of 10 ops: at most one per op" "gen --bad 11 of 10 ops" "$LF" gen queue 10 --bad 11
expect_err 2 "--bad takes a whole number in 0..4294967295, not '99999999999999'" "gen --bad beyond 2^32" "$LF" gen queue 10 --bad 99999999999999
expect_rc 0 "gen --bad 10 of 10 ops" "$LF" gen queue 10 --bad 10

finish
