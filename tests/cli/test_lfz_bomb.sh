#!/usr/bin/env bash
# Decompression bombs through the command line: `linfuzz check` and `linfuzz convert` refuse each .lfz bomb
# of tests/unit/test_lfz_bomb.c (a few KB expanding to up to 1 GiB) with exit 2 and a message naming the
# file, and their peak memory (/usr/bin/time %M, when it is installed) stays bounded: a few MB for what the
# header or the first chunk gives away, the 64 MiB budget floor for the rest. Before the budget, check of the
# 32 KB zeros-1g.lfz peaked at 1,051,144 KB.
# Usage: test_lfz_bomb.sh LINFUZZ_BIN TEST_DATA_DIR   (test_lfz_bomb is next to LINFUZZ_BIN)
set -u
source "$(dirname "$0")/../lib.sh"
LF=$1
"$(dirname "$LF")/test_lfz_bomb" --write "$tmp" >/dev/null || bad "test_lfz_bomb --write failed"
measure=0
# (sanitizer builds: no quarantine of freed blocks, which would count the payload buffer's earlier sizes)
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}quarantine_size_mb=0"
[ -x /usr/bin/time ] && measure=1 || echo "note: /usr/bin/time is not installed: peak memory not measured"
# The peak of reading a one-op history is the baseline (sanitizer builds start higher).
base=0
if [ "$measure" = 1 ]; then
  printf 'type counter\n0 1 2 inc\n' >"$tmp/one.hist"
  base=$({ /usr/bin/time -f '%M' "$LF" check -q "$tmp/one.hist" 2>&1 >/dev/null; } | tail -1)
fi
# file  peak RSS allowed above the baseline, in KB  a fragment of the message
while read -r f max_kb why; do
  expect_err 2 "^linfuzz check: $tmp/$f: .*$why" "check $f" "$LF" check "$tmp/$f"
  expect_err 2 "^linfuzz convert: $tmp/$f: .*$why" "convert $f" "$LF" convert "$tmp/$f" "$tmp/out.hist"
  if [ "$measure" = 1 ]; then
    kb=$({ /usr/bin/time -f '%M' "$LF" check -q "$tmp/$f" 2>&1 >/dev/null; } | tail -1)
    [ "$kb" -lt $((base + max_kb)) ] && ok || bad "check $f: peak RSS $kb KB, more than $base + $max_kb KB"
    echo "$f: $(stat -c %s "$tmp/$f") bytes, check peaks at $kb KB (a one-op history: $base KB)"
  fi
done <<'T'
zeros-1g.lfz 12288 decompression bomb
bytes-1g.lfz 12288 decompression bomb
zeros-60m.lfz 12288 unknown section kind 0
history-60m.lfz 12288 unknown type
text-60m.lfz 12288 runs past the payload's end
counter-60m.lfz 81920 unexpected bytes after the last op
T
[ ! -e "$tmp/out.hist" ] && ok || bad "convert wrote an output from a bomb"
finish
