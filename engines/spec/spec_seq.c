/* Shared context of the sequence-like built-in specs (see spec_seq.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spec/spec_builtin.h"
#include "spec/spec_seq.h"

bool lf_seq_open(const lf_spec_env *env, uint32_t insert_methods, void **ctx, size_t *state_size) {
    lf_seq_ctx *c = calloc(1, sizeof *c);
    if (!c) return false;
    if (!lf_value_table_build(&c->values, env->ops, env->n, insert_methods, LF_VT_ARG0) ||
        !lf_seqstore_init(&c->store)) {
        lf_seq_close(c);
        return false;
    }
    c->capacity = env->capacity;
    *state_size = sizeof(uint32_t);
    *ctx = c;
    return true;
}

void lf_seq_close(void *p) {
    lf_seq_ctx *c = p;
    if (!c) return;
    lf_value_table_free(&c->values);
    lf_seqstore_free(&c->store);
    free(c);
}

size_t lf_seq_ctx_bytes(const void *p) {
    const lf_seq_ctx *c = p;
    return sizeof *c + c->values.n_ints * sizeof(int64_t) + lf_seqstore_bytes(&c->store);
}

bool lf_seq_failed(const void *p) { return ((const lf_seq_ctx *)p)->store.failed; }

void lf_seq_init(void *ctx, void *state) {
    (void)ctx;
    lf_seq_store(state, LF_SEQ_EMPTY);
}

int lf_seq_describe_state(void *p, const void *state, char *buf, size_t len) {
    lf_seq_ctx *c = p;
    return lf_seq_describe(&c->store, lf_seq_load(state), &c->values, buf, len);
}

bool lf_seq_result_ok(const lf_seq_ctx *c, const lf_op *op, bool is_empty, uint32_t value_id) {
    if (lf_op_pending(op)) return true;
    if (is_empty) return op->res_kind == LF_K_EMPTY;
    return lf_spec_result_is_value(op, &c->values, value_id);
}

bool lf_seq_insert_ok(const lf_seq_ctx *c, const lf_op *op, uint32_t seq, bool *effect) {
    bool full = c->capacity && lf_seq_len(&c->store, seq) >= c->capacity;
    *effect = !full;
    if (lf_op_pending(op)) return true;
    return op->res_kind == LF_K_FULL ? full : !full;
}
