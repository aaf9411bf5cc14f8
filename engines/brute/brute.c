/* Brute-force oracle: depth-first search over linearization orders, memoising every configuration
 * (set of linearized ops, abstract state) already explored, for small histories of every type.
 *
 * The abstract state of every type is a canonical byte string built from 9-byte value encodings whose
 * memcmp order is "nil below every integer, integers ascending", so that unordered containers (set, pqueue,
 * kv) are kept sorted and equal states always have equal bytes. The sequential semantics live in one
 * function, apply_op, written to be read against the table of docs/formats.md. */
#include "brute/brute.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "budget/progress.h"
#include "util/clock.h"
#include "util/grow.h"

#define BRUTE_HARD_MAX_OPS 63 /* one bit per op in a uint64_t, with (1 << n) - 1 still defined */
#define VAL_BYTES 9           /* tag (0 nil, 1 int) + big-endian int with the sign bit flipped */

void lf_brute_options_default(lf_brute_options *o) {
    memset(o, 0, sizeof *o);
    o->max_ops = 24;
    o->timeout_s = 0;
    o->max_memory_bytes = (size_t)1 << 30;
    o->want_witness = false;
}

/* ---- values ---- */

static void val_encode(uint8_t *out, bool is_nil, int64_t v) {
    if (is_nil) {
        memset(out, 0, VAL_BYTES);
        return;
    }
    uint64_t u = (uint64_t)v ^ (UINT64_C(1) << 63);
    out[0] = 1;
    for (int i = 0; i < 8; i++) out[1 + i] = (uint8_t)(u >> (56 - 8 * i));
}

static bool val_is_nil(const uint8_t *enc) { return enc[0] == 0; }

static int64_t val_int(const uint8_t *enc) {
    uint64_t u = 0;
    for (int i = 0; i < 8; i++) u = (u << 8) | enc[1 + i];
    return (int64_t)(u ^ (UINT64_C(1) << 63));
}

/* The result an op would return when it observes the value enc (or nothing, when enc is NULL). */
typedef struct {
    uint8_t kind; /* lf_kind */
    int64_t value;
} seq_result;

static seq_result result_of_value(const uint8_t *enc, lf_kind when_absent) {
    if (!enc) return (seq_result){(uint8_t)when_absent, 0};
    if (val_is_nil(enc)) return (seq_result){LF_K_NIL, 0};
    return (seq_result){LF_K_INT, val_int(enc)};
}

static seq_result result_bool(bool b) { return (seq_result){b ? LF_K_TRUE : LF_K_FALSE, 0}; }

/* ---- abstract states ---- */

/* A state is len bytes; its layout depends on the type:
 *   register, cas-register: one value
 *   counter:                the count as 8 big-endian bytes
 *   set:                    the present values, sorted, no duplicates
 *   pqueue:                 the present values, sorted, with duplicates (a multiset)
 *   stack:                  the values from bottom to top
 *   queue, deque:           the values from front to back
 *   kv:                     (key, value) pairs sorted by key, one per present key */

static void initial_state(const lf_history *h, uint8_t *s, size_t *len) {
    *len = 0;
    switch (h->type) {
    case LF_TYPE_REGISTER:
    case LF_TYPE_CAS_REGISTER:
        /* Without an init line the register starts at 0 (the format's default). */
        if (h->has_init && h->init_kind == LF_K_NIL)
            val_encode(s, true, 0);
        else
            val_encode(s, false, h->has_init ? h->init : 0);
        *len = VAL_BYTES;
        break;
    case LF_TYPE_COUNTER:
        memset(s, 0, 8);
        *len = 8;
        break;
    default: break; /* every container starts empty */
    }
}

