#!/usr/bin/env bash
# Custom types and the self-spec on the command line: a history of a custom type with a spec (bank, declared by
# an adapter of this build) is checked against it, with Line-Up's level in text and JSON; one without a spec
# (map) is unknown until checked against an adapter's own serial behaviour (--spec self / --adapter); malformed
# declarations are errors naming file and line (exit 2); text and .lfz round trips keep the declaration; the
# self-spec of a built-in adapter agrees with the built-in spec; adapters --json tells custom, spec and
# deterministic apart.
set -u
source "$(dirname "$0")/../lib.sh"
LF=$1

BANK="type bank
method transfer 2 -> ok|fail
method balance 1 -> int observer"
MAP="type map
method put_if_absent 2 -> int|nil keyed
method compare_and_delete 2 -> true|false keyed
method get 1 -> int|nil observer keyed"

# --- a custom type with a spec: the adapter's declaration (and spec) is found by name ---
printf '%s\n0 1 4 transfer 0 4 -> ok\n1 2 3 balance 1 -> 14\n0 5 6 balance 0 -> 6\n' "$BANK" >"$tmp/bank_ok.hist"
expect_rc 0 "bank linearizable" "$LF" check "$tmp/bank_ok.hist"
has "$tmp/out" "linearizable \[hitting d=1\]" "bank: proven by the families"
# two transfers of 6 both ok, sequential: the second had no funds (no serial order gives that)
printf '%s\n0 1 2 transfer 0 6 -> ok\n0 3 4 transfer 0 6 -> ok\n' "$BANK" >"$tmp/bank_bad.hist"
expect_rc 1 "bank violation" "$LF" check "$tmp/bank_bad.hist"
has "$tmp/out" "violation: no serial order of these 2 ops gives these results" "bank: level 1 in text"
expect_rc 1 "bank violation, JSON" "$LF" check --json "$tmp/bank_bad.hist"
has "$tmp/out" '"type":"bank"' "JSON type"
has "$tmp/out" '"level":"NO_SERIAL_ORDER"' "JSON level"
# a balance that only an order against real time explains
printf '%s\n0 1 2 balance 0 -> 7\n1 3 4 transfer 0 3 -> ok\n' "$BANK" >"$tmp/bank_rt.hist"
expect_rc 1 "bank real-time violation" "$LF" check --json "$tmp/bank_rt.hist"
has "$tmp/out" '"level":"REAL_TIME_ORDER"' "JSON level 2"
expect_rc 0 "bank witness" "$LF" check --witness "$tmp/bank_ok.hist"
has "$tmp/out" "op 0: t0 \[1,4\] transfer 0 4 -> ok" "witness names custom methods"
# the same history against the adapter's own serial behaviour
expect_rc 1 "bank --spec self" "$LF" check --spec self --adapter bank "$tmp/bank_bad.hist"
has "$tmp/out" "\[self-" "self-spec engine tag"
expect_rc 0 "bank --spec self linearizable" "$LF" check --spec self --adapter bank "$tmp/bank_ok.hist"
expect_rc 3 "monitor engine on a custom type" "$LF" check --engine monitor "$tmp/bank_ok.hist"
has "$tmp/out" "do not decide bank histories" "monitor says why"

# --- a custom type without a spec ---
printf '%s\n0 1 2 put_if_absent 1 1 -> nil\n1 3 4 put_if_absent 1 2 -> nil\n' "$MAP" >"$tmp/map.hist"
expect_rc 3 "map without a spec: unknown" "$LF" check "$tmp/map.hist"
has "$tmp/out" "no specification for type map" "map: why"
expect_rc 1 "map against pia_map's serial behaviour" "$LF" check --spec self --adapter pia_map "$tmp/map.hist"
has "$tmp/out" "no serial order of these 2 ops" "map: level 1"
expect_rc 1 "--adapter alone takes the self-spec when the type has no spec" "$LF" check --adapter pia_map "$tmp/map.hist"
printf '%s\n0 1 5 put_if_absent 1 1 -> nil\n1 2 3 get 1 -> 1\n1 6 7 compare_and_delete 1 1 -> true\n' "$MAP" \
  >"$tmp/map_ok.hist"
expect_rc 0 "map linearizable" "$LF" check --adapter pia_map "$tmp/map_ok.hist"
expect_err 2 "needs --adapter" "--spec self without --adapter" "$LF" check --spec self "$tmp/map.hist"
expect_err 2 "not marked deterministic" "self-spec of scal_k_fifo" "$LF" check --spec self --adapter scal_k_fifo \
  "$tmp/map.hist"
