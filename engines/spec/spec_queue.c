/* Built-in spec: queue (FIFO). enq v appends v; deq -> the front (removed) or empty; peek -> the front or
 * empty. State: a hash-consed sequence handle (front first); deq is a memoised tail, O(1) amortised.
 * Never partitioned: FIFO order relates every value ([Horn15]). */
#include <string.h>

#include "spec/spec_builtin.h"
#include "spec/spec_seq.h"

static bool queue_open(const lf_spec_env *env, void **ctx, size_t *state_size) {
    return lf_seq_open(env, 1u << LF_M_ENQ, ctx, state_size);
}

static bool queue_step(void *p, const void *state, const lf_op *op, void *next) {
    lf_seq_ctx *c = p;
    uint32_t s = lf_seq_load(state);
    bool empty = s == LF_SEQ_EMPTY;
    switch ((lf_method)op->method) {
    case LF_M_ENQ: {
        uint32_t v = lf_value_table_arg(&c->values, op, 0);
        if (v == UINT32_MAX) return false;
        s = lf_seq_push_back(&c->store, s, v);
        break;
    }
    case LF_M_DEQ:
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

const lf_spec lf_spec_queue = {
    .name = "queue",
    .state_size = sizeof(uint32_t),
    .open = queue_open,
    .close = lf_seq_close,
    .ctx_bytes = lf_seq_ctx_bytes,
    .ctx_failed = lf_seq_failed,
    .init = lf_seq_init,
    .observer = lf_spec_builtin_observer,
    .step = queue_step,
    .describe_state = lf_seq_describe_state,
};
