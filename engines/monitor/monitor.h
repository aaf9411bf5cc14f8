/* Log-linear decrease-and-conquer monitors ([Lee25]) for unambiguous histories of
 * register, set, stack, queue, pqueue and deque: standardisation, then one O(n log n) monitor per type.
 *
 * Answers linearizable or violation (with the conflicting ops as culprits), or unknown with a reason
 * starting "unsupported:" when the history is outside what the monitors decide (ambiguous values, other
 * types, pending removes). docs/monitors.md says how pending ops are handled. */
#ifndef LINFUZZ_MONITOR_H
#define LINFUZZ_MONITOR_H

#include "linfuzz/check.h"
#include "linfuzz/history.h"

void lf_monitor_check(const lf_history *h, lf_result *r);

#endif
