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

#endif
