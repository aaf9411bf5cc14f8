# Shared helpers of the ci/*.sh scripts: source it after `cd` to the repository root (`source ci/lib.sh`).
#
# Arguments (every script validates what it is given, so that a slip is an error and not a surprise):
#   ci_help "$@"            prints the script's header comment and exits 0 when an argument is -h or --help
#   ci_die MESSAGE          "ci/SCRIPT.sh: MESSAGE" on stderr and exit 2 (bad usage)
#   ci_seconds OPT VALUE    dies unless VALUE is a positive number of seconds (fractions allowed)
#   ci_count OPT VALUE      dies unless VALUE is a positive whole number
#   ci_build_dir DIR        dies unless DIR can be a build directory: a CMake build directory already, an empty
#                           one, or a new path; never an option, a number, an adapter's name or another
#                           directory of files (ci/make_seeds.sh NAME once rebuilt everything into ./NAME)
#   ci_no_args "$@"         dies when a script that takes no arguments is given some
#   ci_use_build DIR BIN    checks DIR (ci_build_dir) and builds it with ci/build.sh unless DIR/bin/BIN exists
#   median                  the median of the numbers on stdin, one a line (benchmarks)
# Progress (one live line on stderr, like linfuzz's own, cli/status_line.c: redrawn in place on a
# terminal, a line of its own every LINFUZZ_PROGRESS_SECONDS (default 5) elsewhere; LINFUZZ_PROGRESS=0 or
# progress_quiet turns it off):
#   progress_start TITLE    starts timing a long step ("ci/fuzz.sh")
#   progress_due            true when the line should be drawn now (compute an expensive text only then)
#   progress TEXT           draws "TITLE [elapsed]: TEXT" when due
#   progress_end            erases the line (terminal); call before printing results
#   ci_build DIR [--target=T...] [ARGS...]
#                           configures DIR (clang, Ninja, then ARGS for cmake: -DCMAKE_C_COMPILER=gcc
#                           overrides) and builds it, or targets T (LINFUZZ_BUILD_JOBS=N: ninja -j N), with
#                           the build's progress
#                           ("building build: 120/231 (spec_seq.c.o)") as the line and the log in
#                           DIR/ci-build.log; on failure prints the end of the log and returns non-zero
# shellcheck shell=bash

CI_SCRIPT=ci/$(basename "$0")

ci_die() {
  echo "$CI_SCRIPT: $*" >&2
  exit 2
}

ci_help() {
  local a
  for a in "$@"; do
    if [ "$a" = -h ] || [ "$a" = --help ]; then
      # the header comment: the lines after the shebang up to the first line that is not a comment
      sed -n '2,/^[^#]/p' "$0" | sed -n 's/^# \{0,1\}//p'
      exit 0
    fi
  done
}

