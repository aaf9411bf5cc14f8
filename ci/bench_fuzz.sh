#!/usr/bin/env bash
# Benchmark of the libFuzzer targets (not a test; docs/fuzzing.md quotes its figures). Prints two tables:
#  1. executions per second of every fuzz target, from its seeds (LINFUZZ_FUZZ_CONTINUE, so that targets of
#     known-buggy adapters keep running after their first violation);
#  2. time to the first violation per known-buggy adapter, median of REPEATS runs each capped at CAP seconds
#     (">CAP" = not found; the count of runs that found it in brackets), for: plain `linfuzz stress`; the
#     fuzz target from its seeds; from an empty corpus on defaults, with the history signal
#     (LINFUZZ_FUZZ_SIGNAL=1), without the structured mutator; and from an empty corpus with schedule
#     perturbation off (LINFUZZ_FUZZ_PERTURB=0: only the OS's interleavings), without and with the signal
#     (CONFIGS may add noperturb-overlap, noperturb-witness, noperturb-nearmiss: one part of the signal).
#     The runs go round-robin over the configs, so that the machine's load drifts over all of them alike.
# Fuzz times are the harness's own (start to detection); stress times are wall clock (a few ms more).
#
# Usage: ci/bench_fuzz.sh [CAP_SECONDS [REPEATS [EXEC_SECONDS]]]   (defaults 10, 3, 3; EXEC_SECONDS 0 skips table 1)
#        LINFUZZ_BUILD_DIR=dir ADAPTERS="treiber_aba ms_queue_lost_tail" CONFIGS="noperturb noperturb-signal" \
#          ci/bench_fuzz.sh
set -euo pipefail
cd "$(dirname "$0")/.."
source ci/lib.sh
ci_help "$@"
[ $# -le 3 ] || ci_die "unexpected argument '$4' (--help says what it takes)"
cap=${1:-10} repeats=${2:-3} exec_secs=${3:-3}
ci_count CAP_SECONDS "$cap"
ci_count REPEATS "$repeats"
[ "$exec_secs" = 0 ] || ci_count EXEC_SECONDS "$exec_secs"
bdir=${LINFUZZ_BUILD_DIR:-build}
ci_use_build "$bdir" fuzz_treiber_aba
progress_start "$CI_SCRIPT"
LF=$bdir/bin/linfuzz
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export LINFUZZ_VIOLATIONS_DIR=$tmp/violations LINFUZZ_KEEP_DUPLICATES=0

# ---- 1. executions per second ----
if [ "$exec_secs" != 0 ]; then
echo "## Executions per second ($exec_secs s per target, from corpus/<adapter>/seeds, $(nproc) cores)"
echo
printf '| %-30s | %-8s | %9s | %9s | %10s |\n' target expected "exec/s" "runs/s" violations
printf '|%s|%s|%s|%s|%s|\n' "--------------------------------" "----------" "-----------" "-----------" "------------"
while read -r name _ expected _; do
  [ -x "$bdir/bin/fuzz_$name" ] || continue
  progress "executions per second: fuzz_$name"
  read -r e r v < <(ci_fuzz_rates "$bdir/bin/fuzz_$name" "$exec_secs" "$tmp/run" -- "corpus/$name/seeds")
  progress_end
  printf '| %-30s | %-8s | %9s | %9s | %10s |\n' "fuzz_$name" "$expected" "$e" "$r" "$v"
done < <("$LF" adapters)
echo
fi

# ---- 2. time to first violation ----
# One fuzz run: prints the seconds to the first violation, or "inf". Args: adapter corpus(seeds|empty) env...
fuzz_once() {
  local a=$1 corpus=$2
  shift 2
  local dirs=()
  [ "$corpus" = seeds ] && dirs+=("corpus/$a/seeds")
  ci_first_violation "$bdir/bin/fuzz_$a" "$cap" "$tmp/run" "$@" -- ${dirs[@]+"${dirs[@]}"}
}
stress_once() {
  local a=$1 t0 t1
  mkdir -p "$tmp/stress"
  t0=$(date +%s%N)
  local rc=0
  "$LF" stress "$a" --seconds "$cap" --out "$tmp/stress" -q >/dev/null 2>&1 || rc=$?
  t1=$(date +%s%N)
  if [ "$rc" = 1 ]; then awk -v d=$((t1 - t0)) 'BEGIN{printf "%.3f\n", d/1e9}'; else echo inf; fi
}

read -r -a configs <<<"${CONFIGS:-stress seeds empty signal nomutator noperturb noperturb-signal}"
echo "## Time to the first violation, seconds (median of $repeats, cap $cap s; runs that found it)"
echo
echo "columns: stress = linfuzz stress; seeds = fuzz target from corpus/<adapter>/seeds; empty = from an empty"
echo "corpus; signal = empty, LINFUZZ_FUZZ_SIGNAL=1; nomutator = empty, LINFUZZ_FUZZ_MUTATOR=0;"
echo "noperturb = empty, LINFUZZ_FUZZ_PERTURB=0; noperturb-signal = the same with the history signal;"
echo "noperturb-overlap / -witness / -nearmiss = with one part of the signal only"
echo
printf '| %-26s |' adapter
for c in "${configs[@]}"; do printf ' %-18s |' "$c"; done
echo
printf '|%s|' "----------------------------"
for c in "${configs[@]}"; do printf '%s|' "--------------------"; done
echo
buggy=${ADAPTERS:-$("$LF" adapters | awk '$3 == "no" {print $1}')}
one_run() { # ADAPTER CONFIG: seconds to the first violation, or inf
  case $2 in
    stress) stress_once "$1" ;;
    seeds) fuzz_once "$1" seeds ;;
    empty) fuzz_once "$1" empty ;;
    signal) fuzz_once "$1" empty LINFUZZ_FUZZ_SIGNAL=1 ;;
    nomutator) fuzz_once "$1" empty LINFUZZ_FUZZ_MUTATOR=0 ;;
    noperturb) fuzz_once "$1" empty LINFUZZ_FUZZ_PERTURB=0 ;;
    noperturb-signal) fuzz_once "$1" empty LINFUZZ_FUZZ_PERTURB=0 LINFUZZ_FUZZ_SIGNAL=1 ;;
    noperturb-overlap) fuzz_once "$1" empty LINFUZZ_FUZZ_PERTURB=0 LINFUZZ_FUZZ_SIGNAL=overlap ;;
    noperturb-witness) fuzz_once "$1" empty LINFUZZ_FUZZ_PERTURB=0 LINFUZZ_FUZZ_SIGNAL=witness ;;
    noperturb-nearmiss) fuzz_once "$1" empty LINFUZZ_FUZZ_PERTURB=0 LINFUZZ_FUZZ_SIGNAL=nearmiss ;;
    *) echo "unknown config $2" >&2; exit 2 ;;
  esac
}
for a in $buggy; do
  # Rounds over the configs, not config after config: the machine's load drifts (other jobs), and
  # interleaving spreads the drift over every column alike.
  for c in "${configs[@]}"; do : >"$tmp/times-$c"; done
  for ((i = 0; i < repeats; i++)); do
    for c in "${configs[@]}"; do
      progress "time to the first violation: $a, round $((i + 1)) of $repeats, $c"
      one_run "$a" "$c" >>"$tmp/times-$c"
    done
  done
  progress_end
  printf '| %-26s |' "$a" # the whole row at once: the progress line shares the terminal
  for c in "${configs[@]}"; do printf ' %-18s |' "$(ci_median_found "$cap" <"$tmp/times-$c")"; done
  echo
done
