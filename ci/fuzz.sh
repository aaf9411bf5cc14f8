#!/usr/bin/env bash
# The continuous-fuzzing job (docs/ci.md): fuzzes every adapter's libFuzzer target and linfuzz's own targets
# (parsers, engine differential) for a time budget each, merges what they learnt into a corpus directory,
# collects the violations and crash inputs, and prints a markdown summary: per adapter, whether it is expected
# to be linearizable, executions, violations, distinct signatures (`linfuzz triage`), an example entry; then
# the self targets; then the triage table of every finding; and one HTML page per entry (`linfuzz show --html`).
#
# Exit 1 when an adapter expected to be linearizable produced a violation, crashed (a memory error of the code
# under test is saved as a CRASH entry, triaged with the rest) or got STUCK (an operation that never returned:
# the target saves a STUCK entry and ends), or a self target crashed
# (a known-buggy adapter's violations are expected: never a failure); 2 bad usage or no fuzz targets; else 0.
#
# Usage: ci/fuzz.sh [options]
#   --seconds S        fuzzing time per adapter target (default 10; fractions allowed)
#   --self-seconds S   fuzzing time per self target (default: --seconds, rounded up)
#   --adapters A,B,..  only these adapters (default: every adapter of `linfuzz adapters`)
#   --no-self          skip the self targets;  --self-only: only them
#   --out DIR          results (default: a new temporary directory): summary.md, triage.md, violations/ADAPTER/
#                      (entries), html/ADAPTER/ (a page per entry), crashes/ (libFuzzer artifacts of adapter
#                      targets), self-crashes/, logs/
#   --corpus DIR       corpus to start from and merge into (-merge=1): DIR/ADAPTER/, DIR/self/TARGET/ (default
#                      OUT/corpus; keep it between runs, e.g. as a CI cache, so that each run starts further on)
#   --jobs N           targets fuzzed at the same time (default: half the cores, at least 1)
#   --fork N           libFuzzer -fork=N inside each target (default 0: one process per target)
#   --capture N        violations minimized and saved per target, spread over the run (default 8)
#   --expect NAME=yes|no  treat NAME as expected linearizable (yes) or known buggy (no); repeatable
#   --rootcause-seconds S  time budget of `linfuzz rootcause --write` (500 schedules) on each entry found in
#                      controlled mode, before triage, so that triage groups by root cause (default 20; the
#                      whole step stops starting entries after 10 times that); 0: no root causing
#   --build DIR        the build (default: the AddressSanitizer + UBSan build, $LINFUZZ_BUILD_DIR-asan or
#                      build-asan, built with -DLINFUZZ_SANITIZE=ON when it has no fuzz targets: a use after free
#                      or any memory error of the code under test is a finding, a CRASH entry (docs/ci.md); a
#                      DIR of your own is built with ci/build.sh as it is)
#   -q                 no progress line (by default one line on stderr: targets done, running, executions,
#                      violations and failures so far, time left; in place on a terminal, every 5 s elsewhere)
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2
ROOT=$PWD
source ci/lib.sh

die() { ci_die "$@"; }
is_seconds() { [[ $1 =~ ^[0-9]+(\.[0-9]+)?$ ]] && awk -v s="$1" 'BEGIN{exit !(s > 0)}'; }
ceil() { awk -v s="$1" 'BEGIN{c = int(s); if (c < s) c++; print c}'; }

