#!/usr/bin/env bash
# `linfuzz check` on the inputs of issue 14 (return stamps of 2^64-1 crashed the default engine; "unsupported"
# was printed as a violation), its default time budget (--timeout: default 60 s, 0/none for none, units) and
# its progress line (only on a terminal or with --progress, never with -q, only after a second).
set -u
source "$(dirname "$0")/../lib.sh"
LF=$1
line_is() { output_is "$1" "$2" "$LF" check "${@:3}"; } # RC LINE ARGS...: `linfuzz check ARGS` prints LINE

# Return stamps at 2^64-1, every engine: no crash, the right verdict.
printf 'type counter\n0 18446744073709551615 18446744073709551615 inc\n' >"$tmp/counter.hist"
printf 'type kv\n0 0 18446744073709551615 put 1 2\n' >"$tmp/kv.hist"
printf 'type queue\n0 5 18446744073709551615 enq 1\n' >"$tmp/queue.hist"
printf 'type set\n0 1 2 add 1 -> true\n1 5 18446744073709551615 contains 1 -> false\n' >"$tmp/set.hist"
line_is 0 "$tmp/counter.hist: linearizable [hitting d=1]" "$tmp/counter.hist"
line_is 0 "$tmp/kv.hist: linearizable [hitting d=1]" "$tmp/kv.hist"
line_is 0 "$tmp/queue.hist: linearizable [monitor]" "$tmp/queue.hist"
for e in brute wgl hitting; do
  tag=$e
  [ $e = hitting ] && tag="hitting d=1"
  for f in counter kv queue; do line_is 0 "$tmp/$f.hist: linearizable [$tag]" --engine $e "$tmp/$f.hist"; done
done
out=$("$LF" check "$tmp/set.hist"); rc=$?
[ $rc = 1 ] && [[ "$out" == *"violation: op 1 "*"the end of the history (it is never removed) [monitor]" ]] && ok ||
  bad "set at 2^64-1: $rc '$out'"

# "unsupported" is unknown (exit 3), never a violation: an ambiguous set history, a double removal then a
# pending remove (the monitor said "violation: unsupported: pending remove ...").
printf 'type set\n0 1 2 add 1 -> true\n1 3 4 remove 1 -> true\n2 5 10 remove 1 -> true\n' >"$tmp/amb.hist"
printf '3 6 ? remove 2\n0 7 8 add 1 -> true\n' >>"$tmp/amb.hist"
out=$("$LF" check --engine monitor "$tmp/amb.hist"); rc=$?
[ $rc = 3 ] && [[ "$out" == "$tmp/amb.hist: unknown: unsupported: value 1 is added twice"* ]] && ok ||
  bad "ambiguous set: $rc '$out'"
line_is 0 "$tmp/amb.hist: linearizable [hitting d=1]" "$tmp/amb.hist"

# The time budget: documented, parsed strictly, enforced. 26 concurrent enqueues of distinct values then a
# dequeue of a value never enqueued: WGL and the frontier sweep must both go through the subsets of the
# enqueues, far more than a second (26 concurrent writes would not do: the sweep kills the unobserved ones).
"$LF" check --help | grep -q "default 60 s; 0 or none: no budget" && ok ||
  bad "--help does not document the default budget"
{
  echo "type queue"
  for t in $(seq 0 25); do echo "$t $((t + 1)) $((t + 100)) enq $((t + 1))"; done
  echo "26 200 201 deq -> 99"
} >"$tmp/hard.hist"
start=$(date +%s%N)
out=$("$LF" check --engine wgl --timeout 1500ms "$tmp/hard.hist" 2>"$tmp/err"); rc=$?
ms=$((($(date +%s%N) - start) / 1000000))
[ $rc = 3 ] && [[ "$out" == *"unknown: time budget exhausted"* ]] && [ "$ms" -lt 20000 ] && ok ||
  bad "budget: $rc '$out' ${ms}ms"
# stderr is not a terminal here: no progress line unless asked.
[ ! -s "$tmp/err" ] && ok || bad "progress line without a terminal: $(cat "$tmp/err")"
# Off a terminal the shared status line (cli/status_line.c) prints a line every LINFUZZ_PROGRESS_SECONDS.
LINFUZZ_PROGRESS_SECONDS=0.5 "$LF" check --engine wgl --timeout 2.5 --progress "$tmp/hard.hist" >/dev/null 2>"$tmp/err"
line_re="^linfuzz check \[[0-9.]+ s\]: $tmp/hard.hist: [0-9]+ s, wgl, [0-9.]+[kMG]? steps,"
line_re="$line_re [0-9]+ s left of the 2.5 s budget$"
grep -Eq "$line_re" "$tmp/err" && ok || bad "progress line: $(cat "$tmp/err")"
LINFUZZ_PROGRESS=0 LINFUZZ_PROGRESS_SECONDS=0.5 "$LF" check --engine wgl --timeout 1.5 --progress "$tmp/hard.hist" \
  >/dev/null 2>"$tmp/err"
[ ! -s "$tmp/err" ] && ok || bad "progress line with LINFUZZ_PROGRESS=0: $(cat "$tmp/err")"
LINFUZZ_PROGRESS_SECONDS=0.5 "$LF" check --engine wgl --timeout 1.5 --progress -q "$tmp/hard.hist" \
  >/dev/null 2>"$tmp/err"
[ ! -s "$tmp/err" ] && ok || bad "progress line with -q: $(cat "$tmp/err")"
# A quick file never gets a line, even when the status line is due.
LINFUZZ_PROGRESS_SECONDS=0.01 "$LF" check --progress "$tmp/queue.hist" "$tmp/kv.hist" "$tmp/counter.hist" \
  >/dev/null 2>"$tmp/err"
[ ! -s "$tmp/err" ] && ok || bad "progress line for a quick file: $(cat "$tmp/err")"
for v in none 0 500ms 2m 1.5; do
  "$LF" check --timeout $v "$tmp/queue.hist" >/dev/null && ok || bad "--timeout $v refused"
done
for v in bogus -1 1e3 '' 5x; do
  "$LF" check --timeout "$v" "$tmp/queue.hist" >/dev/null 2>&1; [ $? = 2 ] && ok || bad "--timeout '$v' accepted"
done

finish
