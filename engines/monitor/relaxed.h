/* The monitors of relaxed orders of stacks and queues (docs/contracts.md, "Checkers"), private to
 * engines/monitor: the pool monitor (bag, per-producer: pool_monitor.c) and the k-relaxed monitor
 * (krelaxed_monitor.c), and what they share (relaxed.c). They take histories with distinct values, no pending
 * remove, no peek that returned a value, and a capacity that cannot matter. */
#ifndef LINFUZZ_MONITOR_RELAXED_H
#define LINFUZZ_MONITOR_RELAXED_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "budget/deadline.h"
#include "linfuzz/check.h"
#include "linfuzz/history.h"

/* Each step charges dl (NULL: none) in its loops and sorts. Those returning int answer 1 (go on), 0 (r is a
 * violation) or -1 (r is unknown: "unsupported: ..." for a history the monitors do not take or out of memory, or
 * the time budget). */
/* Whether the monitors take h (what can be seen op by op; values inserted twice are found by lf_relaxed_match);
 * their first step, so it looks at the deadline before anything else. */
int lf_relaxed_supported(const lf_history *h, lf_deadline *dl, lf_result *r);
/* Pairs each insert with the remove that returned its value: remover[i] for insert op i (UINT32_MAX: none). A
 * violation when a remove returned a value never inserted, removed twice, or returned before its insert was
 * called; unknown when a value is inserted twice. */
int lf_relaxed_match(const lf_history *h, lf_deadline *dl, uint32_t *remover, lf_result *r);
/* The empty answers (removes and peeks), given for each removed insert op i the earliest point rem[i] at which its
 * value can be taken (a stamp; the value is certainly inside from its insert's return until then): a violation
 * when one has no moment when no value is certainly inside. */
int lf_relaxed_empties(const lf_history *h, lf_deadline *dl, const uint32_t *remover, const uint64_t *rem,
                       lf_result *r);
/* The unknown answer of the monitors of relaxed orders (r) when out of memory (dl not expired) or out of time. */
int lf_relaxed_gave_up(const lf_deadline *dl, lf_result *r);
/* "op 12 (t3 [40,45] deq -> 7)". */
void lf_relaxed_describe(const lf_history *h, uint32_t i, char *buf, size_t len);

#endif
