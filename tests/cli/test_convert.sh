#!/usr/bin/env bash
# `linfuzz convert`: text -> lfz -> text gives the canonical text, stdin/stdout, and every failure's exit
# code and message (malformed input names FILE:LINE and exits 2; unreadable or unwritable files exit 4).
# Usage: test_convert.sh LINFUZZ_BIN TEST_DATA_DIR
set -u
LF=$1
DATA=$2
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*" >&2; }

# expect CODE PATTERN CMD...: runs CMD, checks its exit code and that stderr matches PATTERN (grep -E).
expect() {
  local code=$1 pattern=$2
  shift 2
  "$@" >"$TMP/out" 2>"$TMP/err"
  local got=$?
  if [ "$got" -ne "$code" ]; then
    bad "$* exited $got, expected $code; stderr: $(head -c 300 "$TMP/err")"
  elif [ -n "$pattern" ] && ! grep -qE -- "$pattern" "$TMP/err"; then
    bad "$*: stderr '$(head -c 300 "$TMP/err")' does not match '$pattern'"
  else
    ok
  fi
}

# Round trips of the real etcd histories and of hand-written ones covering every type.
cat >"$TMP/all.hist" <<'H'
# every deque method, comments, tabs and CRLF
type deque
0	1 2 push_front 1   # front
0 3 4 push_back 2
1 5 6 peek_front -> 1
1 7 8 pop_back -> 2
1 9 10 pop_front -> 1
1 11 12 pop_front -> empty
2 1 ? peek_back
H
printf 'type counter\r\n0 1 2 inc\r\n1 3 4 get -> 1\r\n2 5 ? get\r\n' >"$TMP/counter.hist"
printf 'type cas-register\ninit nil\n0 1 2 cas nil 5 -> ok\n1 3 4 read -> 5\n' >"$TMP/cas.hist"
printf 'type kv\n0 1 2 put -9223372036854775808 9223372036854775807\n0 3 18446744073709551615 get 1 -> nil\n' \
  >"$TMP/kv.hist"