secs=10 self_secs="" only="" run_adapters=1 run_self=1 out="" corpus="" fork=0 capture=8 rc_secs=20
BUILD=${LINFUZZ_BUILD_DIR:-build}-asan sanitized_default=1
jobs=$(( $(nproc 2>/dev/null || echo 2) / 2 )); [ "$jobs" -ge 1 ] || jobs=1
declare -A expect_override=()
while [ $# -gt 0 ]; do
  case $1 in
    --seconds) [ $# -ge 2 ] && is_seconds "$2" || die "--seconds needs a positive number"; secs=$2; shift ;;
    --self-seconds) [ $# -ge 2 ] && is_seconds "$2" || die "--self-seconds needs a positive number"; self_secs=$2; shift ;;
    --adapters) [ $# -ge 2 ] || die "--adapters needs a list"; only=$2; shift ;;
    --no-self) run_self=0 ;;
    --self-only) run_adapters=0 ;;
    --out) [ $# -ge 2 ] || die "--out needs a directory"; out=$2; shift ;;
    --corpus) [ $# -ge 2 ] || die "--corpus needs a directory"; corpus=$2; shift ;;
    --jobs) [[ ${2:-} =~ ^[1-9][0-9]*$ ]] || die "--jobs needs a positive integer"; jobs=$2; shift ;;
    --fork) [[ ${2:-} =~ ^[0-9]+$ ]] || die "--fork needs an integer"; fork=$2; shift ;;
    --rootcause-seconds) [[ ${2:-} =~ ^[0-9]+$ ]] || die "--rootcause-seconds needs an integer"; rc_secs=$2; shift ;;
    --capture) [[ ${2:-} =~ ^[1-9][0-9]*$ ]] || die "--capture needs a positive integer"; capture=$2; shift ;;
    --expect) [[ ${2:-} =~ ^[a-z0-9_-]+=(yes|no)$ ]] || die "--expect needs NAME=yes or NAME=no"
              expect_override[${2%%=*}]=${2#*=}; shift ;;
    --build) [ $# -ge 2 ] || die "--build needs a directory"; BUILD=$2 sanitized_default=0; shift ;;
    -q|--quiet) progress_quiet ;;
    -h|--help) ci_help --help ;;
    *) die "unknown argument '$1' (--help lists the options)" ;;
  esac
  shift
done
self_secs=$(ceil "${self_secs:-$secs}")
ci_build_dir "$BUILD"
if [ ! -x "$BUILD/bin/linfuzz" ] || ! ls "$BUILD"/bin/fuzz_* >/dev/null 2>&1; then
  if [ "$sanitized_default" = 1 ]; then
    bash ci/build.sh "$BUILD" -DLINFUZZ_SANITIZE=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo || die "cannot build $BUILD"
  else
    bash ci/build.sh "$BUILD" || die "cannot build $BUILD"
  fi
fi
ls "$BUILD"/bin/fuzz_* >/dev/null 2>&1 || die "$BUILD has no fuzz targets (they need clang's libFuzzer)"
BUILD=$(cd "$BUILD" && pwd)
LF=$BUILD/bin/linfuzz
out=${out:-$(mktemp -d "${TMPDIR:-/tmp}/linfuzz-fuzz.XXXXXX")}
mkdir -p "$out" || die "cannot create $out"
out=$(cd "$out" && pwd)
corpus=${corpus:-$out/corpus}
mkdir -p "$corpus" "$out/violations" "$out/crashes" "$out/self-crashes" "$out/logs" "$out/rows" "$out/work" ||
  die "cannot create the directories under $out and $corpus"
corpus=$(cd "$corpus" && pwd)
rm -f "$out"/rows/*

# ---- the adapters and what is expected of them ----
declare -A expected=()
adapters=()
while read -r name _ exp _; do
  expected[$name]=$exp
  adapters+=("$name")
done < <("$LF" adapters)
for name in "${!expect_override[@]}"; do
  [ -n "${expected[$name]:-}" ] || die "--expect: no adapter '$name' in this build"
  expected[$name]=${expect_override[$name]}
done
if [ -n "$only" ]; then
  IFS=, read -r -a adapters <<<"$only"
  for name in "${adapters[@]}"; do [ -n "${expected[$name]:-}" ] || die "--adapters: no adapter '$name' in this build"; done
fi
[ "$run_adapters" = 1 ] || adapters=()
self_targets=()
[ "$run_self" = 1 ] && self_targets=(parse_text parse_lfz check_diff)

field() { sed -n "s/.* $1=\([^ ]*\).*/\1/p" <<<"$2"; }