ci_no_args() {
  ci_help "$@"
  [ $# = 0 ] || ci_die "unexpected argument '$1' (--help says what it takes)"
}

ci_seconds() {
  [[ ${2:-} =~ ^[0-9]+(\.[0-9]+)?$ ]] && awk -v s="$2" 'BEGIN { exit !(s > 0) }' ||
    ci_die "$1 takes a positive number of seconds, not '${2:-}'"
}

ci_count() {
  [[ ${2:-} =~ ^[1-9][0-9]*$ ]] || ci_die "$1 takes a positive whole number, not '${2:-}'"
}

ci_build_dir() {
  local d=$1
  [ -n "$d" ] || ci_die "the build directory is empty"
  case $d in
    -*) ci_die "'$d' is not a build directory (an option? --help lists them)" ;;
  esac
  [[ $d =~ ^[0-9.]+$ ]] && ci_die "'$d' is a number, not a build directory (--help says what it takes)"
  if [[ $d != */* ]] && [ -d "corpus/$d" ]; then
    ci_die "'$d' is the name of an adapter (corpus/$d), not a build directory (--help says what it takes)"
  fi
  if [ -e "$d" ] && ! [ -f "$d/CMakeCache.txt" ]; then
    [ -d "$d" ] || ci_die "'$d' is a file, not a build directory"
    [ -z "$(ls -A "$d")" ] || ci_die "'$d' is a directory of other files, not a build directory (no CMakeCache.txt)"
  fi
  return 0
}

ci_use_build() {
  ci_build_dir "$1"
  [ -x "$1/bin/$2" ] || bash ci/build.sh "$1" || ci_die "cannot build $1"
}

median() { sort -n | awk '{a[NR]=$1} END {print (NR%2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }

# ---- fuzz target runs of the bench_* scripts ----

# A fuzz target's run of SECONDS going on after violations (LINFUZZ_FUZZ_CONTINUE=1): prints its executions,
# runs and violations per second, "EXEC/S RUNS/S VIOLATIONS" (the harness's summary line; 0 0 - without one).
# Usage: ci_fuzz_rates BINARY SECONDS WORK_DIR [NAME=VALUE...] -- [CORPUS_DIR...]   (as ci_first_violation)
ci_fuzz_rates() {
  local bin=$1 secs=$2 work=$3 envs=() s e r v
  shift 3
  while [ $# -gt 0 ] && [ "$1" != -- ]; do envs+=("$1") && shift; done
  [ $# -gt 0 ] && shift
  rm -rf "$work" && mkdir -p "$work/corpus"
  env ${envs[@]+"${envs[@]}"} LINFUZZ_FUZZ_CONTINUE=1 LINFUZZ_FUZZ_SECONDS="$secs" "$bin" \
    -max_total_time=$((secs + 10)) -artifact_prefix="$work/" "$work/corpus" "$@" >"$work/log" 2>&1 || true
  s=$(grep -o 'linfuzz-fuzz: summary .*' "$work/log" | tail -1)
  e=$(sed -n 's/.* executions=\([0-9]*\).*/\1/p' <<<"$s") r=$(sed -n 's/.* runs=\([0-9]*\).*/\1/p' <<<"$s")
  v=$(sed -n 's/.* violations=\([0-9]*\).*/\1/p' <<<"$s")
  awk -v e="${e:-0}" -v r="${r:-0}" -v t="$secs" -v v="${v:--}" 'BEGIN{printf "%.0f %.0f %s\n", e/t, r/t, v}'
}


# Seconds from a fuzz target's start to its first violation (the harness's own time), or "inf" when it found
# none within CAP seconds. Usage: ci_first_violation BINARY CAP WORK_DIR [NAME=VALUE...] -- [CORPUS_DIR...]
# The environment settings go to the target; WORK_DIR (emptied first) holds its new corpus, artifacts and log.
ci_first_violation() {
  local bin=$1 cap=$2 work=$3 envs=() t
  shift 3
  while [ $# -gt 0 ] && [ "$1" != -- ]; do envs+=("$1") && shift; done
  [ $# -gt 0 ] && shift
  rm -rf "$work" && mkdir -p "$work/corpus"
  env ${envs[@]+"${envs[@]}"} LINFUZZ_FUZZ_SECONDS="$cap" "$bin" -max_total_time=$((cap + 10)) -timeout=60 \
    -artifact_prefix="$work/" "$work/corpus" "$@" >"$work/log" 2>&1 || true
  t=$(sed -n 's/.*linfuzz-fuzz: violation .* seconds=\([0-9.]*\) .*/\1/p' "$work/log" | head -1)
  echo "${t:-inf}"
}

# The median of the times on stdin ("inf": not found, sorts last) and how many found one: "0.123 (3/3)", or
# ">CAP (1/3)" when the median found none. Usage: ci_median_found CAP
ci_median_found() {
  sort -g | awk -v cap="$1" '{v[NR]=$1; if ($1 != "inf") f++} END {
    m = v[int((NR + 1) / 2)]; if (m == "inf") m = ">" cap; else m = sprintf("%.3f", m);
    printf "%s (%d/%d)", m, f, NR }'
}

# ---- progress ----

_progress_on=1
case ${LINFUZZ_PROGRESS:-1} in
  0 | no | off | false) _progress_on=0 ;;
  1 | yes | on | true) ;;
  *) echo "$CI_SCRIPT: LINFUZZ_PROGRESS=${LINFUZZ_PROGRESS}: expected 1/yes/on/true or 0/no/off/false" \
       "(progress line off)" >&2
     _progress_on=0 ;;
