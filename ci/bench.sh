#!/usr/bin/env bash
# Benchmark of `linfuzz check` on generated unambiguous histories (issue 2's performance target):
# whole-process time (parsing included) and peak memory, per type and size, 16 threads, distinct values,
# without and with peeks (or reads/contains). Prints a markdown table of medians over RUNS runs.
# Then deques (issue 14): the deque monitor against WGL, uniform histories (16 threads) and work-stealing
# ones (an owner at the back, 7 thieves at the front; `linfuzz gen --shape work-stealing`), 10^3..10^6 ops.
#
# Usage: ci/bench.sh [SIZES...]     (default: 10000 100000 1000000)
# Env:   RUNS (default 5), LINFUZZ_BUILD_DIR (default build), KEEP=1 keeps the generated histories in $BENCH_DIR,
#        DEQUE_SIZES (default "1000 3000 10000 100000 1000000"), WGL_TIMEOUT (seconds, default 10; WGL runs once).
set -euo pipefail
cd "$(dirname "$0")/.."
source ci/lib.sh
ci_help "$@"
BUILD=${LINFUZZ_BUILD_DIR:-build}
RUNS=${RUNS:-5}
ci_count RUNS "$RUNS"
for n in "$@"; do ci_count SIZE "$n"; done
read -r -a deque_sizes <<<"${DEQUE_SIZES:-1000 3000 10000 100000 1000000}"
for n in "${deque_sizes[@]}"; do ci_count DEQUE_SIZES "$n"; done
WGL_TIMEOUT=${WGL_TIMEOUT:-10}
ci_seconds WGL_TIMEOUT "$WGL_TIMEOUT"
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
for type in register set stack queue pqueue deque; do
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

# ---- deques: the monitor against WGL ----
# One run of `linfuzz check` on file $2 with engine $1 (extra args after): prints "us KB verdict".
run_once() {
  local engine=$1 f=$2; shift 2
  local t0 t1 kb verdict
  t0=$(date +%s%N)
  verdict=$("$LF" check --engine "$engine" "$@" "$f" | sed 's/^[^:]*: \([a-z]*\).*/\1/' || true)
  t1=$(date +%s%N)
  kb=$( { /usr/bin/time -f "%M" "$LF" check --engine "$engine" -q "$@" "$f" || true; } 2>&1 >/dev/null | tail -1)
  echo "$(( (t1 - t0) / 1000 )) $kb $verdict"
}
echo
echo "deques: --engine monitor (median of $RUNS runs) against --engine wgl (one run, --timeout $WGL_TIMEOUT)"
echo
echo "| shape | ops | peeks | monitor | ms | peak MB | wgl | ms | peak MB |"
echo "|---|---:|---:|---|---:|---:|---|---:|---:|"
for shape in uniform work-stealing; do
  threads=16
  [ "$shape" = work-stealing ] && threads=8
  for n in "${deque_sizes[@]}"; do
    for peek in 0 0.2; do
      f="$BENCH_DIR/deque-$shape-$n-$peek.hist"
      [ -f "$f" ] ||
        "$LF" gen deque "$n" --shape "$shape" --threads "$threads" --seed 7 --peek "$peek" --empty 0.05 -o "$f"
      times=(); mems=(); mv=""
      for r in $(seq "$RUNS"); do
        progress "deque $shape, $n ops, peeks $peek: monitor run $r of $RUNS"
        read -r us kb mv < <(run_once monitor "$f")
        times+=("$us"); mems+=("$kb")
      done
      mms=$(printf '%s\n' "${times[@]}" | median | awk '{print $1/1000}')
      mkb=$(printf '%s\n' "${mems[@]}" | median)
      progress "deque $shape, $n ops, peeks $peek: wgl"
      read -r wus wkb wv < <(run_once wgl "$f" --timeout "$WGL_TIMEOUT")
      progress_end
      awk -v s="$shape" -v n="$n" -v p="$peek" -v mv="$mv" -v mms="$mms" -v mkb="$mkb" -v wv="$wv" -v wus="$wus" \
          -v wkb="$wkb" 'BEGIN {
        printf "| %s | %d | %s | %s | %.0f | %.1f | %s | %.0f | %.1f |\n",
               s, n, p, mv, mms, mkb/1024, wv, wus/1000, wkb/1024 }'
    done
  done
done
