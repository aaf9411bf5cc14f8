#!/usr/bin/env bash
# Benchmark (not a test): what the budgets of docs/budgets.md guarantee, measured.
#  1. Time from the deadline to the answer, per stage (engine), history type and size: linfuzz-bench-budgets
#     (bench/bench_budgets.c) checks generated histories with budgets spread over each stage's run and prints
#     the median and largest lateness over every run, and the floor (the largest of each budget's least
#     lateness: what the code takes, apart from waiting for a core on a loaded machine).
#  2. Peak memory per input byte and time to the answer of `linfuzz check`, `show`, `repro` and `triage` on
#     hostile files (the crafted .lfz files of tests/unit/test_read_budget.c: 15 M valid ops in 6 KB, junk
#     declaring 16 M ops in 2 KB, 1.3 M ops of junk within the decoding budget; 100 MB of junk named .lfz; a
#     FIFO fed endless zeros; symlinks to /dev/zero and /dev/urandom) and on ordinary ones (generated histories
#     of 10^6 ops, the committed entries), and `check --timeout` through the command line on 10^6 ops.
#  3. The promises of docs/security.md that take time or memory: how long a replay child outlives its parent
#     killed with SIGKILL (triage replaying an input of a correct adapter), and triage's reading of fuzzer
#     inputs (100 MB of junk named as an input, a FIFO nobody writes to, a symlink to /dev/zero).
# Usage: ci/bench_budgets.sh [BUILD_DIR [bench_budgets options: --sizes N,N --engines E,E --types T,T --reps R]]
#        (default build-bench, Release; SKIP_STAGES=1 skips part 1, SKIP_FILES=1 parts 2 and 3)
# Run it on a quiet machine: lateness is wall-clock time.
set -euo pipefail
cd "$(dirname "$0")/.."
source ci/lib.sh
ci_help "$@"
dir=build-bench
if [ $# -gt 0 ] && [[ $1 != -* ]]; then
  dir=$1
  shift
fi
ci_build_dir "$dir"
ci_build "$dir" --target=linfuzz-bench-budgets --target=linfuzz --target=test_read_budget -DCMAKE_BUILD_TYPE=Release
[ -x /usr/bin/time ] || ci_die "/usr/bin/time is needed for the peak memory (apt-get install time)"
LF=$dir/bin/linfuzz
echo "ci/bench_budgets.sh: $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)"

if [ "${SKIP_STAGES:-0}" != 1 ]; then
  echo
  echo "## Time from the deadline to the answer, per stage (ms)"
  echo
  "$dir/bin/linfuzz-bench-budgets" "$@"
fi

[ "${SKIP_FILES:-0}" = 1 ] && exit 0
W=$(mktemp -d)
writer=""
trap 'exec 3>&- 2>/dev/null; [ -n "$writer" ] && kill "$writer" 2>/dev/null; rm -rf "$W"' EXIT
"$dir/bin/test_read_budget" --write "$W" >/dev/null
truncate -s 100M "$W/junk-100m.lfz"
ln -s /dev/zero "$W/zero.lfz"
ln -s /dev/urandom "$W/urandom.lfz"
for t in queue counter; do "$LF" gen "$t" 1000000 --threads 8 -q -o "$W/$t-1m.lfz"; done
"$LF" gen stack 1000000 --threads 8 -q -o "$W/stack-1m.hist"
printf 'type counter\n0 1 2 inc\n' >"$W/one.hist"
entry=$(find corpus -name '*.lfz' -path '*violations*' | sort | head -1)

# One command: its exit status, wall ms and peak KB ("rc ms kb").
measure() {
  local rc=0
  /usr/bin/time -o "$W/time" -f '%e %M' timeout 120 "$@" >/dev/null 2>&1 || rc=$?
  tail -1 "$W/time" | awk -v rc="$rc" '{ printf "%s %.0f %s\n", rc, $1 * 1000, $2 }'
}
base=$(measure "$LF" check -q "$W/one.hist" | cut -d' ' -f3)

echo
echo "## Reading: peak memory per input byte (peak RSS above a one-op check, $base KB)"
echo
echo "| file | bytes | command | exit | ms | peak KB | above base KB | bytes of memory per input byte |"
echo "|---|---:|---|---:|---:|---:|---:|---:|"
row() { # FILE COMMAND...
  local f=$1 bytes r rc ms kb
  shift
  bytes=0
  [ -f "$f" ] && bytes=$(stat -L -c %s "$f")
  read -r rc ms kb < <(measure "$@")
  awk -v f="$(basename "$f")" -v b="$bytes" -v c="$*" -v rc="$rc" -v ms="$ms" -v kb="$kb" -v base="$base" 'BEGIN {
    sub(/^[^ ]*\/linfuzz /, "", c); sub(/ [^ ]*$/, "", c)
    up = kb - base; if (up < 0) up = 0
    printf "| %s | %d | %s | %s | %s | %s | %d | %s |\n", f, b, c, rc, ms, kb, up, (b > 0 ? sprintf("%.1f", up * 1024 / b) : "-") }'
}
for f in valid-15m.lfz junk-16m.lfz junk-1m.lfz junk-100m.lfz zero.lfz urandom.lfz queue-1m.lfz counter-1m.lfz; do
  row "$W/$f" "$LF" check -q --timeout 10 "$W/$f"
