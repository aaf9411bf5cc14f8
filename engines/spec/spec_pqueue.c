/* Built-in spec: priority queue (a multiset, smallest first). insert v adds v; poll -> the smallest value
 * (removed) or empty; peek -> the smallest or empty. Values are ordered nil first, then integers
 * ascending. State: a hash-consed *sorted* sequence handle, so equal multisets share one handle; insert
 * is a memoised sorted insertion and poll a memoised tail. Never partitioned: poll observes every value. */
#include <string.h>

#include "spec/spec_builtin.h"
#include "spec/spec_seq.h"

static bool pqueue_open(const lf_spec_env *env, void **ctx, size_t *state_size) {
    return lf_seq_open(env, 1u << LF_M_INSERT, ctx, state_size);
}

static bool pqueue_step(void *p, const void *state, const lf_op *op, void *next) {
    lf_seq_ctx *c = p;
    uint32_t s = lf_seq_load(state);
    bool empty = s == LF_SEQ_EMPTY;
    switch ((lf_method)op->method) {
    case LF_M_INSERT: {
        bool effect;
        if (!lf_seq_insert_ok(c, op, s, &effect)) return false;
        if (!effect) break;
        uint32_t v = lf_value_table_arg(&c->values, op, 0);
        if (v == UINT32_MAX) return false;
        s = lf_seq_insert_sorted(&c->store, s, v); /* dense ids follow the value order */
        break;
    }
    case LF_M_POLL:
        if (!lf_seq_result_ok(c, op, empty, empty ? 0 : lf_seq_first(&c->store, s))) return false;
        if (!empty) s = lf_seq_pop_front(&c->store, s);
        break;
    case LF_M_PEEK:
        if (!lf_seq_result_ok(c, op, empty, empty ? 0 : lf_seq_first(&c->store, s))) return false;
        break;
    default: return false;
    }
    if (s == LF_SEQ_NONE) return false;
    lf_seq_store(next, s);
    return true;
}

const lf_spec lf_spec_pqueue = {
    .name = "pqueue",
    .state_size = sizeof(uint32_t),
    .open = pqueue_open,
    .close = lf_seq_close,
    .ctx_bytes = lf_seq_ctx_bytes,
    .ctx_failed = lf_seq_failed,
    .init = lf_seq_init,
    .observer = lf_spec_builtin_observer,
    .step = pqueue_step,
    .describe_state = lf_seq_describe_state,
};
