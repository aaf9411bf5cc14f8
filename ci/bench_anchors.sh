#!/usr/bin/env bash
# Benchmark (not a test): `linfuzz check --engine monitor` side by side with fastlin (Lee & Mathur's monitors,
# built elsewhere: this repository holds no anchor code and builds none) on generated unambiguous histories
# of every monitored type, without and with peeks: register, set, stack, queue, pqueue, pqwide (a priority
# queue with spread priorities and about N/3 values present at once: `gen pqueue --spread-priorities`).
# Whole processes (reading and parsing the file included), interleaved: in every round each history runs
# once with each tool, in an order rotated by round. Prints the medians of CPU time (user + system, from
# wait4: the steadier figure on a loaded machine), wall time and peak RSS, bytes per op, verdicts, and
# fastlin's CPU time over linfuzz's; then which of issue 14's targets hold on the histories of 10^6 ops or more
# (under 0.3 s of CPU, 5x fastlin, under 150 bytes/op of peak RSS).
#
# Usage: ci/bench_anchors.sh [SIZES...]   (default 1000000)
# Env:   RUNS (default 5, at least 5 for the medians the targets are judged on), LINFUZZ_BUILD_DIR (default
#        build; built when missing), TYPES (default "register set stack queue pqueue pqwide"),
#        FASTLIN: a fastlin binary, run with -x on histories without peeks (its mode for them);
#        FASTLIN_PEEKS: a fastlin binary for histories with peeks (upstream fastlin never returns on those;
#        see docs/monitors.md). Either unset: that column is left out. The histories go to fastlin's log
#        format through bench/bench_fastlin_log.c (linfuzz-bench-fastlin-log). KEEP=1 keeps the histories in $BENCH_DIR.
set -euo pipefail
cd "$(dirname "$0")/.."
source ci/lib.sh
ci_help "$@"
BUILD=${LINFUZZ_BUILD_DIR:-build}
RUNS=${RUNS:-5}
ci_count RUNS "$RUNS"
for n in "$@"; do ci_count SIZE "$n"; done
read -r -a types <<<"${TYPES:-register set stack queue pqueue pqwide}"
for t in "${types[@]}"; do
  case $t in register | set | stack | queue | pqueue | pqwide | deque) ;; *) ci_die "TYPES: unknown type '$t'" ;; esac
done
for v in FASTLIN FASTLIN_PEEKS; do
  if [ -n "${!v:-}" ] && ! [ -x "${!v}" ]; then ci_die "$v=${!v} is not an executable"; fi
done
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(1000000)
ci_use_build "$BUILD" linfuzz
LF="$BUILD/bin/linfuzz"
ci_build "$BUILD" --target=linfuzz-bench-run --target=linfuzz-bench-fastlin-log
BENCH_DIR=${BENCH_DIR:-$(mktemp -d)}
mkdir -p "$BENCH_DIR"
[ "${KEEP:-0}" = 1 ] || trap 'rm -rf "$BENCH_DIR"' EXIT
progress_start "$CI_SCRIPT"

# ---- the histories: case name, file, ops, fastlin binary and its options ----
cases=() files=() ops=() fbin=() fopt=()
for n in "${sizes[@]}"; do
  for t in "${types[@]}"; do
    for peek in 0 0.2; do
      gtype=$t extra=() p=$peek
      [ "$t" = pqwide ] && gtype=pqueue extra=(--spread-priorities)
      [ "$t" = register ] && p=$(awk -v x="$peek" 'BEGIN { print x + 0.3 }') # reads are a register's peeks
      name=$t
      [ "$peek" = 0 ] || name=$t-peek
      f="$BENCH_DIR/$name-$n.hist"
      progress "generating $name ($n ops)"
      [ -f "$f" ] || "$LF" gen "$gtype" "$n" --threads 16 --seed 7 --peek "$p" --empty 0.05 "${extra[@]}" -q -o "$f"
      bin="" opt=""
      case $t in register | deque) ;; *)
        if [ "$peek" = 0 ]; then bin=${FASTLIN:-} opt=-x; else bin=${FASTLIN_PEEKS:-}; fi ;;
      esac
      if [ -n "$bin" ] && ! [ -f "$f.fastlin" ]; then
        progress "converting $name ($n ops) for fastlin"
        "$BUILD/bin/linfuzz-bench-fastlin-log" "$f" "$f.fastlin"
      fi
      cases+=("$name") files+=("$f") ops+=("$n") fbin+=("$bin") fopt+=("$opt")
    done
  done
done

