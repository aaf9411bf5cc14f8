#!/usr/bin/env bash
# ThreadSanitizer build and run of the correct adapters (not a ctest: it needs its own build).
#
# Covered: every adapter expected to be linearizable whose code is ours (adapters/correct and the correct
# twins in adapters/buggy), driven by the real runner and recorder, so races in the harness show up too; the
# progress line's reporter thread (cli/status_line.c) next to a running command; and the checker's
# two-thread stage (engines/wgl/decide.c: the frontier sweep beside WGL), on histories where the sweep
# answers first, where WGL does, and where both run to the deadline.
# Not covered: ck_* and urcu_* (Concurrency Kit's ck_pr uses inline assembly that TSan cannot see, and
# liburcu is a prebuilt uninstrumented library: both give false reports) and the known-buggy adapters
# (their bugs are atomicity violations on _Atomic fields, invisible to TSan by design); dpdk_ring_hts and its bulk
# twin dpdk_ring_hts_bulk too:
# DPDK's HTS ring publishes its tail with a 32-bit release store into the upper half of a 64-bit word that the
# next producer loads whole with acquire (rte_ring_hts_elem_pvt.h). TSan keys synchronization by address, so
# it misses that edge and reports a race between an enqueue's element write and a later dequeue's read, on
# code that hardware orders correctly (mixed-size atomics are outside TSan's model); dpdk_ring_rts_bulk, whose
# RTS ring spins on a plain volatile read of half of a word that others update with 64-bit atomics
# (rte_ring_rts_elem_pvt.h, __rte_ring_rts_head_wait), reported as a race in a clean-clone run; and relseq_queue, whose
# plain slots are published by a release fence and read after an acquire fence (adapters/weak): TSan does not
# model standalone fences (atomic_thread_fence), so it reports that correct synchronisation as a race.
#
# Each adapter runs RUNS_PER_ADAPTER free runs of seed 1 (4 threads of 60 calls): free runs only, because a
# controlled run hands a baton from thread to thread, which TSan sees as synchronization, so that only free
# runs can show it a race (600 free runs take about 0.8 s here; the two seconds of mixed runs this replaced
# had about 500 free runs among 2,000).
#
# Usage: ci/tsan.sh [BUILD_DIR [RUNS_PER_ADAPTER]]   (default build-tsan, 600)
set -euo pipefail
cd "$(dirname "$0")/.."
source ci/lib.sh
ci_help "$@"
[ $# -le 2 ] || ci_die "unexpected argument '$3' (--help says what it takes)"
dir=${1:-build-tsan}
runs=${2:-600}
ci_build_dir "$dir"
ci_count RUNS_PER_ADAPTER "$runs"
bash ci/deps.sh
ci_build "$dir" --target=linfuzz --target=test_runtime -DLINFUZZ_TSAN=ON
export TSAN_OPTIONS="halt_on_error=1 exitcode=66 ${TSAN_OPTIONS:-}"
"$dir/bin/test_runtime" >/dev/null
adapters=$("$dir/bin/linfuzz" adapters | awk '$3 == "yes" && $1 !~ /^(ck|urcu)_/ && $1 !~ /^(dpdk_ring_hts|dpdk_ring_hts_bulk|dpdk_ring_rts_bulk|relseq_queue)$/ {print $1}')
failed=0
for a in $adapters; do
  if "$dir/bin/linfuzz" stress "$a" --mode free --runs "$runs" --seconds 120 --threads 4 --ops 60 --seed 1 -q \
    --out "${TMPDIR:-/tmp}"; then
    echo "tsan: $a clean"
  else
    echo "tsan: $a FAILED (exit $?)"
    failed=1
  fi
done
# The portfolio of lf_wgl_decide: 24 concurrent writes then an impossible read (the sweep finds the
# violation and stops WGL), 12 concurrent enqueues of 6 values then an impossible dequeue (both run until
# the deadline), and a 4-thread queue history with repeated values (WGL answers first).
tmp=$(mktemp -d)
{ echo "type register"; for t in $(seq 0 23); do echo "$t $((t + 1)) $((100 + t)) write 1"; done
  echo "24 200 201 read -> 2"; } >"$tmp/sweep-first.hist"
{ echo "type queue"; for t in $(seq 0 11); do echo "$t $((t + 1)) $((100 + t)) enq $((t % 6 + 1))"; done
  echo "12 200 201 deq -> 99"; } >"$tmp/deadline.hist"
"$dir/bin/linfuzz" gen queue 200 --threads 4 --values 3 --peek 0.1 --empty 0.2 --seed 2 -o "$tmp/wgl-first.hist"
for h in sweep-first deadline wgl-first; do
  rc=0
  "$dir/bin/linfuzz" check --timeout 3 -q "$tmp/$h.hist" || rc=$?
  if [ $rc = 66 ]; then
    echo "tsan: check $h FAILED"
    failed=1
  else
    echo "tsan: check $h clean (exit $rc)"
  fi
done
rm -rf "$tmp"
# The progress line's reporter thread against the command's own (linfuzz stress draws it 5 times a second here).
if LINFUZZ_PROGRESS_SECONDS=0.2 "$dir/bin/linfuzz" stress mutex_queue --seconds 1.5 --seed 1 --out "${TMPDIR:-/tmp}" \
  2>/dev/null; then
  echo "tsan: the progress line clean"
else
  echo "tsan: the progress line FAILED (exit $?)"
  failed=1
fi
exit $failed
