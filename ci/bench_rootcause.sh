#!/usr/bin/env bash
# Benchmark of root causing (not a test; docs/rootcause.md quotes its figures): `linfuzz rootcause` on every
# committed violation entry of corpus/ (or the entries given), one table row per entry: adapter, wall time,
# the best cause (confirmed or not), candidates, exit status; then the share of entries with a confirmed
# cause and the median time.
#
# Usage: ci/bench_rootcause.sh [SCHEDULES [ENTRY...]]     (default 2000 schedules per validation)
#        LINFUZZ_BUILD_DIR=dir ci/bench_rootcause.sh 500
#        LINFUZZ_CONTROLLED_ONLY=1 ci/bench_rootcause.sh 500   (only entries with schedule_mode: controlled)
#        WORK=400000 ci/bench_rootcause.sh 500   (each analysis with a work budget, `--work`: the fuzz targets')
set -euo pipefail
cd "$(dirname "$0")/.."
source ci/lib.sh
ci_help "$@"
schedules=${1:-2000}
ci_count SCHEDULES "$schedules"
work=${WORK:-0}
[ "$work" = 0 ] || ci_count WORK "$work"
shift || true
bdir=${LINFUZZ_BUILD_DIR:-build}
ci_use_build "$bdir" linfuzz
LF=$bdir/bin/linfuzz
if [ $# -gt 0 ]; then entries=("$@"); else entries=(corpus/*/violations/*.lfz); fi
for e in "${entries[@]}"; do [ -f "$e" ] || ci_die "'$e' is not a file"; done
if [ "${LINFUZZ_CONTROLLED_ONLY:-0}" = 1 ]; then
  kept=()
  for e in "${entries[@]}"; do
    "$bdir/bin/linfuzz" show --meta "$e" | grep -qx "schedule_mode: controlled" && kept+=("$e")
  done
  entries=("${kept[@]}")
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "# Root causing: $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg), build $bdir, $schedules schedules, work budget $work (0: none)"
echo
printf '| %-30s | %-5s | %7s | %s |\n' adapter mode "time s" "result"
printf '|%s|%s|%s|%s|\n' "--------------------------------" "-------" "---------" "--------"
n=0 confirmed=0 times=()
for e in "${entries[@]}"; do
  n=$((n + 1))
  adapter=$("$LF" show --meta "$e" | sed -n 's/^adapter: //p')
  mode=$("$LF" show --meta "$e" | sed -n 's/^schedule_mode: //p')
  start=$(date +%s.%N)
  rc=0
  "$LF" rootcause -q --schedules "$schedules" --work "$work" "$e" >"$tmp/out" 2>&1 || rc=$?
  secs=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN {printf "%.2f", b - a}')
  times+=("$secs")
  [ "$rc" = 0 ] && confirmed=$((confirmed + 1))
  result=$(tail -1 "$tmp/out" | sed "s|^$e: ||")
  printf '| %-30s | %-5s | %7.2f | %s (exit %s) |\n' "$adapter" "${mode:-free}" "$secs" "$result" "$rc"
done
median=$(printf '%s\n' "${times[@]}" | sort -g | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}')
echo
worst=$(printf '%s\n' "${times[@]}" | sort -g | tail -1)
echo "entries: $n, with a confirmed root cause: $confirmed ($(awk -v c=$confirmed -v n=$n 'BEGIN {printf "%.1f", 100 * c / n}')%), median time $median s, worst $worst s"
