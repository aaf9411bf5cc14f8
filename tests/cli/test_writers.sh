#!/usr/bin/env bash
# One rule for every writer (docs/security.md, "Writing"): whatever a command could not write (an output
# file, an entry, its standard output) makes it exit 4 with a message naming what, and leaves nothing
# half-written. Every writer of the command line (convert, gen -o, show --input, --html -o, --reminimize,
# triage --save, rootcause --write --out, minimize-test -o, and every command's standard output), against
# every way a write fails that this machine can make: a path under a regular file (not a directory), a
# file-size limit (ulimit -f: EFBIG; SIGXFSZ does not kill the command), standard output on /dev/full, a
# read-only directory (chmod when not root, else a read-only tmpfs when one can be mounted) and a full file
# system (a 64 KiB tmpfs, when one can be mounted). Also: `show --input` replaces a symlink at its name
# instead of writing through it (it followed it).
# Usage: test_writers.sh LINFUZZ_BIN TEST_DATA_DIR
set -u
source "$(dirname "$0")/../lib.sh"
LF=$1
CORPUS=$(cd "$(dirname "$0")/../../corpus" && pwd)
HEX=0123456789abcdef0123456789abcdef01234567
export LINFUZZ_PROGRESS=0

# the k3 entry found in controlled mode: a replay of its input violates at its recorded run
for k3 in "$CORPUS"/k3_trylock_queue/violations/*.lfz; do
  "$LF" show --meta "$k3" | grep -qx "workload_format: fuzz-case 2" && break
done
[ -f "$k3" ] || { echo "FAIL: committed entry missing"; exit 1; }
"$LF" gen queue 20000 --threads 4 -q -o "$tmp/big.hist" || bad "gen big.hist"
"$LF" show --input "$tmp/k3-input" "$k3" 2>/dev/null || bad "show --input"
mkdir -p "$tmp/inputs/k3_trylock_queue"
cp "$tmp/k3-input" "$tmp/inputs/k3_trylock_queue/crash-$HEX"

# Every writer, writing under the directory $1: each prints a command line (one per line, tab-separated
# words) whose output goes there.
writers() { # DIR
  local d=$1
  printf '%s\n' \
    "convert	$tmp/big.hist	$d/out.lfz" \
    "convert	$tmp/big.hist	$d/out.hist" \
    "gen	queue	20000	-q	-o	$d/gen.hist" \
    "show	--input	$d/input.bin	$k3" \
    "show	--html	-o	$d/page.html	$k3" \
    "show	--html	-o	$d/pages/	$k3" \
    "show	--reminimize	$d/again	$k3" \
    "triage	-q	--runs	2000	--save	$d/saved	$tmp/inputs" \
    "rootcause	-q	--schedules	20	--passing	5	--validate	1	--write	--out	$d/rc	$k3" \
    "minimize-test	-q	--runs	200	--seconds	5	-o	$d/min	$k3"
}

# Runs every writer into DIR (with a prefix command, e.g. a ulimit) and expects exit 4 and a message.
expect_all_fail() { # WHAT DIR [PREFIX...]
  local what=$1 d=$2; shift 2
  local line
  while IFS= read -r line; do
    IFS=$'\t' read -r -a args <<<"$line"
    # stderr through a pipe: a file-size limit must not keep the message from being written
    local err rc
    err=$("$@" "$LF" "${args[@]}" 2>&1 >/dev/null); rc=$?
    if [ "$rc" = 4 ] && [ -n "$err" ]; then ok; else bad "$what: linfuzz ${args[*]}: exit $rc (${err:0:300})"; fi
  done < <(writers "$d")
}

# ---- a path under a regular file ----
echo file >"$tmp/plain"
expect_all_fail "not a directory" "$tmp/plain"

# ---- a file-size limit of 0, with SIGXFSZ left as the shell has it (the command ignores it itself) ----
mkdir -p "$tmp/limited"
expect_all_fail "ulimit -f 0" "$tmp/limited" bash -c 'ulimit -f 0; exec "$@"' limit
leftovers=$(find "$tmp/limited" -type f | wc -l)
[ "$leftovers" = 0 ] && ok || bad "ulimit -f: $leftovers files left behind: $(find "$tmp/limited" -type f | head -5)"

# ---- standard output that cannot be written ----
if [ -w /dev/full ]; then
  for args in "check $tmp/big.hist" "show $k3" "show --meta $k3" "triage $k3" "triage --json $k3" "repro --runs 1 $k3" \
    "gen queue 10" "convert $tmp/big.hist -" "adapters" "help" "--version" "check --help"; do
    # shellcheck disable=SC2086
    "$LF" $args >/dev/full 2>"$tmp/err"; rc=$?
    [ "$rc" = 4 ] && grep -q "standard output" "$tmp/err" && ok || bad "linfuzz $args >/dev/full: exit $rc ($(head -c 300 "$tmp/err"))"
  done
fi

# ---- a read-only directory, a full file system ----
mounted=()
cleanup_mounts() { for m in "${mounted[@]}"; do umount "$m" 2>/dev/null; done; rm -rf "$tmp"; }
trap cleanup_mounts EXIT
mkdir -p "$tmp/ro" "$tmp/full"
if [ "$(id -u)" != 0 ]; then
  chmod 555 "$tmp/ro"
  expect_all_fail "a read-only directory" "$tmp/ro"
  chmod 755 "$tmp/ro"
elif mount -t tmpfs -o ro,size=64k tmpfs "$tmp/ro" 2>/dev/null; then
  mounted+=("$tmp/ro")
  expect_all_fail "a read-only file system" "$tmp/ro"
fi
if mount -t tmpfs -o size=64k tmpfs "$tmp/full" 2>/dev/null; then
  mounted+=("$tmp/full")
  head -c 1M /dev/zero >"$tmp/full/filler" 2>/dev/null # until it is full
  expect_all_fail "a full file system" "$tmp/full"
  used=$(find "$tmp/full" -type f ! -name filler | wc -l)
  [ "$used" = 0 ] && ok || bad "full file system: $used files left behind: $(find "$tmp/full" -type f | head -5)"
fi

# ---- the same writers succeed where they can write (so the failures above are the file system's) ----
mkdir -p "$tmp/good"
while IFS= read -r line; do
  IFS=$'\t' read -r -a args <<<"$line"
  "$LF" "${args[@]}" >"$tmp/out" 2>"$tmp/err"; rc=$?
  [ "$rc" = 0 ] || [ "$rc" = 1 ] && ok || bad "linfuzz ${args[*]}: exit $rc ($(head -c 300 "$tmp/err"))"
done < <(writers "$tmp/good")
n_saved=$(find "$tmp/good/saved" -name '*.lfz' | wc -l)
[ "$n_saved" = 1 ] && ok || bad "triage --save wrote $n_saved entries"

# ---- show --input replaces a symlink at its name; it does not write through it ----
echo keep >"$tmp/target"
ln -s "$tmp/target" "$tmp/link"
expect_rc 0 "show --input onto a symlink" "$LF" show --input "$tmp/link" "$k3"
[ "$(cat "$tmp/target")" = keep ] && [ ! -L "$tmp/link" ] && cmp -s "$tmp/link" "$tmp/k3-input" && ok ||
  bad "show --input wrote through a symlink"

finish
