#!/usr/bin/env bash
# Measures `linfuzz minimize-test` over every committed controlled-mode entry (corpus/*/violations/*.lfz with
# meta schedule_mode: controlled): calls and history ops of the original test and of the minimized one, the
# minimized history's ops, re-runs and seconds. Prints a Markdown table (docs/fuzzing.md).
# Usage: ci/bench_minimize_test.sh [LINFUZZ_BIN] [SECONDS_PER_ENTRY]   (default build/bin/linfuzz, 10)
set -uo pipefail
cd "$(dirname "$0")/.."
source ci/lib.sh
ci_help "${1:-}"
LF=${1:-build/bin/linfuzz}
secs=${2:-10}
echo "| entry | threads | calls | history ops | minimized history | runs | seconds |"
echo "| --- | --- | --- | --- | --- | --- | --- |"
for e in corpus/*/violations/*.lfz; do
  "$LF" show --meta "$e" 2>/dev/null | grep -qx "schedule_mode: controlled" || continue
  adapter=$(basename "$(dirname "$(dirname "$e")")")
  out=$("$LF" minimize-test -q --seconds "$secs" "$e" 2>&1)
  re='test ([0-9]+) threads?, ([0-9]+) calls -> ([0-9]+) threads?, ([0-9]+) calls \(history ([0-9]+) -> ([0-9]+) ops\); ([0-9]+) runs, ([0-9.]+) s(, stopped by a budget)?; minimized history ([0-9]+) ops'
  if [[ $out =~ $re ]]; then
    m=("${BASH_REMATCH[@]}")
    echo "| $adapter | ${m[1]} → ${m[3]} | ${m[2]} → ${m[4]} | ${m[5]} → ${m[6]} | ${m[10]} | ${m[7]} | ${m[8]}${m[9]:+ (budget)} |"
  else
    echo "| $adapter | not minimized: ${out#*: not minimized: } | | | | | |"
  fi
done
