#!/usr/bin/env bash
# Benchmark: the fuzz targets against `linfuzz stress` on the known-buggy adapters (not a test; docs/fuzzing.md,
# "Fuzz target against stress", quotes its figures). Per adapter and configuration, REPEATS runs each capped at
# CAP seconds, round-robin over the configurations (the machine's load drifts over all of them alike). Prints:
#  1. time to the first violation, median ("0.123 (3/3)": runs that found it; ">CAP": the median found none; a
#     fuzz run's first finding may also be a crash or a STUCK run of the code under test, its own entry):
#     stress = `linfuzz stress ADAPTER --seconds CAP` (wall clock, start to exit: it exits at once);
#     the fuzz configurations below (the harness's own time, start to detection);
#  2. the same fuzz runs timed by the wall clock from the process's start to its exit (the abort after the
#     entry, its minimization and its root causing), for the configurations in EXIT_CONFIGS;
#  3. executions and runs per second of each configuration (stress: runs/s; medians over the repeats).
# Fuzz configurations (CONFIGS; each from an empty corpus unless it says seeds):
#   empty      defaults                          seeds    defaults, corpus/<adapter>/seeds
#   nofresh    LINFUZZ_FUZZ_FRESH=0 (no fresh stress-shaped cases: the mutator as before)
#   freshN     LINFUZZ_FUZZ_FRESH=N (one mutation in N a fresh case; fresh1: every one, stress inside libFuzzer)
#   pct, choices, preempt, walk, pos, surw, aba    LINFUZZ_FUZZ_STRATEGY=...   (every run controlled, that strategy)
#   sc         LINFUZZ_MEMORY_MODEL=sc            controlled   LINFUZZ_FUZZ_MODE=controlled
#   rf         LINFUZZ_FUZZ_SCHED_FEEDBACK=rf     both         LINFUZZ_FUZZ_SCHED_FEEDBACK=both
#   switch     LINFUZZ_FUZZ_SCHED_FEEDBACK=switch rf-switch    LINFUZZ_FUZZ_SCHED_FEEDBACK=rf-switch
#   signal     LINFUZZ_FUZZ_SIGNAL=1
#   noshort    LINFUZZ_FUZZ_FRESH_SHORT=0 (no short fresh cases)
#   anycpu     LINFUZZ_ONE_CPU=0 (a controlled run's workers on any CPU, as before one_cpu.h)
#   before     the defaults of another build: BEFORE_BUILD_DIR/bin/fuzz_<adapter> (e.g. a copy of an older build)
#
# Usage: ci/bench_fuzz_vs_stress.sh [CAP_SECONDS [REPEATS]]   (defaults 30, 3)
#        ADAPTERS="k4_reread_cas_register ws_deque_take_no_fence" CONFIGS="stress empty seeds" \
#        EXIT_CONFIGS="empty" BEFORE_BUILD_DIR=dir LINFUZZ_BUILD_DIR=build ci/bench_fuzz_vs_stress.sh 10 3
set -euo pipefail
cd "$(dirname "$0")/.."
source ci/lib.sh
ci_help "$@"
[ $# -le 2 ] || ci_die "unexpected argument '$3' (--help says what it takes)"
cap=${1:-30} repeats=${2:-3}
ci_count CAP_SECONDS "$cap"
ci_count REPEATS "$repeats"
bdir=${LINFUZZ_BUILD_DIR:-build}
ci_use_build "$bdir" fuzz_treiber_aba
LF=$bdir/bin/linfuzz
read -r -a configs <<<"${CONFIGS:-stress empty seeds nofresh fresh1 pct choices preempt walk sc rf signal}"
read -r -a exit_configs <<<"${EXIT_CONFIGS:-empty}"
for c in "${configs[@]}"; do
  case $c in
    stress | empty | seeds | nofresh | fresh[1-9] | fresh[1-9][0-9] | pct | choices | preempt | walk | pos | surw | aba) ;;
    sc | controlled | rf | both | switch | rf-switch | signal | noshort | anycpu) ;;
    before) [ -n "${BEFORE_BUILD_DIR:-}" ] || ci_die "config 'before' needs BEFORE_BUILD_DIR" ;;
    *) ci_die "unknown config '$c' (--help lists them)" ;;
  esac
