#!/usr/bin/env bash
# Contracts on the command line (docs/contracts.md): `linfuzz check` of histories with a contract line and with
# --contract (verdicts, the contract named in the reason and in JSON, refusals with file and line, exit codes),
# `linfuzz gen --contract` (a history of the contract, written with its line, and with bugs a violation), `linfuzz
# convert` keeping the contract, `linfuzz stress --contract` holding an adapter to another contract, and
# `linfuzz adapters` staying as it was for adapters without one.
set -u
source "$(dirname "$0")/../lib.sh"
LF=$1

# A DPDK ring of one slot: an enqueue reserved it and has not published; another enqueue saw it taken, a dequeue
# saw nothing published.
printf 'type queue\ncapacity 1\n0 1 20 enq 1\n1 2 3 enq 2 -> full\n2 4 5 deq -> empty\n2 21 22 deq -> 1\n' >"$tmp/ring.hist"
expect_rc 1 "linearizability refuses it" "$LF" check "$tmp/ring.hist"
expect_rc 0 "lagging-full-empty takes it" "$LF" check --contract lagging-full-empty "$tmp/ring.hist"
has "$tmp/out" "ring.hist: linearizable" "lagging line"
{ printf 'type queue\ncapacity 1\ncontract lagging-full-empty\n'; tail -n +3 "$tmp/ring.hist"; } >"$tmp/ring-lag.hist"
expect_rc 0 "its own contract line" "$LF" check "$tmp/ring-lag.hist"
expect_rc 1 "--contract linearizable overrides it" "$LF" check --contract linearizable "$tmp/ring-lag.hist"
expect_rc 0 "JSON names the contract" "$LF" check --json "$tmp/ring-lag.hist"
has "$tmp/out" '"contract":"lagging-full-empty"' "json contract"

# A 2-relaxed queue, and one that goes beyond it: the reason names the contract.
printf 'type queue\ncontract k-relaxed 2\n0 1 2 enq 1\n0 3 4 enq 2\n0 5 6 enq 3\n1 7 8 deq -> 3\n' >"$tmp/k.hist"
expect_rc 1 "beyond k-relaxed 2" "$LF" check "$tmp/k.hist"
has "$tmp/out" "violation: contract 'k-relaxed 2'" "k reason"
expect_rc 0 "within k-relaxed 3" "$LF" check --contract 'k-relaxed 3' "$tmp/k.hist"
expect_rc 0 "a bag" "$LF" check --contract bag "$tmp/k.hist"
expect_rc 1 "brute force agrees" "$LF" check --engine brute "$tmp/k.hist"

# Refusals: bad words, a contract the type cannot have, a line in the wrong place.
expect_err 2 "--contract takes a contract: .*not 'k-relaxed'" "bad --contract" "$LF" check --contract 'k-relaxed' "$tmp/k.hist"
printf 'type stack\n0 1 2 push 1\n' >"$tmp/stack.hist"
expect_err 2 "stack.hist: --contract: contract 'per-producer': per-producer order is only for queue" "per-producer stack" \
  "$LF" check --contract per-producer "$tmp/stack.hist"
printf 'type stack\ncontract per-producer\n0 1 2 push 1\n' >"$tmp/pp-stack.hist"
expect_err 2 "pp-stack.hist:2: contract 'per-producer': per-producer order is only for queue, not stack" "line" \
  "$LF" check "$tmp/pp-stack.hist"
printf 'type queue\n0 1 2 enq 1\ncontract bag\n' >"$tmp/late.hist"
expect_err 2 "late.hist:3: 'contract' after the first operation" "late line" "$LF" check "$tmp/late.hist"

# gen: a history of the contract, with its line; with bugs, a violation (forbidden answers for lagging).
expect_rc 0 "gen" "$LF" gen queue 3000 --contract 'per-producer lagging-full-empty' --threads 6 --empty 0.3 \
  --capacity 8 -o "$tmp/g.hist"
grep -qx "contract per-producer lagging-full-empty" "$tmp/g.hist" && ok || bad "gen writes the contract line"
expect_rc 0 "generated history satisfies it" "$LF" check "$tmp/g.hist"
expect_rc 0 "gen with bugs" "$LF" gen stack 3000 --contract lagging-full-empty --empty 0.3 --bad 6 -o "$tmp/gb.hist"
expect_rc 1 "its forbidden answers" "$LF" check "$tmp/gb.hist"
expect_err 2 "only for stack and queue" "gen refuses a set" "$LF" gen set 10 --contract bag
expect_rc 0 "convert keeps it" "$LF" convert "$tmp/g.hist" "$tmp/g.lfz"
expect_rc 0 "convert back" "$LF" convert "$tmp/g.lfz" "$tmp/g2.hist"
cmp -s "$tmp/g.hist" "$tmp/g2.hist" && ok || bad ".hist -> .lfz -> .hist changed the file"

# stress: the adapter held to another contract than its own (scal_k_fifo is 4-relaxed with weak empty answers).
expect_rc 0 "scal_k_fifo within its bound" "$LF" stress scal_k_fifo --contract 'k-relaxed 4 weak-full-empty' \
  --runs 40 --mode controlled --seed 1 --out "$tmp" -q
expect_rc 1 "scal_k_fifo beyond k-relaxed 3" "$LF" stress scal_k_fifo --contract 'k-relaxed 3 weak-full-empty' \
  --runs 40 --mode controlled --seed 1 --out "$tmp" -q
has "$tmp/err" "contract 'k-relaxed 3 weak-full-empty'" "stress names the contract"
has "$tmp/err" "--contract 'k-relaxed 3 weak-full-empty'" "the replay command keeps it"
ls "$tmp"/violation-scal_k_fifo-*.hist >/dev/null 2>&1 && ok || bad "stress wrote no history"
grep -qx "contract k-relaxed 3 weak-full-empty" "$tmp"/violation-scal_k_fifo-*.hist && ok || bad "its contract line"
expect_err 2 "not 'frob'" "stress bad contract" "$LF" stress scal_k_fifo --contract frob

# adapters without a contract are listed as before; those that declare one (the DPDK bulk twins, when DPDK is
# built) list it
expect_rc 0 "adapters" "$LF" adapters --json
grep -v '"name": "dpdk_ring_[a-z_]*_bulk"' "$tmp/out" | grep -q '"contract"' && bad "only the DPDK bulk twins declare a contract" || ok
if grep -q '"name": "dpdk_ring_mpmc_bulk"' "$tmp/out"; then
  grep -q '"name": "dpdk_ring_rts_bulk".*"contract": "quiescent-full-empty"' "$tmp/out" && ok || bad "dpdk_ring_rts_bulk's contract"
  grep -q '"name": "dpdk_ring_hts_bulk".*"contract": "lagging-full-empty"' "$tmp/out" && ok || bad "dpdk_ring_hts_bulk's contract"
fi
finish
