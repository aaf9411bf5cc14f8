/* Block states of queues and stacks for the frontier sweep (see spec_blocks.h).
 *
 * A state is (sequence handle, open flag). The sequence is hash-consed in a seqstore, one element per value,
 * encoded (value id << 1) | cont, where cont says the element belongs to the same block as the one before
 * it (front to back for a queue, bottom to top for a stack); within a block the ids are sorted, so equal
 * block states are equal handles. The open flag says that the last block still takes inserts: it is set by
 * an insert and cleared by any other op and by lf_spec_blocks_seal. Blocks are short (the ops inserted
 * together at one return), so taking one apart and rebuilding it costs a few memoised store operations. */
#include "spec/spec_blocks.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spec/seqstore.h"
#include "spec/spec_builtin.h"
#include "spec/spec_util.h"
#include "util/grow.h"
#include "util/hash.h"

typedef struct blk_state {
    uint32_t seq;
    uint32_t open;
} blk_state;

typedef struct blk_ctx {
    lf_value_table values;
    lf_seqstore store;
    bool stack;
    uint64_t *sum; /* per store node + 1: the content hash of its sequence, 0 = not computed yet */
    size_t sum_cap;
    uint32_t *buf, *buf2; /* scratch: one block's ids */
    size_t buf_cap;
} blk_ctx;

static blk_state load(const void *p) {
    blk_state s;
    memcpy(&s, p, sizeof s);
    return s;
}

static void save(void *p, blk_state s) { memcpy(p, &s, sizeof s); }

static void blk_close(void *p) {
    blk_ctx *c = p;
    if (!c) return;
    lf_value_table_free(&c->values);
    lf_seqstore_free(&c->store);
    free(c->sum);
    free(c->buf);
    free(c->buf2);
    free(c);
}

static bool blk_open(const lf_spec_env *env, bool stack, void **ctx, size_t *state_size) {
    blk_ctx *c = calloc(1, sizeof *c);
    if (!c) return false;
    c->stack = stack;
    uint32_t inserts = stack ? 1u << LF_M_PUSH : 1u << LF_M_ENQ;
    if (!lf_value_table_build(&c->values, env->ops, env->n, inserts, LF_VT_ARG0) || !lf_seqstore_init(&c->store)) {
        blk_close(c);
        return false;
    }
    *state_size = sizeof(blk_state);
    *ctx = c;
    return true;
}

static bool queue_open(const lf_spec_env *env, void **ctx, size_t *state_size) {
    return blk_open(env, false, ctx, state_size);
}

static bool stack_open(const lf_spec_env *env, void **ctx, size_t *state_size) {
    return blk_open(env, true, ctx, state_size);
}

static size_t blk_bytes(const void *p) {
    const blk_ctx *c = p;
    return sizeof *c + c->values.n_ints * sizeof(int64_t) + lf_seqstore_bytes(&c->store) +
           c->sum_cap * sizeof *c->sum + 2 * c->buf_cap * sizeof *c->buf;
}

static bool blk_failed(const void *p) { return ((const blk_ctx *)p)->store.failed; }

static void blk_init(void *ctx, void *state) {
    (void)ctx;
    save(state, (blk_state){LF_SEQ_EMPTY, 0});
}

static bool reserve(blk_ctx *c, size_t n) {
    if (n <= c->buf_cap) return true;
    size_t cap = lf_grow_capacity(c->buf_cap, n, sizeof *c->buf, 64);
    uint32_t *a = cap ? realloc(c->buf, cap * sizeof *a) : NULL;
    if (a) c->buf = a;
    uint32_t *b = a ? realloc(c->buf2, cap * sizeof *b) : NULL;
    if (b) c->buf2 = b;
    if (!a || !b) {
        c->store.failed = true;
        return false;
    }
    c->buf_cap = cap;
    return true;
}

/* The last block of seq: its ids into buf (sorted), their number; *base = seq without it. */
static size_t last_block(blk_ctx *c, uint32_t seq, uint32_t *base, uint32_t *buf) {
    size_t k = 0;
    while (seq != LF_SEQ_EMPTY) {
        uint32_t e = lf_seq_last(&c->store, seq);
        buf[k++] = e >> 1;
        seq = lf_seq_pop_back(&c->store, seq);
        if (!(e & 1)) break;
    }
    *base = seq;
    for (size_t i = 0; i < k / 2; i++) { /* collected top down: sorted descending */
        uint32_t t = buf[i];
        buf[i] = buf[k - 1 - i];
        buf[k - 1 - i] = t;
    }
    return k;
}