# Fuzzes one adapter target, merges its corpus, writes its row: name, expected, executions, violations,
# signatures, example, result.
fuzz_adapter() {
  local name=$1 exp=${expected[$1]} log=$out/logs/fuzz_$1.log work=$out/work/$1
  local target=$BUILD/bin/fuzz_$name
  rm -rf "$work" && mkdir -p "$work" "$corpus/$name"
  if [ ! -x "$target" ]; then
    printf '%s\t%s\t-\t-\t-\t-\tno fuzz target\n' "$name" "$exp" >"$out/rows/a-$name"
    return
  fi
  # One process: LINFUZZ_FUZZ_SECONDS ends it on time (-max_total_time is a backstop). -fork: the parent
  # ends the run at -max_total_time, its children's summary lines come through LINFUZZ_FUZZ_SUMMARY_FILE.
  local fork_args=() max_time=$(( $(ceil "$secs") + 10 ))
  [ "$fork" -gt 0 ] && fork_args=(-fork="$fork" -ignore_crashes=1) max_time=$(ceil "$secs")
  rm -f "$out/logs/summary-$name"
  # CONTINUE: count every violation instead of stopping; CAPTURE: minimize and save a few of them (1st, 2nd,
  # 4th, ...).
  # A blocking structure's runs are balanced (the default), so a STUCK run (which ends the target: its threads
  # cannot be taken back) is a bug.
  LINFUZZ_VIOLATIONS_DIR=$out/violations/$name LINFUZZ_FUZZ_CONTINUE=1 LINFUZZ_FUZZ_CAPTURE=$capture \
    LINFUZZ_FUZZ_SECONDS=$secs LINFUZZ_FUZZ_SUMMARY_FILE=$out/logs/summary-$name \
    "$target" -max_total_time="$max_time" -timeout=30 -rss_limit_mb=2048 -artifact_prefix="$out/crashes/$name-" \
    "${fork_args[@]}" "$work" "$corpus/$name" "$ROOT/corpus/$name/seeds" >"$log" 2>&1
  local rc=$?
  # Merge what this run found into the kept corpus (only inputs that add coverage or signal).
  LINFUZZ_VIOLATIONS_DIR=$out/violations/$name LINFUZZ_FUZZ_CONTINUE=1 "$target" -merge=1 -timeout=30 \
    -rss_limit_mb=2048 -artifact_prefix="$out/crashes/$name-" "$corpus/$name" "$work" >"$log.merge" 2>&1 ||
    echo "fuzz_$name: merge failed (log: $log.merge)" >&2
  rm -rf "$work"
  local execs=0 viol=0 line
  while read -r line; do
    execs=$(( execs + $(field executions "$line") ))
    viol=$(( viol + $(field violations "$line") ))
  done < <(cat "$out/logs/summary-$name" 2>/dev/null)
  # a violation met while merging counts too (its executions do not: they re-run known inputs)
  while read -r line; do
    viol=$(( viol + $(field violations "$line") ))
  done < <(grep -o 'linfuzz-fuzz: summary .*' "$log.merge")
  local sigs=0 example=- result
  if compgen -G "$out/violations/$name/*.lfz" >/dev/null; then
    local json
    json=$("$LF" triage -q --json "$out/violations/$name" 2>/dev/null)
    sigs=$(grep -c '^  {"id": ' <<<"$json")
    example=$(grep -m1 '^  {"id": ' <<<"$json" | sed -n 's/.*"smallest": "\([^"]*\)".*/\1/p')
    example=${example#"$out"/}
  fi
  if grep -q 'linfuzz-fuzz: stuck ' "$log" "$log.merge"; then
    # an operation never returned: the watchdog saved a STUCK entry (triaged below) and ended the target
    result="STUCK (log: logs/fuzz_$name.log)"
    [ "$exp" = yes ] && result="FAIL: $result" || result="$result (expected)"
  elif grep -q 'linfuzz-fuzz: crash ' "$log" "$log.merge"; then
    # the code under test crashed (a memory error): the target saved a CRASH entry (triaged below)
    result="CRASH: $(grep -ho 'linfuzz-fuzz: CRASH of [^:]*: [^:]*' "$log" "$log.merge" | head -1 |
      sed 's/.*: //') (entry saved; log: logs/fuzz_$name.log)"
    [ "$exp" = yes ] && result="FAIL: $result" || result="$result (expected)"
  elif [ "$rc" != 0 ] || ! grep -q 'linfuzz-fuzz: summary ' "$log"; then
    # not a linearizability violation: a crash, a sanitizer report, a timeout or an out-of-memory
    result="CRASH (exit $rc, log: logs/fuzz_$name.log)"
    [ "$exp" = yes ] && result="FAIL: $result"
  elif [ "$viol" -gt 0 ]; then
    [ "$exp" = yes ] && result="FAIL: violation of an adapter expected to be linearizable" || result="found (expected)"
  else
    [ "$exp" = yes ] && result=clean || result="not found in ${secs} s"
  fi
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$name" "$exp" "$execs" "$viol" "$sigs" "$example" "$result" \
    >"$out/rows/a-$name"
}

