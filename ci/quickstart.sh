#!/usr/bin/env bash
# The main job on defaults: installs what is missing, builds (its progress on one line of stderr), and runs a
# short libFuzzer campaign over every bundled adapter (BUILD/bin/fuzz_<adapter>, starting from
# corpus/<adapter>/seeds), then prints a table: adapter, expected, executions, violations found, time to the
# first one, the saved entry. Correct adapters must stay clean; known-buggy ones should be caught. Each
# violation's first occurrence is minimized and saved under OUT/violations/<adapter>/ (one entry per bucket);
# `linfuzz show ENTRY` explains it, `linfuzz repro ENTRY` replays it. Nothing is written into the source tree.
# While it runs, a progress line on stderr says which adapter is being fuzzed and what was found so far.
# A run in which an operation never returns is STUCK (the violations column says so; its entry is saved too;
# blocking structures get balanced runs, so that is a bug).
# The targets are the AddressSanitizer + UBSan build's by default, so that a memory error of the code under
# test (a use after free of a node another thread still reads) is caught and saved as a CRASH entry too (the
# violations column says "crash").
# Exit 1 only if a correct adapter produced a violation (or crashed, or got stuck); 2 bad usage.
#
# Usage: ci/quickstart.sh [--out DIR] [--build DIR] [-q] [SECONDS_PER_ADAPTER]
#   SECONDS_PER_ADAPTER  default 1.5 (fractions allowed); the whole run takes about a minute
#   --out DIR            entries and logs (default: a new temporary directory, printed)
#   --build DIR          the build (default: $LINFUZZ_BUILD_DIR-asan or build-asan, with -DLINFUZZ_SANITIZE=ON;
#                        a DIR of your own is built with ci/build.sh as it is)
#   -q                   no progress line
set -euo pipefail
cd "$(dirname "$0")/.."
source ci/lib.sh
ci_help "$@"
per=1.5 bdir=${LINFUZZ_BUILD_DIR:-build}-asan build_args=(-DLINFUZZ_SANITIZE=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo) out=""
while [ $# -gt 0 ]; do
  case $1 in
    --out) [ $# -ge 2 ] || ci_die "--out needs a directory"; out=$2; shift ;;
    --build) [ $# -ge 2 ] || ci_die "--build needs a directory"; bdir=$2 build_args=(); shift ;;
    -q | --quiet) progress_quiet ;;
    -*) ci_die "unknown option '$1' (--help lists them)" ;;
    *) ci_seconds SECONDS_PER_ADAPTER "$1"; per=$1 ;;
  esac
  shift
done
ci_build_dir "$bdir"
bash ci/build.sh "$bdir" "${build_args[@]}"
LF=$bdir/bin/linfuzz
out=${out:-$(mktemp -d "${TMPDIR:-/tmp}/linfuzz-quickstart.XXXXXX")}
mkdir -p "$out/violations" "$out/logs" "$out/work" || ci_die "cannot create $out"
out=$(cd "$out" && pwd)
trap 'rm -rf "$out/work"' EXIT # the targets' scratch corpora; entries and logs stay
echo "linfuzz quickstart: libFuzzer, $per s per adapter; violations are saved under $out/violations/<adapter>/"
echo
printf '| %-26s | %-8s | %10s | %10s | %11s | %s\n' adapter expected executions violations "first after" "saved entry"
printf '|%s|%s|%s|%s|%s|%s\n' "----------------------------" "----------" "------------" "------------" \
  "-------------" "-------------"
status=0 done_n=0 found_n=0 failed_n=0
n=$("$LF" adapters | wc -l)
start=$(date +%s)
progress_start "$CI_SCRIPT"
while read -r name _ expected _; do
  target=$bdir/bin/fuzz_$name
  if [ ! -x "$target" ]; then
    progress_end
    printf '| %-26s | %-8s | %10s | %10s | %11s | %s\n' "$name" "$expected" - - - "no fuzz target (clang needed)"
    continue
  fi
  log=$out/logs/fuzz_$name.log
  mkdir -p "$out/work/$name"
  # LINFUZZ_FUZZ_CONTINUE: count every violation within the time instead of stopping at the first one.
  # LINFUZZ_FUZZ_SECONDS: the time budget to the fraction of a second (-max_total_time is a backstop).
  LINFUZZ_VIOLATIONS_DIR=$out/violations/$name LINFUZZ_FUZZ_CONTINUE=1 LINFUZZ_FUZZ_SECONDS="$per" "$target" \
    -max_total_time=$(( ${per%.*} + 5 )) -timeout=20 -artifact_prefix="$out/logs/$name-" \
    "$out/work/$name" "corpus/$name/seeds" >"$log" 2>&1 &
  pid=$!
  while kill -0 "$pid" 2>/dev/null; do
    progress "$done_n of $n adapters done, $found_n with violations, $failed_n correct ones failed; fuzzing $name"
    sleep 0.1
  done
  rc=0
  wait "$pid" || rc=$?
  done_n=$((done_n + 1))
  summary=$(grep -o 'linfuzz-fuzz: summary .*' "$log" | tail -1 || true)
  field() { sed -n "s/.* $1=\([^ ]*\).*/\1/p" <<<"$summary"; }
  execs=$(field executions) found=$(field violations) first=$(field first) entry=$(field entry)
  stuck=$(grep -o 'linfuzz-fuzz: stuck .*' "$log" | tail -1 || true)
  crash=$(grep -o 'linfuzz-fuzz: crash .*' "$log" | tail -1 || true)
  if [ -n "$crash" ]; then
    # the code under test crashed (a memory error): the target saved a CRASH entry and died
    summary=$crash
    execs=$(field executions) first=$(field seconds) entry=$(field entry) found=crash
    found_n=$((found_n + 1))
    [ "$expected" = yes ] && status=1 failed_n=$((failed_n + 1))
  elif [ -n "$stuck" ]; then
    # an operation never returned: the watchdog saved a STUCK entry and ended the target
    summary=$stuck
    execs=$(field executions) first=$(field seconds) entry=$(field entry) found=stuck
    found_n=$((found_n + 1))
    [ "$expected" = yes ] && status=1 failed_n=$((failed_n + 1))
  elif [ "$rc" != 0 ] || [ -z "$summary" ]; then
    # Not a linearizability violation: a crash, a sanitizer report or a timeout (the log says which).
    found="error($rc)"
    entry="log: $log"
    [ "$expected" = yes ] && status=1 failed_n=$((failed_n + 1))
  elif [ "$found" != 0 ]; then
    found_n=$((found_n + 1))
    [ "$expected" = yes ] && status=1 failed_n=$((failed_n + 1))
  fi
  [ "$first" = - ] || first="${first}s"
  progress_end
  printf '| %-26s | %-8s | %10s | %10s | %11s | %s\n' "$name" "$expected" "${execs:--}" "${found:--}" "${first:--}" \
    "${entry:--}"
done < <("$LF" adapters)
echo
echo "$(( $(date +%s) - start )) s in all; entries and logs in $out."
echo "Explain an entry: $LF show ENTRY; replay it: $LF repro ENTRY"
[ "$status" = 0 ] && echo "all correct adapters stayed clean" || echo "A CORRECT ADAPTER FAILED: see the table"
exit "$status"
