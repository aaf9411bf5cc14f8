/* Built-in spec: set. add v -> true iff v was absent (then adds it), remove v -> true iff v was present
 * (then removes it), contains v -> whether v is present.
 *
 * State: a bitset over the dense ids of the history's values. Up to 256 values it is stored inline (at
 * most 32 bytes); beyond, the state is a handle into a hash-consing store so that copies stay 4 bytes.
 * Partition key: the value ([Horn15]: each op touches only its own element, and the set starts
 * empty), so a split history is checked one value at a time with a 1-word state. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spec/blobstore.h"
#include "spec/spec_builtin.h"
#include "spec/spec_util.h"

#define SET_INLINE_WORDS 4

typedef struct set_ctx {
    lf_value_table values;
    size_t words;     /* bitset length */
    bool interned;    /* state is a uint32 handle into store */
    lf_blobstore store;
    uint64_t *scratch; /* words long */
} set_ctx;

static void set_close(void *p) {
    set_ctx *c = p;
    if (!c) return;
    lf_value_table_free(&c->values);
    lf_blobstore_free(&c->store);
    free(c->scratch);
    free(c);
}

static bool set_open(const lf_spec_env *env, void **ctx, size_t *state_size) {
    set_ctx *c = calloc(1, sizeof *c);
    if (!c) return false;
    uint32_t methods = (1u << LF_M_ADD) | (1u << LF_M_REMOVE) | (1u << LF_M_CONTAINS);
    if (!lf_value_table_build(&c->values, env->ops, env->n, methods, LF_VT_ARG0)) goto fail;
    size_t nv = lf_value_table_size(&c->values);
    c->words = nv ? (nv + 63) / 64 : 1;
    c->interned = c->words > SET_INLINE_WORDS;
    c->scratch = calloc(c->words, sizeof *c->scratch);
    if (!c->scratch || !lf_blobstore_init(&c->store, c->words)) goto fail;
    if (c->interned && lf_blobstore_intern(&c->store, c->scratch) != 0) goto fail; /* handle 0 = empty set */
    *state_size = c->interned ? sizeof(uint32_t) : c->words * sizeof(uint64_t);
    *ctx = c;
    return true;
fail:
    set_close(c);
    return false;
}

static size_t set_bytes(const void *p) {
    const set_ctx *c = p;
    return sizeof *c + c->values.n_ints * sizeof(int64_t) + c->words * 8 + lf_blobstore_bytes(&c->store);
}

static bool set_failed(const void *p) { return ((const set_ctx *)p)->store.failed; }

static void set_init(void *p, void *state) {
    set_ctx *c = p;
    if (c->interned)
        memset(state, 0, sizeof(uint32_t));
    else
        memset(state, 0, c->words * sizeof(uint64_t));
}

/* The bitset of a state (inline bytes are copied to keep alignment rules simple). */
static const uint64_t *set_bits(set_ctx *c, const void *state, uint64_t *buf) {
    if (c->interned) {
        uint32_t h;
        memcpy(&h, state, sizeof h);
        return lf_blobstore_get(&c->store, h);
    }
    memcpy(buf, state, c->words * sizeof *buf);
    return buf;
}

static bool set_step(void *p, const void *state, const lf_op *op, void *next) {
    set_ctx *c = p;
    uint32_t id = lf_value_table_arg(&c->values, op, 0);
    if (id == UINT32_MAX) return false; /* not a set op of the history this instance was opened on */
    uint64_t inline_buf[SET_INLINE_WORDS];
    const uint64_t *bits = set_bits(c, state, inline_buf);
    uint64_t bit = 1ull << (id & 63);
    bool present = (bits[id / 64] & bit) != 0;
    bool pending = lf_op_pending(op);
    bool want_true = op->res_kind == LF_K_TRUE;
    bool change;
    switch ((lf_method)op->method) {
    case LF_M_ADD:
        if (!pending && want_true == present) return false;
        change = !present;
        break;
    case LF_M_REMOVE:
        if (!pending && want_true != present) return false;
        change = present;
        break;
    case LF_M_CONTAINS:
        if (!pending && want_true != present) return false;
        change = false;
        break;
    default: return false;
    }
    size_t size = c->interned ? sizeof(uint32_t) : c->words * sizeof(uint64_t);
    if (!change) {
        memcpy(next, state, size);
        return true;
    }
    if (!c->interned) {
        inline_buf[id / 64] ^= bit;
        memcpy(next, inline_buf, size);
        return true;
    }
    memcpy(c->scratch, bits, c->words * sizeof *bits);
    c->scratch[id / 64] ^= bit;
    uint32_t h = lf_blobstore_intern(&c->store, c->scratch);
    if (h == UINT32_MAX) return false;
    memcpy(next, &h, sizeof h);
    return true;
}

static int set_describe(void *p, const void *state, char *buf, size_t len) {
    set_ctx *c = p;
    uint64_t inline_buf[SET_INLINE_WORDS];
    const uint64_t *bits = set_bits(c, state, inline_buf);
    int w = snprintf(buf, len, "{");
    size_t shown = 0, nv = lf_value_table_size(&c->values);
    for (size_t id = 0; id < nv; id++) {
        if (!((bits[id / 64] >> (id & 63)) & 1)) continue;
        size_t off = w > 0 && (size_t)w < len ? (size_t)w : len;
        if (++shown > 16) {
            w += snprintf(buf + off, len - off, " ...");
            break;
        }
        char v[32];
        lf_value_table_describe(&c->values, (uint32_t)id, v, sizeof v);
        w += snprintf(buf + off, len - off, "%s%s", shown > 1 ? " " : "", v);
    }
    size_t off = w > 0 && (size_t)w < len ? (size_t)w : len;
    w += snprintf(buf + off, len - off, "}");
    return w;
}

/* Every set op touches exactly its argument's element. A nil value shares its key with one integer;
 * that only merges two parts, which is sound because each part is checked with this full spec. */
static bool set_partition_key(const lf_spec_env *env, const lf_op *op, uint64_t *key) {
    (void)env;
    *key = lf_arg_is_nil(op, 0) ? UINT64_C(0x8000000000000000) : (uint64_t)op->arg[0];
    return true;
}

const lf_spec lf_spec_set = {
    .name = "set",
    .open = set_open,
    .close = set_close,
    .ctx_bytes = set_bytes,
    .ctx_failed = set_failed,
    .init = set_init,
    .observer = lf_spec_builtin_observer,
    .step = set_step,
    .describe_state = set_describe,
    .partition_key = set_partition_key,
};
