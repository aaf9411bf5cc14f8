/* Log-linear decrease-and-conquer monitors ([Lee25]) for unambiguous histories of
 * register, set, stack, queue, pqueue and deque: standardisation, then one O(n log n) monitor per type.
 *
 * Answers linearizable or violation (with the conflicting ops as culprits), or unknown with a reason
 * starting "unsupported:" when the history is outside what the monitors decide (ambiguous values, other
 * types, pending removes, bounded containers that may have been full). docs/monitors.md says how pending ops
 * and capacities are handled. */
#ifndef LINFUZZ_MONITOR_H
#define LINFUZZ_MONITOR_H

#include "budget/deadline.h"
#include "linfuzz/check.h"
#include "linfuzz/history.h"

/* dl (NULL: none) is charged in every loop over the history: when it passes the answer is unknown, "time
 * budget exhausted in the ... monitor". */
void lf_monitor_check(const lf_history *h, lf_deadline *dl, lf_result *r);

/* Whether a bounded container's capacity can matter: some insert answered full, or more inserts (pending ones
 * included) than the capacity took effect. When it cannot, the history is decided as an unbounded one. dl (NULL:
 * none) is charged per op; once it has passed the answer is false and the caller must look at dl. */
bool lf_monitor_capacity_reachable(const lf_history *h, lf_deadline *dl);

/* The pool monitor (pool_monitor.c, docs/contracts.md): bag and per-producer stack or queue histories (contract
 * order LF_ORDER_BAG, LF_ORDER_PER_PRODUCER; exact full/empty answers) with distinct values, no pending remove,
 * no peek that returned a value, and a capacity that cannot matter. Returns true with r linearizable or a
 * violation; false with r unknown ("unsupported: ..." for any other history, or the time budget: dl, NULL for
 * none, is charged in every loop and sort). */
bool lf_pool_monitor_check(const lf_history *h, lf_deadline *dl, lf_result *r);

/* The k-relaxed monitor (krelaxed_monitor.c, docs/contracts.md): k-relaxed stack and queue histories with the same
 * restrictions. Returns true with r linearizable (with a witness when want_witness) or a violation that holds for
 * every linearization; false with r unknown when it can decide neither (the general checkers then do) or its time
 * budget ran out (dl, as the pool monitor's). */
bool lf_krelaxed_monitor_check(const lf_history *h, lf_deadline *dl, lf_result *r, bool want_witness);

#endif