done
progress_start "$CI_SCRIPT"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export LINFUZZ_VIOLATIONS_DIR=$tmp/violations LINFUZZ_KEEP_DUPLICATES=0

now_ns() { date +%s%N; }
# One fuzz run. Args: binary corpus(seeds|empty) adapter env...; prints "DETECT WALL EXEC/S RUNS/S" (inf when
# not found; the rates at detection, or over the whole capped run).
fuzz_once() {
  local bin=$1 corpus=$2 a=$3 t0 t1 line det execs runs secs
  shift 3
  local dirs=()
  [ "$corpus" = seeds ] && dirs+=("corpus/$a/seeds")
  rm -rf "$tmp/run" && mkdir -p "$tmp/run/corpus"
  t0=$(now_ns)
  env "$@" LINFUZZ_FUZZ_SECONDS="$cap" "$bin" -max_total_time=$((cap + 10)) -timeout=60 \
    -artifact_prefix="$tmp/run/" "$tmp/run/corpus" ${dirs[@]+"${dirs[@]}"} >"$tmp/run/log" 2>&1 || true
  t1=$(now_ns)
  # the first finding: a violation, or a crash or STUCK run of the code under test (its own entry)
  line=$(grep -m1 -o -E 'linfuzz-fuzz: (violation|crash|stuck) adapter=.* seconds=.*' "$tmp/run/log" || true)
  if [ -n "$line" ]; then
    det=$(sed -n 's/.* seconds=\([0-9.]*\) .*/\1/p' <<<"$line")
    secs=$det
  else
    line=$(grep -o 'linfuzz-fuzz: summary .*' "$tmp/run/log" | tail -1 || true)
    det=inf secs=$cap
  fi
  execs=$(sed -n 's/.* executions=\([0-9]*\) .*/\1/p' <<<"$line")
  runs=$(sed -n 's/.* runs=\([0-9]*\) .*/\1/p' <<<"$line")
  awk -v d="$det" -v w=$((t1 - t0)) -v e="${execs:-0}" -v r="${runs:-0}" -v s="$secs" -v found="$([ "$det" = inf ] && echo 0 || echo 1)" \
    'BEGIN { s = s > 0.001 ? s : 0.001; printf "%s %s %.0f %.0f\n", d, found ? sprintf("%.3f", w / 1e9) : "inf", e / s, r / s }'
}
stress_once() {
  local a=$1 t0 t1 rc=0 runs
  mkdir -p "$tmp/stress"
  t0=$(now_ns)
  # not -q: its summary line (the runs) is printed even when nothing is found
  "$LF" stress "$a" --seconds "$cap" --out "$tmp/stress" >/dev/null 2>"$tmp/stress/log" || rc=$?
  t1=$(now_ns)
  runs=$(sed -n 's/.*: \([0-9]*\) runs in .*/\1/p' "$tmp/stress/log" | tail -1)
  # found: a violation (1), a serial nondeterminism (3) or a STUCK run (5), as the fuzz runs count theirs
  awk -v w=$((t1 - t0)) -v r="${runs:-0}" -v found=$(case $rc in 1 | 3 | 5) echo 1 ;; *) echo 0 ;; esac) \
    'BEGIN { s = w / 1e9; printf "%s %s - %.0f\n", found ? sprintf("%.3f", s) : "inf", found ? sprintf("%.3f", s) : "inf", r / s }'
}
one_run() { # ADAPTER CONFIG
  local a=$1 bin=$bdir/bin/fuzz_$1
  case $2 in
    stress) stress_once "$a" ;;
    empty) fuzz_once "$bin" empty "$a" ;;
    seeds) fuzz_once "$bin" seeds "$a" ;;
    nofresh) fuzz_once "$bin" empty "$a" LINFUZZ_FUZZ_FRESH=0 ;;
    fresh*) fuzz_once "$bin" empty "$a" LINFUZZ_FUZZ_FRESH="${2#fresh}" ;;
    pct | choices | preempt | walk | pos | surw | aba) fuzz_once "$bin" empty "$a" LINFUZZ_FUZZ_STRATEGY="$2" ;;
    sc) fuzz_once "$bin" empty "$a" LINFUZZ_MEMORY_MODEL=sc ;;
    anycpu) fuzz_once "$bin" empty "$a" LINFUZZ_ONE_CPU=0 ;;
    noshort) fuzz_once "$bin" empty "$a" LINFUZZ_FUZZ_FRESH_SHORT=0 ;;
    controlled) fuzz_once "$bin" empty "$a" LINFUZZ_FUZZ_MODE=controlled ;;
    rf | both | switch | rf-switch) fuzz_once "$bin" empty "$a" LINFUZZ_FUZZ_SCHED_FEEDBACK="$2" ;;
    signal) fuzz_once "$bin" empty "$a" LINFUZZ_FUZZ_SIGNAL=1 ;;
    before) fuzz_once "$BEFORE_BUILD_DIR/bin/fuzz_$a" empty "$a" ;;
  esac
}
# median of column COL of FILE (times: ci_median_found; rates: plain median)
med_time() { awk -v c="$2" '{print $c}' "$1" | ci_median_found "$cap"; }
med_rate() { awk -v c="$2" '$c != "-" {print $c}' "$1" | median; }

