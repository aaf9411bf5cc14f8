/* The sequential specifications of the relaxed orders of stacks and queues (docs/contracts.md): k-relaxed FIFO
 * and LIFO, per-producer FIFO, and the bag. One spec serves them all; it reads the order (and K) from
 * env->contract and tells queue from stack by the methods.
 *
 * Each order is a nondeterministic machine: a remove that returns v may take any of several occurrences of v
 * (a value inserted twice; a k-LIFO whose top K values hold v twice; two producers whose oldest values are
 * both v), and a pending remove may take any value it could have returned. The spec is deterministic over sets
 * of configurations (the subset construction): a state is one configuration, or a handle to a sorted set of
 * them, and a step maps every member and keeps the union. Histories whose values are distinct and whose removes
 * all returned stay on single configurations.
 *
 * Configurations are uint32 handles of hash-consed sequences of value ids (spec/seqstore.h):
 *   k-relaxed queue  front first; the first min(K, len) values, the ones a remove may take, kept sorted (their
 *                    order cannot matter again: they stay among the first K until they leave), so equal
 *                    windows are equal handles and a remove of v is deterministic;
 *   k-relaxed stack  bottom first (the top last); the order of the top K matters, since a push moves the K-th
 *                    value out of reach;
 *   bag              sorted (a multiset);
 *   per-producer     a vector of one front-first sequence per producer, interned (spec/blobstore.h).
 * Parameters travel in the ops, so that a step depends on the op alone (linfuzz/spec.h): engines/contract gives
 * every k-relaxed remove and peek K in arg[1], and every per-producer insert a dense id of its thread there.
 * Bounded (env->capacity): an insert answers full exactly when the container holds `capacity` values. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spec/blobstore.h"
#include "spec/seqstore.h"
#include "spec/spec_builtin.h"
#include "util/grow.h"

#define SET_TAG 0x80000000u    /* a state with this bit is a set of configurations (a handle into ctx->sets) */
#define MAX_SET 4096           /* configurations in one state; beyond, the context fails (the checkers: unknown) */

typedef enum shape { KFIFO, KLIFO, BAG, PER_PRODUCER } shape;

typedef struct relax_ctx {
    shape shape;
    uint32_t k;            /* the window: k-relaxed K; UINT32_MAX for the bag (every value) */
    uint64_t capacity;
    lf_value_table values;
    lf_seqstore store;     /* the sequences of configurations */
    lf_seqstore sets;      /* sets of configurations: sorted sequences of configuration handles */
    lf_blobstore tuples;   /* per-producer: vectors of producers' sequence handles */
    uint32_t producers;
    uint32_t *scratch, *scratch2; /* successor lists */
    size_t scratch_cap;
    uint32_t *win;         /* a window's values (k-relaxed), at most k + 1 */
    uint64_t *tuple;       /* one per-producer vector */
    bool failed;
} relax_ctx;

static uint32_t load(const void *state) {
    uint32_t h;
    memcpy(&h, state, sizeof h);
    return h;
}
static void store_state(void *state, uint32_t h) { memcpy(state, &h, sizeof h); }

static bool is_insert(unsigned m) { return m == LF_M_ENQ || m == LF_M_PUSH; }
static bool is_remove(unsigned m) { return m == LF_M_DEQ || m == LF_M_POP; }

static void relax_close(void *p) {
    relax_ctx *c = p;
    if (!c) return;
    lf_value_table_free(&c->values);
    lf_seqstore_free(&c->store);
    lf_seqstore_free(&c->sets);
    if (c->shape == PER_PRODUCER) lf_blobstore_free(&c->tuples);
    free(c->scratch);
    free(c->scratch2);
    free(c->win);
    free(c->tuple);
    free(c);
}

/* Opens the order `shape`. Its parameters come in the ops (lf_contract_spec_ops): a k-relaxed remove or peek
 * carries K in arg[1], a per-producer insert its producer. */
