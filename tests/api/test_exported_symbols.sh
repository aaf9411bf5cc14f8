#!/usr/bin/env bash
# Every global symbol the installed static libraries define starts with lf_/LF_, so that linking linfuzz into a
# project never clashes with its own names. Exceptions, by design: the runtime's implementations of the
# ThreadSanitizer instrumentation ABI (__tsan_*: controlled mode's scheduling points, runtime/sched/tsan_access.c)
# and the weak no-op SanitizerCoverage callbacks for binaries without libFuzzer (__sanitizer_cov_*,
# __sancov_*: runtime/sched/sancov_stubs.c).
# Usage: test_exported_symbols.sh NM LIBRARY...
set -u
source "$(dirname "$0")/../lib.sh"
NM=$1
shift
for lib in "$@"; do
  [ -f "$lib" ] || { bad "$lib: no such library"; continue; }
  names=$("$NM" -g --defined-only "$lib" 2>/dev/null | awk 'NF == 3 {print $3}' | sort -u)
  [ -n "$names" ] && ok || bad "$lib: no symbols read (nm failed?)"
  others=$(grep -vE '^(lf_|LF_|__tsan_|__sanitizer_cov_|__sancov_)' <<<"$names" | tr '\n' ' ')
  [ -z "$others" ] && ok || bad "$(basename "$lib") exports names without the lf_ prefix: $others"
done
finish
