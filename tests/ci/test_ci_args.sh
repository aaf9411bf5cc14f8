#!/usr/bin/env bash
# The ci/*.sh scripts check their arguments before doing anything (ci/lib.sh): every one answers --help with
# its usage and exit 0; a wrong argument is exit 2 with a message naming the script and the argument, and
# nothing is built. Build directories that are adapter names, numbers, options or directories of other
# files are refused (ci/make_seeds.sh NAME used to rebuild everything into ./NAME). And the progress line of
# ci/lib.sh: off a terminal, "TITLE [elapsed]: text" every LINFUZZ_PROGRESS_SECONDS, none when quiet.
# Usage: test_ci_args.sh
set -u
source "$(dirname "$0")/../lib.sh"
ROOT=$(cd "$(dirname "$0")/../.." && pwd)

for s in "$ROOT"/ci/*.sh; do
  name=$(basename "$s")
  [ "$name" = lib.sh ] && continue
  # (timeout: a script that does not know --help would start its real work)
  timeout 20 bash "$s" --help >"$tmp/out" 2>&1
  rc=$?
  [ "$rc" = 0 ] && grep -q "Usage: ci/$name" "$tmp/out" && ok || bad "$name --help: exit $rc: $(head -c 300 "$tmp/out")"
done

# script @ arguments @ what the message says
while IFS='@' read -r script args pattern; do
  # shellcheck disable=SC2086
  expect_err 2 "^ci/$script: .*$pattern" "ci/$script $args" bash "$ROOT/ci/$script" $args
done <<'T'
make_seeds.sh@--build treiber_aba@'treiber_aba' is the name of an adapter
make_seeds.sh@--bogus@unknown option '--bogus'
build.sh@corpus@'corpus' is a directory of other files, not a build directory
build.sh@5@'5' is a number, not a build directory
build.sh@build -Werror@'-Werror' is not a cmake -D or -U argument
tsan.sh@2@'2' is a number, not a build directory
tsan.sh@build-tsan 0@RUNS_PER_ADAPTER takes a positive whole number, not '0'
tsan.sh@build-tsan 2 x@unexpected argument 'x'
quickstart.sh@treiber_aba@SECONDS_PER_ADAPTER takes a positive number of seconds, not 'treiber_aba'
quickstart.sh@--build docs@'docs' is a directory of other files
fuzz_self.sh@0@SECONDS_PER_TARGET takes a positive whole number, not '0'
fuzz_self.sh@--out@--out needs a directory
fuzz.sh@--seconds 0@--seconds needs a positive number
fuzz.sh@--build ms_queue@'ms_queue' is the name of an adapter
test.sh@foo@unexpected argument 'foo'
deps.sh@foo@unexpected argument 'foo'
bench.sh@1e6@SIZE takes a positive whole number, not '1e6'
bench_anchors.sh@1e6@SIZE takes a positive whole number, not '1e6'
bench_wgl.sh@x@unexpected argument 'x'
bench_fuzz.sh@x@CAP_SECONDS takes a positive whole number, not 'x'
bench_fuzz_vs_stress.sh@x@CAP_SECONDS takes a positive whole number, not 'x'
bench_fuzz_vs_stress.sh@5 3 x@unexpected argument 'x'
bench_runtime.sh@5@'5' is a number, not a build directory
bench_pipeline.sh@corpus@'corpus' is a directory of other files
bench_frontier.sh@4@unexpected argument '4'
T
[ ! -e "$ROOT/treiber_aba" ] && [ ! -e "$ROOT/ms_queue" ] && ok || bad "a build directory named after an adapter was made"

# The progress line, off a terminal: a line per period, the title and elapsed time first; none when quiet.
cd "$ROOT" || exit 1
progress_demo() { # stderr of 25 calls of progress 20 ms apart, with a 0.1 s period
  # shellcheck disable=SC1091
  LINFUZZ_PROGRESS_SECONDS=0.1 bash -c 'source ci/lib.sh; '"$1"'; progress_start demo
    for i in $(seq 25); do progress "step $i"; sleep 0.02; done; progress_end' 2>&1 >/dev/null
}
lines=$(progress_demo : | grep -c '^demo \[[0-9]* s\]: step [0-9]*$')
# (25 calls 20 ms apart, one line per 0.1 s: some lines, far fewer than calls)
[ "$lines" -ge 2 ] && [ "$lines" -le 15 ] && ok || bad "progress: $lines lines for 25 calls over 0.5 s at a 0.1 s period"
[ "$(progress_demo progress_quiet | wc -l)" = 0 ] && ok || bad "progress_quiet still draws"
[ "$(LINFUZZ_PROGRESS=0 progress_demo : | wc -l)" = 0 ] && ok || bad "LINFUZZ_PROGRESS=0 still draws"
finish