static bool relax_open(shape sh, const lf_spec_env *env, void **ctx, size_t *state_size) {
    relax_ctx *c = calloc(1, sizeof *c);
    if (!c) return false;
    bool stack = false;
    for (size_t i = 0; i < env->n; i++) {
        const lf_op *op = &env->ops[i];
        stack |= op->method == LF_M_PUSH || op->method == LF_M_POP;
        if (sh == KFIFO && !is_insert(op->method) && op->arg[1] > 0 && (uint64_t)op->arg[1] <= UINT32_MAX)
            c->k = (uint32_t)op->arg[1];
    }
    c->shape = sh == KFIFO && stack ? KLIFO : sh;
    if (!c->k) c->k = 1;
    if (c->shape == BAG || c->shape == PER_PRODUCER) c->k = UINT32_MAX;
    c->capacity = env->capacity;
    uint32_t inserts = 1u << LF_M_ENQ | 1u << LF_M_PUSH;
    bool ok = lf_value_table_build(&c->values, env->ops, env->n, inserts, LF_VT_ARG0) && lf_seqstore_init(&c->store) &&
              lf_seqstore_init(&c->sets);
    if (ok && c->shape == PER_PRODUCER) {
        for (size_t i = 0; i < env->n; i++)
            if (is_insert(env->ops[i].method) && (uint64_t)env->ops[i].arg[1] >= c->producers)
                c->producers = (uint32_t)env->ops[i].arg[1] + 1;
        if (!c->producers) c->producers = 1;
        ok = c->producers <= env->n + 1 && lf_blobstore_init(&c->tuples, (c->producers + 1) / 2) &&
             (c->tuple = calloc((c->producers + 1) / 2, sizeof *c->tuple)) != NULL;
    }
    size_t win = c->shape == KFIFO || c->shape == KLIFO ? (size_t)c->k + 1 : 1;
    if (ok && win > env->n + 1) win = env->n + 1;
    if (ok) ok = (c->win = malloc(win * sizeof *c->win)) != NULL;
    if (!ok) {
        relax_close(c);
        return false;
    }
    *state_size = sizeof(uint32_t);
    *ctx = c;
    return true;
}

static size_t relax_bytes(const void *p) {
    const relax_ctx *c = p;
    size_t b = sizeof *c + c->values.n_ints * sizeof(int64_t) + lf_seqstore_bytes(&c->store) +
               lf_seqstore_bytes(&c->sets) + 2 * c->scratch_cap * sizeof *c->scratch;
    if (c->shape == PER_PRODUCER) b += lf_blobstore_bytes(&c->tuples);
    return b;
}

static bool relax_failed(const void *p) {
    const relax_ctx *c = p;
    return c->failed || c->store.failed || c->sets.failed || (c->shape == PER_PRODUCER && c->tuples.failed);
}

/* ---- configurations ---- */

/* The producer sequence handles of a per-producer configuration. */
static uint32_t tuple_get(const relax_ctx *c, uint32_t conf, uint32_t p) {
    const uint64_t *w = lf_blobstore_get(&c->tuples, conf);
    return (uint32_t)(w[p / 2] >> (32 * (p % 2)));
}

static void tuple_load(relax_ctx *c, uint32_t conf) {
    memcpy(c->tuple, lf_blobstore_get(&c->tuples, conf), (c->producers + 1) / 2 * sizeof *c->tuple);
}

static void tuple_set(relax_ctx *c, uint32_t p, uint32_t seq) {
    uint64_t *w = &c->tuple[p / 2];
    unsigned sh = 32 * (p % 2);
    *w = (*w & ~((uint64_t)UINT32_MAX << sh)) | (uint64_t)seq << sh;
}

static uint32_t tuple_intern(relax_ctx *c) {
    uint32_t h = lf_blobstore_intern(&c->tuples, c->tuple);
    if (h == UINT32_MAX || h >= SET_TAG) c->failed = true;
    return h;
}

static uint64_t conf_size(const relax_ctx *c, uint32_t conf) {
    if (c->shape != PER_PRODUCER) return lf_seq_len(&c->store, conf);
    uint64_t n = 0;
    for (uint32_t p = 0; p < c->producers; p++) n += lf_seq_len(&c->store, tuple_get(c, conf, p));
    return n;
}

/* Appends conf to the successor list *out (n of them, growing scratch). */
static bool emit(relax_ctx *c, uint32_t **out, size_t *n, uint32_t conf) {
    if (conf == LF_SEQ_NONE || conf >= SET_TAG) {
        c->failed = true;
        return false;
    }
    if (*n == c->scratch_cap) {
        size_t cap = lf_grow_capacity(c->scratch_cap, *n + 1, sizeof *c->scratch, 64);
        uint32_t *a = cap ? realloc(c->scratch, cap * sizeof *a) : NULL;
        uint32_t *b = a ? realloc(c->scratch2, cap * sizeof *b) : NULL;
        if (a) c->scratch = a;
        if (!a || !b) {
            c->failed = true;
            return false;
        }
        c->scratch2 = b;
        c->scratch_cap = cap;
        *out = c->scratch;
    }
    (*out)[(*n)++] = conf;
    return true;
}