/* Length of the last block of seq (for sizing the scratch first). */
static size_t last_block_len(const blk_ctx *c, uint32_t seq) {
    size_t k = 0;
    while (seq != LF_SEQ_EMPTY) {
        uint32_t e = lf_seq_last(&c->store, seq);
        k++;
        seq = lf_seq_pop_back(&c->store, seq);
        if (!(e & 1)) break;
    }
    return k;
}

/* The first block of seq: ids into c->buf (sorted), their number; *rest = seq without it. LF_SEQ_NONE in
 * *rest when out of memory. */
static size_t first_block(blk_ctx *c, uint32_t seq, uint32_t *rest) {
    size_t k = 0;
    bool first = true;
    while (seq != LF_SEQ_EMPTY && seq != LF_SEQ_NONE) {
        uint32_t e = lf_seq_first(&c->store, seq);
        if (!first && !(e & 1)) break;
        first = false;
        if (!reserve(c, k + 1)) {
            seq = LF_SEQ_NONE;
            break;
        }
        c->buf[k++] = e >> 1;
        seq = lf_seq_pop_front(&c->store, seq);
    }
    *rest = seq;
    return k;
}

/* base + the block ids[0..k) (sorted) at the back. */
static uint32_t push_block_back(blk_ctx *c, uint32_t base, const uint32_t *ids, size_t k) {
    for (size_t i = 0; i < k && base != LF_SEQ_NONE; i++) base = lf_seq_push_back(&c->store, base, ids[i] << 1 | (i > 0));
    return base;
}

/* The block ids[0..k) (sorted) + rest, at the front. */
static uint32_t push_block_front(blk_ctx *c, uint32_t rest, const uint32_t *ids, size_t k) {
    for (size_t i = k; i-- > 0 && rest != LF_SEQ_NONE;) rest = lf_seq_push_front(&c->store, rest, ids[i] << 1 | (i > 0));
    return rest;
}

/* Index of id in ids[0..k), or k. */
static size_t find(const uint32_t *ids, size_t k, uint32_t id) {
    size_t i = 0;
    while (i < k && ids[i] != id) i++;
    return i;
}

static bool insert_value(blk_ctx *c, blk_state *s, uint32_t id) {
    if (!s->open || s->seq == LF_SEQ_EMPTY) {
        s->seq = lf_seq_push_back(&c->store, s->seq, id << 1);
    } else {
        if (!reserve(c, last_block_len(c, s->seq) + 1)) return false;
        uint32_t base;
        size_t k = last_block(c, s->seq, &base, c->buf);
        size_t i = k;
        while (i > 0 && c->buf[i - 1] > id) {
            c->buf[i] = c->buf[i - 1];
            i--;
        }
        c->buf[i] = id;
        s->seq = push_block_back(c, base, c->buf, k + 1);
    }
    s->open = 1;
    return s->seq != LF_SEQ_NONE;
}

/* Takes (remove) or fixes (peek: the value goes first in its block) the value id from the front (queue)
 * or top (stack) block. False when the block does not hold it. */
static bool take_value(blk_ctx *c, blk_state *s, uint32_t id, bool remove) {
    if (s->seq == LF_SEQ_EMPTY) return false;
    size_t k;
    uint32_t base;
    if (c->stack) {
        if (!reserve(c, last_block_len(c, s->seq))) return false;
        k = last_block(c, s->seq, &base, c->buf);
    } else {
        k = first_block(c, s->seq, &base);
        if (base == LF_SEQ_NONE) return false;
    }
    size_t at = find(c->buf, k, id);
    if (at == k) return false;
    memmove(c->buf + at, c->buf + at + 1, (k - at - 1) * sizeof *c->buf);
    k--;
    if (c->stack) {
        base = push_block_back(c, base, c->buf, k);
        if (!remove) base = push_block_back(c, base, &id, 1); /* the peeked value alone on top */
    } else {
        base = push_block_front(c, base, c->buf, k);
        if (!remove) base = push_block_front(c, base, &id, 1); /* the peeked value alone in front */
    }
    s->seq = base;
    s->open = 0;
    return base != LF_SEQ_NONE;
}

