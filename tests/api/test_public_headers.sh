#!/usr/bin/env bash
# Every public header (include/linfuzz/*.h) compiles alone, as C11 and as C++ (11 and 17), with warnings as
# errors; every name it declares at file scope starts with lf_/LF_ (or is a struct/enum tag of one).
# Usage: test_public_headers.sh C_COMPILER     (the C++ compiler is the C compiler's sibling: clang++, g++)
set -u
source "$(dirname "$0")/../lib.sh"
CC=$1
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
case $(basename "$CC") in
  clang*) CXX=$(dirname "$CC")/clang++ ;;
  gcc*) CXX=$(dirname "$CC")/g++ ;;
  *) CXX=c++ ;;
esac
command -v "$CXX" >/dev/null || CXX=$(command -v clang++ || command -v g++ || true)
flags=(-I"$ROOT/include" -Wall -Wextra -Werror -pedantic -fsyntax-only)
n=0
for h in "$ROOT"/include/linfuzz/*.h; do
  n=$((n + 1))
  name=linfuzz/$(basename "$h")
  printf '#include "%s"\n#include "%s"\n' "$name" "$name" >"$tmp/one.c"
  check "$name compiles alone as C11 (and twice: include guard)" "$CC" -std=c11 "${flags[@]}" -x c "$tmp/one.c"
  if [ -n "$CXX" ]; then
    for std in c++11 c++17; do
      check "$name compiles alone as $std" "$CXX" -std=$std "${flags[@]}" -x c++ "$tmp/one.c"
    done
  fi
  # Names at file scope: functions, typedefs, macros, enumerators must carry the prefix.
  bad_names=$(grep -hoE '^(#define [A-Za-z_][A-Za-z0-9_]*|typedef [^;{]*\b[A-Za-z_][A-Za-z0-9_]*;|[a-z_][a-z0-9_ *]* \**[a-z_][a-z0-9_]*\()' "$h" |
    sed -E 's/^#define //; s/\($//; s/;$//; s/.*[ *]//' | grep -vE '^(lf_|LF_|LINFUZZ_)' | sort -u | tr '\n' ' ')
  check "$name declares only lf_/LF_ names (found: ${bad_names:-none})" test -z "$bad_names"
done
check "the public headers are there ($n)" test "$n" -ge 9
[ -n "$CXX" ] || bad "no C++ compiler found (clang++ or g++): the C++ half of the test did not run"
finish
