#!/usr/bin/env bash
# Fuzzes linfuzz's own code for a short budget: the text parser, the .lfz decoder and the differential target
# of the checking engines (fuzz/targets/fuzz_parse_text.c, fuzz_parse_lfz.c, fuzz_check_diff.c). Starts from the
# seeds in corpus/self/<target>/ and fails on any crash, hang or engine disagreement (the reproducer is written to
# $OUT_DIR and printed).
# Usage: ci/fuzz_self.sh [SECONDS_PER_TARGET]   (default 20)   Env: BUILD (default build), OUT_DIR.
set -euo pipefail
cd "$(dirname "$0")/.."
secs=${1:-20}
BUILD=${BUILD:-build}
[ -x "$BUILD/bin/fuzz_parse_text" ] || bash ci/build.sh "$BUILD" >/dev/null
OUT_DIR=${OUT_DIR:-$(mktemp -d)}
status=0
for target in parse_text parse_lfz check_diff; do
  work=$(mktemp -d)
  cp corpus/self/$target/* "$work"/
  set +e
  "$BUILD/bin/fuzz_$target" -max_total_time="$secs" -timeout=20 -rss_limit_mb=2048 -print_final_stats=1 \
    -artifact_prefix="$OUT_DIR/$target-" "$work" >"$OUT_DIR/$target.log" 2>&1
  rc=$?
  set -e
  runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$OUT_DIR/$target.log" | grep -o '[0-9]*$' || true)
  if [ "$rc" = 0 ]; then
    echo "fuzz_$target: ${runs:-?} executions in ${secs}s, no crash"
  else
    status=1
    echo "fuzz_$target: FAILED (exit $rc); reproducer and log in $OUT_DIR:"
    grep -E 'fuzz_|ERROR|SUMMARY|Test unit written' "$OUT_DIR/$target.log" | head -20
  fi
  rm -rf "$work"
done
exit "$status"