/* Position of the first element (of width elem bytes, sorted by its first VAL_BYTES bytes) that is >= key. */
static size_t sorted_lower_bound(const uint8_t *s, size_t len, size_t elem, const uint8_t *key) {
    size_t lo = 0, hi = len / elem;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (memcmp(s + mid * elem, key, VAL_BYTES) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo * elem;
}

static bool sorted_contains(const uint8_t *s, size_t len, size_t elem, const uint8_t *key, size_t *pos) {
    *pos = sorted_lower_bound(s, len, elem, key);
    return *pos < len && memcmp(s + *pos, key, VAL_BYTES) == 0;
}

/* out := in with `width` bytes `ins` inserted at pos. */
static void splice_in(uint8_t *out, size_t *out_len, const uint8_t *in, size_t len, size_t pos, const uint8_t *ins,
                      size_t width) {
    memcpy(out, in, pos);
    memcpy(out + pos, ins, width);
    memcpy(out + pos + width, in + pos, len - pos);
    *out_len = len + width;
}

/* out := in without the `width` bytes at pos. */
static void splice_out(uint8_t *out, size_t *out_len, const uint8_t *in, size_t len, size_t pos, size_t width) {
    memcpy(out, in, pos);
    memcpy(out + pos, in + pos + width, len - pos - width);
    *out_len = len - width;
}

static void copy_state(uint8_t *out, size_t *out_len, const uint8_t *in, size_t len) {
    memcpy(out, in, len);
    *out_len = len;
}

/* A counter's state: its value, 8 bytes big-endian. */
static uint64_t counter_value(const uint8_t *in) {
    uint64_t count = 0;
    for (int i = 0; i < 8; i++) count = (count << 8) | in[i];
    return count;
}

/* kv's put into the sorted (key, value) pairs of `in`: the key's value replaced, or the pair inserted. */
static void kv_put(const uint8_t *in, size_t len, const uint8_t *key, const uint8_t *value, uint8_t *out,
                   size_t *out_len) {
    const size_t pair = 2 * VAL_BYTES;
    size_t pos;
    if (sorted_contains(in, len, pair, key, &pos)) {
        copy_state(out, out_len, in, len);
        memcpy(out + pos + VAL_BYTES, value, VAL_BYTES);
    } else {
        uint8_t kvpair[2 * VAL_BYTES];
        memcpy(kvpair, key, VAL_BYTES);
        memcpy(kvpair + VAL_BYTES, value, VAL_BYTES);
        splice_in(out, out_len, in, len, pos, kvpair, pair);
    }
}

/* Applies op to state `in` (sequential specification of its type, unbounded): writes the next state to out
 * and the result the op must return to *res (LF_K_NONE for methods without a result). */
static void apply_op(lf_type type, const lf_op *op, const uint8_t *in, size_t len, uint8_t *out, size_t *out_len,
                     seq_result *res) {
    uint8_t a0[VAL_BYTES], a1[VAL_BYTES];
    val_encode(a0, lf_arg_is_nil(op, 0), op->arg[0]);
    val_encode(a1, lf_arg_is_nil(op, 1), op->arg[1]);
    *res = (seq_result){LF_K_NONE, 0};
    const size_t pair = 2 * VAL_BYTES;
    size_t pos;
    switch ((lf_method)op->method) {
    /* register, cas-register */
    case LF_M_WRITE:
        copy_state(out, out_len, a0, VAL_BYTES);
        return;
    case LF_M_READ:
        if (type == LF_TYPE_REGISTER || type == LF_TYPE_CAS_REGISTER) {
            *res = result_of_value(in, LF_K_NIL);
            copy_state(out, out_len, in, len);
            return;
        }
        break;
    case LF_M_CAS: {
        bool ok = memcmp(in, a0, VAL_BYTES) == 0;
        *res = (seq_result){ok ? LF_K_OK : LF_K_FAIL, 0};
        copy_state(out, out_len, ok ? a1 : in, VAL_BYTES);
        return;
    }
    /* set */
    case LF_M_ADD:
        if (sorted_contains(in, len, VAL_BYTES, a0, &pos)) {
            *res = result_bool(false);
            copy_state(out, out_len, in, len);
        } else {
            *res = result_bool(true);
            splice_in(out, out_len, in, len, pos, a0, VAL_BYTES);
        }
        return;
    case LF_M_REMOVE:
        if (sorted_contains(in, len, VAL_BYTES, a0, &pos)) {
            *res = result_bool(true);
            splice_out(out, out_len, in, len, pos, VAL_BYTES);
        } else {
            *res = result_bool(false);
            copy_state(out, out_len, in, len);
        }
        return;
    case LF_M_CONTAINS:
        *res = result_bool(sorted_contains(in, len, VAL_BYTES, a0, &pos));
        copy_state(out, out_len, in, len);
        return;
    /* stack: top at the end */
    case LF_M_PUSH:
        splice_in(out, out_len, in, len, len, a0, VAL_BYTES);
        return;
    case LF_M_POP:
        *res = result_of_value(len ? in + len - VAL_BYTES : NULL, LF_K_EMPTY);
        copy_state(out, out_len, in, len ? len - VAL_BYTES : 0);
        return;
    case LF_M_PEEK: /* stack: top (end); queue: front (start); pqueue: smallest (start, sorted) */
        if (type == LF_TYPE_STACK)
            *res = result_of_value(len ? in + len - VAL_BYTES : NULL, LF_K_EMPTY);
        else
            *res = result_of_value(len ? in : NULL, LF_K_EMPTY);
        copy_state(out, out_len, in, len);
        return;
    /* queue: front at the start */
    case LF_M_ENQ:
        splice_in(out, out_len, in, len, len, a0, VAL_BYTES);
        return;
    case LF_M_DEQ:
    case LF_M_POLL: /* pqueue: kept sorted, so the smallest is at the start too */
        *res = result_of_value(len ? in : NULL, LF_K_EMPTY);
        if (len)
            splice_out(out, out_len, in, len, 0, VAL_BYTES);
        else
            *out_len = 0;
        return;
    /* pqueue */
    case LF_M_INSERT:
        /* Insert after equal values: equal encodings are interchangeable, any position among them is canonical
         * as long as it is always the same; lower_bound gives that. */
        pos = sorted_lower_bound(in, len, VAL_BYTES, a0);
        splice_in(out, out_len, in, len, pos, a0, VAL_BYTES);
        return;
    /* kv: sorted (key, value) pairs */
    case LF_M_PUT:
        kv_put(in, len, a0, a1, out, out_len);
        return;
    case LF_M_GET:
        if (type == LF_TYPE_COUNTER) {
            *res = (seq_result){LF_K_INT, (int64_t)counter_value(in)};
        } else {
            bool present = sorted_contains(in, len, pair, a0, &pos);
            *res = result_of_value(present ? in + pos + VAL_BYTES : NULL, LF_K_NIL);
        }
        copy_state(out, out_len, in, len);
        return;
    case LF_M_DELETE:
        if (sorted_contains(in, len, pair, a0, &pos)) {
            *res = result_bool(true);
            splice_out(out, out_len, in, len, pos, pair);
        } else {
            *res = result_bool(false);
            copy_state(out, out_len, in, len);
        }
        return;
    /* counter */
    case LF_M_INC: {
        uint64_t count = counter_value(in) + 1;
        for (int i = 0; i < 8; i++) out[i] = (uint8_t)(count >> (56 - 8 * i));
        *out_len = 8;
        return;
    }
    /* deque: front at the start */
    case LF_M_PUSH_FRONT:
        splice_in(out, out_len, in, len, 0, a0, VAL_BYTES);
        return;
    case LF_M_PUSH_BACK:
        splice_in(out, out_len, in, len, len, a0, VAL_BYTES);
        return;
    case LF_M_POP_FRONT:
        *res = result_of_value(len ? in : NULL, LF_K_EMPTY);
        if (len)
            splice_out(out, out_len, in, len, 0, VAL_BYTES);
        else
            *out_len = 0;
        return;
    case LF_M_POP_BACK:
        *res = result_of_value(len ? in + len - VAL_BYTES : NULL, LF_K_EMPTY);
        copy_state(out, out_len, in, len ? len - VAL_BYTES : 0);
        return;
    case LF_M_PEEK_FRONT:
        *res = result_of_value(len ? in : NULL, LF_K_EMPTY);
        copy_state(out, out_len, in, len);
        return;
    case LF_M_PEEK_BACK:
        *res = result_of_value(len ? in + len - VAL_BYTES : NULL, LF_K_EMPTY);
        copy_state(out, out_len, in, len);
        return;
    case LF_M_ENQ_BULK: case LF_M_ENQ_BURST: case LF_M_DEQ_BULK: case LF_M_DEQ_BURST: /* apply_bulk's */
    case LF_M_PUSH_BULK: case LF_M_PUSH_BURST: case LF_M_POP_BULK: case LF_M_POP_BURST:
    case LF_M_COUNT: break;
    }
    /* Unreachable for validated histories (lf_brute_check validates first). */
    abort();
}

/* A bulk or burst op of a stack (top at the end) or queue (front at the start), as docs/contracts.md defines it:
 * n single inserts (removes) in one step; a bulk op does all n or none (full, empty), a burst the first k it can
 * (k = min(n, room or values inside); a burst remove of none answers empty). The result: its kind, and the number
 * moved for an integer answer; a remove's values, in the order taken, go to took[] (a nil one, which a bulk op
 * cannot return, as took_nil). */
static void apply_bulk(const lf_history *h, const lf_op *op, const uint8_t *in, size_t len, uint8_t *out,
                       size_t *out_len, seq_result *res, int64_t *took, bool *took_nil) {
    size_t inside = len / VAL_BYTES, n = op->count;
    bool burst = lf_method_is_burst(op->method);
    copy_state(out, out_len, in, len);
    if (lf_method_is_bulk_insert(op->method)) {
        size_t room = !h->capacity ? n : h->capacity > inside ? (size_t)(h->capacity - inside) : 0;
        size_t k = room < n ? (burst ? room : 0) : n;
        for (size_t i = 0; i < k; i++) {
            uint8_t v[VAL_BYTES];
            val_encode(v, false, op->arg[i]);
            memcpy(out + *out_len, v, VAL_BYTES);
            *out_len += VAL_BYTES;
        }
        *res = burst ? (seq_result){LF_K_INT, (int64_t)k} : (seq_result){k ? LF_K_NONE : LF_K_FULL, 0};
        return;
    }
    size_t k = inside < n ? (burst ? inside : 0) : n;
    bool stack = h->type == LF_TYPE_STACK;
    for (size_t i = 0; i < k; i++) {
        const uint8_t *e = stack ? in + len - (i + 1) * VAL_BYTES : in + i * VAL_BYTES;
        took_nil[i] = val_is_nil(e);
        took[i] = val_int(e);
    }
    if (stack)
        *out_len = len - k * VAL_BYTES;
    else
        splice_out(out, out_len, in, len, 0, k * VAL_BYTES);
    *res = k ? (seq_result){LF_K_INT, (int64_t)k} : (seq_result){LF_K_EMPTY, 0};
}

/* apply_op with the capacity of a bounded container: an insert into one holding `capacity` values answers
 * full and leaves it as it is. */
static void apply_op_bounded(const lf_history *h, const lf_op *op, const uint8_t *in, size_t len, uint8_t *out,
                             size_t *out_len, seq_result *res) {
    const lf_method_info *mi = lf_method_info_of(h->type, (lf_method)op->method);
    if (h->capacity && mi->role == LF_ROLE_INSERT && len / VAL_BYTES >= h->capacity) {
        *res = (seq_result){LF_K_FULL, 0};
        copy_state(out, out_len, in, len);
        return;
    }
    apply_op(h->type, op, in, len, out, out_len, res);
}

/* ---- relaxed orders (docs/contracts.md), written against the definitions ----
 *
 * A stack or queue under a relaxed order is a sequence of elements: the value (VAL_BYTES) and, for per-producer,
 * the inserting thread (4 bytes); front first for a queue, bottom first for a stack. A remove may take the
 * element at any position its order allows, so an op has several possible next states (moves). */

static bool result_matches_value(const lf_op *op, const uint8_t *e);

static size_t elem_bytes(const lf_history *h) {
    return h->contract.order == LF_ORDER_PER_PRODUCER ? VAL_BYTES + 4 : VAL_BYTES;
}

/* Whether a remove or peek may take the element at position p of a sequence of `count` elements. */
static bool may_take(const lf_history *h, const uint8_t *in, size_t count, size_t p) {
    size_t w = elem_bytes(h);
    switch ((lf_order)h->contract.order) {
    case LF_ORDER_K_RELAXED:
        return h->type == LF_TYPE_QUEUE ? p < h->contract.k : count - p <= h->contract.k;
    case LF_ORDER_BAG: return true;
    case LF_ORDER_PER_PRODUCER: /* the oldest element of its thread */
        for (size_t q = 0; q < p; q++)
            if (!memcmp(in + q * w + VAL_BYTES, in + p * w + VAL_BYTES, 4)) return false;
        return true;
    default: /* the exact order */
        return h->type == LF_TYPE_QUEUE ? p == 0 : p + 1 == count;
    }
}

/* The moves of op from state in (len bytes) that agree with its recorded result: each next state is written
 * at outs + i * cap (length out_lens[i]). Returns their number. */
static size_t relaxed_moves(const lf_history *h, const lf_op *op, const uint8_t *in, size_t len, uint8_t *outs,
                            size_t *out_lens, size_t cap) {
    size_t w = elem_bytes(h), count = len / w, moves = 0;
    bool pending = lf_op_pending(op);
    if (op->method == LF_M_ENQ || op->method == LF_M_PUSH) {
        bool full = h->capacity && count >= h->capacity;
        if (!pending && (op->res_kind == LF_K_FULL) != full) return 0;
        copy_state(outs, out_lens, in, len);
        if (!full) {
            uint8_t e[VAL_BYTES + 4];
            val_encode(e, lf_arg_is_nil(op, 0), op->arg[0]);
            for (int i = 0; i < 4; i++) e[VAL_BYTES + i] = (uint8_t)(op->thread >> (24 - 8 * i));
            splice_in(outs, out_lens, in, len, len, e, w);
        }
        return 1;
    }
    bool take = op->method == LF_M_DEQ || op->method == LF_M_POP;
    if (count == 0 || (pending && !take)) {
        if (!pending && op->res_kind != LF_K_EMPTY) return 0;
        copy_state(outs, out_lens, in, len);
        return 1;
    }
    for (size_t p = 0; p < count; p++) {
        const uint8_t *e = in + p * w;
        if (!may_take(h, in, count, p)) continue;
        if (!pending && !result_matches_value(op, e)) continue;
        uint8_t *out = outs + moves * cap;
        if (take)
            splice_out(out, &out_lens[moves], in, len, p * w, w);
        else
            copy_state(out, &out_lens[moves], in, len);
        moves++;
    }
    return moves;
}

static bool result_matches(const lf_op *op, seq_result r) {
    if (lf_op_pending(op)) return true; /* a pending op's result was never observed */
    if (op->res_kind != r.kind) return false;
    return r.kind != LF_K_INT || op->res == r.value;
}

/* Whether op returned the value encoded at e. */
static bool result_matches_value(const lf_op *op, const uint8_t *e) {
    return result_matches(op, result_of_value(e, LF_K_EMPTY));
}

/* ---- memo table of explored configurations ---- */

typedef struct {
    uint64_t mask;
    uint64_t hash;
    size_t state_off; /* into the arena */
    uint32_t state_len;
    bool used;
} memo_slot;

typedef struct {
    memo_slot *slots;
    size_t cap, count;
    uint8_t *arena;
    size_t arena_len, arena_cap;
    size_t budget;
    bool over_budget;
} memo_table;

static uint64_t hash_config(uint64_t mask, const uint8_t *s, size_t len) {
    uint64_t h = 0xcbf29ce484222325ULL ^ (mask * 0x9e3779b97f4a7c15ULL);
    for (size_t i = 0; i < len; i++) h = (h ^ s[i]) * 0x100000001b3ULL;
    h ^= h >> 31;
    return h;
}

static bool memo_grow_slots(memo_table *m) {
    size_t cap = m->cap ? m->cap * 2 : 1024;
    if (cap * sizeof *m->slots + m->arena_cap > m->budget) return false;
    memo_slot *slots = calloc(cap, sizeof *slots);
    if (!slots) return false;
    for (size_t i = 0; i < m->cap; i++) {
        if (!m->slots[i].used) continue;
        size_t j = m->slots[i].hash & (cap - 1);
        while (slots[j].used) j = (j + 1) & (cap - 1);
        slots[j] = m->slots[i];
    }
    free(m->slots);
    m->slots = slots;
    m->cap = cap;
    return true;
}

static bool memo_reserve_arena(memo_table *m, size_t extra) {
    /* Allocated even for empty states, so that memcpy/memcmp never see a null arena. */
    if (m->arena && m->arena_len + extra <= m->arena_cap) return true;
    size_t need = m->arena_len + extra;
    size_t cap = lf_grow_capacity(m->arena_cap, need ? need : 1, 1, 4096);
    if (!cap || m->cap * sizeof *m->slots + cap > m->budget) return false;
    uint8_t *arena = realloc(m->arena, cap);
    if (!arena) return false;
    m->arena = arena;
    m->arena_cap = cap;
    return true;
}

/* Records (mask, state). Returns true when it was new. Sets over_budget (and returns false) when the table
 * cannot grow within the memory budget. */
static bool memo_insert(memo_table *m, uint64_t mask, const uint8_t *s, size_t len) {
    if ((m->count + 1) * 2 > m->cap && !memo_grow_slots(m)) {
        m->over_budget = true;
        return false;
    }
    uint64_t h = hash_config(mask, s, len);
    size_t j = h & (m->cap - 1);
    while (m->slots[j].used) {
        const memo_slot *e = &m->slots[j];
        if (e->hash == h && e->mask == mask && e->state_len == len && memcmp(m->arena + e->state_off, s, len) == 0)
            return false;
        j = (j + 1) & (m->cap - 1);
    }
    if (!memo_reserve_arena(m, len)) {
        m->over_budget = true;
        return false;
    }
    memcpy(m->arena + m->arena_len, s, len);
    m->slots[j] = (memo_slot){mask, h, m->arena_len, (uint32_t)len, true};
    m->arena_len += len;
    m->count++;
    return true;
}

static void memo_free(memo_table *m) {
    free(m->slots);
    free(m->arena);
}

/* ---- search ---- */

typedef enum { SEARCH_FAILED, SEARCH_FOUND, SEARCH_ABORTED } search_outcome;

typedef struct {
    const lf_history *h;
    size_t n;
    uint64_t pred[BRUTE_HARD_MAX_OPS]; /* ops that must be linearized before op j (they returned before its call) */
    uint64_t required;                 /* every completed op; pending ops may be left out */
    uint8_t *states;                   /* one state buffer per depth, state_cap bytes each */
    size_t *state_len;
    size_t state_cap;
    uint32_t path[BRUTE_HARD_MAX_OPS]; /* op linearized at each depth */
    uint32_t best_path[BRUTE_HARD_MAX_OPS];
    size_t best_len;
    bool have_best;
    size_t found_len;
    memo_table memo;
    uint64_t steps;
    double deadline; /* CLOCK_MONOTONIC seconds; 0 = none */
    lf_progress *progress;
    bool timed_out;
    bool relaxed;      /* a relaxed order (contract): ops have several possible next states */
    uint8_t *moves;    /* relaxed: per depth, room for n + 1 next states of state_cap bytes */
    size_t *move_lens; /* per depth, n + 1 lengths */
} search;


/* Explores the configuration at `depth` (its state is states[depth]) with `mask` linearized. */
static search_outcome explore(search *S, uint64_t mask, size_t depth) {
    if ((mask & S->required) == S->required) {
        S->found_len = depth; /* path[0 .. depth) is the linearization */
        return SEARCH_FOUND;
    }
    if (!S->have_best || depth > S->best_len) {
        memcpy(S->best_path, S->path, depth * sizeof *S->path);
        S->best_len = depth;
        S->have_best = true;
    }
    const uint8_t *cur = S->states + depth * S->state_cap;
    size_t cur_len = S->state_len[depth];
    uint8_t *next = S->states + (depth + 1) * S->state_cap;
    for (size_t j = 0; j < S->n; j++) {
        uint64_t bit = UINT64_C(1) << j;
        if ((mask & bit) || (S->pred[j] & ~mask)) continue;
        if ((++S->steps & 4095) == 0) {
            lf_progress_steps(S->progress, S->steps);
            if (S->deadline > 0 && lf_now_s() > S->deadline) {
                S->timed_out = true;
                return SEARCH_ABORTED;
            }
        }
        const lf_op *op = &S->h->ops[j];
        if (S->relaxed) {
            uint8_t *moves = S->moves + depth * (S->n + 1) * S->state_cap;
            size_t *lens = S->move_lens + depth * (S->n + 1);
            size_t k = relaxed_moves(S->h, op, cur, cur_len, moves, lens, S->state_cap);
            for (size_t m = 0; m < k; m++) {
                if (!memo_insert(&S->memo, mask | bit, moves + m * S->state_cap, lens[m])) {
                    if (S->memo.over_budget) return SEARCH_ABORTED;
                    continue;
                }
                memcpy(next, moves + m * S->state_cap, lens[m]);
                S->state_len[depth + 1] = lens[m];
                S->path[depth] = (uint32_t)j;
                search_outcome o = explore(S, mask | bit, depth + 1);
                if (o != SEARCH_FAILED) return o;
            }
            continue;
        }
        seq_result res;
        size_t next_len;
        if (lf_method_is_bulk(op->method)) {
            int64_t took[LF_BULK_MAX];
            bool took_nil[LF_BULK_MAX];
            apply_bulk(S->h, op, cur, cur_len, next, &next_len, &res, took, took_nil);
            if (!result_matches(op, res)) continue;
            bool same = true; /* a remove returned the values it took, in that order (never a nil one) */
            for (int64_t i = 0; !lf_op_pending(op) && !lf_method_is_bulk_insert(op->method) && res.kind == LF_K_INT &&
                                i < res.value; i++)
                same = same && !took_nil[i] && took[i] == op->arg[i];
            if (!same) continue;
        } else {
            apply_op_bounded(S->h, op, cur, cur_len, next, &next_len, &res);
            if (!result_matches(op, res)) continue;
        }
        /* A configuration seen before was explored to failure (success ends the search), so skip it. */
        if (!memo_insert(&S->memo, mask | bit, next, next_len)) {
            if (S->memo.over_budget) return SEARCH_ABORTED;
            continue;
        }
        S->state_len[depth + 1] = next_len;
        S->path[depth] = (uint32_t)j;
        search_outcome o = explore(S, mask | bit, depth + 1);
        if (o != SEARCH_FAILED) return o;
    }
    return SEARCH_FAILED;
}

/* Upper bound on the bytes of any reachable state: a register's value or the counter, plus at most one
 * (key, value) pair per op (only insert-like ops grow a state, by one value or pair each, a bulk insert by at
 * most LF_BULK_MAX values). */
static size_t max_state_bytes(const lf_history *h) { return (LF_BULK_MAX * h->n + 1) * 2 * VAL_BYTES; }

static void report_violation(search *S, lf_result *r) {
    const lf_history *h = S->h;
    uint64_t mask = 0;
    for (size_t i = 0; i < S->best_len; i++) mask |= UINT64_C(1) << S->best_path[i];
    /* Completed ops that were free to go next after the longest linearizable prefix, yet none could. */
    size_t first_blocked = SIZE_MAX;
    for (size_t j = 0; j < S->n; j++) {
        if ((mask >> j) & 1 || (S->pred[j] & ~mask) || lf_op_pending(&h->ops[j])) continue;
        lf_result_add_culprit(r, (uint32_t)j);
        if (first_blocked == SIZE_MAX) first_blocked = j;
    }
    char desc[200] = "";
    if (first_blocked != SIZE_MAX) lf_op_describe(desc, sizeof desc, &h->ops[first_blocked]);
    lf_result_set(r, LF_VIOLATION, "brute",
                  "no linearization of the %zu ops exists; the longest linearizable prefix has %zu ops, after "
                  "which no op can go next (e.g. op %zu: %s)",
                  h->n, S->best_len, first_blocked, desc);
    if (S->best_len) {
        r->prefix = malloc(S->best_len * sizeof *r->prefix);
        if (r->prefix) {
            memcpy(r->prefix, S->best_path, S->best_len * sizeof *r->prefix);
            r->prefix_len = S->best_len;
        }
    }
}

/* ---- lagging and quiescent full/empty answers (docs/contracts.md), straight from the definition ---- */

/* What an op moves and needs. A bulk or burst op of n: a pending one may move n; a full or empty answer needed n
 * (bulk) or 1 (a burst that moved none); a burst that moved k < n needed k + 1 (room or values for one more). */
static void roles(const lf_op *op, bool *insert, bool *remove, unsigned *moved, unsigned *needed) {
    bool ins = op->method == LF_M_ENQ || op->method == LF_M_PUSH, rem = op->method == LF_M_DEQ || op->method == LF_M_POP;
    bool answer = op->res_kind == LF_K_FULL || op->res_kind == LF_K_EMPTY;
    if (lf_method_is_bulk(op->method)) {
        bool burst = lf_method_is_burst(op->method);
        unsigned k = lf_op_pending(op) ? op->count : lf_bulk_moved(op);
        *insert = lf_method_is_bulk_insert(op->method);
        *remove = !*insert;
        *moved = k;
        *needed = lf_op_pending(op) || k == op->count ? 0 : burst ? k + 1 : op->count;
        return;
    }
    *insert = ins;
    *remove = rem;
    *moved = (ins || rem) && !answer ? 1 : 0; /* successful or pending */
    *needed = answer ? 1 : 0;
}

/* Whether op j of one side (inserts or removes) is done at t: it returned before t, and (quiescent) some moment
 * in (ret_j, t] had no op of that side in flight. Such a moment, if any, is just after ret_j or just after the
 * return of another op of the side returning before t, so only those moments are tried. */
static bool done_at(const lf_history *h, size_t j, bool insert_side, uint64_t t) {
    const lf_op *op = &h->ops[j];
    if (lf_op_pending(op) || !(op->ret < t)) return false;
    if (h->contract.full_empty != LF_FULL_EMPTY_QUIESCENT) return true;
    for (size_t e = 0; e < h->n; e++) {
        const lf_op *oe = &h->ops[e];
        if (lf_op_pending(oe) || oe->ret < op->ret || !(oe->ret < t)) continue;
        bool covered = false; /* the moment ret_e + 1/2 */
        for (size_t i = 0; i < h->n && !covered; i++) {
            const lf_op *oi = &h->ops[i];
            bool ins, rem;
            unsigned moved, needed;
            roles(oi, &ins, &rem, &moved, &needed);
            if (!moved || (insert_side ? !ins : !rem)) continue;
            covered = oi->call <= oe->ret && (lf_op_pending(oi) || oi->ret > oe->ret);
        }
        if (!covered) return true;
    }
    return false;
}

/* The count for answer d: empty side: values of inserts done at t_done minus values of removes called by t_call;
 * full side: capacity minus values of inserts called by t_call plus values of removes done at t_done. At one moment
 * t = t_done = t_call; a weak answer takes its call as t_done and its return as t_call. */
static int64_t count_at(const lf_history *h, size_t d, bool full_side, uint64_t t_done, uint64_t t_call) {
    int64_t c = full_side ? (int64_t)h->capacity : 0;
    for (size_t j = 0; j < h->n; j++) {
        if (j == d) continue;
        bool ins, rem;
        unsigned moved, needed;
        roles(&h->ops[j], &ins, &rem, &moved, &needed);
        if (!moved) continue;
        bool adds = full_side ? rem : ins, subtracts = full_side ? ins : rem;
        if (adds && done_at(h, j, !full_side, t_done)) c += moved;
        if (subtracts && h->ops[j].call <= t_call) c -= moved;
    }
    return c;
}

/* Every full and empty answer against the count rule, trying every stamp where a count can change. */
static bool count_rule_holds(const lf_history *h, lf_result *r) {
    for (size_t d = 0; d < h->n && h->contract.full_empty != LF_FULL_EMPTY_UNCHECKED; d++) {
        const lf_op *op = &h->ops[d];
        bool ins, rem;
        unsigned moved, needed;
        roles(op, &ins, &rem, &moved, &needed);
        if (!needed || lf_op_pending(op)) continue;
        bool ok = false;
        if (h->contract.full_empty == LF_FULL_EMPTY_WEAK) ok = count_at(h, d, ins, op->call, op->ret) < (int64_t)needed;
        for (size_t j = 0; j <= h->n && !ok && h->contract.full_empty != LF_FULL_EMPTY_WEAK; j++) { /* t: the answer's call, and every call and return + 1 in it */
            uint64_t ts[2] = {j == h->n ? op->call : h->ops[j].call, 0};
            int nts = 1;
            if (j < h->n && !lf_op_pending(&h->ops[j]) && h->ops[j].ret < UINT64_MAX) ts[nts++] = h->ops[j].ret + 1;
            for (int k = 0; k < nts && !ok; k++)
                if (ts[k] >= op->call && ts[k] <= op->ret) ok = count_at(h, d, ins, ts[k], ts[k]) < (int64_t)needed;
        }
        if (!ok) {
            char desc[200];
            lf_op_describe(desc, sizeof desc, op);
            lf_result_set(r, LF_VIOLATION, "brute", "op %zu (%s) answered %s at no moment its count allows", d, desc,
                          ins ? "full" : "empty");
            lf_result_add_culprit(r, (uint32_t)d);
            return false;
        }
    }
    return true;
}

/* A lagging or quiescent history: the count rule, then the order on the history without the answers. */
static void brute_full_empty(const lf_history *h, const lf_brute_options *o, lf_result *r) {
    if (!count_rule_holds(h, r)) return;
    bool *keep = malloc((h->n ? h->n : 1) * sizeof *keep);
    uint32_t *orig = malloc((h->n ? h->n : 1) * sizeof *orig);
    lf_history rest;
    size_t k = 0;
    for (size_t i = 0; keep && orig && i < h->n; i++) {
        bool ins, rem;
        unsigned moved, needed;
        roles(&h->ops[i], &ins, &rem, &moved, &needed);
        keep[i] = lf_op_pending(&h->ops[i]) || !needed || moved; /* a burst that moved k: as a bulk op of k */
        if (keep[i]) orig[k++] = (uint32_t)i;
    }
    if (!keep || !orig || !lf_history_select(&rest, h, keep)) {
        free(keep);
        free(orig);
        lf_result_set(r, LF_UNKNOWN, "brute", "out of memory");
        return;
    }
    free(keep);
    for (size_t i = 0; i < rest.n; i++) {
        bool ins, rem;
        unsigned moved, needed;
        roles(&rest.ops[i], &ins, &rem, &moved, &needed);
        if (!needed) continue;
        rest.ops[i].count = (uint8_t)moved; /* as if asked for what it moved: no answer left to check */
        for (unsigned a = moved; a < LF_BULK_MAX; a++) rest.ops[i].arg[a] = 0;
    }
    rest.contract.full_empty = LF_FULL_EMPTY_EXACT;
    lf_brute_check(&rest, o, r);
    for (size_t i = 0; i < r->witness_len; i++) r->witness[i] = orig[r->witness[i]];
    for (size_t i = 0; i < r->prefix_len; i++) r->prefix[i] = orig[r->prefix[i]];
    for (size_t i = 0; i < r->n_culprits; i++) r->culprits[i] = orig[r->culprits[i]];
    lf_history_free(&rest);
    free(orig);
}

void lf_brute_check(const lf_history *h, const lf_brute_options *o, lf_result *r) {
    lf_brute_options defaults;
    if (!o) {
        lf_brute_options_default(&defaults);
        o = &defaults;
    }
    size_t max_ops = o->max_ops ? o->max_ops : 24;
    if (max_ops > BRUTE_HARD_MAX_OPS) max_ops = BRUTE_HARD_MAX_OPS;
    if (h->n > max_ops) {
        lf_result_set(r, LF_UNKNOWN, "brute", "history has %zu ops; brute force is limited to %zu", h->n, max_ops);
        return;
    }
    char err[512];
    if (lf_history_validate(h, err, sizeof err) != SIZE_MAX) {
        lf_result_set(r, LF_UNKNOWN, "brute", "malformed history: %s", err);
        return;
    }
    if ((unsigned)h->type >= LF_TYPE_COUNT) { /* its models are the built-in types' */
        lf_result_set(r, LF_UNKNOWN, "brute", "brute force has no model of the custom type %s (use --engine auto or "
                      "wgl with its spec)", lf_history_type_name(h));
        return;
    }

    if (h->contract.order != LF_ORDER_EXACT && lf_history_has_bulk(h)) { /* relaxed_moves has no bulk op */
        lf_result_set(r, LF_UNKNOWN, "brute", "unsupported: bulk and burst ops under a relaxed order");
        return;
    }
    if (h->contract.full_empty != LF_FULL_EMPTY_EXACT) {
        brute_full_empty(h, o, r);
        return;
    }

    search *S = calloc(1, sizeof *S);
    if (!S) {
        lf_result_set(r, LF_UNKNOWN, "brute", "out of memory");
        return;
    }
    S->h = h;
    S->n = h->n;
    for (size_t j = 0; j < h->n; j++) {
        if (!lf_op_pending(&h->ops[j])) S->required |= UINT64_C(1) << j;
        for (size_t i = 0; i < h->n; i++)
            if (i != j && lf_precedes(&h->ops[i], &h->ops[j])) S->pred[j] |= UINT64_C(1) << i;
    }
    S->state_cap = max_state_bytes(h);
    S->states = malloc((h->n + 1) * S->state_cap);
    S->state_len = malloc((h->n + 1) * sizeof *S->state_len);
    S->relaxed = h->contract.order != LF_ORDER_EXACT;
    if (S->relaxed) {
        S->moves = malloc((h->n + 1) * (h->n + 1) * S->state_cap);
        S->move_lens = malloc((h->n + 1) * (h->n + 1) * sizeof *S->move_lens);
    }
    S->memo.budget = o->max_memory_bytes ? o->max_memory_bytes : (size_t)1 << 30;
    if (o->timeout_s > 0) S->deadline = lf_now_s() + o->timeout_s;
    S->progress = o->progress;
    if (!S->states || !S->state_len || (S->relaxed && (!S->moves || !S->move_lens))) {
        lf_result_set(r, LF_UNKNOWN, "brute", "out of memory");
    } else {
        initial_state(h, S->states, &S->state_len[0]);
        search_outcome out = explore(S, 0, 0);
        r->steps = S->steps;
        if (out == SEARCH_FOUND) {
            lf_result_set(r, LF_LINEARIZABLE, "brute", "linearizable");
            if (o->want_witness && S->found_len) {
                r->witness = malloc(S->found_len * sizeof *r->witness);
                if (r->witness) {
                    memcpy(r->witness, S->path, S->found_len * sizeof *r->witness);
                    r->witness_len = S->found_len;
                }
            }
        } else if (out == SEARCH_FAILED) {
            report_violation(S, r);
        } else if (S->timed_out) {
            lf_result_set(r, LF_UNKNOWN, "brute", "timeout after %.3g s (%" PRIu64 " steps)", o->timeout_s,
                          S->steps);
        } else {
            lf_result_set(r, LF_UNKNOWN, "brute", "memory budget of %zu bytes exceeded (%zu configurations)",
                          S->memo.budget, S->memo.count);
        }
    }
    memo_free(&S->memo);
    free(S->moves);
    free(S->move_lens);
    free(S->states);
    free(S->state_len);
    free(S);
}
