#!/usr/bin/env bash
# Benchmark of the contracts weaker than linearizability (docs/contracts.md): `linfuzz check` on generated
# histories of each relaxed contract (`linfuzz gen --contract`, 16 threads, distinct values, some empty answers),
# against the linearizability monitor of the same type on a history generated the same way without a contract.
# Whole-process time (parsing included), median of RUNS runs; the verdict and the engine that decided. Each
# contract is measured on a history that satisfies it and on one with injected bugs (--bad 4: for the lagging,
# quiescent and weak contracts half of them are answers the contract forbids, a violation for sure).
#
# Usage: ci/bench_contracts.sh [SIZES...]     (default: 1000000)
# Env:   RUNS (default 3), LINFUZZ_BUILD_DIR (default build), KEEP=1 keeps the generated histories in $BENCH_DIR,
#        TIMEOUT (seconds per check, default 60; an unknown verdict is measured once).
set -euo pipefail
cd "$(dirname "$0")/.."
source ci/lib.sh
ci_help "$@"
BUILD=${LINFUZZ_BUILD_DIR:-build}
RUNS=${RUNS:-3}
ci_count RUNS "$RUNS"
TIMEOUT=${TIMEOUT:-60}
ci_seconds TIMEOUT "$TIMEOUT"
for n in "$@"; do ci_count SIZE "$n"; done
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(1000000)
ci_use_build "$BUILD" linfuzz
LF="$BUILD/bin/linfuzz"
progress_start "$CI_SCRIPT"
BENCH_DIR=${BENCH_DIR:-$(mktemp -d)}
[ "${KEEP:-0}" = 1 ] || trap 'rm -rf "$BENCH_DIR"' EXIT

# One check of file $1 (extra args after): prints "us verdict engine".
check_once() {
  local f=$1 t0 t1 out
  shift
  t0=$(date +%s%N)
  out=$("$LF" check --timeout "$TIMEOUT" "$@" "$f" || true)
  t1=$(date +%s%N)
  echo "$(( (t1 - t0) / 1000 )) $(sed 's/^[^:]*: \([a-z]*\).*/\1/' <<<"$out") $(sed -n 's/.*\[\([a-z]*\)[^]]*\]$/\1/p' <<<"$out")"
}

# Median over RUNS checks of file $1: prints "ms verdict engine".
check_median() {
  local f=$1 r line t verdict engine times=()
  shift
  for r in $(seq "$RUNS"); do
    progress "$(basename "$f"): run $r of $RUNS"
    line=$(check_once "$f" "$@")
    read -r t verdict engine <<<"$line"
    times+=("$t")
    [ "$verdict" = unknown ] && break # a budget ran out: once is enough
  done
  echo "$(printf '%s\n' "${times[@]}" | median | awk '{printf "%.0f", $1/1000}') $verdict $engine"
}

gen() { # gen FILE TYPE N [ARGS...]
  local f=$1 type=$2 n=$3
  shift 3
  [ -f "$f" ] || "$LF" gen "$type" "$n" --threads 16 --seed 7 --empty 0.2 -q -o "$f" "$@"
}

contracts=("queue:k-relaxed 4" "stack:k-relaxed 4" "queue:per-producer" "queue:bag" "stack:bag"
           "queue:lagging-full-empty" "stack:lagging-full-empty" "queue:quiescent-full-empty"
           "queue:weak-full-empty" "queue:k-relaxed 4 weak-full-empty" "queue:bag lagging-full-empty")

echo "linfuzz check under each contract against --engine monitor on the same type without one: median of $RUNS runs"
echo "(whole process, parsing included), 16 threads, $(nproc) cores, --timeout $TIMEOUT"
echo
echo "| type | contract | ops | history | verdict | engine | ms | linearizable, monitor ms | ratio |"
echo "|---|---|---:|---|---|---|---:|---:|---:|"
for n in "${sizes[@]}"; do
  for entry in "${contracts[@]}"; do
    type=${entry%%:*}
    contract=${entry#*:}
    slug=$(tr ' ' '_' <<<"$contract")
    base="$BENCH_DIR/$type-$n.hist"
    gen "$base" "$type" "$n"
    read -r base_ms _ _ <<<"$(check_median "$base" --engine monitor)"
    for kind in satisfies bugs; do
      f="$BENCH_DIR/$type-$slug-$n-$kind.hist"
      if [ "$kind" = bugs ]; then gen "$f" "$type" "$n" --contract "$contract" --bad 4; else gen "$f" "$type" "$n" --contract "$contract"; fi
      read -r ms verdict engine <<<"$(check_median "$f")"
      progress_end
      awk -v t="$type" -v c="$contract" -v n="$n" -v k="$kind" -v v="$verdict" -v e="$engine" -v ms="$ms" \
          -v b="$base_ms" 'BEGIN { printf "| %s | %s | %d | %s | %s | %s | %.0f | %.0f | %.2f |\n", t, c, n, k, v, e, ms, b, (b > 0 ? ms / b : 0) }'
    done
  done
done