/* The first min(k, len) values of a front-first sequence into c->win; returns how many, and the rest in *rest. */
static uint32_t front_window(relax_ctx *c, uint32_t seq, uint32_t *rest) {
    uint32_t w = 0;
    while (seq != LF_SEQ_EMPTY && w < c->k) {
        c->win[w++] = lf_seq_first(&c->store, seq);
        seq = lf_seq_pop_front(&c->store, seq);
        if (seq == LF_SEQ_NONE) {
            c->failed = true;
            break;
        }
    }
    *rest = seq == LF_SEQ_NONE ? LF_SEQ_EMPTY : seq;
    return w;
}

/* k-relaxed queue: the configuration without one occurrence of window value win[i] (w values in the window,
 * rest after it): the next value joins the window, which stays sorted. */
static uint32_t kfifo_take(relax_ctx *c, uint32_t w, uint32_t i, uint32_t rest) {
    uint32_t n = 0;
    for (uint32_t j = 0; j < w; j++)
        if (j != i) c->win[n++] = c->win[j];
    if (rest != LF_SEQ_EMPTY) {
        uint32_t v = lf_seq_first(&c->store, rest), at = n;
        rest = lf_seq_pop_front(&c->store, rest);
        if (rest == LF_SEQ_NONE) return LF_SEQ_NONE;
        while (at > 0 && c->win[at - 1] > v) {
            c->win[at] = c->win[at - 1];
            at--;
        }
        c->win[at] = v;
        n++;
    }
    uint32_t s = rest;
    for (uint32_t j = n; j-- > 0 && s != LF_SEQ_NONE;) s = lf_seq_push_front(&c->store, s, c->win[j]);
    return s;
}

/* k-relaxed stack: the configuration without the value at depth d (0 = the top). */
static uint32_t klifo_take(relax_ctx *c, uint32_t seq, uint32_t d) {
    for (uint32_t j = 0; j <= d; j++) {
        c->win[j] = lf_seq_last(&c->store, seq);
        seq = lf_seq_pop_back(&c->store, seq);
    }
    for (uint32_t j = d; j-- > 0 && seq != LF_SEQ_NONE;) seq = lf_seq_push_back(&c->store, seq, c->win[j]);
    return seq;
}

/* Bag: the sorted sequence without one occurrence of value v (which it holds). */
static uint32_t bag_take(relax_ctx *c, uint32_t seq, uint32_t v) {
    uint32_t above = 0, *keep = NULL;
    size_t cap = 0;
    while (lf_seq_last(&c->store, seq) != v) { /* the values after v's last occurrence */
        if (!LF_GROW(keep, cap, (size_t)above + 1, 16)) {
            free(keep);
            return LF_SEQ_NONE;
        }
        keep[above++] = lf_seq_last(&c->store, seq);
        seq = lf_seq_pop_back(&c->store, seq);
    }
    seq = lf_seq_pop_back(&c->store, seq);
    while (above-- > 0 && seq != LF_SEQ_NONE) seq = lf_seq_push_back(&c->store, seq, keep[above]);
    free(keep);
    return seq;
}

static bool bag_holds(const relax_ctx *c, uint32_t seq, uint32_t v) {
    for (; seq != LF_SEQ_EMPTY; seq = lf_seq_pop_back(&c->store, seq)) {
        uint32_t x = lf_seq_last(&c->store, seq);
        if (x == v) return true;
        if (x < v) return false;
    }
    return false;
}

/* The value id an op's result names, or UINT32_MAX (a value never inserted: no configuration holds it). */
static uint32_t result_id(const relax_ctx *c, const lf_op *op) {
    if (op->res_kind == LF_K_NIL) return lf_value_table_id(&c->values, true, 0);
    if (op->res_kind == LF_K_INT) return lf_value_table_id(&c->values, false, op->res);
    return UINT32_MAX;
}

/* The configurations a remove (take) or a peek (!take) can lead to from conf when it returns value v (any value
 * when v == UINT32_MAX: a pending remove), appended to *out. */
