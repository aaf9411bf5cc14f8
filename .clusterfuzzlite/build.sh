#!/bin/bash -eu
# ClusterFuzzLite / OSS-Fuzz build of linfuzz's fuzz targets (docs/ci.md). The builder image
# (.clusterfuzzlite/Dockerfile, gcr.io/oss-fuzz-base/base-builder) runs it with its environment:
#   CC, CFLAGS          compiler and flags (sanitizer and coverage instrumentation: applied to all the code)
#   LIB_FUZZING_ENGINE  link flags of the fuzzing engine (-fsanitize=fuzzer: the targets need libFuzzer)
#   OUT                 where the fuzz targets and their seed corpora (<target>_seed_corpus.zip) go
#   SRC, WORK           the sources' parent directory; scratch space (the CMake build goes to $WORK)
# Built: fuzz_<adapter> for every adapter expected to be linearizable, and the self targets fuzz_parse_text,
# fuzz_parse_lfz, fuzz_check_diff, each with its .options file (docs/ci.md, "One crash per bug"). Not the
# known-buggy adapters' targets: they find their bug within seconds,
# every time, and continuous fuzzing would report that expected bug on every run (ci/fuzz.sh fuzzes them).
# LINFUZZ_CFLITE_TARGETS="mutex_queue parse_text ..." builds only those (tests/ci/test_cflite_build.sh);
# LINFUZZ_BUILD_JOBS caps the parallel compile jobs (default: every core).
set -eu -o pipefail

# The sources: this script's parent directory when run from a checkout, else the working directory (the
# Dockerfile copies the repository to $SRC/linfuzz, makes it the WORKDIR, and this script to $SRC/build.sh).
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
if [ -f "$here/../CMakeLists.txt" ] && grep -q 'project(linfuzz' "$here/../CMakeLists.txt"; then
  src=$(cd "$here/.." && pwd)
elif [ -f "$PWD/CMakeLists.txt" ] && grep -q 'project(linfuzz' "$PWD/CMakeLists.txt"; then
  src=$PWD
elif [ -f "${SRC:-/src}/linfuzz/CMakeLists.txt" ]; then
  src=${SRC:-/src}/linfuzz
else
  echo "build.sh: cannot find linfuzz's sources (looked in $here/.., $PWD and \$SRC/linfuzz)" >&2
  exit 1
fi
for var in CC CFLAGS OUT WORK LIB_FUZZING_ENGINE; do
  if [ -z "${!var:-}" ]; then echo "build.sh: \$$var is not set (run by ClusterFuzzLite/OSS-Fuzz)" >&2; exit 1; fi
done
# Unsigned arithmetic wraps on purpose here (hashes, random number generators, index tricks): well-defined C
# that OSS-Fuzz's UBSan flags report when asked for unsigned-integer-overflow. Not asked.
if [[ $CFLAGS == *unsigned-integer-overflow* ]]; then CFLAGS="$CFLAGS -fno-sanitize=unsigned-integer-overflow"; fi
export CFLAGS
jobs=${LINFUZZ_BUILD_JOBS:-$(nproc)}
build=$WORK/linfuzz-build
generator=("Unix Makefiles")
command -v ninja >/dev/null && generator=(Ninja)

# CFLAGS come from the environment (CMake's CMAKE_C_FLAGS). The build type adds no flags of its own, warnings
# are not errors (the builder's clang is newer than ours), and the engine's flags are used as they are:
# LINFUZZ_FUZZ_INSTRUMENT is empty because CFLAGS instrument everything already.
cmake -S "$src" -B "$build" -G "${generator[@]}" -DCMAKE_C_COMPILER="$CC" -DCMAKE_BUILD_TYPE=ClusterFuzzLite \
  -DLINFUZZ_WERROR=OFF -DLINFUZZ_FUZZING_ENGINE="$LIB_FUZZING_ENGINE" -DLINFUZZ_FUZZ_INSTRUMENT=
cmake --build "$build" -j "$jobs" --target linfuzz

# Which adapters are expected to be linearizable: the registry says (`linfuzz adapters`: name type yes|no ...).
# LLVM_PROFILE_FILE: a coverage build's binary would otherwise leave a profile here.
adapters=$(LLVM_PROFILE_FILE=/dev/null "$build/bin/linfuzz" adapters | awk '$3 == "yes" {print $1}')
[ -n "$adapters" ] || { echo "build.sh: linfuzz adapters listed no adapter" >&2; exit 1; }
targets=()
for a in $adapters; do targets+=("fuzz_$a"); done
targets+=(fuzz_parse_text fuzz_parse_lfz fuzz_check_diff)
if [ -n "${LINFUZZ_CFLITE_TARGETS:-}" ]; then
  wanted=()
  for w in $LINFUZZ_CFLITE_TARGETS; do
    w=fuzz_${w#fuzz_}
    if [[ " ${targets[*]} " == *" $w "* ]]; then
      wanted+=("$w")
    else
      echo "build.sh: skipping $w: not a target built here (a known-buggy adapter, or none of that name)" >&2
    fi
  done
  targets=("${wanted[@]}")
fi
[ ${#targets[@]} -gt 0 ] || { echo "build.sh: no target to build" >&2; exit 1; }
# fuzz_<adapter> are links to one harness binary, linfuzz-fuzz (fuzz/CMakeLists.txt): build that and
# the self targets wanted.
cmake_targets=()
for t in "${targets[@]}"; do
  case $t in
    fuzz_parse_text | fuzz_parse_lfz | fuzz_check_diff) cmake_targets+=("$t") ;;
    *) [[ " ${cmake_targets[*]} " == *" linfuzz-fuzz "* ]] || cmake_targets+=(linfuzz-fuzz) ;;
  esac
done
cmake --build "$build" -j "$jobs" --target "${cmake_targets[@]}"

# The targets and their seed corpora: corpus/<adapter>/seeds, corpus/self/<target> (zip -j: flat archive).
for t in "${targets[@]}"; do
  cp "$build/bin/$t" "$OUT/$t"
  # A violation's capture (minimizing the test and the history, root causing: seconds) must end in its own
  # crash report, not in libFuzzer's timeout; a hung run is the STUCK watchdog's to report (docs/ci.md).
  printf '[libfuzzer]\ntimeout = 120\n' >"$OUT/$t.options"
  name=${t#fuzz_}
  seeds=$src/corpus/$name/seeds
  [ -d "$seeds" ] || seeds=$src/corpus/self/$name
  if [ -d "$seeds" ] && command -v zip >/dev/null; then
    rm -f "$OUT/${t}_seed_corpus.zip"
    zip -q -j "$OUT/${t}_seed_corpus.zip" "$seeds"/*
  else
    echo "build.sh: no seed corpus for $t (no $seeds, or no zip)" >&2
  fi
done
echo "build.sh: ${#targets[@]} fuzz targets in $OUT"
