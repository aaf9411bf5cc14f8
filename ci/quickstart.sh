#!/usr/bin/env bash
# The main job on defaults: installs what is missing, builds, and runs a short libFuzzer campaign over every
# bundled adapter (build/bin/fuzz_<adapter>, starting from corpus/<adapter>/seeds), then prints a table:
# adapter, expected, executions, violations found, time to the first one, the saved corpus entry.
# Correct adapters must stay clean; known-buggy ones should be caught. Each violation's first occurrence is
# minimized and saved under corpus/<adapter>/violations/ (one entry per bucket: a bug found again is not
# saved twice); `build/bin/linfuzz show ENTRY` explains it, `build/bin/linfuzz repro ENTRY` replays it.
# A run in which an operation never returns is STUCK (the violations column says so; the entry is saved too).
# Exit 1 only if a correct adapter produced a violation (or crashed, or got stuck).
#
# Usage: ci/quickstart.sh [SECONDS_PER_ADAPTER]     (default 1.5, fractions allowed; the whole run takes about a minute)
#        LINFUZZ_BUILD_DIR=dir ci/quickstart.sh        (build elsewhere than build/)
set -euo pipefail
cd "$(dirname "$0")/.."
per=${1:-1.5}
bdir=${LINFUZZ_BUILD_DIR:-build}
bash ci/build.sh "$bdir" >/dev/null
LF=$bdir/bin/linfuzz
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
echo "linfuzz quickstart: libFuzzer, $per s per adapter; violations are saved under corpus/<adapter>/violations/"
echo
printf '| %-26s | %-8s | %10s | %10s | %11s | %s\n' adapter expected executions violations "first after" "saved entry"
printf '|%s|%s|%s|%s|%s|%s\n' "----------------------------" "----------" "------------" "------------" \
  "-------------" "-------------"
status=0
start=$(date +%s)
while read -r name type expected _; do
  target=$bdir/bin/fuzz_$name
  if [ ! -x "$target" ]; then
    printf '| %-26s | %-8s | %10s | %10s | %11s | %s\n' "$name" "$expected" - - - "no fuzz target (clang needed)"
    continue
  fi
  mkdir -p "$work/$name"
  set +e
  # LINFUZZ_FUZZ_CONTINUE: count every violation within the time instead of stopping at the first one.
  # LINFUZZ_FUZZ_SECONDS: the time budget to the fraction of a second (-max_total_time is a backstop).
  # A blocking structure's runs are balanced (the default): a STUCK run, which ends the target, is a bug.
  LINFUZZ_FUZZ_CONTINUE=1 LINFUZZ_FUZZ_SECONDS="$per" "$target" -max_total_time=$(( ${per%.*} + 5 )) -timeout=20 \
    -artifact_prefix="$work/$name-" \
    "$work/$name" "corpus/$name/seeds" >"$work/$name.log" 2>&1
  rc=$?
  set -e
  summary=$(grep -o 'linfuzz-fuzz: summary .*' "$work/$name.log" | tail -1 || true)
  field() { sed -n "s/.* $1=\([^ ]*\).*/\1/p" <<<"$summary"; }
  execs=$(field executions) found=$(field violations) first=$(field first) entry=$(field entry)
  stuck=$(grep -o 'linfuzz-fuzz: stuck .*' "$work/$name.log" | tail -1 || true)
  if [ -n "$stuck" ]; then
    # an operation never returned: the watchdog saved a STUCK entry and ended the target
    summary=$stuck
    execs=$(field executions) first=$(field seconds) entry=$(field entry) found=stuck
    [ "$expected" = yes ] && status=1
  elif [ "$rc" != 0 ] || [ -z "$summary" ]; then
    # Not a linearizability violation: a crash, a sanitizer report or a timeout (the log says which).
    found="error($rc)"
    mkdir -p corpus/quickstart && cp "$work/$name.log" "corpus/quickstart/$name.log"
    entry="log: corpus/quickstart/$name.log"
    [ "$expected" = yes ] && status=1
  elif [ "$found" != 0 ] && [ "$expected" = yes ]; then
    status=1
  fi
  [ "$first" = - ] || first="${first}s"
  entry=${entry#"$PWD"/}
  printf '| %-26s | %-8s | %10s | %10s | %11s | %s\n' "$name" "$expected" "${execs:--}" "${found:--}" "${first:--}" \
    "${entry:--}"
done < <("$LF" adapters)
echo
echo "$(( $(date +%s) - start )) s in all. Explain an entry: $LF show ENTRY; replay it: $LF repro ENTRY"
[ "$status" = 0 ] && echo "all correct adapters stayed clean" || echo "A CORRECT ADAPTER FAILED: see the table"
exit "$status"
