/* Built-in spec: kv (a map). put k v stores v under k, get k -> the value under k or nil when absent,
 * delete k -> true iff k was present (then removes it). A stored nil value is present (delete says true)
 * but reads as nil, as in the brute-force oracle.
 *
 * State: one uint32 slot per key of the history (0 = absent, else 1 + the value's dense id). Up to 8 keys
 * the slots are inline (32 bytes); beyond, the state is a handle into a hash-consing store.
 * Partition key: the key ([Horn15]: each op touches one key, the map starts empty). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spec/blobstore.h"
#include "spec/spec_builtin.h"
#include "spec/spec_util.h"

#define KV_INLINE_SLOTS 8

typedef struct kv_ctx {
    lf_value_table keys, values;
    size_t slots;   /* number of keys */
    size_t words;   /* slots packed two per word */
    bool interned;
    lf_blobstore store;
    uint64_t *scratch; /* words long */
} kv_ctx;

static void kv_close(void *p) {
    kv_ctx *c = p;
    if (!c) return;
    lf_value_table_free(&c->keys);
    lf_value_table_free(&c->values);
    lf_blobstore_free(&c->store);
    free(c->scratch);
    free(c);
}

static bool kv_open(const lf_spec_env *env, void **ctx, size_t *state_size) {
    kv_ctx *c = calloc(1, sizeof *c);
    if (!c) return false;
    uint32_t all = (1u << LF_M_PUT) | (1u << LF_M_GET) | (1u << LF_M_DELETE);
    if (!lf_value_table_build(&c->keys, env->ops, env->n, all, LF_VT_ARG0) ||
        !lf_value_table_build(&c->values, env->ops, env->n, 1u << LF_M_PUT, LF_VT_ARG1))
        goto fail;
    c->slots = lf_value_table_size(&c->keys);
    if (!c->slots) c->slots = 1;
    c->words = (c->slots + 1) / 2;
    c->interned = c->slots > KV_INLINE_SLOTS;
    c->scratch = calloc(c->words, sizeof *c->scratch);
    if (!c->scratch || !lf_blobstore_init(&c->store, c->words)) goto fail;
    if (c->interned && lf_blobstore_intern(&c->store, c->scratch) != 0) goto fail; /* handle 0 = empty map */
    *state_size = c->interned ? sizeof(uint32_t) : c->slots * sizeof(uint32_t);
    *ctx = c;
    return true;
fail:
    kv_close(c);
    return false;
}

static size_t kv_bytes(const void *p) {
    const kv_ctx *c = p;
    return sizeof *c + (c->keys.n_ints + c->values.n_ints) * sizeof(int64_t) + c->words * 8 +
           lf_blobstore_bytes(&c->store);
}

/* With one key, a put replaces the whole map, whatever it held (P-compositionality makes such parts). */
static bool kv_overwrites(void *p, const lf_op *op) {
    const kv_ctx *c = p;
    return op->method == LF_M_PUT && lf_value_table_size(&c->keys) == 1;
}

static bool kv_failed(const void *p) { return ((const kv_ctx *)p)->store.failed; }

static void kv_init(void *p, void *state) {
    kv_ctx *c = p;
    memset(state, 0, c->interned ? sizeof(uint32_t) : c->slots * sizeof(uint32_t));
}

static uint32_t kv_slot(kv_ctx *c, const void *state, uint32_t key) {
    uint32_t v;
    if (c->interned) {
        uint32_t h;
        memcpy(&h, state, sizeof h);
        memcpy(&v, (const char *)lf_blobstore_get(&c->store, h) + (size_t)key * sizeof v, sizeof v);
    } else {
        memcpy(&v, (const char *)state + (size_t)key * sizeof v, sizeof v);
    }
    return v;
}

static bool kv_step(void *p, const void *state, const lf_op *op, void *next) {
    kv_ctx *c = p;
    uint32_t key = lf_value_table_arg(&c->keys, op, 0);
    if (key == UINT32_MAX) return false;
    uint32_t slot = kv_slot(c, state, key), new_slot;
    bool pending = lf_op_pending(op);
    switch ((lf_method)op->method) {
    case LF_M_PUT: {
        uint32_t v = lf_value_table_arg(&c->values, op, 1);
        if (v == UINT32_MAX) return false;
        new_slot = v + 1;
        break;
    }
    case LF_M_GET:
        if (!pending) {
            if (slot == 0 ? op->res_kind != LF_K_NIL : !lf_spec_result_is_value(op, &c->values, slot - 1))
                return false;
        }
        new_slot = slot;
        break;
    case LF_M_DELETE:
        if (!pending && (op->res_kind == LF_K_TRUE) != (slot != 0)) return false;
        new_slot = 0;
        break;
    default: return false;
    }
    size_t size = c->interned ? sizeof(uint32_t) : c->slots * sizeof(uint32_t);
    if (new_slot == slot) {
        memcpy(next, state, size);
        return true;
    }
    if (!c->interned) {
        memcpy(next, state, size);
        memcpy((char *)next + (size_t)key * sizeof new_slot, &new_slot, sizeof new_slot);
        return true;
    }
    uint32_t h;
    memcpy(&h, state, sizeof h);
    memcpy(c->scratch, lf_blobstore_get(&c->store, h), c->words * sizeof *c->scratch);
    memcpy((char *)c->scratch + (size_t)key * sizeof new_slot, &new_slot, sizeof new_slot);
    h = lf_blobstore_intern(&c->store, c->scratch);
    if (h == UINT32_MAX) return false;
    memcpy(next, &h, sizeof h);
    return true;
}

static int kv_describe(void *p, const void *state, char *buf, size_t len) {
    kv_ctx *c = p;
    int w = snprintf(buf, len, "{");
    size_t shown = 0, nk = lf_value_table_size(&c->keys);
    for (size_t k = 0; k < nk; k++) {
        uint32_t slot = kv_slot(c, state, (uint32_t)k);
        if (!slot) continue;
        size_t off = w > 0 && (size_t)w < len ? (size_t)w : len;
        if (++shown > 12) {
            w += snprintf(buf + off, len - off, ", ...");
            break;
        }
        char ks[32], vs[32];
        lf_value_table_describe(&c->keys, (uint32_t)k, ks, sizeof ks);
        lf_value_table_describe(&c->values, slot - 1, vs, sizeof vs);
        w += snprintf(buf + off, len - off, "%s%s: %s", shown > 1 ? ", " : "", ks, vs);
    }
    size_t off = w > 0 && (size_t)w < len ? (size_t)w : len;
    w += snprintf(buf + off, len - off, "}");
    return w;
}

/* Every kv op touches exactly its key. A nil key shares its partition with one integer key, which is
 * sound because each part is checked with this full spec. */
static bool kv_partition_key(const lf_spec_env *env, const lf_op *op, uint64_t *key) {
    (void)env;
    *key = lf_arg_is_nil(op, 0) ? UINT64_C(0x8000000000000000) : (uint64_t)op->arg[0];
    return true;
}

const lf_spec lf_spec_kv = {
    .name = "kv",
    .open = kv_open,
    .close = kv_close,
    .ctx_bytes = kv_bytes,
    .ctx_failed = kv_failed,
    .init = kv_init,
    .observer = lf_spec_builtin_observer,
    .step = kv_step,
    .overwrites = kv_overwrites,
    .describe_state = kv_describe,
    .partition_key = kv_partition_key,
};
