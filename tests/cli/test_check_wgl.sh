#!/usr/bin/env bash
# `linfuzz check --engine wgl`: every etcd verdict in one process (exit 1: some violation), the witness and
# the violation explanation in JSON, and budgets: --timeout and --max-memory answer unknown (exit 3) with
# the budget named, in time.
set -u
source "$(dirname "$0")/../lib.sh"
LF=$1
DATA=$2

# etcd: the verdict of every file, as verdicts.txt says.
# A correct bounded queue's recorded history (docs/example), once a false violation: the frontier sweep's blocks
# took its full answer for an insert. Linearizable, with the capacity.
expect_rc 0 "a bounded queue's full answer is no insert" "$LF" check --engine wgl "$DATA"/regressions/example_queue_full.hist
"$LF" check --engine wgl "$DATA"/etcd/*.hist >"$tmp/etcd.out"; rc=$?
[ $rc = 1 ] && ok || bad "etcd: exit $rc (wanted 1)"
sed -E 's|^.*/(etcd_[0-9]+\.hist): ([a-z]+).*|\1 \2|' "$tmp/etcd.out" | sort >"$tmp/got"
sort "$DATA/etcd/verdicts.txt" >"$tmp/want"
diff -q "$tmp/got" "$tmp/want" >/dev/null && ok || bad "etcd verdicts differ: $(diff "$tmp/got" "$tmp/want" | head -5)"

# JSON: a witness for a linearizable history, prefix and culprits for a violation.
printf 'type register\n0 1 5 write 1\n1 2 3 read -> 0\n2 4 6 read -> 1\n' >"$tmp/lin.hist"
printf 'type set\n0 1 2 add 1 -> true\n1 3 4 contains 1 -> false\n' >"$tmp/viol.hist"
"$LF" check --engine wgl --json --witness "$tmp/lin.hist" "$tmp/viol.hist" >"$tmp/out.json"
python3 - "$tmp/out.json" <<'PY' && ok || bad "json: $(cat "$tmp/out.json")"
import json, sys
lin, viol = [json.loads(l) for l in open(sys.argv[1])]
assert lin["verdict"] == "linearizable" and lin["engine"] == "wgl" and lin["witness"] == [1, 0, 2], lin
assert viol["verdict"] == "violation" and viol["engine"] == "wgl", viol
assert viol["linearizable_prefix"] == [0] and viol["ops_in_conflict"] == [1], viol
assert "op 1 (t1 [3,4] contains 1 -> false)" in viol["reason"] and "state {1}" in viol["reason"], viol
PY

# Budgets: 26 concurrent enqueues of 1..26, then a dequeue of 99 (every order of the enqueues is a
# different queue: WGL and the frontier sweep both have to go through them).
{
  echo "type queue"
  for t in $(seq 0 25); do echo "$t $((t + 1)) $((100 + t)) enq $((t + 1))"; done
  echo "26 200 201 deq -> 99"
} >"$tmp/hard.hist"
start=$(date +%s%N)
out=$("$LF" check --engine wgl --timeout 0.3 "$tmp/hard.hist"); rc=$?
ms=$(( ($(date +%s%N) - start) / 1000000 ))
# (0.3 s of search plus the process around it: parse, free, join; without the budget it runs for minutes)
[ $rc = 3 ] && [[ "$out" == *"unknown: time budget exhausted"* ]] && [ "$ms" -lt 3000 ] && ok ||
  bad "timeout: exit $rc after $ms ms: $out"
out=$("$LF" check --engine wgl --max-memory 1 "$tmp/hard.hist"); rc=$?
[ $rc = 3 ] && [[ "$out" == *"unknown: memory budget exhausted"* ]] && ok || bad "max-memory: exit $rc: $out"

finish
