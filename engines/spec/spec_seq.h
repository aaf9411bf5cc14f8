/* Shared context of the sequence-like built-in specs (stack, queue, deque, pqueue): the history's
 * inserted values as dense ids, and the hash-consing sequence store whose handles are the states. */
#ifndef LINFUZZ_SPEC_SEQ_H
#define LINFUZZ_SPEC_SEQ_H

#include <string.h>

#include "spec/seqstore.h"
#include "linfuzz/spec.h"
#include "spec/spec_util.h"

typedef struct lf_seq_ctx {
    lf_value_table values;
    lf_seqstore store;
} lf_seq_ctx;

/* Opens a context whose values are the arguments of the methods in insert_methods (bit per method). */
bool lf_seq_open(const lf_spec_env *env, uint32_t insert_methods, void **ctx, size_t *state_size);
void lf_seq_close(void *ctx);
size_t lf_seq_ctx_bytes(const void *ctx);
bool lf_seq_failed(const void *ctx);
void lf_seq_init(void *ctx, void *state);
int lf_seq_describe_state(void *ctx, const void *state, char *buf, size_t len);

static inline uint32_t lf_seq_load(const void *state) {
    uint32_t h;
    memcpy(&h, state, sizeof h);
    return h;
}
static inline void lf_seq_store(void *state, uint32_t h) { memcpy(state, &h, sizeof h); }

/* Whether op's result is what an observer of the element value_id sees, or "empty" when is_empty.
 * Pending ops accept anything. */
bool lf_seq_result_ok(const lf_seq_ctx *c, const lf_op *op, bool is_empty, uint32_t value_id);

#endif
