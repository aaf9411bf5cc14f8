/* The monitors of relaxed orders of stacks and queues (docs/contracts.md, "Checkers"), private to
 * engines/monitor: the pool monitor (bag, per-producer: pool_monitor.c) and the k-relaxed monitor
 * (krelaxed_monitor.c), and what they share (relaxed.c). They take histories with distinct values, no pending
 * remove, no peek that returned a value, and a capacity that cannot matter. */
#ifndef LINFUZZ_MONITOR_RELAXED_H
#define LINFUZZ_MONITOR_RELAXED_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "linfuzz/check.h"
#include "linfuzz/history.h"

/* Whether the monitors take h; false with r unknown ("unsupported: ...") when not. */
bool lf_relaxed_supported(const lf_history *h, lf_result *r);
/* Pairs each insert with the remove that returned its value: remover[i] for insert op i (UINT32_MAX: none).
 * 1 when every remove returned a value inserted once and removed once, by an insert called before the remove
 * returned; 0 with r the violation otherwise; -1 when out of memory. */
int lf_relaxed_match(const lf_history *h, uint32_t *remover, lf_result *r);
/* The empty answers (removes and peeks), given for each removed insert op i the earliest point rem[i] at which its
 * value can be taken (a stamp; the value is certainly inside from its insert's return until then): 1 when each
 * has a moment when no value is certainly inside; 0 with r the violation; -1 when out of memory. */
int lf_relaxed_empties(const lf_history *h, const uint32_t *remover, const uint64_t *rem, lf_result *r);
/* "op 12 (t3 [40,45] deq -> 7)". */
void lf_relaxed_describe(const lf_history *h, uint32_t i, char *buf, size_t len);

#endif
