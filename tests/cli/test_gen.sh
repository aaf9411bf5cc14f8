#!/bin/bash
# `linfuzz gen` through the command line: output of every type parses and checks, corrupted histories are
# usually violations, a seed gives the same history, -o writes the same text, bad usage exits 2.
# Usage: test_gen.sh LINFUZZ_BIN TEST_DATA_DIR
set -u
source "$(dirname "$0")/../lib.sh"
BIN=$1

ALL_TYPES="register cas-register set stack queue pqueue kv counter deque"
MONITOR_TYPES="register set stack queue pqueue"

# Small histories of every type, with observers, empty results, repeated values and pending ops, are
# linearizable according to the brute-force oracle (which knows every type).
for type in $ALL_TYPES; do
    for seed in 1 2 3 4 5; do
        for extra in "" "--values 3" "--pending 0.5"; do
            f=$tmp/small-$type-$seed.hist
            "$BIN" gen "$type" 14 --threads 3 --seed "$seed" --peek 0.3 --empty 0.3 $extra >"$f" ||
                bad "gen $type 14 --seed $seed $extra exited $?"
            "$BIN" check -q --engine brute "$f"
            code=$?
            [ $code -eq 0 ] && ok || bad "gen $type 14 --seed $seed --peek 0.3 --empty 0.3 $extra: brute force exit $code, want 0"
        done
    done
done

# Larger histories parse; the monitor types are decided linearizable by the default engine.
for type in $ALL_TYPES; do
    f=$tmp/big-$type.hist
    "$BIN" gen "$type" 2000 --seed 9 --peek 0.2 --empty 0.2 --threads 8 >"$f" || bad "gen $type 2000 exited $?"
    "$BIN" check -q "$f"
    code=$?
    case " $MONITOR_TYPES " in
    *" $type "*) [ $code -eq 0 ] || bad "gen $type 2000: check exit $code, want 0 (linearizable)" ;;
    *) [ $code -eq 0 ] || [ $code -eq 3 ] || bad "gen $type 2000: check exit $code, want 0 or 3" ;;
    esac
done

# --bad: usually (not always) a violation. Require at least half of 20 per monitor type.
for type in $MONITOR_TYPES; do
    violations=0
    for seed in $(seq 1 20); do
        "$BIN" gen "$type" 300 --seed "$seed" --peek 0.2 --empty 0.2 --bad 3 >"$tmp/bad.hist" ||
            bad "gen $type --bad 3 exited $?"
        "$BIN" check -q "$tmp/bad.hist"
        code=$?
        [ $code -eq 1 ] && violations=$((violations + 1))
        [ $code -eq 2 ] && bad "gen $type --bad 3 --seed $seed: malformed output"
    done
    echo "$type: $violations of 20 corrupted histories are violations"
    [ $violations -ge 10 ] && ok || bad "$type: only $violations of 20 --bad histories are violations"
done

# Determinism: the same seed gives the same bytes; another seed gives other bytes; -o writes the same text.
"$BIN" gen deque 500 --seed 77 --peek 0.3 --empty 0.3 --bad 2 --pending 0.5 >"$tmp/a.hist"
"$BIN" gen deque 500 --seed 77 --peek 0.3 --empty 0.3 --bad 2 --pending 0.5 >"$tmp/b.hist"
"$BIN" gen deque 500 --seed 78 --peek 0.3 --empty 0.3 --bad 2 --pending 0.5 >"$tmp/c.hist"
"$BIN" gen deque 500 --seed 77 --peek 0.3 --empty 0.3 --bad 2 --pending 0.5 -o "$tmp/d.hist" ||
    bad "gen -o exited $?"
cmp -s "$tmp/a.hist" "$tmp/b.hist" || bad "same seed, different output"
cmp -s "$tmp/a.hist" "$tmp/c.hist" && bad "different seeds, same output"
cmp -s "$tmp/a.hist" "$tmp/d.hist" || bad "-o FILE differs from standard output"
grep -q ' ? ' "$tmp/a.hist" || bad "--pending 0.5 produced no pending op"
[ "$(grep -c '^[0-9]' "$tmp/a.hist")" -eq 500 ] || bad "gen deque 500 did not write 500 ops"

# --spread-priorities: distinct priorities beyond 2^32 (not rising with time), many present at once, and the
# history is linearizable (the monitor and, on a small one, brute force agree); a corrupted one usually is not.
"$BIN" gen pqueue 3000 --threads 8 --seed 5 --spread-priorities --peek 0.1 --empty 0.1 >"$tmp/wide.hist" ||
    bad "gen --spread-priorities exited $?"
