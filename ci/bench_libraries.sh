#!/usr/bin/env bash
# Benchmark of the adapters over real libraries (not a test; docs/scheduling.md and docs/findings.md quote its
# figures). Prints two tables:
#  1. executions and runs per second of every real-library fuzz target (ck_*, urcu_*, critnib_*, dpdk_*), from
#     its seeds, continuing after violations (LINFUZZ_FUZZ_CONTINUE);
#  2. time to the first violation of every known-buggy real-library adapter from an empty corpus, median of
#     REPEATS runs (libFuzzer seeds 1..REPEATS) each capped at CAP seconds (">CAP" = not found; the runs that
#     found it in brackets): mixed mode (the default), controlled only, free only, and controlled with the
#     scheduling points at calls into uninstrumented libraries turned off (LINFUZZ_LIBRARY_CALL_POINTS=0).
# Times are the harness's own (start to detection).
#
# Usage: ci/bench_libraries.sh [CAP_SECONDS [REPEATS [EXEC_SECONDS]]]   (defaults 20, 3, 3; EXEC_SECONDS 0 skips 1)
#        LINFUZZ_BUILD_DIR=dir ADAPTERS="critnib_map_get_then_insert" ci/bench_libraries.sh
set -euo pipefail
cd "$(dirname "$0")/.."
source ci/lib.sh
ci_help "$@"
[ $# -le 3 ] || ci_die "unexpected argument '$4' (--help says what it takes)"
cap=${1:-20} repeats=${2:-3} exec_secs=${3:-3}
ci_count CAP_SECONDS "$cap"
ci_count REPEATS "$repeats"
[ "$exec_secs" = 0 ] || ci_count EXEC_SECONDS "$exec_secs"
bdir=${LINFUZZ_BUILD_DIR:-build}
ci_use_build "$bdir" linfuzz-fuzz
progress_start "$CI_SCRIPT"
LF=$bdir/bin/linfuzz
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export LINFUZZ_VIOLATIONS_DIR=$tmp/violations LINFUZZ_KEEP_DUPLICATES=0
library='^(ck_|urcu_|critnib_|dpdk_)'

# ---- 1. executions per second ----
if [ "$exec_secs" != 0 ]; then
  echo "## Real-library adapters: executions per second ($exec_secs s per target, from corpus/<adapter>/seeds, $(nproc) cores)"
  echo
  printf '| %-34s | %-8s | %9s | %9s | %10s |\n' target expected "exec/s" "runs/s" violations
  printf '|%s|%s|%s|%s|%s|\n' "------------------------------------" "----------" "-----------" "-----------" "------------"
  while read -r name _ expected _; do
    [[ $name =~ $library ]] && [ -x "$bdir/bin/fuzz_$name" ] || continue
    progress "executions per second: fuzz_$name"
    rm -rf "$tmp/work" && mkdir -p "$tmp/work"
    seeds=corpus/$name/seeds
    [ -d "$seeds" ] || seeds=
    LINFUZZ_FUZZ_CONTINUE=1 LINFUZZ_FUZZ_SECONDS=$exec_secs "$bdir/bin/fuzz_$name" -max_total_time=$((exec_secs + 10)) \
      -artifact_prefix="$tmp/" "$tmp/work" $seeds >"$tmp/log" 2>&1 || true
    s=$(grep -o 'linfuzz-fuzz: summary .*' "$tmp/log" | tail -1)
    e=$(sed -n 's/.* executions=\([0-9]*\).*/\1/p' <<<"$s") r=$(sed -n 's/.* runs=\([0-9]*\).*/\1/p' <<<"$s")
    v=$(sed -n 's/.* violations=\([0-9]*\).*/\1/p' <<<"$s")
    progress_end
    printf '| %-34s | %-8s | %9s | %9s | %10s |\n' "fuzz_$name" "$expected" \
      "$(awk -v n="${e:-0}" -v t="$exec_secs" 'BEGIN{printf "%.0f", n/t}')" \
      "$(awk -v n="${r:-0}" -v t="$exec_secs" 'BEGIN{printf "%.0f", n/t}')" "${v:--}"
  done < <("$LF" adapters)
  echo
fi

# ---- 2. time to the first violation ----
# once ADAPTER SEED VAR=VALUE...: seconds to the first violation, or "inf"
once() {
  local a=$1 seed=$2
  shift 2
  rm -rf "$tmp/work" "$tmp/violations" && mkdir -p "$tmp/work"
  env "$@" LINFUZZ_FUZZ_SECONDS="$cap" "$bdir/bin/fuzz_$a" -seed="$seed" -max_total_time=$((cap + 10)) \
    -artifact_prefix="$tmp/" "$tmp/work" >"$tmp/log" 2>&1 || true
  local t
  t=$(sed -n 's/.*linfuzz-fuzz: violation adapter=[^ ]* seconds=\([0-9.]*\).*/\1/p' "$tmp/log" | head -1)
  echo "${t:-inf}"
}
# cell TIMES...: "median (found/all)"
cell() {
  local found=0 n=$#
  for t in "$@"; do [ "$t" != inf ] && found=$((found + 1)); done
  if [ "$found" = 0 ]; then echo ">$cap (0/$n)"; return; fi
  local m
  m=$(printf '%s\n' "$@" | sed "s/inf/999999/" | median)
  awk -v m="$m" -v c="$cap" -v f="$found" -v n="$n" 'BEGIN{ if (m >= 999999) printf ">%s (%d/%d)", c, f, n; else printf "%.2f s (%d/%d)", m, f, n }'
}
configs=(mixed controlled free controlled-nocallpoints)
echo "## Known-buggy real-library adapters: time to the first violation from an empty corpus"
echo "(median of $repeats runs, cap $cap s; in brackets the runs that found it)"
echo
printf '| %-30s | %-16s | %-16s | %-16s | %-24s |\n' adapter mixed controlled free "controlled, no call points"
printf '|%s|%s|%s|%s|%s|\n' "--------------------------------" "------------------" "------------------" "------------------" "--------------------------"
while read -r name _ expected _; do
  [[ $name =~ $library ]] && [ "$expected" = no ] && [ -x "$bdir/bin/fuzz_$name" ] || continue
  [ -z "${ADAPTERS:-}" ] || [[ " $ADAPTERS " == *" $name "* ]] || continue
  declare -A times=()
  for seed in $(seq "$repeats"); do # round-robin over the configs: the machine's load drifts over all alike
    for c in "${configs[@]}"; do
      progress "time to the first violation: $name, $c, seed $seed"
      case $c in
        mixed) t=$(once "$name" "$seed") ;;
        controlled) t=$(once "$name" "$seed" LINFUZZ_FUZZ_MODE=controlled) ;;
        free) t=$(once "$name" "$seed" LINFUZZ_FUZZ_MODE=free) ;;
        controlled-nocallpoints) t=$(once "$name" "$seed" LINFUZZ_FUZZ_MODE=controlled LINFUZZ_LIBRARY_CALL_POINTS=0) ;;
      esac
      times[$c]="${times[$c]:-} $t"
    done
  done
  progress_end
  # shellcheck disable=SC2086
  printf '| %-30s | %-16s | %-16s | %-16s | %-24s |\n' "$name" "$(cell ${times[mixed]})" "$(cell ${times[controlled]})" \
    "$(cell ${times[free]})" "$(cell ${times[controlled-nocallpoints]})"
  unset times
done < <("$LF" adapters)