files=("$TMP"/all.hist "$TMP"/counter.hist "$TMP"/cas.hist "$TMP"/kv.hist)
for f in "$DATA"/etcd/*.hist; do files+=("$f"); done
[ ${#files[@]} -gt 100 ] && ok || bad "only ${#files[@]} histories found under $DATA/etcd"
for f in "${files[@]}"; do
  b=$(basename "$f" .hist)
  "$LF" convert "$f" - >"$TMP/$b.canon.hist" || { bad "convert $f to stdout"; continue; }
  "$LF" convert "$f" "$TMP/$b.lfz" || { bad "convert $f to lfz"; continue; }
  "$LF" convert "$TMP/$b.lfz" "$TMP/$b.back.hist" || { bad "convert $b.lfz back"; continue; }
  cmp -s "$TMP/$b.canon.hist" "$TMP/$b.back.hist" && ok || bad "$b: text -> lfz -> text differs from the canonical text"
  # lfz -> lfz is byte-identical (the encoding is canonical).
  "$LF" convert "$TMP/$b.lfz" "$TMP/$b.again.lfz" && cmp -s "$TMP/$b.lfz" "$TMP/$b.again.lfz" && ok ||
    bad "$b: lfz -> lfz changed the bytes"
done
# The canonical text of the deque history, exactly.
cat >"$TMP/all.expected" <<'H'
# linfuzz history 1
type deque
0 1 2 push_front 1
0 3 4 push_back 2
1 5 6 peek_front -> 1
1 7 8 pop_back -> 2
1 9 10 pop_front -> 1
1 11 12 pop_front -> empty
2 1 ? peek_back
H
cmp -s "$TMP/all.expected" "$TMP/all.back.hist" && ok || bad "canonical deque text differs"
# The converted file is really compressed binary, and check reads it.
head -c 4 "$TMP/etcd_000.lfz" | od -An -c | grep -q 'L   F   Z' && ok || bad "etcd_000.lfz lacks the magic"
# (whatever the verdict, check must read it: exit 2 or 4 would mean it could not)
"$LF" check "$TMP/kv.lfz" >/dev/null 2>&1
code=$?
[ $code -ne 2 ] && [ $code -ne 4 ] && ok || bad "check could not read kv.lfz (exit $code)"

# stdin / stdout, and --level / --section.
"$LF" convert - "$TMP/stdin.lfz" <"$TMP/all.hist" && "$LF" convert "$TMP/stdin.lfz" - | cmp -s - "$TMP/all.expected" &&
  ok || bad "stdin -> lfz -> stdout"
expect 0 "" "$LF" convert --level 19 "$TMP/all.hist" "$TMP/l19.lfz"
expect 0 "" "$LF" convert --section history "$TMP/l19.lfz" "$TMP/sec.hist"
cmp -s "$TMP/sec.hist" "$TMP/all.expected" && ok || bad "--section history output differs"
expect 2 "no history section named 'nope'" "$LF" convert --section nope "$TMP/l19.lfz" "$TMP/x.hist"
expect 2 "--section applies only to an .lfz input" "$LF" convert --section h "$TMP/all.hist" "$TMP/x.hist"

# Malformed input: exit 2, message FILE:LINE.
printf 'type queue\n0 1 2 enq 1\n0 3 4 deq -> maybe\n' >"$TMP/bad.hist"
expect 2 "bad\.hist:3: result 'maybe'" "$LF" convert "$TMP/bad.hist" "$TMP/out.lfz"
[ ! -e "$TMP/out.lfz" ] && ok || bad "a failed conversion left an output file"
printf 'type queue\n0 1 5 enq 1\n0 3 6 enq 2\n' >"$TMP/overlap.hist"
expect 2 "overlap\.hist:3: ops of thread 0 overlap" "$LF" convert "$TMP/overlap.hist" -
expect 2 "<stdin>:2: unknown type 'heap'" "$LF" convert - "$TMP/x.lfz" <<<$'# comment\ntype heap'
# Corrupted and mislabelled .lfz: exit 2, message naming the file.
cp "$TMP/kv.lfz" "$TMP/corrupt.lfz"
printf '\x00' | dd of="$TMP/corrupt.lfz" bs=1 seek=60 conv=notrunc 2>/dev/null
expect 2 "corrupt\.lfz: compressed data checksum mismatch" "$LF" convert "$TMP/corrupt.lfz" -
head -c 70 "$TMP/kv.lfz" >"$TMP/trunc.lfz"
expect 2 "trunc\.lfz: truncated" "$LF" convert "$TMP/trunc.lfz" -
cp "$TMP/all.hist" "$TMP/text.lfz"
expect 2 "text\.lfz: not an \.lfz file" "$LF" convert "$TMP/text.lfz" -

# I/O failures: exit 4.
expect 4 "missing\.hist: cannot open" "$LF" convert "$TMP/missing.hist" "$TMP/x.lfz"
expect 4 "missing\.lfz: cannot open" "$LF" convert "$TMP/missing.lfz" -
expect 4 "cannot create" "$LF" convert "$TMP/all.hist" "$TMP/no/dir/x.lfz"
expect 4 "cannot create" "$LF" convert "$TMP/all.hist" "$TMP/no/dir/x.hist"

# Usage.
expect 0 "" "$LF" convert --help
grep -q "usage: linfuzz convert" "$TMP/out" && ok || bad "--help prints no usage"
expect 2 "expected IN OUT" "$LF" convert
expect 2 "expected IN OUT" "$LF" convert "$TMP/all.hist"
expect 2 "too many arguments" "$LF" convert a b c
expect 2 "unknown option '--fast'" "$LF" convert --fast a b
expect 2 "--level takes a zstd level in 1..19, not '0'" "$LF" convert --level 0 a b
expect 2 "--level needs a value" "$LF" convert a b --level
"$LF" --help | grep -q "convert" && ok || bad "convert missing from linfuzz --help"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