static bool blk_step(void *p, const void *state, const lf_op *op, void *next) {
    blk_ctx *c = p;
    blk_state s = load(state);
    bool pending = lf_op_pending(op);
    switch ((lf_method)op->method) {
    case LF_M_ENQ:
    case LF_M_PUSH: {
        uint32_t id = lf_value_table_arg(&c->values, op, 0);
        if (id == UINT32_MAX || !insert_value(c, &s, id)) return false;
        break;
    }
    case LF_M_DEQ:
    case LF_M_POP:
    case LF_M_PEEK:
        if (pending) {
            if (op->method != LF_M_PEEK) return false; /* never given: lf_spec_blocks_variant checks */
            break;                                      /* a peek whose answer is unknown changes nothing */
        }
        if (op->res_kind == LF_K_EMPTY) {
            if (s.seq != LF_SEQ_EMPTY) return false;
            s.open = 0;
            break;
        } else {
            uint32_t id = op->res_kind == LF_K_NIL   ? lf_value_table_id(&c->values, true, 0)
                          : op->res_kind == LF_K_INT ? lf_value_table_id(&c->values, false, op->res)
                                                     : UINT32_MAX;
            if (id == UINT32_MAX || !take_value(c, &s, id, op->method != LF_M_PEEK)) return false;
        }
        break;
    default: return false;
    }
    save(next, s);
    return true;
}

/* What changes no state: only an answer of empty (a value peeked fixes the order of its block). */
static bool blk_observer(const lf_op *op) {
    return (op->method == LF_M_DEQ || op->method == LF_M_POP || op->method == LF_M_PEEK) &&
           op->res_kind == LF_K_EMPTY;
}

static int blk_describe(void *p, const void *state, char *buf, size_t len) {
    blk_ctx *c = p;
    blk_state s = load(state);
    /* "[1 {2 3} 4]": blocks of more than one value in braces, front (or bottom) first. */
    size_t n = lf_seq_len(&c->store, s.seq), used = 0;
    uint32_t *els = malloc((n ? n : 1) * sizeof *els);
    if (!els) return snprintf(buf, len, "[...]");
    uint32_t seq = s.seq;
    for (size_t i = n; i-- > 0;) {
        els[i] = lf_seq_last(&c->store, seq);
        seq = lf_seq_pop_back(&c->store, seq);
    }
#define ADD(...)                                                                                     \
    do {                                                                                             \
        int w_ = snprintf(buf + (used < len ? used : len), used < len ? len - used : 0, __VA_ARGS__); \
        if (w_ > 0) used += (size_t)w_;                                                              \
    } while (0)
    ADD("[");
    for (size_t i = 0; i < n; i++) {
        bool starts = !(els[i] & 1), multi = i + 1 < n && (els[i + 1] & 1);
        if (i) ADD(" ");
        if (starts && multi) ADD("{");
        char v[64];
        lf_value_table_describe(&c->values, els[i] >> 1, v, sizeof v);
        ADD("%s", v);
        bool ends = i + 1 == n || !(els[i + 1] & 1);
        if (ends && (els[i] & 1)) ADD("}");
    }
    ADD("]");
#undef ADD
    free(els);
    return (int)used;
}

static const lf_spec lf_spec_queue_blocks = {
    .name = "queue (blocks)",
    .state_size = sizeof(blk_state),
    .open = queue_open,
    .close = blk_close,
    .ctx_bytes = blk_bytes,
    .ctx_failed = blk_failed,
    .init = blk_init,
    .observer = blk_observer,
    .step = blk_step,
    .describe_state = blk_describe,
};

static const lf_spec lf_spec_stack_blocks = {
    .name = "stack (blocks)",
    .state_size = sizeof(blk_state),
    .open = stack_open,
    .close = blk_close,
    .ctx_bytes = blk_bytes,
    .ctx_failed = blk_failed,
    .init = blk_init,
    .observer = blk_observer,
    .step = blk_step,
    .describe_state = blk_describe,
};