# Fuzzes one self target (crash = failure), merges its corpus, writes its row: target, executions, result.
fuzz_self() {
  local t=$1 log=$out/logs/fuzz_$1.log work=$out/work/self-$1
  rm -rf "$work" && mkdir -p "$work" "$corpus/self/$t"
  "$BUILD/bin/fuzz_$t" -max_total_time="$self_secs" -timeout=20 -rss_limit_mb=2048 -print_final_stats=1 \
    -artifact_prefix="$out/self-crashes/$t-" "$work" "$corpus/self/$t" "$ROOT/corpus/self/$t" >"$log" 2>&1
  local rc=$?
  "$BUILD/bin/fuzz_$t" -merge=1 -timeout=20 -rss_limit_mb=2048 -artifact_prefix="$out/self-crashes/$t-merge-" \
    "$corpus/self/$t" "$work" >"$log.merge" 2>&1 || echo "fuzz_$t: merge failed (log: $log.merge)" >&2
  rm -rf "$work"
  local execs result
  execs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' | tail -1)
  if [ "$rc" = 0 ]; then
    result=clean
  else
    local art
    art=$(grep -o "Test unit written to [^ ]*" "$log" | tail -1 | sed 's/Test unit written to //')
    result="FAIL: crash (exit $rc) reproducer: ${art#"$out"/}, log: logs/fuzz_$t.log"
  fi
  printf '%s\t%s\t%s\n' "fuzz_$t" "${execs:--}" "$result" >"$out/rows/s-$t"
}

