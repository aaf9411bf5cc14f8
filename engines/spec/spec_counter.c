/* Built-in spec: counter. The state is the count (starts at 0); inc adds one, get returns the count. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "spec/spec_builtin.h"

static void counter_init(void *ctx, void *state) {
    (void)ctx;
    memset(state, 0, sizeof(int64_t));
}

static bool counter_step(void *ctx, const void *state, const lf_op *op, void *next) {
    (void)ctx;
    int64_t c;
    memcpy(&c, state, sizeof c);
    switch ((lf_method)op->method) {
    case LF_M_INC:
        c = (int64_t)((uint64_t)c + 1); /* wraps like the unsigned counters it models, never UB */
        break;
    case LF_M_GET:
        if (!lf_op_pending(op) && (op->res_kind != LF_K_INT || op->res != c)) return false;
        break;
    default: return false;
    }
    memcpy(next, &c, sizeof c);
    return true;
}

static int counter_describe(void *ctx, const void *state, char *buf, size_t len) {
    (void)ctx;
    int64_t c;
    memcpy(&c, state, sizeof c);
    return snprintf(buf, len, "%" PRId64, c);
}

/* "get" is also kv's one-argument method: describe ops with the counter's arity. */
static int counter_describe_op(const lf_op *op, char *buf, size_t len) {
    return lf_op_describe_typed(buf, len, LF_TYPE_COUNTER, op);
}

const lf_spec lf_spec_counter = {
    .name = "counter",
    .describe_op = counter_describe_op,
    .state_size = sizeof(int64_t),
    .init = counter_init,
    .observer = lf_spec_builtin_observer,
    .step = counter_step,
    .describe_state = counter_describe,
};
