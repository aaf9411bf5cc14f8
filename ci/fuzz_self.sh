#!/usr/bin/env bash
# Fuzzes linfuzz's own code for a short budget: the text parser, the .lfz decoder and the differential target
# of the checking engines (tests/fuzz/fuzz_parse_text.c, fuzz_parse_lfz.c, fuzz_check_diff.c). Starts from the
# seeds in corpus/self/<target>/, the three side by side, and fails on any crash, hang or engine disagreement
# (the reproducer is written to the output directory and printed). A progress line on stderr gives the
# executions of each.
#
# Usage: ci/fuzz_self.sh [--build DIR] [--out DIR] [-q] [SECONDS_PER_TARGET]   (default 20)
#   --build DIR   the build (default $LINFUZZ_BUILD_DIR or build; built when it has no fuzz targets)
#   --out DIR     logs and reproducers (default: a new temporary directory)
#   -q            no progress line
set -euo pipefail
cd "$(dirname "$0")/.."
source ci/lib.sh
ci_help "$@"
secs=20 BUILD=${LINFUZZ_BUILD_DIR:-build} OUT_DIR=""
while [ $# -gt 0 ]; do
  case $1 in
    --build) [ $# -ge 2 ] || ci_die "--build needs a directory"; BUILD=$2; shift ;;
    --out) [ $# -ge 2 ] || ci_die "--out needs a directory"; OUT_DIR=$2; shift ;;
    -q | --quiet) progress_quiet ;;
    -*) ci_die "unknown option '$1' (--help lists them)" ;;
    *) ci_count SECONDS_PER_TARGET "$1"; secs=$1 ;;
  esac
  shift
done
ci_use_build "$BUILD" fuzz_parse_text
[ -x "$BUILD/bin/fuzz_parse_text" ] || ci_die "$BUILD has no fuzz targets (they need clang's libFuzzer)"
OUT_DIR=${OUT_DIR:-$(mktemp -d "${TMPDIR:-/tmp}/linfuzz-fuzz-self.XXXXXX")}
mkdir -p "$OUT_DIR" || ci_die "cannot create $OUT_DIR"
# The three targets run side by side, each for SECONDS_PER_TARGET: on 2 cores each gets about two thirds of
# a core, and the stage takes a third of the time it took one target after the other (ci/test.sh).
targets=(parse_text parse_lfz check_diff)
pids=() works=()
for target in "${targets[@]}"; do
  work=$(mktemp -d)
  works+=("$work")
  cp corpus/self/$target/* "$work"/
  "$BUILD/bin/fuzz_$target" -max_total_time="$secs" -timeout=20 -rss_limit_mb=2048 -print_final_stats=1 \
    -artifact_prefix="$OUT_DIR/$target-" "$work" >"$OUT_DIR/$target.log" 2>&1 &
  pids+=($!)
done
# executions so far of one target, from its log's last status line
executions() { tail -c 2000 "$OUT_DIR/$1.log" 2>/dev/null | grep -ao '^#[0-9]*' | tail -1 | tr -d '#'; }
# whether one of them still runs
running() { local p; for p in "${pids[@]}"; do kill -0 "$p" 2>/dev/null && return 0; done; return 1; }
progress_start "$CI_SCRIPT"
while running; do
  if progress_due; then
    line=""
    for target in "${targets[@]}"; do line="$line fuzz_$target $(executions "$target")"; done
    progress "3 targets side by side, $secs s each: executions:$line"
  fi
  sleep 0.2
done
progress_end
status=0
for i in "${!targets[@]}"; do
  target=${targets[$i]} log=$OUT_DIR/${targets[$i]}.log rc=0
  wait "${pids[$i]}" || rc=$?
  runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || true)
  if [ "$rc" = 0 ]; then
    echo "fuzz_$target: ${runs:-?} executions in ${secs}s, no crash"
  else
    status=1
    echo "fuzz_$target: FAILED (exit $rc); reproducer and log in $OUT_DIR:"
    grep -E 'fuzz_|ERROR|SUMMARY|Test unit written' "$log" | head -20
  fi
  rm -rf "${works[$i]}"
done
exit "$status"
