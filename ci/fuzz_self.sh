#!/usr/bin/env bash
# Fuzzes linfuzz's own code for a short budget: the text parser, the .lfz decoder and the differential target
# of the checking engines (tests/fuzz/fuzz_parse_text.c, fuzz_parse_lfz.c, fuzz_check_diff.c). Starts from the
# seeds in corpus/self/<target>/ and fails on any crash, hang or engine disagreement (the reproducer is written to
# the output directory and printed). A progress line on stderr says which target runs and its executions.
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
status=0 k=0
for target in parse_text parse_lfz check_diff; do
  k=$((k + 1))
  work=$(mktemp -d)
  cp corpus/self/$target/* "$work"/
  log=$OUT_DIR/$target.log
  "$BUILD/bin/fuzz_$target" -max_total_time="$secs" -timeout=20 -rss_limit_mb=2048 -print_final_stats=1 \
    -artifact_prefix="$OUT_DIR/$target-" "$work" >"$log" 2>&1 &
  pid=$!
  progress_start "$CI_SCRIPT"
  while kill -0 "$pid" 2>/dev/null; do
    progress_due && progress "fuzz_$target ($k of 3, $secs s each): $(tail -c 2000 "$log" 2>/dev/null |
      grep -ao '^#[0-9]*' | tail -1 | tr -d '#') executions"
    sleep 0.2
  done
  rc=0
  wait "$pid" || rc=$?
  progress_end
  runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || true)
  if [ "$rc" = 0 ]; then
    echo "fuzz_$target: ${runs:-?} executions in ${secs}s, no crash"
  else
    status=1
    echo "fuzz_$target: FAILED (exit $rc); reproducer and log in $OUT_DIR:"
    grep -E 'fuzz_|ERROR|SUMMARY|Test unit written' "$log" | head -20
  fi
  rm -rf "$work"
done
exit "$status"