n_targets=$(( ${#adapters[@]} + ${#self_targets[@]} ))
echo "ci/fuzz.sh: ${#adapters[@]} adapter targets x ${secs} s and ${#self_targets[@]} self targets x ${self_secs} s," \
  "$jobs at a time (about $(awk -v a=${#adapters[@]} -v s="$secs" -v b=${#self_targets[@]} -v t="$self_secs" \
  -v j="$jobs" 'BEGIN{printf "%.0f", (a * (s + 1) + b * (t + 1)) / j}') s); results in $out" >&2
start=$(date +%s)
expected_s=$(awk -v a=${#adapters[@]} -v s="$secs" -v b=${#self_targets[@]} -v t="$self_secs" -v j="$jobs" \
  'BEGIN{printf "%.0f", (a * (s + 1) + b * (t + 1)) / j}')

# The progress line: targets done and running, executions, violations and failures so far, time left. Done
# targets have their row; running ones their log (libFuzzer's "#N" lines count executions, the harness's
# "violation" lines the violations captured so far).
started=() pids=()
fuzz_progress() {
  progress_due || return 0
  local done_n=0 execs=0 viol=0 viol_adapters=0 fails=0 running=() name e v result f t
  for t in "${started[@]}"; do
    f=$out/rows/$t
    if [ -e "$f" ]; then
      done_n=$((done_n + 1))
      if [[ $t == a-* ]]; then
        IFS=$'\t' read -r name _ e v _ _ result <"$f"
      else
        IFS=$'\t' read -r name e result <"$f"
        v=0
      fi
      [[ $e =~ ^[0-9]+$ ]] && execs=$((execs + e))
      [[ $v =~ ^[0-9]+$ ]] && [ "$v" -gt 0 ] && viol=$((viol + v)) viol_adapters=$((viol_adapters + 1))
      [[ $result == FAIL* ]] && fails=$((fails + 1))
    else
      running+=("fuzz_${t#?-}")
      f=$out/logs/fuzz_${t#?-}.log
      e=$(grep -ao '^#[0-9]*' "$f" 2>/dev/null | tail -1)
      e=${e#\#}
      execs=$((execs + ${e:-0}))
      v=$(grep -c 'linfuzz-fuzz: violation ' "$f" 2>/dev/null)
      [ "${v:-0}" -gt 0 ] && viol=$((viol + v)) viol_adapters=$((viol_adapters + 1))
    fi
  done
  local left=$((expected_s - $(date +%s) + start))
  [ "$left" -gt 0 ] || left=0
  progress "$done_n of $n_targets targets done; so far $execs executions, violations: $viol ($viol_adapters" \
    "adapters), failures: $fails; about $left s left; running ${running[*]:-nothing}"
}
# Waits, drawing the progress line, until fewer than $1 targets run.
wait_below() {
  while :; do
    local alive=() p
    for p in "${pids[@]}"; do kill -0 "$p" 2>/dev/null && alive+=("$p"); done
    pids=("${alive[@]}")
    [ "${#pids[@]}" -lt "$1" ] && return
    fuzz_progress
    sleep 0.2
  done
}
# Runs "$@" in the background as target row $1 once fewer than --jobs run.
launch() {
  wait_below "$jobs"
  started+=("$1")
  shift
  "$@" &
  pids+=($!)
}
progress_start "$CI_SCRIPT"
for name in "${adapters[@]}"; do launch "a-$name" fuzz_adapter "$name"; done
for t in "${self_targets[@]}"; do launch "s-$t" fuzz_self "$t"; done
wait_below 1
wait
progress_end
[ "$n_targets" -gt 0 ] || die "nothing to fuzz"

# ---- summary ----
status=0
{
  echo "## linfuzz fuzzing: ${secs} s per adapter target, ${self_secs} s per self target ($(( $(date +%s) - start )) s)"
  echo
  if [ ${#adapters[@]} -gt 0 ]; then
    echo "| adapter | expected linearizable | executions | violations | distinct signatures | example entry | result |"
    echo "|---|---|---|---|---|---|---|"
    for name in "${adapters[@]}"; do
      IFS=$'\t' read -r n exp execs viol sigs example result <"$out/rows/a-$name"
      echo "| $n | $exp | $execs | $viol | $sigs | $example | $result |"
      [[ $result == FAIL* ]] && status=1
    done
    echo
  fi
  if [ ${#self_targets[@]} -gt 0 ]; then
    echo "| self target | executions | result |"
    echo "|---|---|---|"
    for t in "${self_targets[@]}"; do
      IFS=$'\t' read -r n execs result <"$out/rows/s-$t"
      echo "| $n | $execs | $result |"
      [[ $result == FAIL* ]] && status=1
    done
    echo
  fi
  if [ "$status" = 0 ]; then
    echo "Every adapter expected to be linearizable stayed clean; no self target crashed."
  else
    echo "**FAILED**: see the result column (logs in $out/logs)."
  fi
} >"$out/summary.md"
cat "$out/summary.md"

# ---- root causes of the entries found in controlled mode (linfuzz rootcause --write), for triage ----
# Bounded: 500 schedules and rc_secs per entry, no new entry started after 10 * rc_secs. An entry whose cause
# is not confirmed keeps its unconfirmed candidates (triage then groups it by its history).
if [ "$rc_secs" -gt 0 ] && compgen -G "$out/violations/*/*.lfz" >/dev/null; then
  rc_start=$(date +%s) rc_done=0 rc_confirmed=0 rc_skipped=0
  progress_start "$CI_SCRIPT"
  for e in "$out"/violations/*/*.lfz; do
    "$LF" show --meta "$e" 2>/dev/null | grep -qx "schedule_mode: controlled" || continue
    "$LF" show --meta "$e" 2>/dev/null | grep -qx "finding: \(crash\|stuck\)" && continue # (no violation)
    if [ $(( $(date +%s) - rc_start )) -ge $(( 10 * rc_secs )) ]; then rc_skipped=$((rc_skipped + 1)); continue; fi
    progress "linfuzz rootcause --write: $rc_done entries done, $rc_confirmed confirmed"
    timeout -k 5 "$rc_secs" "$LF" rootcause -q --schedules 500 --write "$e" >>"$out/logs/rootcause.log" 2>&1
    case $? in 0) rc_confirmed=$((rc_confirmed + 1)) ;; esac
    rc_done=$((rc_done + 1))
  done
  progress_end
  echo "Root causes (\`linfuzz rootcause --write\`, 500 schedules, at most ${rc_secs} s each): $rc_confirmed of" \
    "$rc_done controlled entries confirmed ($rc_skipped not tried: the step's time ran out) in" \
    "$(( $(date +%s) - rc_start )) s; logs/rootcause.log" | tee -a "$out/summary.md"
fi

# ---- triage of every finding: entries saved, crash inputs of adapter targets ----
if compgen -G "$out/violations/*/*.lfz" >/dev/null || compgen -G "$out/crashes/*" >/dev/null; then
  progress_start "$CI_SCRIPT"
  {
    echo
    echo "### Triage (\`linfuzz triage\`)"
    echo
    "$LF" triage -q "$out/violations" "$out/crashes" 2>&1
    echo "triage-exit $?"
  } >"$out/triage.md" &
  triage_pid=$!
  n_entries=$(find "$out/violations" -name '*.lfz' | wc -l) n_inputs=$(find "$out/crashes" -type f | wc -l)
  while kill -0 "$triage_pid" 2>/dev/null; do
    progress "linfuzz triage of $n_entries entries and $n_inputs crash inputs (replayed in a child each)"
    sleep 0.2
  done
  wait "$triage_pid"
  progress_end
  # 1 only says that some group needs a person (the table above already judged each adapter); 2 and above
  # mean that triage could not read what the targets wrote, or failed itself.
  triage_rc=$(sed -n 's/^triage-exit //p' "$out/triage.md")
  sed -i '/^triage-exit /d' "$out/triage.md"
  cat "$out/triage.md"
  if [ "$triage_rc" -ge 2 ]; then
    echo "**FAILED**: linfuzz triage exited with $triage_rc on the findings" | tee -a "$out/summary.md"
    status=1
  fi
fi
# ---- one self-contained HTML page per entry (linfuzz show --html), next to the summary: html/ADAPTER/ ----
if compgen -G "$out/violations/*/*.lfz" >/dev/null; then
  html_ok=1
  for dir in "$out"/violations/*/; do
    name=$(basename "$dir")
    compgen -G "$dir*.lfz" >/dev/null || continue
    "$LF" show --html -o "$out/html/$name/" "$dir"*.lfz 2>>"$out/logs/html.log" || html_ok=0
  done
  if [ "$html_ok" = 1 ]; then
    echo "HTML pages: $(find "$out/html" -name '*.html' | wc -l) in html/ADAPTER/ (one per entry; open them in a browser)" |
      tee -a "$out/triage.md"
  else
    echo "**FAILED**: linfuzz show --html could not write every page (logs/html.log)" | tee -a "$out/summary.md"
    status=1
  fi
fi
[ -n "${GITHUB_STEP_SUMMARY:-}" ] && cat "$out/summary.md" "$out"/triage.md >>"$GITHUB_STEP_SUMMARY" 2>/dev/null
echo
echo "results: $out (entries: violations/ADAPTER/, explain one with $LF show ENTRY; pages: html/ADAPTER/); corpus: $corpus"
exit "$status"
