/* One worker's share of a controlled run (runtime/sched): its ops through the recorder between the scheduler's
 * call and return points, and what happens to a run that deadlocks.
 *
 * Used by both drivers of runs, the workload runner (`linfuzz stress`) and the fuzz-case executor (fuzz
 * targets, `linfuzz repro`), so that their controlled runs are the same. A STUCK run (every unfinished
 * worker blocked) sends the blocked workers out of their operations; the operation each was in is dropped
 * from its log (it has a call and no return). The object of a stuck run may be in any state, with locks
 * held: it is abandoned, never destroyed (lf_abandon_object keeps it reachable, so that leak checkers do not
 * report it). */
#ifndef LINFUZZ_CONTROLLED_H
#define LINFUZZ_CONTROLLED_H

#include <stdbool.h>
#include <stddef.h>

#include "linfuzz/adapter.h"
#include "runtime/recorder.h"
#include "runtime/workload.h"
#include "runtime/sched.h"

/* Runs ops[0..n-1] as worker t of the controlled run of s, recording into rec's log `log` (thread id `t` in
 * the history). Returns false when the run became STUCK during this worker's op (that op is dropped). The
 * caller brackets it with a->thread_enter / thread_leave. */
bool lf_controlled_worker(lf_sched *s, unsigned t, lf_recorder *rec, const lf_adapter *a, void *obj,
                          const lf_planned_op *ops, size_t n);

/* Keeps the object of a STUCK run (never destroyed: see above). */
void lf_abandon_object(void *obj);

/* Describes where the workers of s's last (STUCK) run were, one line per worker, into buf: "T0: op 3
 * (push 65537): blocked on mutex 0x... held by T1". ops[t] / len[t] are worker t's planned calls. */
int lf_describe_stuck(char *buf, size_t len, const lf_sched *s, unsigned threads,
                      const lf_planned_op *const *ops, const size_t *lens);

#endif
