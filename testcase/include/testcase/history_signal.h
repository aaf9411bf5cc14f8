/* History signal: features of a recorded history for the fuzzer's feedback (docs/fuzzing.md, "Signal").
 *
 * Code coverage says little about interleavings: every run of a short workload covers the same lines of a
 * lock-free stack whether or not two pops ever raced. These features describe what the schedule actually
 * did, so libFuzzer keeps inputs that produced a new kind of interleaving:
 *
 *  - overlap pairs: for every two ops of different threads that overlap in time, (method, outcome) of the
 *    one called first and of the other; outcome is success / value / empty-false-fail / pending;
 *  - concurrency depth: how many ops were in flight when each op was called;
 *  - witness shape: a greedy linearisation (at each step, the minimal op with the earliest call whose result
 *    the sequential specification accepts) records, per (method, outcome), how far down the candidate list
 *    it had to go (0 = in call order; more = the result needed a reordering) and where it got stuck (a
 *    violation, or a history that needs backtracking: both are near the bugs). It stops after
 *    LF_SIGNAL_GREEDY_STEPS ops: a spec step can cost O(state size), and the first few hundred ops of a run
 *    already show how the threads interleaved.
 *
 * Counts go into 8-bit counters (saturating); libFuzzer's bucketing of counter values (1, 2, 3, 4-7, 8-15,
 * ...) turns "more of the same" into new features too. */
#ifndef LINFUZZ_HISTORY_SIGNAL_H
#define LINFUZZ_HISTORY_SIGNAL_H

#include <stddef.h>
#include <stdint.h>

#include "linfuzz/history.h"

#define LF_SIGNAL_OUTCOMES 4
#define LF_SIGNAL_OM (LF_M_COUNT * LF_SIGNAL_OUTCOMES) /* (method, outcome) pairs */
#define LF_SIGNAL_DEPTHS 16
#define LF_SIGNAL_RANKS 8
#define LF_SIGNAL_GREEDY_STEPS 512
/* Layout: overlap pairs | depths | greedy ranks | greedy stuck. */
#define LF_SIGNAL_OVERLAP 0
#define LF_SIGNAL_DEPTH (LF_SIGNAL_OVERLAP + LF_SIGNAL_OM * LF_SIGNAL_OM)
#define LF_SIGNAL_RANK (LF_SIGNAL_DEPTH + LF_SIGNAL_DEPTHS)
#define LF_SIGNAL_STUCK (LF_SIGNAL_RANK + LF_SIGNAL_OM * LF_SIGNAL_RANKS)
#define LF_SIGNAL_SIZE (LF_SIGNAL_STUCK + LF_SIGNAL_OM)

/* Adds the features of h to counters[0..LF_SIGNAL_SIZE) (saturating at 255). Returns false only when memory
 * runs out (the greedy part is then skipped). */
bool lf_history_signal(const lf_history *h, uint8_t *counters);

#endif
