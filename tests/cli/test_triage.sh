#!/usr/bin/env bash
# `linfuzz triage`: a directory of mixed findings (the committed known-buggy adapters' entries, a copy of one
# under another name, crash inputs that are an entry's workload, a corrupt entry, a history that is not an
# entry, seeds and logs) is grouped by signature (one line per adapter's bug, with its variants), the bad
# files are named and the rest still triaged (exit 2); the same directory triaged twice gives the same lines;
# crash inputs are replayed (--adapter, or the adapter named by their directory) and their entries saved;
# table and JSON agree; usage errors exit 2, unreadable paths 4.
set -u
source "$(dirname "$0")/../lib.sh"
LF=$1
CORPUS=$(cd "$(dirname "$0")/../../corpus" && pwd)
HEX=0123456789abcdef0123456789abcdef0123456

# The committed entry of ADAPTER whose workload has FORMAT (the first version's entries are free-mode
# findings; "fuzz-case 2" ones were found in controlled mode and replay exactly).
entry_of() { # ADAPTER FORMAT
  local f
  for f in "$CORPUS/$1"/violations/*.lfz; do
    "$LF" show --meta "$f" 2>/dev/null | grep -qx "workload_format: $2" && { echo "$f"; return; }
  done
}
k3=$(entry_of k3_trylock_queue "fuzz-case 1")
aba=$(entry_of treiber_aba "fuzz-case 1")
k1=$(entry_of k1_counter_lost_update "fuzz-case 1")
k3_controlled=$(entry_of k3_trylock_queue "fuzz-case 2")
[ -f "$k3" ] && [ -f "$aba" ] && [ -f "$k1" ] && [ -f "$k3_controlled" ] ||
  { echo "FAIL: committed entries missing"; exit 1; }
n_seeds=$(ls "$CORPUS"/k3_trylock_queue/seeds | wc -l)

# ---- a mixed directory ----
in=$tmp/findings
mkdir -p "$in/job1" "$in/job2/logs"
cp "$k3" "$aba" "$k1" "$in/job1/"
cp "$aba" "$in/job2/copy-of-aba.lfz"                        # the same finding saved by another job
"$LF" show --input "$in/job1/treiber_aba-crash-${HEX}0" "$aba" 2>/dev/null   # libFuzzer's crash input of it
"$LF" show --input "$in/job2/crash-${HEX}1" "$k3" 2>/dev/null                # no adapter in its name: bytes match
head -c 300 "$k3" >"$in/job2/corrupt.lfz"                   # truncated entry
printf 'type queue\n0 1 2 enq 1\n0 3 4 deq -> 1\n' >"$tmp/plain.hist"
"$LF" convert "$tmp/plain.hist" "$in/job2/plain.lfz"        # a history, not an entry
cp "$CORPUS"/k3_trylock_queue/seeds/* "$in/job2/"           # seeds: ignored
echo "log" >"$in/job2/logs/fuzz.log"

expect_rc 2 "mixed directory with a corrupt file" "$LF" triage "$in"
cp "$tmp/out" "$tmp/table"
has "$tmp/err" "corrupt.lfz: " "the corrupt entry is named"
has "$tmp/err" "plain.lfz: not a violation entry" "the history is not an entry"
[ "$(grep -c '^| [0-9]' "$tmp/table")" = 3 ] && ok || bad "3 groups: $(cat "$tmp/table")"
has "$tmp/table" "| KNOWN_BUG | 2 | treiber_aba | stack, no root cause | 1: " "treiber_aba: two findings (copy), crash input not counted"
has "$tmp/table" "| KNOWN_BUG | 1 | k3_trylock_queue | queue, no root cause | 1: \`queue: t0 \\[0,1\\] enq v1; t0 \\[2,3\\] deq -> empty!\` |" "k3 group"
has "$tmp/table" "| KNOWN_BUG | 1 | k1_counter_lost_update | counter, no root cause | 1: " "k1 group"
has "$tmp/table" "linfuzz repro $in/job1/$(basename "$k3")\`" "repro command of the k3 group"
has "$tmp/table" "3 groups from 4 entries and 2 fuzzer inputs (0 replayed, 2 the input of an entry);" "counts"
has "$tmp/table" "; 2 refused" "refused count"
# the groups come first by count: treiber_aba (2) before the others
[ "$(grep -m1 '^| [0-9]' "$tmp/table" | cut -d'|' -f5 | tr -d ' ')" = treiber_aba ] && ok ||
  bad "largest group first: $(cat "$tmp/table")"

# the same findings triaged again: the same table (a signature is a function of the files)
expect_rc 2 "again" "$LF" triage "$in"
cmp -s "$tmp/out" "$tmp/table" && ok || bad "a second triage differs: $(diff "$tmp/table" "$tmp/out")"

expect_rc 2 "--json" "$LF" triage --json "$in"
cp "$tmp/out" "$tmp/json"
if command -v python3 >/dev/null; then
  python3 - "$tmp/json" "$in" "$n_seeds" <<'EOF' && ok || bad "JSON content: $(head -c 2000 "$tmp/json")"
import json, sys
d = json.load(open(sys.argv[1]))
g = {x["adapter"]: x for x in d["groups"]}
assert len(d["groups"]) == 3, d["groups"]
assert g["treiber_aba"]["count"] == 2 and len(g["treiber_aba"]["files"]) == 3
assert {f["kind"] for f in g["treiber_aba"]["files"]} == {"entry", "input"}
assert g["k3_trylock_queue"]["category"] == "KNOWN_BUG" and not g["k3_trylock_queue"]["unexpected"]
assert g["k3_trylock_queue"]["shape"] == "EMPTY_WHILE_PRESENT" and g["k3_trylock_queue"]["cut_method"] == "deq"
assert g["k3_trylock_queue"]["smallest_ops"] == 2 and g["k3_trylock_queue"]["cause"] is None
assert g["k3_trylock_queue"]["n_variants"] == 1 and len(g["treiber_aba"]["variants"]) == 1
assert g["k3_trylock_queue"]["variants"][0]["canonical"] == "queue: t0 [0,1] enq v1; t0 [2,3] deq -> empty!"
assert g["treiber_aba"]["variants"][0]["count"] == 2 and d["by"] == "signature"
assert sorted(e["path"].rsplit("/", 1)[1] for e in d["errors"]) == ["corrupt.lfz", "plain.lfz"]
assert not any(e["unreadable"] for e in d["errors"])
assert d["entries"] == 4 and d["inputs"] == 2 and d["duplicates"] == 2 and d["ignored"] == int(sys.argv[3]) + 1, d
EOF
else
  has "$tmp/json" '"count": 2' "JSON counts"
fi

# without the bad files: exit 0 (only known bugs)
rm "$in/job2/corrupt.lfz" "$in/job2/plain.lfz"
expect_rc 0 "clean directory" "$LF" triage "$in"
expect_rc 0 "grouped by shape" "$LF" triage --by shape "$in"
has "$tmp/out" "| k3_trylock_queue | queue EMPTY_WHILE_PRESENT |" "--by shape label"
expect_rc 0 "grouped by variant" "$LF" triage --by variant "$in"
has "$tmp/out" "| k3_trylock_queue | queue: t0 \\[0,1\\] enq v1; t0 \\[2,3\\] deq -> empty! |" "--by variant label"

# ---- crash inputs replayed ----
# The input of the controlled-mode k3 entry, as libFuzzer saves it: a replay violates at the recorded run.
mkdir -p "$tmp/crashes/lock_queue"
"$LF" show --input "$tmp/crashes/k3-input-crash-${HEX}2" "$k3_controlled" 2>/dev/null
cp "$tmp/crashes/k3-input-crash-${HEX}2" "$tmp/crashes/lock_queue/crash-${HEX}3"
# The k3 input with --adapter: replayed until it violates, its entry saved.
expect_rc 0 "replay with --adapter" "$LF" triage --adapter k3_trylock_queue --runs 2000 --save "$tmp/saved" \
  "$tmp/crashes/k3-input-crash-${HEX}2"
has "$tmp/out" "| KNOWN_BUG | 1 | k3_trylock_queue | queue, no root cause | 1: " "replayed violation"
saved=$(ls "$tmp"/saved/k3_trylock_queue/*.lfz 2>/dev/null | head -1)
[ -n "$saved" ] && ok || bad "no entry saved under --save"
has "$tmp/out" "linfuzz repro $saved" "the repro command uses the saved entry"
[ -n "$saved" ] && { "$LF" repro --runs 0 -q "$saved" >"$tmp/repro" 2>&1; [ $? = 1 ] && ok || bad "saved entry re-checks"; }
[ -n "$saved" ] && has "$tmp/repro" "replayed exactly: violation again, same history" "the saved entry replays exactly"
[ -n "$saved" ] && { "$LF" show --meta "$saved" | grep -qx "schedule_mode: controlled" && ok || bad "saved entry's mode"; }
# The same bytes under lock_queue/ (the correct twin): the directory names the adapter; no violation.
expect_rc 0 "replay inferred from the directory" "$LF" triage --runs 50 "$tmp/crashes/lock_queue"
has "$tmp/out" "| NOT_REPRODUCED | 1 | lock_queue | no violation on replay |" "not reproduced on the correct twin"
has "$tmp/out" "fuzz_lock_queue -runs=100 $tmp/crashes/lock_queue/crash-${HEX}3" "repro command of an input"
# An input whose adapter cannot be told: refused, named.
cp "$tmp/crashes/k3-input-crash-${HEX}2" "$tmp/crash-${HEX}4"
expect_rc 2 "input of unknown adapter" "$LF" triage "$tmp/crash-${HEX}4"
has "$tmp/err" "crash-${HEX}4: a fuzzer input of unknown adapter: pass --adapter NAME" "unknown adapter message"
# A fuzz target triaging a bare crash file: its own name says the adapter (fuzz_ADAPTER triage crash-...).
ln -s "$LF" "$tmp/fuzz_k3_trylock_queue"
expect_rc 0 "a fuzz target's bare crash file" "$tmp/fuzz_k3_trylock_queue" triage --runs 2000 "$tmp/crash-${HEX}4"
has "$tmp/out" "| KNOWN_BUG | 1 | k3_trylock_queue | queue, no root cause | 1: " "the target's name gives the adapter"

# ---- usage and unreadable paths ----
expect_rc 2 "no paths" "$LF" triage
expect_rc 2 "unknown adapter" "$LF" triage --adapter no_such_adapter "$in"
expect_rc 2 "bad --by" "$LF" triage --by size "$in"
expect_rc 2 "bad --runs" "$LF" triage --runs 0 "$in"
expect_rc 2 "unknown option" "$LF" triage --frobnicate "$in"
expect_rc 4 "missing path" "$LF" triage "$tmp/no/such/dir"
has "$tmp/err" "no/such/dir: No such file or directory" "missing path named"
expect_rc 0 "help" "$LF" triage --help

finish