const lf_spec *lf_spec_blocks_variant(const lf_spec *spec, const lf_spec_env *env) {
    bool stack = spec == &lf_spec_stack;
    if (!stack && spec != &lf_spec_queue) return NULL;
    /* blocks know no capacity: a bounded container's inserts (full answers, inserts only below capacity) are
     * the sequence spec's to decide */
    if (env->capacity) return NULL;
    for (size_t i = 0; i < env->n; i++) {
        const lf_op *op = &env->ops[i];
        if (lf_op_pending(op) && (op->method == LF_M_DEQ || op->method == LF_M_POP)) return NULL;
        if (lf_method_is_bulk(op->method)) return NULL; /* blocks hold single inserts: the sequence spec's */
    }
    return stack ? &lf_spec_stack_blocks : &lf_spec_queue_blocks;
}

bool lf_spec_is_blocks(const lf_spec *spec) { return spec == &lf_spec_queue_blocks || spec == &lf_spec_stack_blocks; }

bool lf_spec_blocks_is_stack(const lf_spec *spec) { return spec == &lf_spec_stack_blocks; }

void lf_spec_blocks_seal(void *ctx, void *state) {
    (void)ctx;
    blk_state s = load(state);
    s.open = 0;
    save(state, s);
}

uint64_t lf_spec_blocks_content(void *p, const void *state) {
    blk_ctx *c = p;
    uint32_t seq = load(state).seq;
    if (c->sum_cap < c->store.n) {
        size_t old_cap = c->sum_cap;
        if (!LF_GROW(c->sum, c->sum_cap, c->store.n, 1024)) return 0; /* only a hint: equal contents hash equally (0) */
        memset(c->sum + old_cap, 0, (c->sum_cap - old_cap) * sizeof *c->sum);
    }
    /* sum[x] = 1 + hash of x's contents; computed along the parent chain up to a known node. */
    uint32_t x = seq;
    size_t depth = 0;
    while (x != LF_SEQ_EMPTY && c->sum[x] == 0) {
        x = lf_seq_pop_back(&c->store, x);
        depth++;
    }
    if (depth) {
        if (!reserve(c, depth)) return 0;
        x = seq;
        for (size_t i = 0; i < depth; i++) {
            c->buf2[i] = x;
            x = lf_seq_pop_back(&c->store, x);
        }
        uint64_t h = x == LF_SEQ_EMPTY ? 1 : c->sum[x];
        for (size_t i = depth; i-- > 0;) {
            h += lf_mix64((lf_seq_last(&c->store, c->buf2[i]) >> 1) + 0x9e3779b97f4a7c15ULL);
            if (h == 0) h = 1;
            c->sum[c->buf2[i]] = h;
        }
    }
    return seq == LF_SEQ_EMPTY ? 1 : c->sum[seq];
}

bool lf_spec_blocks_covers(void *p, const void *a, const void *b) {
    blk_ctx *c = p;
    uint32_t ha = load(a).seq, hb = load(b).seq;
    /* From the back: each block of a must be exactly a run of whole blocks of b with the same values. */
    while (ha != hb) {
        if (ha == LF_SEQ_EMPTY || hb == LF_SEQ_EMPTY) return false;
        size_t ka = last_block_len(c, ha);
        if (!reserve(c, ka + 1)) return false;
        uint32_t base_a;
        last_block(c, ha, &base_a, c->buf);
        size_t kb = 0;
        uint32_t e = 0;
        while (kb < ka) {
            if (hb == LF_SEQ_EMPTY) return false;
            e = lf_seq_last(&c->store, hb);
            c->buf2[kb++] = e >> 1;
            hb = lf_seq_pop_back(&c->store, hb);
        }
        if (e & 1) return false; /* the block of b that holds a's first value goes on past a's block */
        for (size_t i = 1; i < kb; i++) { /* insertion sort: blocks are short */
            uint32_t v = c->buf2[i];
            size_t j = i;
            while (j > 0 && c->buf2[j - 1] > v) {
                c->buf2[j] = c->buf2[j - 1];
                j--;
            }
            c->buf2[j] = v;
        }
        for (size_t i = 0; i < ka; i++)
            if (c->buf[i] != c->buf2[i]) return false;
        ha = base_a;
    }
    return true;
}