expect_rc 3 "the self-spec of an adapter of another type" "$LF" check --spec self --adapter bank "$tmp/map.hist"
has "$tmp/out" "cannot replay the history: the history is of type map, adapter bank of type bank" "type mismatch named"

# --- the self-spec of built-in adapters agrees with the built-in spec ---
printf 'type queue\n0 1 2 enq 1\n1 3 4 enq 2\n0 5 6 deq -> 2\n' >"$tmp/q.hist"
expect_rc 1 "queue: built-in spec" "$LF" check "$tmp/q.hist"
expect_rc 1 "queue: ms_queue's serial behaviour" "$LF" check --spec self --adapter ms_queue "$tmp/q.hist"
has "$tmp/out" "only orders that real time rules out" "queue: level"
printf 'type queue\n0 1 5 enq 1\n1 2 6 enq 2\n0 7 8 deq -> 2\n' >"$tmp/q2.hist"
expect_rc 0 "queue: built-in, linearizable" "$LF" check "$tmp/q2.hist"
expect_rc 0 "queue: ms_queue's serial behaviour, linearizable" "$LF" check --spec self --adapter ms_queue "$tmp/q2.hist"
printf 'type queue\n0 1 2 enq nil\n' >"$tmp/qnil.hist"
expect_rc 3 "a nil argument cannot be replayed" "$LF" check --spec self --adapter ms_queue "$tmp/qnil.hist"
has "$tmp/out" "nil argument" "nil named"

# --- malformed declarations: file and line, exit 2 ---
expect_err 2 "^linfuzz check: $tmp/m1.hist:1: unknown type 'bank2'" "no method lines" \
  bash -c "printf 'type bank2\n0 1 2 transfer 0 1 -> ok\n' >'$tmp/m1.hist'; '$LF' check '$tmp/m1.hist'"
expect_err 2 "m2.hist:3: method x: 'maybe' is not a result kind" "bad kind" \
  bash -c "printf 'type t\nmethod a 0\nmethod x 1 -> int|maybe\n' >'$tmp/m2.hist'; '$LF' check '$tmp/m2.hist'"
expect_err 2 "m3.hist:2: 'method' lines declare custom types; stack is built in" "method on a built-in type" \
  bash -c "printf 'type stack\nmethod size 0 -> int\n' >'$tmp/m3.hist'; '$LF' check '$tmp/m3.hist'"
expect_err 2 "m4.hist:4: unknown method 'size' for type t" "undeclared method" \
  bash -c "printf 'type t\nmethod a 0\n0 1 2 a\n0 3 4 size -> 1\n' >'$tmp/m4.hist'; '$LF' check '$tmp/m4.hist'"
expect_err 2 "m5.hist:2: method k: keyed, but it has no argument" "keyed without a key" \
  bash -c "printf 'type t\nmethod k 0 keyed\n' >'$tmp/m5.hist'; '$LF' check '$tmp/m5.hist'"

# --- formats keep the declaration ---
expect_rc 0 "convert to lfz" "$LF" convert "$tmp/bank_ok.hist" "$tmp/b.lfz"
expect_rc 0 "convert back" "$LF" convert "$tmp/b.lfz" "$tmp/b2.hist"
expect_rc 0 "canonical text" "$LF" convert "$tmp/bank_ok.hist" "$tmp/b1.hist"
check "text -> lfz -> text keeps every byte" cmp -s "$tmp/b1.hist" "$tmp/b2.hist"
has "$tmp/b2.hist" "method balance 1 -> int observer" "declaration written"
expect_rc 1 "the .lfz checks as the text" "$LF" check "$tmp/bank_bad.hist"
expect_rc 0 "convert map" "$LF" convert "$tmp/map.hist" "$tmp/m.lfz"
expect_rc 1 "map .lfz against pia_map" "$LF" check --adapter pia_map "$tmp/m.lfz"
expect_err 2 "custom types have no generator|unknown type" "gen of a custom type" "$LF" gen bank 10

# --- adapters ---
expect_rc 0 "adapters --json" "$LF" adapters --json
python3 -c 'import json,sys; a={x["name"]:x for x in json.load(open(sys.argv[1]))}
assert a["bank"]["custom"] and a["bank"]["spec"] and a["bank"]["type"]=="bank" and a["bank"]["deterministic"]
assert a["pia_map"]["custom"] and not a["pia_map"]["spec"] and a["pia_map"]["methods"]==["put_if_absent","compare_and_delete","get"]
assert not a["ms_queue"]["custom"] and a["ms_queue"]["spec"] and a["ms_queue"]["deterministic"]
assert not a["scal_k_fifo"]["deterministic"]' "$tmp/out" && ok || bad "adapters --json: custom, spec, deterministic"

finish
