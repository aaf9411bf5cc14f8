#!/usr/bin/env bash
# What the repository keeps and names stays true (CONTRIBUTING.md):
# - no libFuzzer artifact is tracked (crash-*, leak-*, timeout-*, oom-*, slow-unit-* with a hash), and
#   .gitignore keeps them out wherever a fuzz target runs in the tree;
# - every path of this repository named in the docs, the README, the scripts, the CMake files and the source
#   comments exists (a moved or renamed file leaves no stale reference behind).
# Skipped (77) outside a git checkout (a source tarball has no index to ask).
# Usage: test_repo_hygiene.sh [SOURCE_ROOT]
set -u
source "$(dirname "$0")/../lib.sh"
ROOT=${1:-$(cd "$(dirname "$0")/../.." && pwd)}
cd "$ROOT" || exit 2
git rev-parse --is-inside-work-tree >/dev/null 2>&1 || { echo "not a git checkout: skipped"; exit 77; }

artifact='(^|/)(crash|leak|timeout|oom|slow-unit)-[0-9a-f]{8,}$'
tracked=$(git ls-files | grep -E "$artifact" | head -5)
check "no fuzzer artifact is tracked (${tracked:-none})" test -z "$tracked"
for p in crash-0123456789abcdef leak-0123456789abcdef timeout-0123456789abcdef oom-0123456789abcdef \
         corpus/x/crash-0123456789abcdef build/y/timeout-0123456789abcdef; do
  check ".gitignore ignores $p" git check-ignore -q --no-index "$p"
done

# Paths: words that start with a top-level folder of this repository and end in a file name with an extension
# or in a '/', in every tracked text file except data (corpus entries, test histories).
tops='adapters|bench|ci|cli|cmake|corpus|docs|engines|findings|fuzz|include|rootcause|runtime|testcase|tests|util'
named=0
while IFS=: read -r file path; do
  named=$((named + 1))
  path=${path%.}         # a sentence's full stop
  path=${path%:}
  case $path in
    *'<'* | *'*'* | *'$'* | *'{'* | *'...'*) continue ;; # a pattern, not a path
  esac
  [[ $path =~ (^|/)[A-Z][A-Z_]+(/|\.|$) ]] && continue  # a placeholder: corpus/ADAPTER/, ci/SCRIPT.sh
  top=${path%%/*}
  # A path, or a header as it is included: "runtime/sched.h" is runtime/include/runtime/sched.h.
  [ -e "$path" ] || [ -e "$top/include/$path" ] || [ -e "include/$path" ] ||
    bad "$file names $path, which does not exist"
done < <(git ls-files -z -- ':!corpus/*' ':!tests/data/*' ':!*.lfz' ':!LICENSE' ':!.gitignore' ':!tests/api/test_repo_hygiene.sh' |
         xargs -0 perl -ne 'next if /^\s*#\s*include/ || -B $ARGV;
           while (m{(?:^|[^A-Za-z0-9_./-])((?:'"$tops"')/[A-Za-z0-9_./<>*\$\{\}-]*(?:[A-Za-z0-9_-]\.[a-z]{1,5}|/))}g) {
             print "$ARGV:$1\n" }' | sort -u)
check "paths were found in the tree ($named)" test "$named" -gt 200
finish
