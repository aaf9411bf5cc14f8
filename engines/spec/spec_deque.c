/* Built-in spec: deque. push_front/push_back v add v at an end; pop_front/pop_back -> the value at that
 * end (removed) or empty; peek_front/peek_back -> it without removing. State: a hash-consed sequence
 * handle (front first); back operations are O(1), front ones memoised, O(1) amortised. Never partitioned. */
#include <string.h>

#include "spec/spec_builtin.h"
#include "spec/spec_seq.h"

static bool deque_open(const lf_spec_env *env, void **ctx, size_t *state_size) {
    return lf_seq_open(env, (1u << LF_M_PUSH_FRONT) | (1u << LF_M_PUSH_BACK), ctx, state_size);
}

static bool deque_step(void *p, const void *state, const lf_op *op, void *next) {
    lf_seq_ctx *c = p;
    uint32_t s = lf_seq_load(state);
    bool empty = s == LF_SEQ_EMPTY;
    uint32_t front = empty ? 0 : lf_seq_first(&c->store, s), back = empty ? 0 : lf_seq_last(&c->store, s);
    switch ((lf_method)op->method) {
    case LF_M_PUSH_FRONT:
    case LF_M_PUSH_BACK: {
        bool effect;
        if (!lf_seq_insert_ok(c, op, s, &effect)) return false;
        if (!effect) break;
        uint32_t v = lf_value_table_arg(&c->values, op, 0);
        if (v == UINT32_MAX) return false;
        s = op->method == LF_M_PUSH_FRONT ? lf_seq_push_front(&c->store, s, v) : lf_seq_push_back(&c->store, s, v);
        break;
    }
    case LF_M_POP_FRONT:
        if (!lf_seq_result_ok(c, op, empty, front)) return false;
        if (!empty) s = lf_seq_pop_front(&c->store, s);
        break;
    case LF_M_POP_BACK:
        if (!lf_seq_result_ok(c, op, empty, back)) return false;
        if (!empty) s = lf_seq_pop_back(&c->store, s);
        break;
    case LF_M_PEEK_FRONT:
        if (!lf_seq_result_ok(c, op, empty, front)) return false;
        break;
    case LF_M_PEEK_BACK:
        if (!lf_seq_result_ok(c, op, empty, back)) return false;
        break;
    default: return false;
    }
    if (s == LF_SEQ_NONE) return false;
    lf_seq_store(next, s);
    return true;
}

const lf_spec lf_spec_deque = {
    .name = "deque",
    .state_size = sizeof(uint32_t),
    .open = deque_open,
    .close = lf_seq_close,
    .ctx_bytes = lf_seq_ctx_bytes,
    .ctx_failed = lf_seq_failed,
    .init = lf_seq_init,
    .observer = lf_spec_builtin_observer,
    .step = deque_step,
    .describe_state = lf_seq_describe_state,
};
