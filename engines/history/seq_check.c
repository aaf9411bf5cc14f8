/* Streaming per-thread sequentiality check (see seq_check.h for why it is sound). */
#include "history/seq_check.h"

#include <stdlib.h>
#include <string.h>

#include "util/grow.h"

/* Thread ids below this get a slot; larger ids make the check defer to lf_history_validate (a table
 * indexed by thread id must stay small, and such ids are rare in practice). */
#define FAST_THREADS (1u << 16)
#define NO_OP UINT32_MAX

void lf_seq_check_init(lf_seq_check *c) { memset(c, 0, sizeof *c); }

void lf_seq_check_free(lf_seq_check *c) {
    free(c->last_op_of_thread);
    memset(c, 0, sizeof *c);
}

bool lf_seq_check_add(lf_seq_check *c, const lf_history *h, size_t idx) {
    if (c->need_full_validate) return true;
    const lf_op *op = &h->ops[idx];
    if (op->thread >= FAST_THREADS || idx >= NO_OP) {
        c->need_full_validate = true;
        return true;
    }
    if (op->thread >= c->threads_cap) {
        size_t old_cap = c->threads_cap;
        if (!LF_GROW(c->last_op_of_thread, c->threads_cap, (size_t)op->thread + 1, 64)) return false;
        for (size_t i = old_cap; i < c->threads_cap; i++) c->last_op_of_thread[i] = NO_OP;
    }
    uint32_t prev = c->last_op_of_thread[op->thread];
    if (prev != NO_OP) {
        /* The sort orders equal calls by index, i.e. file order, so call == prev call is still in order. */
        const lf_op *a = &h->ops[prev];
        if (op->call < a->call || lf_op_pending(a) || !(a->ret < op->call)) c->need_full_validate = true;
    }
    c->last_op_of_thread[op->thread] = (uint32_t)idx;
    return true;
}
