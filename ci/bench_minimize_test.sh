#!/usr/bin/env bash
# Measures `linfuzz minimize-test` over every committed controlled-mode entry (corpus/*/violations/*.lfz with
# meta schedule_mode: controlled): calls and history ops of the original test and of the minimized one, the
# minimized history's ops, re-runs and seconds. Prints a Markdown table (docs/fuzzing.md).
# With --strategies: per schedule strategy instead (build/bin/linfuzz-bench-tmin-strategies): each committed
# controlled entry's test is found again under PCT, CHOICES, PREEMPT and WALK schedules and minimized, so that
# strategies whose schedules carry no positions over (a random walk) are measured too.
# Usage: ci/bench_minimize_test.sh [LINFUZZ_BIN] [SECONDS_PER_ENTRY]   (default build/bin/linfuzz, 10)
#        ci/bench_minimize_test.sh --strategies [SECONDS_PER_ENTRY]    (default 5; needs the build in build/)
set -uo pipefail
cd "$(dirname "$0")/.."
source ci/lib.sh
ci_help "${1:-}"
if [ "${1:-}" = --strategies ]; then
  entries=()
  for e in corpus/*/violations/*.lfz; do
    build/bin/linfuzz show --meta "$e" 2>/dev/null | grep -qx "schedule_mode: controlled" || continue
    build/bin/linfuzz show --meta "$e" 2>/dev/null | grep -qx "finding: \(stuck\|crash\)" && continue
    entries+=("$e")
  done
  ci_use_build build linfuzz-bench-tmin-strategies
  exec build/bin/linfuzz-bench-tmin-strategies "${2:-5}" "${entries[@]}"
fi
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
