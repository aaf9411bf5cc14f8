#!/usr/bin/env bash
# `linfuzz check` names the deciding engine: text lines keep their "FILE: verdict..." start and end with
# " [monitor]", " [hitting d=N]" or " [wgl]"; JSON has "engine" (and "depth" for hitting); --engine hitting
# only proves (unknown otherwise); --max-depth reaches deeper witnesses.
set -u
source "$(dirname "$0")/../lib.sh"
LF=$1
line_is() { output_is "$1" "$2" "$LF" check "${@:3}"; } # RC LINE ARGS...: `linfuzz check ARGS` prints LINE

printf 'type queue\n0 1 5 enq 1\n1 2 6 enq 2\n0 7 8 deq -> 2\n' >"$tmp/unamb.hist"
printf 'type register\n0 0 10 read -> 0\n1 1 11 write 1\n2 2 12 read -> 1\n0 20 21 write 1\n' >"$tmp/d2.hist"
printf 'type register\n0 0 10 read -> 0\n1 1 11 write 1\n2 2 12 read -> 1\n3 3 13 write 2\n4 4 14 read -> 2\n0 20 21 write 2\n' >"$tmp/d4.hist"
printf 'type register\n0 0 10 write 1\n1 1 2 read -> 1\n1 3 4 read -> 0\n2 11 12 write 1\n' >"$tmp/viol.hist"

line_is 0 "$tmp/unamb.hist: linearizable [monitor]" "$tmp/unamb.hist"
line_is 0 "$tmp/d2.hist: linearizable [hitting d=2]" "$tmp/d2.hist"
line_is 0 "$tmp/d4.hist: linearizable [wgl]" "$tmp/d4.hist"
line_is 0 "$tmp/d4.hist: linearizable [hitting d=4]" --max-depth 4 "$tmp/d4.hist"
line_is 0 "$tmp/d2.hist: linearizable [wgl]" --engine wgl "$tmp/d2.hist"
line_is 0 "$tmp/d2.hist: linearizable [hitting d=2]" --engine hitting "$tmp/d2.hist"

# Violations and unknowns keep "FILE: verdict: reason" and end with the engine.
out=$("$LF" check "$tmp/viol.hist"); rc=$?
[ $rc = 1 ] && [[ "$out" == "$tmp/viol.hist: violation: "*" [wgl]" ]] && ok || bad "violation line: $rc '$out'"
out=$("$LF" check --engine hitting "$tmp/viol.hist"); rc=$?
[ $rc = 3 ] && [[ "$out" == "$tmp/viol.hist: unknown: hitting: no witness "*" [hitting]" ]] && ok || bad "hitting unknown: $rc '$out'"
out=$("$LF" check --engine hitting --max-depth 1 "$tmp/d2.hist"); rc=$?
[ $rc = 3 ] && [[ "$out" == *"up to depth 1 [hitting]" ]] && ok || bad "hitting depth 1: $rc '$out'"

# The witness follows the line.
out=$("$LF" check --witness "$tmp/d2.hist"); rc=$?
[ $rc = 0 ] && [ "$(echo "$out" | head -1)" = "$tmp/d2.hist: linearizable [hitting d=2]" ] &&
  [ "$(echo "$out" | wc -l)" = 5 ] && ok || bad "witness: $rc '$out'"

# JSON: engine and depth.
"$LF" check --json "$tmp/unamb.hist" "$tmp/d2.hist" "$tmp/d4.hist" "$tmp/viol.hist" >"$tmp/out"
python3 - "$tmp/out" <<'PY' && ok || bad "json: $(cat "$tmp/out")"
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
assert [(r["verdict"], r["engine"], r.get("depth")) for r in rows] == [
    ("linearizable", "monitor", None), ("linearizable", "hitting", 2), ("linearizable", "wgl", None),
    ("violation", "wgl", None)], rows
PY

finish
