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
    "queue 10 --values 0" "queue 10 --bogus 1" "queue 10 extra" "queue 10 --shape work-stealing" \
    "deque 10 --shape work-stealing --threads 1" "deque 10 --shape sideways"; do
    "$BIN" gen $args >/dev/null 2>&1
    code=$?
    [ $code -eq 2 ] && ok || bad "gen $args: exit $code, want 2"
done

finish