static bool take_or_look(relax_ctx *c, uint32_t conf, uint32_t v, bool take, uint32_t **out, size_t *n) {
    switch (c->shape) {
    case KFIFO: {
        uint32_t rest, w = front_window(c, conf, &rest);
        for (uint32_t i = 0; i < w; i++) {
            if ((v != UINT32_MAX && c->win[i] != v) || (i && c->win[i] == c->win[i - 1])) continue; /* sorted */
            if (!take) return emit(c, out, n, conf);
            if (!emit(c, out, n, kfifo_take(c, w, i, rest))) return false;
            if (v != UINT32_MAX) return true;
            w = front_window(c, conf, &rest); /* kfifo_take reordered c->win */
        }
        return true;
    }
    case KLIFO: {
        uint32_t s = conf;
        for (uint32_t d = 0; d < c->k && s != LF_SEQ_EMPTY; d++, s = lf_seq_pop_back(&c->store, s)) {
            if (v != UINT32_MAX && lf_seq_last(&c->store, s) != v) continue;
            if (!emit(c, out, n, take ? klifo_take(c, conf, d) : conf)) return false;
            if (!take) return true;
        }
        return true;
    }
    case BAG: {
        uint32_t prev = UINT32_MAX;
        for (uint32_t s = conf; s != LF_SEQ_EMPTY; s = lf_seq_pop_back(&c->store, s)) {
            uint32_t x = lf_seq_last(&c->store, s);
            if (x == prev || (v != UINT32_MAX && x != v)) continue;
            prev = x;
            if (!emit(c, out, n, take ? bag_take(c, conf, x) : conf)) return false;
            if (!take || v != UINT32_MAX) return true;
        }
        return true;
    }
    case PER_PRODUCER:
        for (uint32_t p = 0; p < c->producers; p++) {
            uint32_t s = tuple_get(c, conf, p);
            if (s == LF_SEQ_EMPTY || (v != UINT32_MAX && lf_seq_first(&c->store, s) != v)) continue;
            if (!take) return emit(c, out, n, conf);
            uint32_t rest = lf_seq_pop_front(&c->store, s);
            if (rest == LF_SEQ_NONE) return emit(c, out, n, LF_SEQ_NONE);
            tuple_load(c, conf);
            tuple_set(c, p, rest);
            if (!emit(c, out, n, tuple_intern(c))) return false;
        }
        return true;
    }
    return true;
}

/* Appends to *out the configurations op leads to from conf (none: op's result is illegal there). */
static bool successors(relax_ctx *c, uint32_t conf, const lf_op *op, uint32_t **out, size_t *n) {
    bool pending = lf_op_pending(op);
    uint64_t size = conf_size(c, conf);
    if (is_insert(op->method)) {
        bool full = c->capacity && size >= c->capacity;
        if (!pending && (op->res_kind == LF_K_FULL) != full) return true;
        if (full) return emit(c, out, n, conf);
        uint32_t v = lf_value_table_arg(&c->values, op, 0);
        if (v == UINT32_MAX) return true;
        uint32_t next;
        switch (c->shape) {
        case KFIFO: next = size < c->k ? lf_seq_insert_sorted(&c->store, conf, v) : lf_seq_push_back(&c->store, conf, v); break;
        case KLIFO: next = lf_seq_push_back(&c->store, conf, v); break;
        case BAG: next = lf_seq_insert_sorted(&c->store, conf, v); break;
        default: {
            uint32_t p = (uint32_t)op->arg[1];
            if ((uint64_t)op->arg[1] >= c->producers) return true;
            uint32_t s = lf_seq_push_back(&c->store, tuple_get(c, conf, p), v);
            if (s == LF_SEQ_NONE) return emit(c, out, n, LF_SEQ_NONE);
            tuple_load(c, conf);
            tuple_set(c, p, s);
            next = tuple_intern(c);
        }
        }
        return emit(c, out, n, next);
    }
    bool take = is_remove(op->method);
    if (!take && op->method != LF_M_PEEK) return true; /* not a method of stacks and queues */
    if (size == 0) return pending || op->res_kind == LF_K_EMPTY ? emit(c, out, n, conf) : true;
    if (pending) return take ? take_or_look(c, conf, UINT32_MAX, true, out, n) : emit(c, out, n, conf);
    uint32_t v = result_id(c, op);
    if (v == UINT32_MAX) return true; /* empty while values are inside, or a value never inserted */
    if (c->shape == BAG && !bag_holds(c, conf, v)) return true;
    return take_or_look(c, conf, v, take, out, n);
}

