#!/usr/bin/env bash
# .clusterfuzzlite/build.sh run the way ClusterFuzzLite runs it: copied to $SRC/build.sh, from the working
# directory $SRC/linfuzz, with the builder image's environment (CC, CFLAGS with ASan and -fsanitize=fuzzer-no-link,
# LIB_FUZZING_ENGINE, OUT, SRC, WORK). A few targets only (LINFUZZ_CFLITE_TARGETS), to stay quick. Checks: the
# targets and their seed corpora land in $OUT, a known-buggy adapter's target is left out, the binaries carry
# ASan and libFuzzer and run over their seed corpus; a missing variable is an error.
# Usage: test_cflite_build.sh      (exit 77, skipped, when clang is missing)
set -u
source "$(dirname "$0")/../lib.sh"
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
command -v clang >/dev/null || { echo "clang not found: skipped"; exit 77; }

mkdir -p "$tmp/src" "$tmp/out" "$tmp/work"
ln -s "$ROOT" "$tmp/src/linfuzz"
cp "$ROOT/.clusterfuzzlite/build.sh" "$tmp/src/build.sh"
export CC=clang
export CFLAGS="-O1 -fno-omit-frame-pointer -gline-tables-only -fsanitize=address -fsanitize-address-use-after-scope -fsanitize=fuzzer-no-link"
export LIB_FUZZING_ENGINE=-fsanitize=fuzzer OUT=$tmp/out SRC=$tmp/src WORK=$tmp/work
export LINFUZZ_CFLITE_TARGETS="mutex_queue treiber_stack k3_trylock_queue parse_text check_diff" LINFUZZ_BUILD_JOBS=2
(cd "$tmp/src/linfuzz" && bash -eu "$SRC/build.sh") >"$tmp/build.log" 2>&1
rc=$?
[ "$rc" = 0 ] && ok || { bad "build.sh failed (exit $rc):"; tail -30 "$tmp/build.log" >&2; echo "0 passed, 1 failed"; exit 1; }

for t in fuzz_mutex_queue fuzz_treiber_stack fuzz_parse_text fuzz_check_diff; do
  [ -x "$OUT/$t" ] && ok || bad "$t not in \$OUT"
  [ -s "$OUT/${t}_seed_corpus.zip" ] && ok || bad "${t}_seed_corpus.zip not in \$OUT"
  grep -qx "timeout = 120" "$OUT/$t.options" 2>/dev/null && ok || bad "$t.options not in \$OUT"
done
[ ! -e "$OUT/fuzz_k3_trylock_queue" ] && ok || bad "the known-buggy adapter's target was built"
grep -q "skipping fuzz_k3_trylock_queue" "$tmp/build.log" && ok || bad "the skip is not explained"
nm "$OUT/fuzz_mutex_queue" >"$OUT/.symbols" 2>&1 # (a file: grep -q's early exit would SIGPIPE nm under pipefail)
grep -q " __asan_init" "$OUT/.symbols" && ok || bad "fuzz_mutex_queue has no ASan"
grep -q " LLVMFuzzerRunDriver" "$OUT/.symbols" && ok || bad "fuzz_mutex_queue has no libFuzzer"
rm -f "$OUT/.symbols"

# The binaries run: libFuzzer over the unpacked seed corpus, then a few hundred mutations.
for t in fuzz_mutex_queue fuzz_treiber_stack fuzz_parse_text fuzz_check_diff; do
  seeds=$tmp/seeds-$t
  mkdir -p "$seeds"
  if command -v unzip >/dev/null; then
    unzip -q "$OUT/${t}_seed_corpus.zip" -d "$seeds"
  else
    python3 -c 'import sys, zipfile; zipfile.ZipFile(sys.argv[1]).extractall(sys.argv[2])' "$OUT/${t}_seed_corpus.zip" "$seeds"
  fi
  [ "$(ls "$seeds" | wc -l)" -gt 0 ] && ok || bad "$t: empty seed corpus"
  "$OUT/$t" -runs=300 -timeout=30 "$seeds" >"$tmp/run-$t.log" 2>&1
  rc=$?
  [ "$rc" = 0 ] && grep -q "^Done 300 runs" "$tmp/run-$t.log" && ok ||
    { bad "$t does not run (exit $rc):"; tail -15 "$tmp/run-$t.log" >&2; }
done

# Run by hand without the builder's environment: a clear error.
(unset OUT; cd "$tmp/src/linfuzz" && bash "$SRC/build.sh") >"$tmp/noenv.log" 2>&1
[ $? != 0 ] && grep -q 'build.sh: \$OUT is not set' "$tmp/noenv.log" && ok || bad "missing \$OUT: $(cat "$tmp/noenv.log")"

finish
