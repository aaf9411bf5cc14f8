#!/usr/bin/env bash
# The include graph follows the architecture (docs/architecture.md, "Folders and what they may include"):
# - every #include "..." of a library's file resolves, exactly as the compiler would resolve it, to the file's
#   own library (its folder, private headers included), the public headers (include/linfuzz/), or the
#   interface headers (<lib>/include/<lib>/) of a library the layer table below allows: never to another
#   library's private header, never upwards;
# - the folders inside engines/ and runtime/ (the modules of one library) include each other without a cycle.
# The build enforces the first by what each library exports (a private header is not on another library's
# include path); this test keeps the designed layer order and finds what the build would only find when the
# include directories of a target are widened.
# Usage: test_include_graph.sh [SOURCE_ROOT]    (default: this checkout)
set -u
source "$(dirname "$0")/../lib.sh"
ROOT=${1:-$(cd "$(dirname "$0")/../.." && pwd)}
cd "$ROOT" || exit 2

# library: the libraries whose interface it may include (besides the public headers and util's).
declare -A allowed=(
  [util]=""
  [engines]=""
  [runtime]=""
  [findings]=""
  [testcase]="runtime findings"
  [rootcause]="runtime findings testcase"
  [cli]="runtime findings testcase rootcause"
  [fuzz]="runtime findings testcase rootcause cli"
  [adapters]=""
)

# Where "name" can resolve for a file of library lib: its own directory, then the library's own include
# directories, then the interfaces it may use.
search_dirs() { # LIB FILE_DIR
  local lib=$1 dir=$2 d
  printf '%s\n' "$dir"
  case $lib in
    engines) printf '%s\n' engines ;;
    runtime | rootcause | cli) printf '%s\n' "$lib" ;;
  esac
  [ -d "$lib/include" ] && printf '%s\n' "$lib/include"
  printf '%s\n' include
  [ "$lib" = util ] || printf '%s\n' util/include
  for d in ${allowed[$lib]}; do printf '%s\n' "$d/include"; done
}

# Which library a path belongs to.
library_of() {
  case $1 in
    include/*) echo public ;;
    */*) echo "${1%%/*}" ;;
    *) echo top ;;
  esac
}

edges=$tmp/edges
: >"$edges"
checked=0
for lib in "${!allowed[@]}"; do
  while IFS= read -r file; do
    dir=$(dirname "$file")
    while IFS= read -r name; do
      checked=$((checked + 1))
      found=""
      while IFS= read -r d; do
        if [ -f "$d/$name" ]; then found=$(realpath -m --relative-to=. "$d/$name"); break; fi
      done < <(search_dirs "$lib" "$dir")
      if [ -z "$found" ]; then
        # Not a linfuzz header at all (a library under test's own, e.g. ck's or liburcu's): only adapters may.
        if [ "$lib" = adapters ] || ! find . -path ./build\* -prune -o -name "$(basename "$name")" -print | grep -q .; then
          continue
        fi
        bad "$file includes \"$name\", which is no header $lib may include (another library's private header, or a library above it)"
        continue
      fi
      to=$(library_of "$found")
      if [ "$to" != "$lib" ] && [ "$to" != public ] && [ "$to" != util ]; then
        case " ${allowed[$lib]} " in
          *" $to "*) ;;
          *) bad "$file includes $found: $lib may not use $to" ;;
        esac
        case $found in
          "$to/include/$to/"*) ;;
          *) bad "$file includes $found, a private header of $to" ;;
        esac
      fi
      # Module edges inside engines/ and runtime/ (for the cycle check): folder -> folder.
      if [ "$to" = "$lib" ] && { [ "$lib" = engines ] || [ "$lib" = runtime ]; }; then
        from_mod=$(cut -d/ -f1-2 <<<"$file")
        to_mod=$(cut -d/ -f1-2 <<<"$found")
        [ "$to_mod" = runtime/include ] && to_mod=runtime/interface
        [ "$from_mod" = runtime/include ] && from_mod=runtime/interface
        [ "$from_mod" != "$to_mod" ] && echo "$from_mod $to_mod" >>"$edges"
      fi
    done < <(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$file")
  done < <(find "$lib" -name '*.[ch]' | sort)
done

# Cycles: tsort says "input contains a loop" and names its members.
sort -u "$edges" >"$edges.u"
if tsort "$edges.u" >/dev/null 2>"$tmp/tsort"; then
  ok
else
  bad "the modules of a library include each other in a cycle: $(tr '\n' ' ' <"$tmp/tsort")"
fi
check "the graph was read ($checked includes)" test "$checked" -gt 300
finish