done
for f in valid-15m.lfz junk-16m.lfz junk-100m.lfz zero.lfz; do
  for c in show repro triage; do row "$W/$f" "$LF" $c "$W/$f"; done
done
if [ -n "$entry" ]; then
  row "$entry" "$LF" show "$entry"
  row "$entry" "$LF" repro --runs 0 "$entry"
  row "$entry" "$LF" triage "$entry"
fi
mkfifo "$W/endless.lfz"
exec 3<>"$W/endless.lfz"
cat /dev/zero >"$W/endless.lfz" 2>/dev/null &
writer=$!
row "$W/endless.lfz" "$LF" check -q "$W/endless.lfz"
exec 3>&-
kill "$writer" 2>/dev/null || true
wait "$writer" 2>/dev/null || true
writer=""

echo
echo "## check --timeout through the command line (wall ms from start, reading included)"
echo
echo "| file | engine | --timeout | exit | ms | peak KB |"
echo "|---|---|---:|---:|---:|---:|"
for f in stack-1m.hist queue-1m.lfz counter-1m.lfz; do
  for e in auto monitor wgl; do
    for t in 0.001 0.1; do
      read -r rc ms kb < <(measure "$LF" check -q --engine $e --timeout $t "$W/$f")
      echo "| $f | $e | $t | $rc | $ms | $kb |"
    done
  done
done

echo
echo "## A replay child after its parent is killed (docs/security.md)"
echo
# triage replays an input of lock_queue (a correct adapter: the replay would run its full 60 s); once its child
# runs, triage is killed with SIGKILL and /proc is polled until the child is gone (or a zombie)
HEX=0123456789abcdef0123456789abcdef01234567
mkdir -p "$W/lock_queue"
"$LF" show --input "$W/lock_queue/crash-$HEX" "$(find corpus/k3_trylock_queue/violations -name '*.lfz' | sort | head -1)" \
  2>/dev/null
child_of() { { grep -l "^PPid:[[:space:]]*$1\$" /proc/[0-9]*/status 2>/dev/null || true; } | head -1 | cut -d/ -f3; }
gone() { local st; st=$(awk '/^State:/ { print $2 }' "/proc/$1/status" 2>/dev/null); [ -z "$st" ] || [ "$st" = Z ]; }
lat=()
exec 4>&2 2>/dev/null # (bash reports each killed triage: not a finding)
for rep in 1 2 3 4 5; do
  LINFUZZ_PROGRESS=0 "$LF" triage -q --runs 1000000000 --seconds 60 "$W/lock_queue/crash-$HEX" >/dev/null 2>&1 &
  parent=$! child=""
  for _ in $(seq 400); do child=$(child_of "$parent"); [ -n "$child" ] && break; sleep 0.01; done
  [ -n "$child" ] || { kill -9 "$parent"; wait "$parent" 2>/dev/null; echo "no replay child seen"; continue; }
  sleep 0.3
  t0=$(date +%s%N)
  kill -9 "$parent"
  while ! gone "$child"; do
    [ $(($(date +%s%N) - t0)) -gt 30000000000 ] && { kill -9 "$child"; break; }
  done
  lat+=($((($(date +%s%N) - t0) / 1000)))
  wait "$parent" 2>/dev/null || true
done
exec 2>&4 4>&-
printf '%s\n' "${lat[@]}" | sort -n | awk '{ v[NR] = $1 } END {
  printf "replay child gone after its parent'"'"'s SIGKILL, %d runs: median %.1f ms, max %.1f ms\n", NR, v[int((NR + 1) / 2)] / 1000, v[NR] / 1000 }'

echo
echo "## triage reading fuzzer inputs (read at most 1 MiB + 1 byte; no wait on a FIFO; devices refused)"
echo
echo "| input | bytes | exit | ms | peak KB |"
echo "|---|---:|---:|---:|---:|"
mkdir -p "$W/inputs"
truncate -s 100M "$W/inputs/big-crash-$HEX"
mkfifo "$W/inputs/fifo-crash-$HEX"
ln -s /dev/zero "$W/inputs/zero-crash-$HEX"
for f in big fifo zero; do
  read -r rc ms kb < <(measure "$LF" triage -q --adapter lock_queue --runs 1 "$W/inputs/$f-crash-$HEX")
  echo "| $f-crash-... | $(stat -L -c %s "$W/inputs/$f-crash-$HEX" 2>/dev/null || echo -) | $rc | $ms | $kb |"
done
