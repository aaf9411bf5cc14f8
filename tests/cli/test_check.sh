#!/usr/bin/env bash
# `linfuzz check`: output lines, JSON, exit codes (0 linearizable, 1 violation, 2 usage/malformed, 3 unknown,
# 4 unreadable file) and how several files combine.
set -u
source "$(dirname "$0")/../lib.sh"
LF=$1
DATA=$2
DATA=$(cd "$(dirname "$0")/../data" && pwd)

printf 'type queue\n0 1 2 enq 1\n1 3 4 enq 2\n0 5 6 deq -> 1\n' >"$tmp/lin.hist"
printf 'type queue\n0 1 2 enq 1\n1 3 4 enq 2\n0 5 6 deq -> 2\n1 7 8 deq -> 1\n' >"$tmp/viol.hist"
printf 'type queue\n0 1 2 enq 1\n1 3 4 enq 1\n' >"$tmp/ambig.hist"
printf 'type queue\n0 1 2 enq 1\n0 3 4 deq -> 1\n0 5 9 frobnicate\n' >"$tmp/malformed.hist"

expect_rc 0 "linearizable" "$LF" check "$tmp/lin.hist"
grep -qx "$tmp/lin.hist: linearizable.*" "$tmp/out" && ok || bad "linearizable line: $(cat "$tmp/out")"
expect_rc 1 "violation" "$LF" check "$tmp/viol.hist"
grep -q "^$tmp/viol.hist: violation: .*deq -> 2" "$tmp/out" && ok || bad "violation line: $(cat "$tmp/out")"
expect_rc 3 "monitor on ambiguous" "$LF" check --engine monitor "$tmp/ambig.hist"
grep -q "^$tmp/ambig.hist: unknown: unsupported: value 1 is enqueued twice" "$tmp/out" && ok || bad "unknown line: $(cat "$tmp/out")"
expect_rc 2 "malformed" "$LF" check "$tmp/malformed.hist"
grep -q "malformed.hist:4: unknown method 'frobnicate'" "$tmp/err" && ok || bad "malformed message: $(cat "$tmp/err")"
expect_rc 4 "missing file" "$LF" check "$tmp/nope.hist"
grep -q "nope.hist: cannot open" "$tmp/err" && ok || bad "missing message: $(cat "$tmp/err")"
expect_rc 2 "no file" "$LF" check
expect_rc 2 "bad engine" "$LF" check --engine magic "$tmp/lin.hist"
expect_rc 2 "bad option" "$LF" check --frob "$tmp/lin.hist"
expect_rc 2 "bad timeout" "$LF" check --timeout -1 "$tmp/lin.hist"
expect_rc 0 "help" "$LF" check --help
grep -q "usage: linfuzz check" "$tmp/out" && ok || bad "help text"
expect_rc 0 "top-level help" "$LF" --help
expect_rc 2 "unknown command" "$LF" frobnicate

# Several files: one line each, and the most severe outcome decides the exit code.
expect_rc 1 "lin + viol" "$LF" check "$tmp/lin.hist" "$tmp/viol.hist"
[ "$(wc -l <"$tmp/out")" = 2 ] && ok || bad "two lines expected"
expect_rc 1 "viol + unknown" "$LF" check --engine monitor "$tmp/viol.hist" "$tmp/ambig.hist"
expect_rc 2 "malformed wins" "$LF" check "$tmp/viol.hist" "$tmp/malformed.hist" "$tmp/lin.hist"
[ "$(wc -l <"$tmp/out")" = 2 ] && ok || bad "the good files are still reported"

# JSON: one object per file with verdict, engine and conflicting ops.
expect_rc 1 "json" "$LF" check --json "$tmp/lin.hist" "$tmp/viol.hist"
python3 - "$tmp/out" <<'PY' && ok || bad "json content"
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
assert [r["verdict"] for r in rows] == ["linearizable", "violation"], rows
assert rows[1]["engine"] == "monitor" and rows[1]["type"] == "queue" and rows[1]["ops"] == 4
assert set(rows[1]["ops_in_conflict"]) & {2, 3}, rows[1]
PY
# Standard input.
"$LF" check - <"$tmp/viol.hist" >"$tmp/out"; [ $? = 1 ] && grep -q '^-: violation' "$tmp/out" && ok || bad "stdin"

# Counter "get" has no argument (kv's "get" has one): explanations must print it without one.
printf 'type counter\n0 1 2 inc\n0 3 4 get -> 0\n' >"$tmp/counter.hist"
expect_rc 1 "counter violation" "$LF" check "$tmp/counter.hist"
grep -q 'get -> 0' "$tmp/out" && ! grep -q 'get 0 ->' "$tmp/out" && ok || bad "counter get described: $(cat "$tmp/out")"

# Every hand-checked monitor case, through the command line.
for f in "$DATA"/monitor_cases/*.hist; do
  want=$(sed -n '1s/# expect: //p' "$f")
  got=$("$LF" check "$f" | sed -e 's/^[^:]*: //' -e 's/[: ].*//')
  [ "$got" = "$want" ] && ok || bad "$f: $got, wanted $want"
done

finish