static int cmp_u32(const void *a, const void *b) {
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

static bool relax_step(void *ctx, const void *state, const lf_op *op, void *next) {
    relax_ctx *c = ctx;
    uint32_t s = load(state), *out = c->scratch;
    size_t n = 0;
    if (!(s & SET_TAG)) {
        if (!successors(c, s, op, &out, &n)) return false;
    } else {
        /* Every member of the set: copy the members out first (successors reuse the scratch). */
        uint32_t set = s & ~SET_TAG, m = lf_seq_len(&c->sets, set);
        uint32_t *members = malloc(m * sizeof *members);
        if (!members) {
            c->failed = true;
            return false;
        }
        for (uint32_t i = m; i-- > 0; set = lf_seq_pop_back(&c->sets, set)) members[i] = lf_seq_last(&c->sets, set);
        for (uint32_t i = 0; i < m; i++)
            if (!successors(c, members[i], op, &out, &n)) {
                free(members);
                return false;
            }
        free(members);
    }
    if (n == 0) return false;
    out = c->scratch;
    qsort(out, n, sizeof *out, cmp_u32);
    size_t u = 0;
    for (size_t i = 0; i < n; i++)
        if (u == 0 || out[u - 1] != out[i]) out[u++] = out[i];
    if (u == 1) {
        store_state(next, out[0]);
        return true;
    }
    if (u > MAX_SET) {
        c->failed = true; /* the checkers answer unknown rather than trust a false */
        return false;
    }
    uint32_t set = LF_SEQ_EMPTY;
    for (size_t i = 0; i < u && set != LF_SEQ_NONE; i++) set = lf_seq_push_back(&c->sets, set, out[i]);
    if (set == LF_SEQ_NONE || set >= SET_TAG) {
        c->failed = true;
        return false;
    }
    store_state(next, set | SET_TAG);
    return true;
}

static void relax_init(void *ctx, void *state) {
    relax_ctx *c = ctx;
    uint32_t s = LF_SEQ_EMPTY;
    if (c->shape == PER_PRODUCER) {
        memset(c->tuple, 0, (c->producers + 1) / 2 * sizeof *c->tuple); /* every producer: LF_SEQ_EMPTY (0) */
        s = tuple_intern(c);
    }
    store_state(state, s);
}

static int describe_conf(relax_ctx *c, uint32_t conf, char *buf, size_t len) {
    if (c->shape != PER_PRODUCER) return lf_seq_describe(&c->store, conf, &c->values, buf, len);
    int w = snprintf(buf, len, "{");
    for (uint32_t p = 0; p < c->producers; p++) {
        uint32_t s = tuple_get(c, conf, p);
        if (s == LF_SEQ_EMPTY) continue;
        size_t off = w > 0 && (size_t)w < len ? (size_t)w : len;
        w += snprintf(buf + off, len - off, "%sp%u: ", w > 1 ? " " : "", p);
        off = w > 0 && (size_t)w < len ? (size_t)w : len;
        w += lf_seq_describe(&c->store, s, &c->values, buf + off, len - off);
    }
    size_t off = w > 0 && (size_t)w < len ? (size_t)w : len;
    return w + snprintf(buf + off, len - off, "}");
}

static int relax_describe_state(void *ctx, const void *state, char *buf, size_t len) {
    relax_ctx *c = ctx;
    uint32_t s = load(state);
    if (!(s & SET_TAG)) return describe_conf(c, s, buf, len);
    uint32_t set = s & ~SET_TAG;
    int w = snprintf(buf, len, "one of %u: ", lf_seq_len(&c->sets, set));
    size_t off = w > 0 && (size_t)w < len ? (size_t)w : len;
    return w + describe_conf(c, lf_seq_first(&c->sets, set), buf + off, len - off);
}

static bool k_relaxed_open(const lf_spec_env *env, void **ctx, size_t *state_size) {
    return relax_open(KFIFO, env, ctx, state_size); /* KLIFO when the ops are a stack's */
}
static bool per_producer_open(const lf_spec_env *env, void **ctx, size_t *state_size) {
    return relax_open(PER_PRODUCER, env, ctx, state_size);
}
static bool bag_open(const lf_spec_env *env, void **ctx, size_t *state_size) {
    return relax_open(BAG, env, ctx, state_size);
}

#define RELAXED_SPEC(NAME, OPEN)                                                                                       \
    {                                                                                                                  \
        .name = NAME, .state_size = sizeof(uint32_t), .open = OPEN, .close = relax_close, .ctx_bytes = relax_bytes,    \
        .ctx_failed = relax_failed, .init = relax_init, .step = relax_step, .observer = lf_spec_builtin_observer,      \
        .describe_state = relax_describe_state,                                                                        \
    }

const lf_spec lf_spec_k_relaxed = RELAXED_SPEC("k-relaxed", k_relaxed_open);
const lf_spec lf_spec_per_producer = RELAXED_SPEC("per-producer", per_producer_open);
const lf_spec lf_spec_bag = RELAXED_SPEC("bag", bag_open);
