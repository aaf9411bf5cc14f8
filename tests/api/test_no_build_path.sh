#!/usr/bin/env bash
# No path of the machine that built linfuzz is compiled into the installed libraries: their code and data
# (debug information aside, which names the sources by design) do not contain the source or build directory.
# Root causes name source files relative to the tree of the code under test, decided when they are stored
# (rootcause/rc_store.c), not from where linfuzz was built.
# Usage: test_no_build_path.sh OBJCOPY SOURCE_DIR BINARY_DIR LIBRARY...
set -u
source "$(dirname "$0")/../lib.sh"
OBJCOPY=$1 SRC=$2 BIN=$3
shift 3
for lib in "$@"; do
  [ -f "$lib" ] || { bad "$lib: no such library"; continue; }
  "$OBJCOPY" --strip-debug "$lib" "$tmp/stripped.a" || { bad "$lib: objcopy failed"; continue; }
  text=$(strings -a "$tmp/stripped.a")
  [ -n "$text" ] && ok || bad "$lib: no strings read"
  for dir in "$SRC" "$BIN"; do
    found=$(grep -F -- "$dir/" <<<"$text" | head -3 | tr '\n' ' ')
    [ -z "$found" ] && ok || bad "$(basename "$lib") contains the path $dir: $found"
  done
done
finish
