/* Sequential specifications: opening instances, default hashing and equality, built-in lookup. */
#include "linfuzz/spec.h"

#include <stdio.h>
#include <string.h>

#include "spec/spec_builtin.h"
#include "spec/spec_util.h"

const lf_spec *lf_spec_builtin(lf_type t) {
    switch (t) {
    case LF_TYPE_REGISTER:
    case LF_TYPE_CAS_REGISTER: return &lf_spec_register;
    case LF_TYPE_SET: return &lf_spec_set;
    case LF_TYPE_STACK: return &lf_spec_stack;
    case LF_TYPE_QUEUE: return &lf_spec_queue;
    case LF_TYPE_PQUEUE: return &lf_spec_pqueue;
    case LF_TYPE_KV: return &lf_spec_kv;
    case LF_TYPE_COUNTER: return &lf_spec_counter;
    case LF_TYPE_DEQUE: return &lf_spec_deque;
    case LF_TYPE_COUNT:
    case LF_TYPE_CUSTOM: break; /* a custom type's spec is in its declaration: lf_spec_of_history */
    }
    return NULL;
}

const lf_spec *lf_spec_of_history(const lf_history *h) {
    if (h->type == LF_TYPE_CUSTOM) return h->custom ? h->custom->spec : NULL;
    return lf_spec_builtin(h->type);
}

void lf_spec_env_of_history(const lf_history *h, lf_spec_env *env) {
    memset(env, 0, sizeof *env);
    env->ops = h->ops;
    env->n = h->n;
    /* Without an init line a register starts at 0 (the format's default). */
    env->init_kind = h->has_init ? h->init_kind : LF_K_INT;
    env->init = h->has_init ? h->init : 0;
    env->custom = h->type == LF_TYPE_CUSTOM ? h->custom : NULL;
}

bool lf_spec_open(const lf_spec *spec, const lf_spec_env *env, lf_spec_inst *inst) {
    inst->spec = spec;
    inst->ctx = NULL;
    inst->state_size = spec->state_size;
    inst->custom = env->custom;
    if (spec->open && !spec->open(env, &inst->ctx, &inst->state_size)) {
        inst->ctx = NULL;
        return false;
    }
    return true;
}

void lf_spec_close(lf_spec_inst *inst) {
    if (inst->spec && inst->spec->close && inst->ctx) inst->spec->close(inst->ctx);
    inst->ctx = NULL;
}

size_t lf_spec_ctx_bytes(const lf_spec_inst *inst) {
    return inst->spec->ctx_bytes && inst->ctx ? inst->spec->ctx_bytes(inst->ctx) : 0;
}

bool lf_spec_failed(const lf_spec_inst *inst) {
    return inst->spec->ctx_failed && inst->ctx && inst->spec->ctx_failed(inst->ctx);
}

uint64_t lf_spec_hash_bytes(const void *p, size_t n) {
    const unsigned char *b = p;
    uint64_t h = 0x9e3779b97f4a7c15ULL ^ n;
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t w;
        memcpy(&w, b + i, 8);
        h = lf_mix64(h ^ w);
    }
    if (i < n) {
        uint64_t w = 0;
        memcpy(&w, b + i, n - i);
        h = lf_mix64(h ^ w ^ 0x5bd1e995);
    }
    return h;
}

uint64_t lf_spec_hash(const lf_spec_inst *in, const void *state) {
    if (in->spec->hash) return in->spec->hash(in->ctx, state);
    return lf_spec_hash_bytes(state, in->state_size);
}

bool lf_spec_equal(const lf_spec_inst *in, const void *a, const void *b) {
    if (in->spec->equal) return in->spec->equal(in->ctx, a, b);
    return memcmp(a, b, in->state_size) == 0;
}

int lf_spec_describe_op(const lf_spec_inst *in, const lf_op *op, char *buf, size_t len) {
    if (in->spec->describe_op) return in->spec->describe_op(op, buf, len);
    if (in->custom) {
        lf_history view;
        lf_history_init_custom(&view, in->custom);
        return lf_history_describe_op(&view, op, buf, len);
    }
    return lf_op_describe(buf, len, op);
}

int lf_spec_describe_state(const lf_spec_inst *in, const void *state, char *buf, size_t len) {
    if (in->spec->describe_state) return in->spec->describe_state(in->ctx, state, buf, len);
    if (len) buf[0] = '\0';
    return 0;
}

bool lf_spec_builtin_observer(const lf_op *op) {
    switch ((lf_method)op->method) {
    case LF_M_READ:
    case LF_M_CONTAINS:
    case LF_M_PEEK:
    case LF_M_GET:
    case LF_M_PEEK_FRONT:
    case LF_M_PEEK_BACK: return true;
    default: break;
    }
    /* add -> false, remove -> false, delete -> false: the element was already there / absent; cas -> fail:
     * the compare failed; pop/deq/poll -> empty: nothing to remove. Each is legal only where it changes
     * nothing. */
    return op->res_kind == LF_K_FALSE || op->res_kind == LF_K_FAIL || op->res_kind == LF_K_EMPTY;
}

bool lf_spec_result_is_value(const lf_op *op, const lf_value_table *t, uint32_t id) {
    if (op->res_kind == LF_K_NIL) return lf_value_table_id(t, true, 0) == id && id != UINT32_MAX;
    if (op->res_kind == LF_K_INT) return lf_value_table_id(t, false, op->res) == id && id != UINT32_MAX;
    return false;
}
