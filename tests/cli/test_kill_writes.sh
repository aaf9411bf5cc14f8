#!/usr/bin/env bash
# Killed writers leave no temporary file: `linfuzz convert` (both directions) and `linfuzz gen -o`, killed
# with SIGKILL at 20 random moments of large writes (a 300,000-op history), leave no temporary file in the
# output directory once the next write has run (with O_TMPFILE, none at all), and the output is always the
# old file or the complete new one, never a part. (tests/unit/test_atomic_file.c does the same through the
# library for both ways of writing, named temporary files included.)
# Usage: test_kill_writes.sh LINFUZZ_BIN TEST_DATA_DIR
set -u
source "$(dirname "$0")/../lib.sh"
LF=$1
out=$tmp/out
mkdir -p "$out"
"$LF" gen queue 300000 --threads 8 --seed 5 -o "$tmp/big.lfz" || bad "gen big.lfz"
"$LF" convert "$tmp/big.lfz" "$tmp/big.hist" || bad "convert big.lfz"
temporaries() { find "$out" -name '*.tmp' | wc -l; }
# The three commands, and how long each takes uninterrupted (ms).
cmds=("convert $tmp/big.lfz $out/x.hist" "convert $tmp/big.hist $out/x.lfz"
  "gen queue 300000 --threads 8 --seed 5 -o $out/g.hist")
declare -a ms
for i in 0 1 2; do
  t0=$(date +%s%N)
  # shellcheck disable=SC2086
  "$LF" ${cmds[$i]} || bad "${cmds[$i]}"
  ms[$i]=$(( ($(date +%s%N) - t0) / 1000000 + 1 ))
done
cp "$out/x.hist" "$tmp/x.ref"
cp "$out/x.lfz" "$tmp/x.ref.lfz"
RANDOM=11
for k in $(seq 20); do
  i=$((k % 3))
  # shellcheck disable=SC2086
  "$LF" ${cmds[$i]} 2>/dev/null &
  pid=$!
  sleep "$(awk -v ms="${ms[$i]}" -v r=$RANDOM 'BEGIN { printf "%.3f", ms * (r / 32768) / 1000 }')"
  kill -9 "$pid" 2>/dev/null
  wait "$pid" 2>/dev/null
  cmp -s "$out/x.hist" "$tmp/x.ref" && ok || bad "kill $k: x.hist is not whole"
  cmp -s "$out/x.lfz" "$tmp/x.ref.lfz" && ok || bad "kill $k: x.lfz is not whole"
done
seen=$(temporaries)
"$LF" convert "$tmp/big.lfz" "$out/x.hist" || bad "the write after the kills"
[ "$(temporaries)" = 0 ] && ok || bad "temporary files survive the kills and a write: $(find "$out" -name '*.tmp')"
echo "20 kills: $seen temporary files left, $(temporaries) after the next write"
finish
