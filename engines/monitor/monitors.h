/* The per-type monitors, run on a standardised history (set, stack, queue, pqueue, deque) or directly (register).
 * Each returns LF_LINEARIZABLE or LF_VIOLATION (reason and culprits in r), or LF_UNKNOWN on internal limits. */
#ifndef LINFUZZ_MONITORS_H
#define LINFUZZ_MONITORS_H

#include "linfuzz/check.h"
#include "linfuzz/history.h"
#include "monitor/standardize.h"

/* The answer of a monitor whose time budget ran out in `where` ("register", "standardizing", ...): unknown,
 * "time budget exhausted in the monitor (where)". */
lf_verdict lf_monitor_late(lf_result *r, const char *where);

/* Every monitor charges its loops to a deadline: lf_std.dl for those on a standardised history, dl for the
 * others (NULL: none). */
/* Sets, without standardisation (sets have no empty ops). The standardised form is a cross-check in the tests
 * (tests/unit/monitor_forms/), as are second forms of the stack and pqueue monitors. */
lf_verdict lf_monitor_set_direct(const lf_history *h, lf_deadline *dl, lf_result *r);
lf_verdict lf_monitor_stack(const lf_history *h, const lf_std *s, lf_result *r);
lf_verdict lf_monitor_queue(const lf_history *h, const lf_std *s, lf_result *r);
lf_verdict lf_monitor_pqueue(const lf_history *h, const lf_std *s, lf_result *r);
/* The reports both forms give (the form here and the test's), written once (their verdicts, reasons and
 * culprits must agree): a stack whose remaining values each have an op covered by another (live: per value, ops not yet safe; p: the partition
 * where count values are certainly in the stack); a pqueue op o (of value order[rank]) that cannot see its
 * value as the minimum. Both return LF_VIOLATION. */
lf_verdict lf_stack_report_stuck(const lf_history *h, const lf_std *s, const uint32_t *live, uint32_t p, int32_t count,
                                 lf_result *r);
lf_verdict lf_pqueue_report_hidden(const lf_history *h, const lf_std *s, const uint32_t *order, uint32_t rank, uint32_t o,
                                   lf_result *r);
/* Value ids of a priority-queue history sorted by priority, highest (nil, then the smallest value) first;
 * NULL when out of memory. */
uint32_t *lf_pqueue_priority_order(const lf_std *s);
lf_verdict lf_monitor_deque(const lf_history *h, const lf_std *s, lf_result *r);
lf_verdict lf_monitor_register(const lf_history *h, lf_deadline *dl, lf_result *r);

#endif
