/* Streaming per-thread sequentiality check (see seq_check.h for why it is sound). */
#include "history/seq_check.h"

#include <stdlib.h>
#include <string.h>

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
        size_t cap = c->threads_cap ? c->threads_cap : 64;
        while (cap <= op->thread) cap *= 2;
        uint32_t *slots = realloc(c->last_op_of_thread, cap * sizeof *slots);
        if (!slots) return false;
        for (size_t i = c->threads_cap; i < cap; i++) slots[i] = NO_OP;
        c->last_op_of_thread = slots;
        c->threads_cap = cap;
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
