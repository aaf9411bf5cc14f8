#!/usr/bin/env bash
# How often a free-mode finding gets its controlled twin (testcase/controlled_twin.h; docs/fuzzing.md): every
# known-buggy adapter's fuzz target runs in free mode only (LINFUZZ_FUZZ_MODE=free) from its seeds for
# SECONDS, continuing after violations and capturing up to 8 of them (the 1st, 2nd, 4th, ...); each captured free
# violation is searched for a controlled schedule of the same test that violates (up to 1000 schedules, 10 s).
# Prints a Markdown table per adapter (free findings captured, twins found, twins of the same shape, median
# schedules and seconds of the searches that found one) and the success rate over all of them. Adapters whose
# bug makes an op never return (STUCK, no violation) are left out.
#
# Usage: ci/bench_twin.sh [--build DIR] [SECONDS]   (default build, 5 s per adapter)
set -uo pipefail
cd "$(dirname "$0")/.."
source ci/lib.sh
ci_help "$@"
BUILD=${LINFUZZ_BUILD_DIR:-build} secs=5
while [ $# -gt 0 ]; do
  case $1 in
    --build) [ $# -ge 2 ] || ci_die "--build needs a directory"; BUILD=$2; shift ;;
    -*) ci_die "unknown option '$1' (--help lists them)" ;;
    *) ci_seconds SECONDS "$1"; secs=$1 ;;
  esac
  shift
done
ci_use_build "$BUILD" linfuzz
[ -x "$BUILD/bin/linfuzz-fuzz" ] || ci_die "$BUILD has no fuzz targets (they need clang's libFuzzer)"
LF=$BUILD/bin/linfuzz
tmp=$(mktemp -d "${TMPDIR:-/tmp}/linfuzz-bench-twin.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
echo "| adapter | free findings | controlled twins | same shape | median schedules | median seconds |"
echo "| --- | --- | --- | --- | --- | --- |"
total=0 found=0 same=0
progress_start "$CI_SCRIPT"
for a in $("$LF" adapters | awk '$3 == "no" && $0 !~ /blocks:/ {print $1}'); do
  progress "fuzzing $a in free mode"
  mkdir -p "$tmp/$a"
  LINFUZZ_FUZZ_MODE=free LINFUZZ_FUZZ_CONTINUE=1 LINFUZZ_FUZZ_CAPTURE=8 LINFUZZ_FUZZ_SECONDS=$secs \
    LINFUZZ_VIOLATIONS_DIR=$tmp/$a/v LINFUZZ_KEEP_DUPLICATES=1 "$BUILD/bin/fuzz_$a" -seed=1 \
    -max_total_time=$(( ${secs%.*} + 120 )) -artifact_prefix="$tmp/$a/" "$tmp/$a" "corpus/$a/seeds" \
    >"$tmp/$a.log" 2>&1
  lines=$(grep -o 'linfuzz-fuzz: twin .*' "$tmp/$a.log")
  n=$(grep -c . <<<"$lines")
  [ -n "$lines" ] || n=0
  f=$(grep -c 'found=yes' <<<"$lines")
  s=$(grep -c 'same_shape=yes' <<<"$lines")
  sched=$(grep 'found=yes' <<<"$lines" | sed -n 's/.* schedules=\([0-9]*\) .*/\1/p' | median)
  sec=$(grep 'found=yes' <<<"$lines" | sed -n 's/.* seconds=\([0-9.]*\) .*/\1/p' | median)
  [ "$f" -gt 0 ] || sched=- sec=-
  progress_end
  if [ "$n" = 0 ]; then
    echo "| $a | 0 (no free violation in $secs s) | | | | |"
    continue
  fi
  echo "| $a | $n | $f | $s | ${sched:--} | ${sec:--} |"
  total=$((total + n)) found=$((found + f)) same=$((same + s))
done
progress_end
echo
awk -v t="$total" -v f="$found" -v s="$same" 'BEGIN { if (t) printf "controlled twins: %d of %d free findings (%.0f%%), %d of the same shape\n", f, t, 100 * f / t, s; else print "no free findings" }'
