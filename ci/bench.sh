#!/usr/bin/env bash
# Benchmark of `linfuzz check` on generated unambiguous histories (issue 2's performance target):
# whole-process time (parsing included) and peak memory, per type and size, 16 threads, distinct values,
# without and with peeks (or reads/contains). Prints a markdown table of medians over RUNS runs.
#
# Usage: ci/bench.sh [SIZES...]     (default: 10000 100000 1000000)
# Env:   RUNS (default 5), LINFUZZ_BUILD_DIR (default build), KEEP=1 keeps the generated histories in $BENCH_DIR.
set -euo pipefail
cd "$(dirname "$0")/.."
source ci/lib.sh
ci_help "$@"
BUILD=${LINFUZZ_BUILD_DIR:-build}
RUNS=${RUNS:-5}
ci_count RUNS "$RUNS"
for n in "$@"; do ci_count SIZE "$n"; done
ci_use_build "$BUILD" linfuzz
LF="$BUILD/bin/linfuzz"
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(10000 100000 1000000)
progress_start "$CI_SCRIPT"
BENCH_DIR=${BENCH_DIR:-$(mktemp -d)}
[ "${KEEP:-0}" = 1 ] || trap 'rm -rf "$BENCH_DIR"' EXIT

echo "linfuzz check --engine monitor: median of $RUNS runs (whole process, parsing included), $(nproc) cores"
echo
echo "| type | ops | peeks | verdict | ms | ns/op | peak MB | bytes/op |"
echo "|---|---:|---:|---|---:|---:|---:|---:|"
for type in register set stack queue pqueue; do
  for n in "${sizes[@]}"; do
    for peek in 0 0.2; do
      # Registers are all reads and writes; "no peeks" still needs some reads to be interesting.
      p=$peek
      [ "$type" = register ] && p=$(awk -v x="$peek" 'BEGIN{print x + 0.3}')
      f="$BENCH_DIR/$type-$n-$peek.hist"
      [ -f "$f" ] || "$LF" gen "$type" "$n" --threads 16 --seed 7 --peek "$p" --empty 0.05 -o "$f"
      verdict=$("$LF" check --engine monitor "$f" | awk '{print $2}')
      times=(); mems=()
      for r in $(seq "$RUNS"); do
        progress "$type, $n ops, peeks $p: run $r of $RUNS"
        t0=$(date +%s%N)
        "$LF" check --engine monitor -q "$f" || true
        t1=$(date +%s%N)
        times+=("$(( (t1 - t0) / 1000 ))")
        mems+=("$( { /usr/bin/time -f "%M" "$LF" check --engine monitor -q "$f" ; } 2>&1 >/dev/null | tail -1)")
      done
      ms=$(printf '%s\n' "${times[@]}" | median | awk '{print $1/1000}')
      kb=$(printf '%s\n' "${mems[@]}" | median)
      progress_end
      awk -v t="$type" -v n="$n" -v p="$p" -v v="$verdict" -v ms="$ms" -v kb="$kb" 'BEGIN {
        printf "| %s | %d | %s | %s | %.0f | %.0f | %.1f | %.0f |\n", t, n, p, v, ms, ms*1e6/n, kb/1024, kb*1024/n }'
    done
  done
done