# ---- interleaved runs ----
T="$BENCH_DIR/runs"
rm -rf "$T"
mkdir -p "$T"
for r in $(seq "$RUNS"); do
  for i in "${!cases[@]}"; do
    progress "round $r of $RUNS: ${cases[$i]} (${ops[$i]} ops)"
    order=(linfuzz fastlin)
    [ $((r % 2)) = 0 ] && order=(fastlin linfuzz)
    for tool in "${order[@]}"; do
      if [ "$tool" = linfuzz ]; then
        "$BUILD/bin/linfuzz-bench-run" "$T/$i.linfuzz" "$LF" check --engine monitor -q "${files[$i]}" >/dev/null
      elif [ -n "${fbin[$i]}" ]; then
        # shellcheck disable=SC2086
        "$BUILD/bin/linfuzz-bench-run" "$T/$i.fastlin" "${fbin[$i]}" ${fopt[$i]} "${files[$i]}.fastlin" >"$T/$i.fastlin.out"
      fi
    done
  done
done
progress_end

# ---- the table ----
med() { awk -v c="$2" '{ print $c }' "$1" | median; } # column c of a runs file: 1 wall, 2 cpu, 3 KiB, 4 exit
verdict_lf() { case $(med "$1" 4) in 0) echo lin ;; 1) echo VIOL ;; 3) echo unknown ;; *) echo "exit $(med "$1" 4)" ;; esac; }
verdict_fl() { case $(head -c 1 "$1") in 1) echo lin ;; 0) echo VIOL ;; *) echo "?" ;; esac; }
echo "linfuzz check --engine monitor vs fastlin: medians of $RUNS interleaved runs, whole process, $(nproc) cores," \
  "load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "| history | ops | linfuzz | cpu ms | wall ms | peak MB | bytes/op | fastlin | cpu ms | wall ms | peak MB | fastlin/linfuzz cpu | wall |"
echo "|---|---:|---|---:|---:|---:|---:|---|---:|---:|---:|---:|---:|"
missed=()
for i in "${!cases[@]}"; do
  L="$T/$i.linfuzz" F="$T/$i.fastlin" n=${ops[$i]}
  lc=$(med "$L" 2) lw=$(med "$L" 1) lk=$(med "$L" 3)
  row=$(awk -v c="${cases[$i]}" -v n="$n" -v v="$(verdict_lf "$L")" -v cpu="$lc" -v w="$lw" -v kb="$lk" 'BEGIN {
    printf "| %s | %d | %s | %.0f | %.0f | %.1f | %.0f |", c, n, v, cpu, w, kb / 1024, kb * 1024 / n }')
  judged=0
  [ "$n" -ge 1000000 ] && judged=1
  [ $judged = 1 ] && awk -v cpu="$lc" 'BEGIN { exit !(cpu >= 300) }' && missed+=("${cases[$i]} ($n ops): ${lc} ms of CPU")
  [ $judged = 1 ] && awk -v kb="$lk" -v n="$n" 'BEGIN { exit !(kb * 1024 / n >= 150) }' &&
    missed+=("${cases[$i]} ($n ops): $(awk -v kb="$lk" -v n="$n" 'BEGIN { printf "%.0f", kb * 1024 / n }') bytes/op")
  if [ -f "$F" ]; then
    fc=$(med "$F" 2) fw=$(med "$F" 1) fk=$(med "$F" 3)
    row+=$(awk -v v="$(verdict_fl "$T/$i.fastlin.out")" -v cpu="$fc" -v w="$fw" -v kb="$fk" -v lc="$lc" -v lw="$lw" 'BEGIN {
      printf " %s | %.0f | %.0f | %.1f | **%.1f** | %.1f |", v, cpu, w, kb / 1024, cpu / lc, w / lw }')
    [ $judged = 1 ] && awk -v a="$fc" -v b="$lc" 'BEGIN { exit !(a < 5 * b) }' &&
      missed+=("${cases[$i]} ($n ops): fastlin/linfuzz CPU $(awk -v a="$fc" -v b="$lc" 'BEGIN { printf "%.1f", a / b }')")
  else
    row+=" - | - | - | - | - | - |"
  fi
  echo "$row"
done
echo
if [ "$(printf '%s\n' "${sizes[@]}" | sort -n | tail -1)" -lt 1000000 ]; then
  echo "targets: judged on histories of 10^6 ops or more only"
elif [ ${#missed[@]} = 0 ]; then
  echo "targets: every history of 10^6 ops or more under 0.3 s of CPU and 150 bytes/op$([ -n "${FASTLIN:-}${FASTLIN_PEEKS:-}" ] && echo ", at least 5x fastlin's CPU where it ran")"
else
  echo "targets missed (histories of 10^6 ops or more):"
  printf -- '- %s\n' "${missed[@]}"
fi