buggy=${ADAPTERS:-$("$LF" adapters | awk '$3 == "no" {print $1}')}
out_t=$tmp/table-time out_w=$tmp/table-wall out_r=$tmp/table-rate
: >"$out_t"
: >"$out_w"
: >"$out_r"
for a in $buggy; do
  [ -x "$bdir/bin/fuzz_$a" ] || continue
  for c in "${configs[@]}"; do : >"$tmp/res-$c"; done
  for ((i = 0; i < repeats; i++)); do
    for c in "${configs[@]}"; do
      progress "$a, round $((i + 1)) of $repeats, $c"
      one_run "$a" "$c" >>"$tmp/res-$c"
    done
  done
  progress_end
  {
    printf '| %-27s |' "$a"
    for c in "${configs[@]}"; do printf ' %-13s |' "$(med_time "$tmp/res-$c" 1)"; done
    echo
  } >>"$out_t"
  {
    printf '| %-27s |' "$a"
    for c in stress "${exit_configs[@]}"; do
      [ -f "$tmp/res-$c" ] && printf ' %-13s |' "$(med_time "$tmp/res-$c" 2)" || printf ' %-13s |' -
    done
    echo
  } >>"$out_w"
  {
    printf '| %-27s |' "$a"
    for c in "${configs[@]}"; do
      if [ "$c" = stress ]; then printf ' %13s |' "- / $(med_rate "$tmp/res-$c" 4)"
      else printf ' %13s |' "$(med_rate "$tmp/res-$c" 3) / $(med_rate "$tmp/res-$c" 4)"; fi
    done
    echo
  } >>"$out_r"
done
header() { # COLUMNS...
  printf '| %-27s |' adapter
  for c in "$@"; do printf ' %-13s |' "$c"; done
  echo
  printf '|%s|' "-----------------------------"
  for c in "$@"; do printf '%s|' "---------------"; done
  echo
}
echo "## Time to the first violation, seconds (median of $repeats, cap $cap s; runs that found it), $(nproc) cores"
echo
header "${configs[@]}"
cat "$out_t"
echo
echo "## Wall clock from the start to the exit (fuzz: after the entry, its minimization and root causing)"
echo
header stress "${exit_configs[@]}"
cat "$out_w"
echo
echo "## Executions / runs per second (medians; stress: runs only)"
echo
header "${configs[@]}"
cat "$out_r"
