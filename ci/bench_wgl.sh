#!/usr/bin/env bash
# Benchmark of the general checker (`linfuzz check --engine wgl`: WGL + Lowe's cache + P-compositionality).
# Not a test: prints a markdown table of whole-process wall time (parsing included; median of RUNS runs)
# and peak RSS for
#   - the 102 etcd histories of tests/data/etcd in one command (porcupine: ~0.4 s on this machine);
#   - partitioned set and kv histories of 10^4 ops over 1000 keys (linearizable, and with corruptions);
#   - the shape of Horn & Kroening's Table 1: 4 threads x 70K ops on 24 keys (280K ops);
#   - unpartitionable cas-register histories with many crashed (pending) ops.
#
# Usage: ci/bench_wgl.sh        Env: RUNS (default 5), LINFUZZ_BUILD_DIR (default build)
set -euo pipefail
cd "$(dirname "$0")/.."
source ci/lib.sh
ci_no_args "$@"
BUILD=${LINFUZZ_BUILD_DIR:-build}
RUNS=${RUNS:-5}
ci_count RUNS "$RUNS"
ci_use_build "$BUILD" linfuzz
DATA=tests/data
progress_start "$CI_SCRIPT"
LF="$BUILD/bin/linfuzz"
DIR=$(mktemp -d)
trap 'rm -rf "$DIR"' EXIT

# row NAME OPS FILES...: runs `check --engine wgl` on all FILES in one process.
row() {
  local name=$1 ops=$2
  shift 2
  local verdicts times=() mem
  verdicts=$( { "$LF" check --engine wgl "$@" || true; } | awk '{print $2}' | sed 's/:$//' | sort | uniq -c |
             awk '{printf "%s%d %s", (NR>1?", ":""), $1, $2}')
  for r in $(seq "$RUNS"); do
    progress "$name: run $r of $RUNS"
    local t0 t1
    t0=$(date +%s%N)
    "$LF" check --engine wgl -q "$@" || true
    t1=$(date +%s%N)
    times+=("$(( (t1 - t0) / 1000 ))")
  done
  mem=$( { /usr/bin/time -f "%M" "$LF" check --engine wgl -q "$@" || true; } 2>&1 >/dev/null | tail -1)
  local us
  us=$(printf '%s\n' "${times[@]}" | median)
  progress_end
  printf '| %s | %s | %s | %.1f | %.1f |\n' "$name" "$ops" "$verdicts" "$(echo "$us / 1000" | bc -l)" \
    "$(echo "$mem / 1024" | bc -l)"
}

gen() { progress "generating the histories"; "$LF" gen -q "$@" >/dev/null; }

gen set 10000 --values 1000 --threads 8 --peek 0.3 --empty 0.3 --pending 0.1 --seed 3 -o "$DIR/set-10k.hist"
gen set 10000 --values 1000 --threads 8 --peek 0.3 --empty 0.3 --bad 3 --seed 4 -o "$DIR/set-10k-bad.hist"
gen kv 10000 --values 1000 --threads 8 --peek 0.3 --empty 0.3 --pending 0.1 --seed 5 -o "$DIR/kv-10k.hist"
gen kv 10000 --values 1000 --threads 8 --peek 0.3 --empty 0.3 --bad 3 --seed 6 -o "$DIR/kv-10k-bad.hist"
gen set 280000 --values 24 --threads 4 --peek 0.5 --empty 0.3 --seed 7 -o "$DIR/set-280k.hist"
gen set 280000 --values 24 --threads 4 --peek 0.5 --empty 0.3 --bad 3 --seed 12 -o "$DIR/set-280k-bad.hist"
gen kv 280000 --values 24 --threads 4 --peek 0.5 --empty 0.3 --seed 9 -o "$DIR/kv-280k.hist"
gen cas-register 10000 --values 5 --threads 8 --peek 0.4 --pending 0.5 --seed 10 -o "$DIR/cas-10k.hist"
gen cas-register 10000 --values 5 --threads 8 --peek 0.4 --pending 0.5 --bad 2 --seed 11 -o "$DIR/cas-10k-bad.hist"
gen cas-register 10000 --values 5 --threads 16 --peek 0.4 --seed 10 -o "$DIR/cas-10k-wide.hist"

progress_end
echo "linfuzz check --engine wgl: median of $RUNS runs (whole process, parsing included), $(nproc) cores"
echo
echo "| histories | ops | verdicts | ms | peak MB |"
echo "|---|---:|---|---:|---:|"
etcd_ops=$(cat "$DATA"/etcd/*.hist | grep -cv '^\(#\|type\|init\|$\)')
row "etcd (102 files, one process)" "$etcd_ops" "$DATA"/etcd/*.hist
row "set, 1000 keys, 8 threads, 10% pending" 10000 "$DIR/set-10k.hist"
row "set, 1000 keys, corrupted" 10000 "$DIR/set-10k-bad.hist"
row "kv, 1000 keys, 8 threads, 10% pending" 10000 "$DIR/kv-10k.hist"
row "kv, 1000 keys, corrupted" 10000 "$DIR/kv-10k-bad.hist"
row "set, 24 keys, 4 threads (Horn & Kroening Table 1 shape)" 280000 "$DIR/set-280k.hist"
row "set, 24 keys, 4 threads, corrupted" 280000 "$DIR/set-280k-bad.hist"
row "kv, 24 keys, 4 threads" 280000 "$DIR/kv-280k.hist"
row "cas-register, 5 values, 8 threads, 50% crashed" 10000 "$DIR/cas-10k.hist"
row "cas-register, corrupted" 10000 "$DIR/cas-10k-bad.hist"
row "cas-register, 5 values, 16 threads (wide: 16 ops open at once)" 10000 "$DIR/cas-10k-wide.hist"