esac
_progress_tty=0
[ -t 2 ] && _progress_tty=1
_progress_title=$CI_SCRIPT _progress_t0=0 _progress_last=0 _progress_drawn=0
# microseconds since the epoch (bash 5's EPOCHREALTIME, else date)
_progress_now() { if [ -n "${EPOCHREALTIME:-}" ]; then echo "${EPOCHREALTIME/./}"; else date +%s%6N; fi; }
_progress_period=5000000
if [ -n "${LINFUZZ_PROGRESS_SECONDS:-}" ]; then
  if [[ $LINFUZZ_PROGRESS_SECONDS =~ ^[0-9]+(\.[0-9]+)?$ ]]; then
    _progress_period=$(awk -v s="$LINFUZZ_PROGRESS_SECONDS" 'BEGIN { p = int(s * 1e6); print (p > 10000 ? p : 10000) }')
  else
    echo "$CI_SCRIPT: LINFUZZ_PROGRESS_SECONDS=$LINFUZZ_PROGRESS_SECONDS is not a number of seconds (5 s)" >&2
  fi
fi

progress_quiet() { _progress_on=0; }

progress_start() {
  _progress_title=$1 _progress_t0=$(_progress_now) _progress_last=0 _progress_drawn=0
}

progress_due() {
  [ "$_progress_on" = 1 ] || return 1
  local now elapsed delay=$_progress_period period=$_progress_period
  [ "$_progress_tty" = 1 ] && delay=500000 period=200000
  now=$(_progress_now)
  elapsed=$((now - _progress_t0))
  [ "$elapsed" -ge "$delay" ] && [ $((now - _progress_last)) -ge "$period" ]
}

progress() {
  progress_due || return 0
  local now secs line
  now=$(_progress_now)
  secs=$(((now - _progress_t0) / 1000000))
  if [ "$secs" -lt 60 ]; then secs="$secs s"; else secs="$((secs / 60)) min $(printf %02d $((secs % 60))) s"; fi
  line="$_progress_title [$secs]: $*"
  if [ "$_progress_tty" = 1 ]; then
    local width=${COLUMNS:-$(tput cols 2>/dev/null || echo 80)}
    printf '\r%s\033[K' "${line:0:$((width - 1))}" >&2
    _progress_drawn=1
  else
    printf '%s\n' "$line" >&2
  fi
  _progress_last=$now
}

progress_end() {
  if [ "$_progress_tty" = 1 ] && [ "$_progress_drawn" = 1 ]; then printf '\r\033[K' >&2; fi
  _progress_drawn=0
}

ci_build() {
  local dir=$1 log rc targets=()
  shift
  while [[ ${1:-} == --target=* ]]; do
    targets+=("${1#--target=}")
    shift
  done
  mkdir -p "$dir" || return 1
  log=$dir/ci-build.log
  progress_start "$CI_SCRIPT"
  progress "configuring $dir"
  if ! cmake -S . -B "$dir" -G Ninja -DCMAKE_C_COMPILER=clang "$@" >"$log" 2>&1; then
    progress_end
    echo "$CI_SCRIPT: cmake failed in $dir (the end of $log):" >&2
    tail -n 30 "$log" >&2
    return 1
  fi
  # ninja prints "[done/total] what" per step when its output is not a terminal
  local line steps="" t0=$SECONDS
  while IFS= read -r line; do
    printf '%s\n' "$line" >>"$log"
    if [[ $line =~ ^\[([0-9]+)/([0-9]+)\]\ (.*)$ ]]; then
      steps=${BASH_REMATCH[2]}
      progress "building $dir: ${BASH_REMATCH[1]}/${BASH_REMATCH[2]} (${BASH_REMATCH[3]##*/})"
    fi
  done < <(ninja -C "$dir" ${LINFUZZ_BUILD_JOBS:+-j "$LINFUZZ_BUILD_JOBS"} "${targets[@]}" 2>&1; echo "ninja-exit $?")
  progress_end
  rc=$(sed -n 's/^ninja-exit //p' "$log" | tail -1)
  if [ "${rc:-1}" != 0 ]; then
    echo "$CI_SCRIPT: the build of $dir failed (the end of $log):" >&2
    grep -v '^ninja-exit ' "$log" | tail -n 40 >&2
    return 1
  fi
  echo "$CI_SCRIPT: built $dir (${steps:-0} steps, $((SECONDS - t0)) s; log: $log)" >&2
}
