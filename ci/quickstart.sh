#!/usr/bin/env bash
# The main job on defaults: installs what is missing, builds, and runs a short campaign over every bundled
# adapter, then prints a table (adapter, expected, runs, violation found, time to find it, saved history).
# Correct adapters must stay clean; known-buggy ones should be caught. Exit 1 if a correct adapter fails.
#
# Usage: ci/quickstart.sh [SECONDS_PER_ADAPTER]     (default 2; the whole run takes about a minute)
set -euo pipefail
cd "$(dirname "$0")/.."
per=${1:-2}
bash ci/build.sh build >/dev/null
LF=build/bin/linfuzz
out=corpus/quickstart
mkdir -p "$out"
echo "linfuzz quickstart: $per s per adapter, violations saved under $out/"
echo
printf '| %-26s | %-8s | %6s | %-9s | %8s | %s\n' adapter expected runs violation "to find" "saved history"
printf '|%s|%s|%s|%s|%s|%s\n' "----------------------------" "----------" "--------" "-----------" "----------" "---------------"
status=0
while read -r name type expected _; do
  log=$(mktemp)
  set +e
  "$LF" stress "$name" --seconds "$per" --out "$out" >"$log" 2>&1
  rc=$?
  set -e
  runs=$(grep -o '[0-9]* runs in' "$log" | tail -1 | awk '{print $1}' || true)
  secs=$(grep -o 'runs in [0-9.]*s' "$log" | tail -1 | awk '{print $3}' || true)
  saved=$(grep -o 'history written to .*' "$log" | tail -1 | sed 's/history written to //' || true)
  if [ "$rc" = 1 ]; then found=yes; else found=no; secs=-; fi
  [ "$rc" -gt 1 ] && found="error($rc)"
  printf '| %-26s | %-8s | %6s | %-9s | %8s | %s\n' "$name" "$expected" "${runs:-?}" "$found" "$secs" "${saved:--}"
  if [ "$expected" = yes ] && [ "$rc" != 0 ]; then status=1; fi
  rm -f "$log"
done < <("$LF" adapters)
echo
[ "$status" = 0 ] && echo "all correct adapters stayed clean" || echo "A CORRECT ADAPTER FAILED: see the table"
exit "$status"
