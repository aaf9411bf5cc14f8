/* Built-in spec: register and cas-register. The state is the value (16 bytes: integer, nil flag); a read
 * returns it, write replaces it, cas(expected, new) succeeds (ok) iff the value equals expected (nil equals
 * only nil) and then stores new, else fails (fail) and changes nothing. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spec/spec_builtin.h"
#include "spec/spec_util.h"

typedef struct reg_state {
    int64_t value;
    uint64_t is_nil;
} reg_state;

static void reg_init_state(void *ctx, void *state) {
    const lf_spec_env *env = ctx;
    reg_state s = {0, 0};
    if (env->init_kind == LF_K_NIL)
        s.is_nil = 1;
    else
        s.value = env->init;
    memcpy(state, &s, sizeof s);
}

/* The context is a copy of the env: only the initial value is needed. */
static bool reg_open(const lf_spec_env *env, void **ctx, size_t *state_size) {
    *state_size = sizeof(reg_state);
    lf_spec_env *copy = malloc(sizeof *copy);
    if (!copy) return false;
    *copy = *env;
    *ctx = copy;
    return true;
}

static void reg_close(void *ctx) { free(ctx); }

static reg_state arg_value(const lf_op *op, int i) {
    reg_state s = {0, 0};
    if (lf_arg_is_nil(op, i))
        s.is_nil = 1;
    else
        s.value = op->arg[i];
    return s;
}

static bool same(reg_state a, reg_state b) { return a.is_nil == b.is_nil && (a.is_nil || a.value == b.value); }

static bool reg_step(void *ctx, const void *state, const lf_op *op, void *next) {
    (void)ctx;
    reg_state s;
    memcpy(&s, state, sizeof s);
    bool pending = lf_op_pending(op);
    switch ((lf_method)op->method) {
    case LF_M_WRITE:
        s = arg_value(op, 0);
        break;
    case LF_M_READ:
        if (!pending) {
            if (op->res_kind == LF_K_NIL ? !s.is_nil : (op->res_kind != LF_K_INT || s.is_nil || s.value != op->res))
                return false;
        }
        break;
    case LF_M_CAS: {
        bool match = same(s, arg_value(op, 0));
        if (!pending && match != (op->res_kind == LF_K_OK)) return false;
        if (match) s = arg_value(op, 1);
        break;
    }
    default: return false;
    }
    memcpy(next, &s, sizeof s);
    return true;
}

/* A write replaces the whole state, whatever it was, and is legal everywhere. */
static bool reg_overwrites(void *ctx, const lf_op *op) {
    (void)ctx;
    return op->method == LF_M_WRITE;
}

static uint64_t reg_hash(void *ctx, const void *state) {
    (void)ctx;
    reg_state s;
    memcpy(&s, state, sizeof s);
    return lf_mix64((uint64_t)s.value ^ (s.is_nil << 63) ^ s.is_nil);
}

static int reg_describe(void *ctx, const void *state, char *buf, size_t len) {
    (void)ctx;
    reg_state s;
    memcpy(&s, state, sizeof s);
    return s.is_nil ? snprintf(buf, len, "nil") : snprintf(buf, len, "%" PRId64, s.value);
}

const lf_spec lf_spec_register = {
    .name = "register",
    .state_size = sizeof(reg_state),
    .open = reg_open,
    .close = reg_close,
    .init = reg_init_state,
    .observer = lf_spec_builtin_observer,
    .step = reg_step,
    .overwrites = reg_overwrites,
    .hash = reg_hash,
    .describe_state = reg_describe,
};