awk '$4 == "insert" { n++; if ($5 > 4294967296) big++; seen[$5]++ } END { for (v in seen) if (seen[v] > 1) dup++;
    exit !(n > 1000 && big > n / 2 && dup == 0) }' "$tmp/wide.hist" && ok ||
    bad "--spread-priorities: inserted values are not distinct and spread beyond 2^32"
awk '$4 == "insert" { c++ } $4 == "poll" && $6 != "empty" { c-- } c > m { m = c } END { exit !(m > 600) }' \
    "$tmp/wide.hist" && ok || bad "--spread-priorities: fewer than 600 values present at the peak"
"$BIN" check -q --engine monitor "$tmp/wide.hist" && ok || bad "gen --spread-priorities: not linearizable"
"$BIN" gen pqueue 12 --threads 3 --seed 5 --spread-priorities --peek 0.3 >"$tmp/wide-small.hist"
"$BIN" check -q --engine brute "$tmp/wide-small.hist" && ok || bad "gen --spread-priorities (small): brute force disagrees"
violations=0
for seed in $(seq 1 10); do
    "$BIN" gen pqueue 300 --seed "$seed" --spread-priorities --peek 0.2 --bad 3 >"$tmp/bad.hist"
    "$BIN" check -q "$tmp/bad.hist"
    [ $? -eq 1 ] && violations=$((violations + 1))
done
[ $violations -ge 5 ] && ok || bad "--spread-priorities --bad 3: only $violations of 10 are violations"
# Bounded containers: a capacity line, full answers, linearizable by construction (decided by the search,
# since the capacity is reached); corrupted ones are usually violations.
for t in stack queue pqueue deque; do
  "$BIN" gen $t 300 --capacity 3 --seed 5 --threads 3 --peek 0.2 --empty 0.2 >"$tmp/b-$t.hist" || bad "gen $t --capacity"
  grep -qx 'capacity 3' "$tmp/b-$t.hist" || bad "gen $t --capacity 3: no capacity line"
  grep -q -- '-> full$' "$tmp/b-$t.hist" || bad "gen $t --capacity 3: no full answer"
  "$BIN" check -q "$tmp/b-$t.hist"
  [ $? = 0 ] && ok || bad "gen $t --capacity 3 is not linearizable"
done
"$BIN" gen set 10 --capacity 3 >/dev/null 2>"$tmp/err"
[ $? = 2 ] && grep -q "capacity is only for stack, queue, pqueue and deque" "$tmp/err" && ok ||
  bad "gen set --capacity: $(cat "$tmp/err")"

# --shape work-stealing: thread 0 only pushes, pops and peeks at the back, the others only pop and peek at the
# front; the history is linearizable (the deque monitor decides it) and deterministic.
"$BIN" gen deque 3000 --threads 6 --shape work-stealing --seed 5 --peek 0.1 --empty 0.2 >"$tmp/ws.hist" ||
    bad "gen work-stealing exited $?"
awk '/^[0-9]/ && $1 == 0 && $4 !~ /_back$/ { exit 1 }
     /^[0-9]/ && $1 != 0 && $4 !~ /_front$/ { exit 1 }' "$tmp/ws.hist" &&
    ok || bad "work-stealing: an op on the wrong end for its thread"
[ "$(awk '/^[0-9]/ { print $1 }' "$tmp/ws.hist" | sort -u | wc -l)" -eq 6 ] && ok || bad "work-stealing: not 6 threads"
[ "$("$BIN" check --engine monitor "$tmp/ws.hist")" = "$tmp/ws.hist: linearizable [monitor]" ] && ok ||
    bad "work-stealing history not linearizable by the deque monitor"
"$BIN" gen deque 3000 --threads 6 --shape work-stealing --seed 5 --peek 0.1 --empty 0.2 | cmp -s - "$tmp/ws.hist" &&
    ok || bad "work-stealing: same seed, different output"

# Bad usage exits 2.
for args in "" "queue" "nosuchtype 10" "queue ten" "queue 10 --peek 2" "queue 10 --threads 0" \
    "queue 10 --values 0" "queue 10 --bogus 1" "queue 10 extra" "stack 10 --spread-priorities" \
    "queue 10 --shape work-stealing" "deque 10 --shape work-stealing --threads 1" "deque 10 --shape sideways" \
    "queue 10 --capacity 0"; do
    "$BIN" gen $args >/dev/null 2>&1
    code=$?
    [ $code -eq 2 ] && ok || bad "gen $args: exit $code, want 2"
done

finish
