/* The self-spec as an lf_spec over the memo of serial prefixes (see self_spec.h). */
#include "selfspec/self_spec.h"

#include <stdio.h>
#include <string.h>

static _Thread_local const ss_memo *current;

const ss_memo *lf_ss_set_current(const ss_memo *m) {
    const ss_memo *prev = current;
    current = m;
    return prev;
}

/* A state is the memo node's number in a 64-bit word (so states copy and compare as bytes). */
static uint32_t node_of(const void *state) {
    uint64_t v;
    memcpy(&v, state, sizeof v);
    return (uint32_t)v;
}

static bool self_open(const lf_spec_env *env, void **ctx, size_t *state_size) {
    *ctx = (void *)env->user;
    *state_size = sizeof(uint64_t);
    return env->user != NULL;
}

static void self_init(void *ctx, void *state) {
    (void)ctx;
    uint64_t v = SS_ROOT;
    memcpy(state, &v, sizeof v);
}

static bool self_step(void *ctx, const void *state, const lf_op *op, void *next) {
    uint32_t to;
    if (!lf_ss_step(ctx, node_of(state), op, &to)) return false;
    uint64_t v = to;
    memcpy(next, &v, sizeof v);
    return true;
}

static bool self_failed(const void *ctx) { return ss_failed(ctx); }

static bool self_observer(const lf_op *op) {
    return current && op->method < 64 && (current->flags[op->method] & LF_MF_OBSERVER);
}

/* Ops of methods declared keyed (LF_MF_KEYED) touch only the part of their first argument; any other op
 * keeps the history whole (the pipeline splits only when every op has a key). Colliding keys merge parts. */
static bool self_partition_key(const lf_spec_env *env, const lf_op *op, uint64_t *key) {
    const ss_memo *m = env->user;
    if (!m || op->method >= 64 || !(m->flags[op->method] & LF_MF_KEYED)) return false;
    *key = lf_arg_is_nil(op, 0) ? UINT64_C(0x8000000000000000) : (uint64_t)op->arg[0];
    return true;
}

static int self_describe_op(const lf_op *op, char *buf, size_t len) {
    if (current) return lf_history_describe_op(&current->type, op, buf, len);
    return lf_op_describe(buf, len, op);
}

/* "after 3 serial ops (.., transfer 0 5 -> ok)": the op that led there. */
static int self_describe_state(void *ctx, const void *state, char *buf, size_t len) {
    const ss_memo *m = ctx;
    uint32_t x = node_of(state);
    if (x == SS_ROOT || x >= m->n_nodes) return snprintf(buf, len, "fresh");
    char last[200];
    lf_ss_describe_node(m, x, last, sizeof last);
    return snprintf(buf, len, "after %u serial ops (%s%s)", m->nodes[x].depth, m->nodes[x].depth > 1 ? ".., " : "",
                    last);
}

const lf_spec lf_self_spec = {
    .name = "self",
    .state_size = sizeof(uint64_t),
    .open = self_open,
    .init = self_init,
    .step = self_step,
    .ctx_failed = self_failed,
    .observer = self_observer,
    .partition_key = self_partition_key,
    .describe_state = self_describe_state,
    .describe_op = self_describe_op,
};
