/* Streaming check that each thread's ops are sequential, for the history readers.
 *
 * lf_history_validate sorts all ops by (thread, call) to compare each thread's neighbours; on a 10^6-op
 * history that sort dominates reading. Recorded histories almost always list each thread's ops in call
 * order, and then the neighbours in file order are exactly the pairs the sort would produce. This tracker
 * checks those pairs as ops arrive; whenever it cannot decide cheaply (a thread's calls out of order, a
 * bad pair, a huge thread id) it says so, and the reader runs the full lf_history_validate, which finds
 * and words the problem exactly as it always does. So results and messages never depend on the shortcut. */
#ifndef LINFUZZ_SEQ_CHECK_H
#define LINFUZZ_SEQ_CHECK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "linfuzz/history.h"

typedef struct lf_seq_check {
    uint32_t *last_op_of_thread; /* index of each thread's latest op so far, or UINT32_MAX */
    size_t threads_cap;
    bool need_full_validate;     /* the streaming check could not vouch for the history */
} lf_seq_check;

void lf_seq_check_init(lf_seq_check *c);
void lf_seq_check_free(lf_seq_check *c);
/* Feeds op idx of h (ops must be fed in index order). Returns false only when memory runs out. */
bool lf_seq_check_add(lf_seq_check *c, const lf_history *h, size_t idx);

/* The same, with the common case (a thread that already has a slot) inlined for the readers' inner loops. */
static inline __attribute__((always_inline)) bool lf_seq_check_add_inline(lf_seq_check *c, const lf_history *h, size_t idx) {
    if (c->need_full_validate) return true;
    const lf_op *op = &h->ops[idx];
    if (op->thread >= c->threads_cap || idx >= UINT32_MAX) return lf_seq_check_add(c, h, idx);
    uint32_t prev = c->last_op_of_thread[op->thread];
    if (prev != UINT32_MAX) {
        const lf_op *a = &h->ops[prev];
        if (op->call < a->call || lf_op_pending(a) || !(a->ret < op->call)) c->need_full_validate = true;
    }
    c->last_op_of_thread[op->thread] = (uint32_t)idx;
    return true;
}

#endif
