#!/usr/bin/env bash
# Weak memory models through the fuzz targets (docs/memory-models.md): every bundled memory-order bug
# (adapters/weak/) is found by its fuzz target from its seeds (a fixed libFuzzer seed, a bounded number of
# runs) under the model it needs — c11 for all, tso for the store-buffering one too — its entry replays
# exactly, and `rootcause` confirms a cause that names the access whose order is too weak (within a line of
# the one the adapter's source marks); no release/acquire bug shows under tso; the correct twins stay clean in
# sc, tso and c11, and so does every bundled correct adapter under tso and c11 (bounded stress runs).
# Under sanitizers (SANITIZED=1) the clean runs are a quarter as many.
# Usage: test_weak_adapters.sh LINFUZZ_BIN BIN_DIR CORPUS_DIR SOURCE_DIR [SANITIZED]
set -uo pipefail
source "$(dirname "$0")/../lib.sh"
LF=$1 BIN=$(cd "$2" && pwd) CORPUS=$(cd "$3" && pwd) SRC=$(cd "$4" && pwd) SANITIZED=${5:-0}
# (700 executions: since fresh cases take SURW one time in eight, whose runs switch at most events, 1000 took
# about 55 s of the clean runs' time in the release build)
clean_runs=700 stress_runs=60
if [ "$SANITIZED" = 1 ]; then clean_runs=175 stress_runs=20; fi

# The line of an adapter's source that holds MARKER.
line_of() { grep -n -- "$2" "$SRC/adapters/weak/$1" | head -1 | cut -d: -f1; }

# Whether text names FILE:LINE within one line of want, or names lines of FILE on both sides of it (a fence
# "between the load at FILE:59 and the load at FILE:62").
names_line() { # TEXT FILE WANT
  local l below=0 above=0
  for l in $(grep -o "$2:[0-9]*" <<<"$1" | cut -d: -f2); do
    [ "$l" -ge $(($3 - 1)) ] && [ "$l" -le $(($3 + 1)) ] && return 0
    [ "$l" -lt "$3" ] && below=1
    [ "$l" -gt "$3" ] && above=1
  done
  [ $below = 1 ] && [ $above = 1 ]
}

# adapter, source file, marker of the access, model
bugs="spsc_ring_relaxed_publish spsc_ring.c PUBLISH: c11
spsc_ring_relaxed_consume spsc_ring.c CONSUME: c11
ws_deque_take_no_fence ws_deque.c TAKE_FENCE: tso
ws_deque_take_no_fence ws_deque.c TAKE_FENCE: c11
ws_deque_steal_relaxed ws_deque.c STEAL_BOTTOM: c11
seqlock_pair_no_read_fence seqlock_pair.c READ_FENCE: c11
seqlock_pair_no_write_fence seqlock_pair.c WRITE_FENCE: c11
relseq_queue_no_release relseq_queue.c PUBLISH_FENCE: c11
relseq_queue_no_acquire relseq_queue.c CLAIM_FENCE: c11"

while read -r a file marker model; do
  dir="$tmp/$a-$model"
  mkdir -p "$dir/work"
  LINFUZZ_MEMORY_MODEL=$model LINFUZZ_FUZZ_MODE=controlled LINFUZZ_FUZZ_MINIMIZE_TEST=0.5 \
    LINFUZZ_VIOLATIONS_DIR="$dir/violations" "$BIN/fuzz_$a" -seed=1 -runs=20000 -max_total_time=60 \
    -artifact_prefix="$dir/crash-" "$dir/work" "$CORPUS/$a/seeds" >"$dir/log" 2>&1
  check "fuzz_$a finds its bug under $model" grep -q "linfuzz-fuzz: violation adapter=$a .* memory=$model" "$dir/log"
  entry=$(ls "$dir"/violations/*.lfz 2>/dev/null | head -1)
  [ -n "$entry" ] || { bad "fuzz_$a ($model) saved no entry"; continue; }
  "$LF" repro --runs 0 "$entry" >"$dir/repro" 2>&1
  has "$dir/repro" "replayed exactly: violation again, same history" "$a ($model): the entry replays exactly"
  "$LF" show --meta "$entry" >"$dir/meta" 2>&1
  has "$dir/meta" "memory_model: $model" "$a ($model): the entry records its memory model"
  "$LF" rootcause --schedules 300 "$entry" >"$dir/rootcause" 2>&1 # (a baseline of 5 violations at least)
  has "$dir/rootcause" "needs its weak behaviour" "$a ($model): rootcause says the violation needs a weak behaviour"
  best=$(grep "root cause: " "$dir/rootcause" | head -1)
  want=$(line_of "$file" "$marker")
  if names_line "$best" "$file" "$want"; then ok; else
    bad "$a ($model): the root cause does not name $file:$want ($marker): $best"
  fi
done <<<"$bugs"

# x86 keeps every order but store->load: under tso the release/acquire bugs never show
for a in spsc_ring_relaxed_publish ws_deque_steal_relaxed seqlock_pair_no_read_fence \
  relseq_queue_no_release; do
  mkdir -p "$tmp/tso-$a"
  LINFUZZ_MEMORY_MODEL=tso LINFUZZ_FUZZ_MODE=controlled LINFUZZ_FUZZ_CONTINUE=1 \
    LINFUZZ_VIOLATIONS_DIR="$tmp/tso-$a/violations" "$BIN/fuzz_$a" -seed=1 -runs=$clean_runs "$tmp/tso-$a" \
    "$CORPUS/$a/seeds" >"$tmp/tso-$a.log" 2>&1
  has "$tmp/tso-$a.log" "violations=0 " "fuzz_$a finds nothing under tso (it needs c11)"
done

# the correct twins: clean in every model
for a in spsc_ring ws_deque seqlock_pair relseq_queue; do
  for model in sc tso c11; do
    mkdir -p "$tmp/twin-$a-$model"
    LINFUZZ_MEMORY_MODEL=$model LINFUZZ_FUZZ_MODE=controlled LINFUZZ_FUZZ_CONTINUE=1 \
      LINFUZZ_VIOLATIONS_DIR="$tmp/twin-$a-$model/violations" "$BIN/fuzz_$a" -seed=1 -runs=$clean_runs \
      "$tmp/twin-$a-$model" "$CORPUS/$a/seeds" >"$tmp/twin-$a-$model.log" 2>&1
    has "$tmp/twin-$a-$model.log" "violations=0 " "the correct twin $a stays clean under $model"
    grep -q "weak_unchecked=0" "$tmp/twin-$a-$model.log" && ok || bad "$a under $model: weak runs left unchecked"
  done
done

# every correct adapter: clean under the weak models (the liburcu and ck ones included)
while read -r a _ expected _; do
  [ "$expected" = yes ] || continue
  for model in tso c11; do
    "$LF" stress "$a" --mode controlled --memory-model $model --runs $stress_runs --threads 3 --ops 40 --seed 7 -q \
      --out "$tmp" >"$tmp/stress.log" 2>&1
    rc=$?
    [ "$rc" = 0 ] && ok || bad "$a under $model: stress exit $rc ($(grep -m1 -E 'VIOLATION|STUCK|replay' "$tmp/stress.log"))"
  done
done < <("$LF" adapters)
finish
