#!/usr/bin/env bash
# `linfuzz convert`: text -> lfz -> text gives the canonical text, stdin/stdout, and every failure's exit
# code and message (malformed input names FILE:LINE and exits 2; unreadable or unwritable files exit 4).
# Usage: test_convert.sh LINFUZZ_BIN TEST_DATA_DIR
set -u
source "$(dirname "$0")/../lib.sh"
LF=$1
DATA=$2


# Round trips of the real etcd histories and of hand-written ones covering every type.
cat >"$tmp/all.hist" <<'H'
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
printf 'type counter\r\n0 1 2 inc\r\n1 3 4 get -> 1\r\n2 5 ? get\r\n' >"$tmp/counter.hist"
printf 'type cas-register\ninit nil\n0 1 2 cas nil 5 -> ok\n1 3 4 read -> 5\n' >"$tmp/cas.hist"
printf 'type kv\n0 1 2 put -9223372036854775808 9223372036854775807\n0 3 18446744073709551615 get 1 -> nil\n' \
  >"$tmp/kv.hist"
files=("$tmp"/all.hist "$tmp"/counter.hist "$tmp"/cas.hist "$tmp"/kv.hist)
for f in "$DATA"/etcd/*.hist; do files+=("$f"); done
[ ${#files[@]} -gt 100 ] && ok || bad "only ${#files[@]} histories found under $DATA/etcd"
for f in "${files[@]}"; do
  b=$(basename "$f" .hist)
  "$LF" convert "$f" - >"$tmp/$b.canon.hist" || { bad "convert $f to stdout"; continue; }
  "$LF" convert "$f" "$tmp/$b.lfz" || { bad "convert $f to lfz"; continue; }
  "$LF" convert "$tmp/$b.lfz" "$tmp/$b.back.hist" || { bad "convert $b.lfz back"; continue; }
  cmp -s "$tmp/$b.canon.hist" "$tmp/$b.back.hist" && ok || bad "$b: text -> lfz -> text differs from the canonical text"
  # lfz -> lfz is byte-identical (the encoding is canonical).
  "$LF" convert "$tmp/$b.lfz" "$tmp/$b.again.lfz" && cmp -s "$tmp/$b.lfz" "$tmp/$b.again.lfz" && ok ||
    bad "$b: lfz -> lfz changed the bytes"
done
# The canonical text of the deque history, exactly.
cat >"$tmp/all.expected" <<'H'
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
cmp -s "$tmp/all.expected" "$tmp/all.back.hist" && ok || bad "canonical deque text differs"
# The converted file is really compressed binary, and check reads it.
head -c 4 "$tmp/etcd_000.lfz" | od -An -c | grep -q 'L   F   Z' && ok || bad "etcd_000.lfz lacks the magic"
# (whatever the verdict, check must read it: exit 2 or 4 would mean it could not)
"$LF" check "$tmp/kv.lfz" >/dev/null 2>&1
code=$?
[ $code -ne 2 ] && [ $code -ne 4 ] && ok || bad "check could not read kv.lfz (exit $code)"

# stdin / stdout, and --level / --section.
"$LF" convert - "$tmp/stdin.lfz" <"$tmp/all.hist" && "$LF" convert "$tmp/stdin.lfz" - | cmp -s - "$tmp/all.expected" &&
  ok || bad "stdin -> lfz -> stdout"
expect_err 0 "" "$LF convert --level 19 $tmp/all.hist $tmp/l19.lfz" "$LF" convert --level 19 "$tmp/all.hist" "$tmp/l19.lfz"
expect_err 0 "" "$LF convert --section history $tmp/l19.lfz $tmp/sec.hist" "$LF" convert --section history "$tmp/l19.lfz" "$tmp/sec.hist"
cmp -s "$tmp/sec.hist" "$tmp/all.expected" && ok || bad "--section history output differs"
expect_err 2 "no history section named 'nope'" "$LF convert --section nope $tmp/l19.lfz $tmp/x.hist" "$LF" convert --section nope "$tmp/l19.lfz" "$tmp/x.hist"
expect_err 2 "--section applies only to an .lfz input" "$LF convert --section h $tmp/all.hist $tmp/x.hist" "$LF" convert --section h "$tmp/all.hist" "$tmp/x.hist"

# Malformed input: exit 2, message FILE:LINE.
printf 'type queue\n0 1 2 enq 1\n0 3 4 deq -> maybe\n' >"$tmp/bad.hist"
expect_err 2 "bad\.hist:3: result 'maybe'" "$LF convert $tmp/bad.hist $tmp/out.lfz" "$LF" convert "$tmp/bad.hist" "$tmp/out.lfz"
[ ! -e "$tmp/out.lfz" ] && ok || bad "a failed conversion left an output file"
printf 'type queue\n0 1 5 enq 1\n0 3 6 enq 2\n' >"$tmp/overlap.hist"
expect_err 2 "overlap\.hist:3: ops of thread 0 overlap" "$LF convert $tmp/overlap.hist -" "$LF" convert "$tmp/overlap.hist" -
expect_err 2 "<stdin>:2: unknown type 'heap'" "$LF convert - $tmp/x.lfz <<<$'# comment\ntype heap'" "$LF" convert - "$tmp/x.lfz" <<<$'# comment\ntype heap'
# Corrupted and mislabelled .lfz: exit 2, message naming the file.
cp "$tmp/kv.lfz" "$tmp/corrupt.lfz"
printf '\x00' | dd of="$tmp/corrupt.lfz" bs=1 seek=60 conv=notrunc 2>/dev/null
expect_err 2 "corrupt\.lfz: compressed data checksum mismatch" "$LF convert $tmp/corrupt.lfz -" "$LF" convert "$tmp/corrupt.lfz" -
head -c 70 "$tmp/kv.lfz" >"$tmp/trunc.lfz"
expect_err 2 "trunc\.lfz: truncated" "$LF convert $tmp/trunc.lfz -" "$LF" convert "$tmp/trunc.lfz" -
cp "$tmp/all.hist" "$tmp/text.lfz"
expect_err 2 "text\.lfz: not an \.lfz file" "$LF convert $tmp/text.lfz -" "$LF" convert "$tmp/text.lfz" -

# I/O failures: exit 4.
expect_err 4 "missing\.hist: cannot open" "$LF convert $tmp/missing.hist $tmp/x.lfz" "$LF" convert "$tmp/missing.hist" "$tmp/x.lfz"
expect_err 4 "missing\.lfz: cannot open" "$LF convert $tmp/missing.lfz -" "$LF" convert "$tmp/missing.lfz" -
expect_err 4 "cannot create" "$LF convert $tmp/all.hist $tmp/no/dir/x.lfz" "$LF" convert "$tmp/all.hist" "$tmp/no/dir/x.lfz"
expect_err 4 "cannot create" "$LF convert $tmp/all.hist $tmp/no/dir/x.hist" "$LF" convert "$tmp/all.hist" "$tmp/no/dir/x.hist"

# Usage.
expect_err 0 "" "$LF convert --help" "$LF" convert --help
grep -q "usage: linfuzz convert" "$tmp/out" && ok || bad "--help prints no usage"
expect_err 2 "expected IN OUT" "$LF convert" "$LF" convert
expect_err 2 "expected IN OUT" "$LF convert $tmp/all.hist" "$LF" convert "$tmp/all.hist"
expect_err 2 "too many arguments" "$LF convert a b c" "$LF" convert a b c
expect_err 2 "unknown option '--fast'" "$LF convert --fast a b" "$LF" convert --fast a b
expect_err 2 "--level takes a zstd level in 1..19, not '0'" "$LF convert --level 0 a b" "$LF" convert --level 0 a b
expect_err 2 "--level needs a value" "$LF convert a b --level" "$LF" convert a b --level
"$LF" --help | grep -q "convert" && ok || bad "convert missing from linfuzz --help"

finish
[ "$fail" -eq 0 ]
