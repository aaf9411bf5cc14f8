#!/usr/bin/env bash
# Benchmark of controlled mode (not a test; docs/scheduling.md quotes its figures). Prints:
#  1. the microbenchmarks of linfuzz-bench-sched: cost per instrumented access (TSan ABI vs SanitizerCoverage
#     trace-loads/stores, free-running and controlled, with and without the reads-from feedback) and the
#     cost of a baton handoff;
#  2. executions and runs per second of the known-buggy adapters' fuzz targets (and a few correct ones), from
#     their seeds, in each mode (LINFUZZ_FUZZ_MODE=controlled, free, mixed = the inputs' own modes);
#  3. time to the first violation per known-buggy adapter, median of REPEATS runs capped at CAP seconds
#     (">CAP" = not found; runs that found it in brackets), for the fuzz target from its seeds in mixed mode
#     (the default), controlled only, free only (today's free-running fuzzing: the OS's interleavings
#     widened by perturbation), controlled with the reads-from feedback (LINFUZZ_FUZZ_SCHED_FEEDBACK=rf; off
#     by default), with it counting presence only (rf-presence), with both parts (reads-from + preemption
#     sites), and `linfuzz stress` in mixed and in free mode.
#     The runs go round-robin over the configurations so that the machine's load drifts over all alike; the
#     last column is the ratio free / controlled of the medians (capped times count as CAP: a lower bound).
# Fuzz times are the harness's own (start to detection); stress times are wall clock.
#
# Usage: ci/bench_sched.sh [CAP_SECONDS [REPEATS [EXEC_SECONDS]]]     (defaults 20, 5, 3; EXEC_SECONDS 0 skips 2)
#        LINFUZZ_BUILD_DIR=dir ADAPTERS="treiber_tag_wrap ..." CONFIGS="controlled free" MICRO=0 \
#          ci/bench_sched.sh
#        CONFIGS: mixed controlled free feedback-rf feedback-presence feedback-both stress stress-free
set -euo pipefail
cd "$(dirname "$0")/.."
source ci/lib.sh
ci_help "$@"
[ $# -le 3 ] || ci_die "unexpected argument '$4' (--help says what it takes)"
cap=${1:-20} repeats=${2:-5} exec_secs=${3:-3}
ci_count CAP_SECONDS "$cap"
ci_count REPEATS "$repeats"
[ "$exec_secs" = 0 ] || ci_count EXEC_SECONDS "$exec_secs"
bdir=${LINFUZZ_BUILD_DIR:-build}
ci_use_build "$bdir" linfuzz-bench-sched
LF=$bdir/bin/linfuzz
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export LINFUZZ_VIOLATIONS_DIR=$tmp/violations LINFUZZ_KEEP_DUPLICATES=0
echo "# Controlled-mode benchmark: $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg), build $bdir"
echo

# ---- 1. microbenchmarks ----
[ "${MICRO:-1}" = 0 ] || "$bdir/bin/linfuzz-bench-sched" all

buggy=${ADAPTERS:-$("$LF" adapters | awk '$3 == "no" {print $1}')}

# ---- 2. executions per second ----
if [ "$exec_secs" != 0 ]; then
  echo "## Executions per second, by mode ($exec_secs s per target and mode, from corpus/<adapter>/seeds)"
  echo
  printf '| %-28s | %-21s | %-21s | %-21s |\n' target "controlled exec/s (runs/s)" "free exec/s (runs/s)" \
    "mixed exec/s (runs/s)"
  printf '|%s|%s|%s|%s|\n' "------------------------------" "----------------------------" "-----------------------" \
    "-----------------------"
  for name in $buggy treiber_tag32 elim_stack seqlock_register harris_list_marked ms_queue mutex_queue; do
    [ -x "$bdir/bin/fuzz_$name" ] || continue
    printf '| %-28s |' "fuzz_$name"
    for mode in controlled free mixed; do
      read -r e r _ < <(ci_fuzz_rates "$bdir/bin/fuzz_$name" "$exec_secs" "$tmp/run" LINFUZZ_FUZZ_MODE="$mode" -- \
        "corpus/$name/seeds")
      printf ' %-26s |' "$e ($r)"
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
stress_once() { # ADAPTER MODE
  local t0 t1 rc=0
  mkdir -p "$tmp/stress"
  t0=$(date +%s%N)
  "$LF" stress "$1" --mode "$2" --seconds "$cap" --seed "$RANDOM$RANDOM" --out "$tmp/stress" -q >/dev/null 2>&1 || rc=$?
  t1=$(date +%s%N)
  if [ "$rc" = 1 ]; then awk -v d=$((t1 - t0)) 'BEGIN{printf "%.3f\n", d/1e9}'; else echo inf; fi
}
median_value() { sort -g | awk -v cap="$cap" '{v[NR]=$1} END {m = v[int((NR + 1) / 2)]; print (m == "inf" ? cap : m)}'; }
one_run() { # ADAPTER CONFIG
  case $2 in
    mixed) fuzz_once "$1" ;;
    controlled) fuzz_once "$1" LINFUZZ_FUZZ_MODE=controlled ;;
    free) fuzz_once "$1" LINFUZZ_FUZZ_MODE=free ;;
    feedback-both) fuzz_once "$1" LINFUZZ_FUZZ_MODE=controlled LINFUZZ_FUZZ_SCHED_FEEDBACK=both ;;
    feedback-rf) fuzz_once "$1" LINFUZZ_FUZZ_MODE=controlled LINFUZZ_FUZZ_SCHED_FEEDBACK=rf ;;
    feedback-presence) fuzz_once "$1" LINFUZZ_FUZZ_MODE=controlled LINFUZZ_FUZZ_SCHED_FEEDBACK=rf-presence ;;
    stress) stress_once "$1" mixed ;;
    stress-free) stress_once "$1" free ;;
    *) ci_die "unknown configuration '$2' (--help lists them)" ;;
  esac
}
read -r -a configs <<<"${CONFIGS:-mixed controlled free feedback-rf stress stress-free}"
echo "## Time to the first violation, seconds (median of $repeats, cap $cap s; runs that found it)"
echo
echo "fuzz targets from corpus/<adapter>/seeds: mixed = default (each input's mode); controlled / free ="
echo "LINFUZZ_FUZZ_MODE; feedback-rf / feedback-presence / feedback-both = controlled with that schedule"
echo "feedback (LINFUZZ_FUZZ_SCHED_FEEDBACK=rf, rf-presence, both; off otherwise); stress = linfuzz stress"
echo "(mixed), stress-free = --mode free."
echo
printf '| %-28s |' adapter
for c in "${configs[@]}"; do printf ' %-16s |' "$c"; done
printf ' %-13s |\n' "free/controlled"
printf '|%s|' "------------------------------"
for c in "${configs[@]}"; do printf '%s|' "------------------"; done
printf '%s|\n' "---------------"
for a in $buggy; do
  printf '| %-28s |' "$a"
  for c in "${configs[@]}"; do : >"$tmp/times-$c"; done
  for ((i = 0; i < repeats; i++)); do
    for c in "${configs[@]}"; do one_run "$a" "$c" >>"$tmp/times-$c"; done
  done
  for c in "${configs[@]}"; do printf ' %-16s |' "$(ci_median_found "$cap" <"$tmp/times-$c")"; done
  ratio=-
  if [ -s "$tmp/times-free" ] && [ -s "$tmp/times-controlled" ]; then
    ratio=$(awk -v f="$(median_value <"$tmp/times-free")" -v c="$(median_value <"$tmp/times-controlled")" \
      'BEGIN{ if (c <= 0) c = 0.001; printf "%.1f", f / c }')
  fi
  printf ' %-13s |\n' "$ratio"
done
