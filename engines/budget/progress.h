/* Writing lf_progress (include/linfuzz/check.h) from inside the engines: relaxed atomic stores, so a reporter
 * thread may read the fields at any moment, and nothing at all when no progress was asked for (p == NULL).
 * The engines call these at their budget checks (every few thousand steps), never in their inner loops. */
#ifndef LINFUZZ_BUDGET_PROGRESS_H
#define LINFUZZ_BUDGET_PROGRESS_H

#include <stdint.h>

#include "linfuzz/check.h"

static inline void lf_progress_stage(lf_progress *p, const char *stage) {
    if (!p) return;
    __atomic_store_n(&p->stage, stage, __ATOMIC_RELAXED);
    __atomic_store_n(&p->steps, 0, __ATOMIC_RELAXED);
}

static inline void lf_progress_steps(lf_progress *p, uint64_t steps) {
    if (p) __atomic_store_n(&p->steps, steps, __ATOMIC_RELAXED);
}

static inline void lf_progress_parts(lf_progress *p, uint64_t done, uint64_t total) {
    if (!p) return;
    __atomic_store_n(&p->parts_done, done, __ATOMIC_RELAXED);
    __atomic_store_n(&p->parts_total, total, __ATOMIC_RELAXED);
}

#endif
