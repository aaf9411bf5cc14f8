#!/usr/bin/env bash
# Benchmark of the memory models of controlled runs (not a test; docs/memory-models.md quotes its figures).
# Prints:
#  1. the cost per instrumented access of a one-thread controlled run in sc, tso and c11, plain and atomic
#     (linfuzz-bench-sched access: thread CPU time, median of 7 rounds);
#  2. executions and runs per second of the fuzz targets of the correct weak-memory adapters (adapters/weak/,
#     the twins) and a few other correct adapters, from their seeds, controlled, in each memory model
#     (LINFUZZ_MEMORY_MODEL=sc, tso, c11) and mixed (the default: each repetition draws its model); correct
#     ones only, so that no time goes to minimizing and saving a violation;
#  3. time to the first violation of each weak-memory bug, median of REPEATS runs capped at CAP seconds
#     (">CAP" = not found; runs that found it in brackets), the fuzz target from its seeds: default (mixed
#     modes and models), with the reads-from feedback (LINFUZZ_FUZZ_SCHED_FEEDBACK=rf: pairs of load and store
#     sites the model made, stale ones apart), forced c11, and forced c11 with the feedback. The runs go
#     round-robin over the configurations, so that the machine's load drifts over all alike.
# Times are the harness's own (start to detection).
#
# Usage: ci/bench_memory_models.sh [CAP_SECONDS [REPEATS [EXEC_SECONDS]]]     (defaults 30, 5, 3; EXEC_SECONDS
#        0 skips 2)   LINFUZZ_BUILD_DIR=dir ADAPTERS="spsc_ring_relaxed_publish ..." MICRO=0 CONFIGS="mixed rf"
#        CONFIGS: mixed rf c11 c11-rf sc (sc: LINFUZZ_MEMORY_MODEL=sc, the controlled runs as before the memory
#        models: for the interleaving bugs, ADAPTERS="treiber_tag_wrap ...", what mixed costs them)
set -euo pipefail
cd "$(dirname "$0")/.."
source ci/lib.sh
ci_help "$@"
[ $# -le 3 ] || ci_die "unexpected argument '$4' (--help says what it takes)"
cap=${1:-30} repeats=${2:-5} exec_secs=${3:-3}
ci_count CAP_SECONDS "$cap"
ci_count REPEATS "$repeats"
[ "$exec_secs" = 0 ] || ci_count EXEC_SECONDS "$exec_secs"
bdir=${LINFUZZ_BUILD_DIR:-build}
ci_use_build "$bdir" linfuzz-bench-sched
LF=$bdir/bin/linfuzz
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export LINFUZZ_VIOLATIONS_DIR=$tmp/violations LINFUZZ_KEEP_DUPLICATES=0 LINFUZZ_FUZZ_MINIMIZE_TEST=0
echo "# Memory-model benchmark: $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg), build $bdir"
echo

# ---- 1. cost per access ----
[ "${MICRO:-1}" = 0 ] || "$bdir/bin/linfuzz-bench-sched" access

# the weak-memory bugs: the known-buggy adapters of adapters/weak/
weak_bugs=${ADAPTERS:-$(grep -ho 'ADAPTER([a-z0-9_]*, false' adapters/weak/*.c | sed 's/ADAPTER(\(.*\), false/\1/')}
twins=$(grep -ho 'ADAPTER([a-z0-9_]*, true' adapters/weak/*.c | sed 's/ADAPTER(\(.*\), true/\1/')

# ---- 2. executions per second ----
if [ "$exec_secs" != 0 ]; then
  echo "## Executions per second, by memory model ($exec_secs s per target and model, controlled, from corpus/<adapter>/seeds)"
  echo
  printf '| %-30s | %-18s | %-18s | %-18s | %-18s |\n' target "sc exec/s (runs/s)" "tso" "c11" "mixed"
  printf '|%s|%s|%s|%s|%s|\n' "--------------------------------" "--------------------" "--------------------" \
    "--------------------" "--------------------"
  for name in $twins treiber_stack ms_queue harris_list_set elim_stack ck_fifo_mpmc ck_stack_mpmc urcu_lfstack \
    mutex_queue; do
    [ -x "$bdir/bin/fuzz_$name" ] || continue
    printf '| %-30s |' "fuzz_$name"
    for model in sc tso c11 mixed; do
      read -r e r _ < <(ci_fuzz_rates "$bdir/bin/fuzz_$name" "$exec_secs" "$tmp/run" LINFUZZ_FUZZ_MODE=controlled \
        LINFUZZ_MEMORY_MODEL="$model" -- "corpus/$name/seeds")
      printf ' %-18s |' "$e ($r)"
    done
    echo
  done
  echo
fi

# ---- 3. time to the first violation ----
fuzz_once() { # ADAPTER ENV...: seconds to the first violation, or inf
  local a=$1
  shift
  ci_first_violation "$bdir/bin/fuzz_$a" "$cap" "$tmp/run" "$@" -- "corpus/$a/seeds"
}
one_run() { # ADAPTER CONFIG
  case $2 in
    mixed) fuzz_once "$1" ;;
    rf) fuzz_once "$1" LINFUZZ_FUZZ_SCHED_FEEDBACK=rf ;;
    c11) fuzz_once "$1" LINFUZZ_MEMORY_MODEL=c11 ;;
    c11-rf) fuzz_once "$1" LINFUZZ_MEMORY_MODEL=c11 LINFUZZ_FUZZ_SCHED_FEEDBACK=rf ;;
    sc) fuzz_once "$1" LINFUZZ_MEMORY_MODEL=sc ;;
    *) ci_die "unknown configuration '$2' (--help lists them)" ;;
  esac
}
read -r -a configs <<<"${CONFIGS:-mixed rf c11 c11-rf}"
echo "## Time to the first violation, seconds (median of $repeats, cap $cap s; runs that found it)"
echo
echo "fuzz targets from corpus/<adapter>/seeds: mixed = the default (each input's mode, each repetition's memory"
echo "model); rf = with the reads-from feedback (LINFUZZ_FUZZ_SCHED_FEEDBACK=rf; off by default); c11 ="
echo "LINFUZZ_MEMORY_MODEL=c11; c11-rf = both."
echo
printf '| %-30s |' adapter
for c in "${configs[@]}"; do printf ' %-16s |' "$c"; done
echo
printf '|%s|' "--------------------------------"
for c in "${configs[@]}"; do printf '%s|' "------------------"; done
echo
for a in $weak_bugs; do
  printf '| %-30s |' "$a"
  for c in "${configs[@]}"; do : >"$tmp/times-$c"; done
  for ((i = 0; i < repeats; i++)); do
    for c in "${configs[@]}"; do one_run "$a" "$c" >>"$tmp/times-$c"; done
  done
  for c in "${configs[@]}"; do printf ' %-16s |' "$(ci_median_found "$cap" <"$tmp/times-$c")"; done
  echo
done
