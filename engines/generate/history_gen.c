/* Random history generation (see history_gen.h): sequential simulation of each type, stamps placed around
 * the linearization points, optional pending ops and corruptions, and small random histories for tests.
 * Everything is O(n) except re-ranking stamps after a "move earlier" corruption (O(n log n)). */
#include "linfuzz/generate.h"
#include "util/prng.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- PRNG ---- */

void lf_rng_seed(lf_rng *r, uint64_t seed) {
    uint64_t x = seed;
    for (int i = 0; i < 4; i++) r->s[i] = lf_rand_next(&x);
}

static inline uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

uint64_t lf_rng_next(lf_rng *r) {
    uint64_t *s = r->s;
    uint64_t result = rotl(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return result;
}

/* The modulo bias is below 2^-38 for every n the generator uses (n < 2^26). */
uint64_t lf_rng_below(lf_rng *r, uint64_t n) { return lf_rng_next(r) % n; }

double lf_rng_unit(lf_rng *r) { return (double)(lf_rng_next(r) >> 11) * (1.0 / 9007199254740992.0); }

/* ---- options ---- */

void lf_gen_options_default(lf_gen_options *o) {
    memset(o, 0, sizeof *o);
    o->type = LF_TYPE_QUEUE;
    o->threads = 4;
}

void lf_gen_small_options_default(lf_gen_small_options *o, lf_type type, lf_gen_small_mode mode) {
    memset(o, 0, sizeof *o);
    o->type = type;
    o->mode = mode;
    o->min_ops = 3;
    o->max_ops = 10;
    o->max_threads = 3;
    o->peek = 0.3;
    o->empty = 0.3;
}

/* ---- sequential simulation ---- */

#define KV_DEFAULT_KEYS 16
#define ABSENT UINT32_MAX

typedef struct {
    const lf_gen_options *o;
    lf_rng rng;
    lf_op *ops;
    size_t n;
    int64_t next_value; /* the next new value (values 1, 2, ...; a register's initial value is 0) */
    /* containers: stack items[0..len) bottom..top; queue and deque items[head..head+len) front..back;
     * pqueue a binary min-heap in items[0..len); set the present values in items[0..len) (any order) */
    int64_t *items;
    size_t head, len;
    uint32_t *set_pos; /* set: index of value v in items, or ABSENT */
    uint64_t max_value;
    int64_t cur;       /* register value, counter count */
    bool *kv_present;  /* kv: by key 1..kv_keys */
    int64_t *kv_val;
    uint64_t kv_keys;
    /* per-producer queues: the values in items[0..inserted) in insertion order, each thread's linked by pp_next
     * from pp_head to pp_tail; the threads with values listed in pp_nonempty (pp_slot: a thread's place there) */
    size_t inserted, pp_total;
    uint32_t *pp_next, *pp_head, *pp_tail, *pp_count, *pp_nonempty, *pp_slot;
    uint32_t pp_n_nonempty;
} sim;

static bool chance(sim *s, double p) { return p > 0 && lf_rng_unit(&s->rng) < p; }
static bool coin(sim *s) { return lf_rng_next(&s->rng) >> 63; }

/* The i-th spread priority: i through a bijection of the 40-bit numbers (multiplications by odd constants and
 * xor-shifts, each invertible modulo 2^40), so priorities are distinct without remembering them. */
static int64_t spread_value(uint64_t i) {
    const uint64_t mask = (1ull << 40) - 1;
    uint64_t x = (i * 0x9E3779B97F5ull) & mask;
    x ^= x >> 23;
    x = (x * 0xD6E8FEB8665ull) & mask;
    x ^= x >> 19;
    return (int64_t)x;
}

/* A value to insert: new, or drawn from the domain 1..values. */
static int64_t value_to_insert(sim *s) {
    if (s->o->values) return 1 + (int64_t)lf_rng_below(&s->rng, s->o->values);
    return s->o->spread ? spread_value((uint64_t)s->next_value++) : s->next_value++;
}

/* Some value already in play (for failed cas, contains, corrupted results). */
static int64_t used_value(sim *s) {
    if (s->o->values) return 1 + (int64_t)lf_rng_below(&s->rng, s->o->values);
    uint64_t hi = s->next_value > 1 ? (uint64_t)s->next_value - 1 : 1;
    return 1 + (int64_t)lf_rng_below(&s->rng, hi);
}

static lf_op *emit(sim *s, lf_method m) {
    lf_op *op = &s->ops[s->n++];
    memset(op, 0, sizeof *op);
    op->method = (uint8_t)m;
    op->res_kind = LF_K_NONE;
    return op;
}

static void res_int(lf_op *op, int64_t v) {
    op->res_kind = LF_K_INT;
    op->res = v;
}

static void res_bool(lf_op *op, bool b) { op->res_kind = b ? LF_K_TRUE : LF_K_FALSE; }

static void heap_push(sim *s, int64_t v) {
    size_t i = s->len++;
    while (i > 0 && s->items[(i - 1) / 2] > v) {
        s->items[i] = s->items[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    s->items[i] = v;
}

static int64_t heap_pop(sim *s) {
    int64_t top = s->items[0], last = s->items[--s->len];
    size_t i = 0;
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= s->len) break;
        if (c + 1 < s->len && s->items[c + 1] < s->items[c]) c++;
        if (s->items[c] >= last) break;
        s->items[i] = s->items[c];
        i = c;
    }
    if (s->len) s->items[i] = last;
    return top;
}

static void set_insert(sim *s, int64_t v) {
    s->set_pos[v] = (uint32_t)s->len;
    s->items[s->len++] = v;
}

static void set_erase(sim *s, int64_t v) {
    uint32_t p = s->set_pos[v];
    int64_t last = s->items[--s->len];
    s->items[p] = last;
    s->set_pos[last] = p;
    s->set_pos[v] = ABSENT;
}

/* What the next op does to a container: observe it, remove from it, or insert into it. An observe or remove
 * that meets an empty container is kept (with an empty result) only with probability `empty`. */
typedef enum { DO_INSERT, DO_REMOVE, DO_OBSERVE, DO_REMOVE_EMPTY, DO_OBSERVE_EMPTY } action;

static action choose_action(sim *s, bool is_empty) {
    action a;
    if (s->o->spread) { /* many inserts first, many removes last: a large resident set in the middle */
        size_t n = s->o->n_ops;
        double insert = s->n < n / 5 * 2 ? 0.9 : s->n < n / 5 * 3 ? 0.5 : 0.1;
        a = chance(s, s->o->peek) ? DO_OBSERVE : chance(s, insert) ? DO_INSERT : DO_REMOVE;
    } else {
        a = chance(s, s->o->peek) ? DO_OBSERVE : coin(s) ? DO_REMOVE : DO_INSERT;
    }
    if (a != DO_INSERT && is_empty) {
        if (!chance(s, s->o->empty)) return DO_INSERT;
        return a == DO_OBSERVE ? DO_OBSERVE_EMPTY : DO_REMOVE_EMPTY;
    }
    return a;
}

static void step_register(sim *s) {
    if (chance(s, s->o->peek)) {
        res_int(emit(s, LF_M_READ), s->cur);
    } else if (s->o->type == LF_TYPE_CAS_REGISTER && coin(s)) {
        lf_op *op = emit(s, LF_M_CAS);
        if (coin(s)) {
            op->arg[0] = s->cur;
            op->arg[1] = s->cur = value_to_insert(s);
            op->res_kind = LF_K_OK;
        } else {
            int64_t other = used_value(s);
            op->arg[0] = other == s->cur ? other + 1 : other;
            op->arg[1] = value_to_insert(s);
            op->res_kind = LF_K_FAIL;
        }
    } else {
        emit(s, LF_M_WRITE)->arg[0] = s->cur = value_to_insert(s);
    }
}

static void step_counter(sim *s) {
    if (chance(s, s->o->peek))
        res_int(emit(s, LF_M_GET), s->cur);
    else {
        emit(s, LF_M_INC);
        s->cur++;
    }
}

static void step_set(sim *s) {
    if (chance(s, s->o->peek)) {
        int64_t v = used_value(s);
        lf_op *op = emit(s, LF_M_CONTAINS);
        op->arg[0] = v;
        res_bool(op, s->set_pos[v] != ABSENT);
        return;
    }
    if (coin(s)) {
        if (s->len) {
            int64_t v = s->items[lf_rng_below(&s->rng, s->len)];
            lf_op *op = emit(s, LF_M_REMOVE);
            op->arg[0] = v;
            res_bool(op, true);
            set_erase(s, v);
            return;
        }
        if (chance(s, s->o->empty)) {
            lf_op *op = emit(s, LF_M_REMOVE);
            op->arg[0] = used_value(s);
            res_bool(op, false);
            return;
        }
    }
    int64_t v = value_to_insert(s);
    lf_op *op = emit(s, LF_M_ADD);
    op->arg[0] = v;
    res_bool(op, s->set_pos[v] == ABSENT);
    if (s->set_pos[v] == ABSENT) set_insert(s, v);
}

static void step_kv(sim *s) {
    int64_t key = 1 + (int64_t)lf_rng_below(&s->rng, s->kv_keys);
    bool present = s->kv_present[key];
    action a = chance(s, s->o->peek) ? DO_OBSERVE : coin(s) ? DO_REMOVE : DO_INSERT;
    if (a != DO_INSERT && !present && !chance(s, s->o->empty)) a = DO_INSERT;
    lf_op *op;
    switch (a) {
    case DO_OBSERVE:
        op = emit(s, LF_M_GET);
        op->arg[0] = key;
        if (present)
            res_int(op, s->kv_val[key]);
        else
            op->res_kind = LF_K_NIL;
        return;
    case DO_REMOVE:
        op = emit(s, LF_M_DELETE);
        op->arg[0] = key;
        res_bool(op, present);
        s->kv_present[key] = false;
        return;
    default:
        op = emit(s, LF_M_PUT);
        op->arg[0] = key;
        op->arg[1] = s->kv_val[key] = s->next_value++;
        s->kv_present[key] = true;
        return;
    }
}

/* stack, queue, pqueue, deque */
static void step_container(sim *s) {
    lf_type t = s->o->type;
    action a = choose_action(s, s->len == 0);
    bool front = coin(s); /* deque: which end */
    lf_op *op;
    switch (a) {
    case DO_INSERT: {
        int64_t v = value_to_insert(s);
        if (s->o->capacity && s->len >= s->o->capacity) { /* bounded and full: refused, nothing changes */
            static const lf_method INSERT[LF_TYPE_COUNT] = {
                [LF_TYPE_STACK] = LF_M_PUSH, [LF_TYPE_QUEUE] = LF_M_ENQ, [LF_TYPE_PQUEUE] = LF_M_INSERT};
            op = emit(s, t == LF_TYPE_DEQUE ? (front ? LF_M_PUSH_FRONT : LF_M_PUSH_BACK) : INSERT[t]);
            op->arg[0] = v;
            op->res_kind = LF_K_FULL;
            return;
        }
        if (t == LF_TYPE_STACK) {
            emit(s, LF_M_PUSH)->arg[0] = v;
            s->items[s->len++] = v;
        } else if (t == LF_TYPE_QUEUE) {
            emit(s, LF_M_ENQ)->arg[0] = v;
            s->items[s->head + s->len++] = v;
        } else if (t == LF_TYPE_PQUEUE) {
            emit(s, LF_M_INSERT)->arg[0] = v;
            heap_push(s, v);
        } else if (front) {
            emit(s, LF_M_PUSH_FRONT)->arg[0] = v;
            s->items[--s->head] = v;
            s->len++;
        } else {
            emit(s, LF_M_PUSH_BACK)->arg[0] = v;
            s->items[s->head + s->len++] = v;
        }
        return;
    }
    case DO_REMOVE:
        if (t == LF_TYPE_STACK) {
            res_int(emit(s, LF_M_POP), s->items[--s->len]);
        } else if (t == LF_TYPE_QUEUE) {
            res_int(emit(s, LF_M_DEQ), s->items[s->head++]);
            s->len--;
        } else if (t == LF_TYPE_PQUEUE) {
            res_int(emit(s, LF_M_POLL), heap_pop(s));
        } else if (front) {
            res_int(emit(s, LF_M_POP_FRONT), s->items[s->head++]);
            s->len--;
        } else {
            res_int(emit(s, LF_M_POP_BACK), s->items[s->head + --s->len]);
        }
        return;
    case DO_OBSERVE:
        if (t == LF_TYPE_STACK)
            res_int(emit(s, LF_M_PEEK), s->items[s->len - 1]);
        else if (t == LF_TYPE_QUEUE || t == LF_TYPE_PQUEUE) /* the heap's minimum is items[0] too */
            res_int(emit(s, LF_M_PEEK), s->items[s->head]);
        else if (front)
            res_int(emit(s, LF_M_PEEK_FRONT), s->items[s->head]);
        else
            res_int(emit(s, LF_M_PEEK_BACK), s->items[s->head + s->len - 1]);
        return;
    case DO_REMOVE_EMPTY:
    case DO_OBSERVE_EMPTY: {
        static const lf_method REMOVE[LF_TYPE_COUNT] = {[LF_TYPE_STACK] = LF_M_POP, [LF_TYPE_QUEUE] = LF_M_DEQ,
                                                        [LF_TYPE_PQUEUE] = LF_M_POLL};
        lf_method m = a == DO_OBSERVE_EMPTY ? (t == LF_TYPE_DEQUE ? (front ? LF_M_PEEK_FRONT : LF_M_PEEK_BACK) : LF_M_PEEK)
                      : t == LF_TYPE_DEQUE ? (front ? LF_M_POP_FRONT : LF_M_POP_BACK)
                                           : REMOVE[t];
        op = emit(s, m);
        op->res_kind = LF_K_EMPTY;
        return;
    }
    }
}

/* ---- stacks and queues under a relaxed order (docs/contracts.md) ---- */

static void pp_append(sim *s, uint32_t t, int64_t v) {
    uint32_t i = (uint32_t)s->inserted++;
    s->items[i] = v;
    s->pp_next[i] = UINT32_MAX;
    if (s->pp_count[t]++ == 0) {
        s->pp_head[t] = i;
        s->pp_slot[t] = s->pp_n_nonempty;
        s->pp_nonempty[s->pp_n_nonempty++] = t;
    } else {
        s->pp_next[s->pp_tail[t]] = i;
    }
    s->pp_tail[t] = i;
    s->pp_total++;
}

/* A value the order allows a remove (take) or a peek to return, taken out when take. */
static int64_t relaxed_take(sim *s, bool take) {
    const lf_contract *c = &s->o->contract;
    bool stack = s->o->type == LF_TYPE_STACK;
    if (c->order == LF_ORDER_PER_PRODUCER) { /* the oldest value of a random thread that has one */
        uint32_t t = s->pp_nonempty[lf_rng_below(&s->rng, s->pp_n_nonempty)], i = s->pp_head[t];
        if (!take) return s->items[i];
        s->pp_head[t] = s->pp_next[i];
        s->pp_total--;
        if (--s->pp_count[t] == 0) { /* out of the list of threads with values */
            uint32_t last = s->pp_nonempty[--s->pp_n_nonempty];
            s->pp_nonempty[s->pp_slot[t]] = last;
            s->pp_slot[last] = s->pp_slot[t];
        }
        return s->items[i];
    }
    size_t len = s->len, w = c->order == LF_ORDER_BAG ? len : c->k < len ? c->k : len, j = lf_rng_below(&s->rng, w);
    /* j counts from the front (queue) or the top (stack) */
    size_t pos = stack ? len - 1 - j : s->head + j;
    int64_t v = s->items[pos];
    if (!take) return v;
    if (stack) {
        if (c->order == LF_ORDER_BAG)
            s->items[pos] = s->items[len - 1];
        else
            memmove(&s->items[pos], &s->items[pos + 1], (len - 1 - pos) * sizeof *s->items);
    } else {
        if (c->order == LF_ORDER_BAG)
            s->items[pos] = s->items[s->head];
        else
            memmove(&s->items[s->head + 1], &s->items[s->head], j * sizeof *s->items);
        s->head++;
    }
    s->len--;
    return v;
}

static void step_relaxed(sim *s) {
    bool stack = s->o->type == LF_TYPE_STACK, pp = s->o->contract.order == LF_ORDER_PER_PRODUCER;
    uint32_t thread = pp ? (uint32_t)lf_rng_below(&s->rng, s->o->threads) : 0; /* per-producer: threads now */
    size_t len = pp ? s->pp_total : s->len;
    action a = choose_action(s, len == 0);
    lf_op *op;
    if (a == DO_INSERT) {
        int64_t v = value_to_insert(s);
        op = emit(s, stack ? LF_M_PUSH : LF_M_ENQ);
        op->arg[0] = v;
        if (s->o->capacity && len >= s->o->capacity)
            op->res_kind = LF_K_FULL;
        else if (pp)
            pp_append(s, thread, v);
        else if (stack)
            s->items[s->len++] = v;
        else
            s->items[s->head + s->len++] = v;
    } else if (a == DO_REMOVE || a == DO_OBSERVE) {
        op = emit(s, a == DO_OBSERVE ? LF_M_PEEK : stack ? LF_M_POP : LF_M_DEQ);
        res_int(op, relaxed_take(s, a == DO_REMOVE));
    } else {
        op = emit(s, a == DO_OBSERVE_EMPTY ? LF_M_PEEK : stack ? LF_M_POP : LF_M_DEQ);
        op->res_kind = LF_K_EMPTY;
    }
    op->thread = thread;
}

/* Work stealing on a deque: the owner (thread 0) pushes and pops at the back, thieves (threads 1..) take from
 * the front; a thief that finds nothing to steal gives its turn to the owner unless an empty result is kept. */
static void step_work_stealing(sim *s) {
    uint32_t thieves = s->o->threads - 1;
    bool owner = coin(s);
    lf_op *op;
    if (!owner) {
        uint32_t t = 1 + (uint32_t)lf_rng_below(&s->rng, thieves);
        if (s->len && chance(s, s->o->peek)) {
            op = emit(s, LF_M_PEEK_FRONT);
            res_int(op, s->items[s->head]);
        } else if (s->len) {
            op = emit(s, LF_M_POP_FRONT);
            res_int(op, s->items[s->head++]);
            s->len--;
        } else if (chance(s, s->o->empty)) {
            op = emit(s, LF_M_POP_FRONT);
            op->res_kind = LF_K_EMPTY;
        } else {
            owner = true;
        }
        if (!owner) {
            op->thread = t;
            return;
        }
    }
    if (s->len && chance(s, s->o->peek)) {
        op = emit(s, LF_M_PEEK_BACK);
        res_int(op, s->items[s->head + s->len - 1]);
    } else if (s->len && lf_rng_unit(&s->rng) < 0.45) {
        op = emit(s, LF_M_POP_BACK);
        res_int(op, s->items[s->head + --s->len]);
    } else if (!s->len && chance(s, s->o->empty)) {
        op = emit(s, LF_M_POP_BACK);
        op->res_kind = LF_K_EMPTY;
    } else {
        int64_t v = value_to_insert(s);
        op = emit(s, LF_M_PUSH_BACK);
        op->arg[0] = v;
        s->items[s->head + s->len++] = v;
    }
    op->thread = 0;
}

static void simulate(sim *s) {
    for (size_t i = 0; i < s->o->n_ops; i++) {
        if (s->o->shape == LF_GEN_WORK_STEALING) {
            step_work_stealing(s);
            continue;
        }
        switch (s->o->type) {
        case LF_TYPE_REGISTER:
        case LF_TYPE_CAS_REGISTER: step_register(s); break;
        case LF_TYPE_COUNTER: step_counter(s); break;
        case LF_TYPE_SET: step_set(s); break;
        case LF_TYPE_KV: step_kv(s); break;
        default:
            if (s->o->contract.order != LF_ORDER_EXACT)
                step_relaxed(s);
            else
                step_container(s);
            break;
        }
    }
}

/* ---- stamps ---- */

/* ops[0..n) are in linearization order. Gives each op a random thread and call/ret stamps (1..2n, distinct)
 * around its linearization point: op i is called before point i and returns after it; a thread calls its
 * next op only after its previous op returned. Between points, one random thread advances (returns its
 * finished op, or calls its next op early), which is what makes ops of different threads overlap. */
static bool place_stamps(lf_op *ops, size_t n, uint32_t threads, bool keep_threads, lf_rng *rng) {
    enum { IDLE, CALLED, LINEARIZED };
    size_t *next_same = malloc((n ? n : 1) * sizeof *next_same);
    size_t *last = malloc(threads * sizeof *last);  /* while assigning: last op per thread */
    size_t *cur = malloc(threads * sizeof *cur);    /* the thread's current (called or open) op */
    size_t *first = malloc(threads * sizeof *first);
    uint8_t *phase = calloc(threads, 1);
    bool ok = next_same && last && cur && first && phase;
    if (ok) {
        for (uint32_t t = 0; t < threads; t++) last[t] = first[t] = cur[t] = SIZE_MAX;
        for (size_t i = 0; i < n; i++) {
            uint32_t t = keep_threads ? ops[i].thread : (uint32_t)lf_rng_below(rng, threads);
            ops[i].thread = t;
            next_same[i] = SIZE_MAX;
            if (last[t] == SIZE_MAX)
                first[t] = i;
            else
                next_same[last[t]] = i;
            last[t] = i;
        }
        uint64_t stamp = 0;
        for (size_t i = 0; i < n; i++) {
            uint32_t t = ops[i].thread;
            if (phase[t] == LINEARIZED) ops[cur[t]].ret = ++stamp;
            if (phase[t] != CALLED) ops[i].call = ++stamp;
            cur[t] = i;
            phase[t] = LINEARIZED;
            uint32_t u = (uint32_t)lf_rng_below(rng, threads);
            if (phase[u] == LINEARIZED) {
                ops[cur[u]].ret = ++stamp;
                phase[u] = IDLE;
            } else if (phase[u] == IDLE) {
                size_t next = cur[u] == SIZE_MAX ? first[u] : next_same[cur[u]];
                if (next != SIZE_MAX) {
                    ops[next].call = ++stamp;
                    cur[u] = next;
                    phase[u] = CALLED;
                }
            }
        }
        for (uint32_t t = 0; t < threads; t++)
            if (phase[t] == LINEARIZED) ops[cur[t]].ret = ++stamp;
    }
    free(next_same);
    free(last);
    free(cur);
    free(first);
    free(phase);
    return ok;
}

/* Leaves each thread's last op pending with probability p (its effect stays: pending ops may be linearized). */
static bool make_pending(lf_op *ops, size_t n, uint32_t threads, double p, lf_rng *rng) {
    if (!(p > 0)) return true;
    size_t *last = malloc(threads * sizeof *last);
    if (!last) return false;
    for (uint32_t t = 0; t < threads; t++) last[t] = SIZE_MAX;
    for (size_t i = 0; i < n; i++) last[ops[i].thread] = i;
    for (uint32_t t = 0; t < threads; t++)
        if (last[t] != SIZE_MAX && lf_rng_unit(rng) < p) {
            ops[last[t]].res_kind = LF_K_PENDING;
            ops[last[t]].res = 0;
            ops[last[t]].ret = 0;
        }
    free(last);
    return true;
}

/* ---- corruptions ---- */

static bool has_result(const lf_op *op) { return op->res_kind != LF_K_NONE && op->res_kind != LF_K_PENDING; }

/* Changes op's result to another one its method may return. */
static void change_result(sim *s, lf_op *op) {
    const lf_method_info *mi = lf_method_info_of(s->o->type, (lf_method)op->method);
    switch (op->res_kind) {
    case LF_K_TRUE: op->res_kind = LF_K_FALSE; return;
    case LF_K_FALSE: op->res_kind = LF_K_TRUE; return;
    case LF_K_OK: op->res_kind = LF_K_FAIL; return;
    case LF_K_FAIL: op->res_kind = LF_K_OK; return;
    case LF_K_EMPTY:
    case LF_K_NIL: res_int(op, used_value(s)); return;
    case LF_K_FULL: op->res_kind = LF_K_NONE; return; /* an insert that got in although the container was full */
    case LF_K_INT:
        if (s->o->type == LF_TYPE_COUNTER) {
            op->res += op->res == 0 || coin(s) ? 1 : -1;
        } else if ((mi->results & LF_KBIT(LF_K_EMPTY)) && lf_rng_below(&s->rng, 4) == 0) {
            op->res_kind = LF_K_EMPTY;
            op->res = 0;
        } else {
            int64_t v = used_value(s);
            op->res = v == op->res ? v + 1 : v;
        }
        return;
    default: return;
    }
}

static bool corrupt_value(sim *s) {
    for (int tries = 0; tries < 64; tries++) {
        lf_op *op = &s->ops[lf_rng_below(&s->rng, s->n)];
        const lf_method_info *mi = lf_method_info_of(s->o->type, (lf_method)op->method);
        if (s->o->capacity && op->res_kind == LF_K_NONE && (mi->results & LF_KBIT(LF_K_FULL))) {
            op->res_kind = LF_K_FULL; /* a bounded insert refused although there was room */
            return true;
        }
        if (!has_result(op)) continue;
        change_result(s, op);
        return true;
    }
    return false;
}

static bool corrupt_swap(sim *s) {
    for (int tries = 0; tries < 64; tries++) {
        lf_op *a = &s->ops[lf_rng_below(&s->rng, s->n)];
        lf_op *b = &s->ops[lf_rng_below(&s->rng, s->n)];
        if (!has_result(a) || !has_result(b) || a->method != b->method) continue;
        if (a->res_kind == b->res_kind && (a->res_kind != LF_K_INT || a->res == b->res)) continue;
        uint8_t k = a->res_kind;
        int64_t r = a->res;
        a->res_kind = b->res_kind;
        a->res = b->res;
        b->res_kind = k;
        b->res = r;
        return true;
    }
    return false;
}

/* Moves a completed op's interval earlier by a random distance, onto a new thread of its own (so threads
 * stay sequential). Half the moves are short (a few ops), half go anywhere earlier. */
static bool corrupt_move(sim *s, uint32_t new_thread, bool *moved) {
    uint64_t near = 4 * (uint64_t)s->o->threads + 4;
    for (int tries = 0; tries < 64; tries++) {
        size_t i = lf_rng_below(&s->rng, s->n);
        lf_op *op = &s->ops[i];
        if (lf_op_pending(op) || op->call <= 1) continue;
        uint64_t reach = op->call - 1;
        if (coin(s) && reach > near) reach = near;
        uint64_t d = 1 + lf_rng_below(&s->rng, reach);
        op->call -= d;
        op->ret -= d;
        op->thread = new_thread;
        moved[i] = true;
        return true;
    }
    return false;
}

typedef struct {
    uint64_t stamp;
    uint32_t op;
    uint8_t moved_rank; /* 0 for a moved op: at equal stamps it goes first ("earlier") */
    uint8_t is_ret;
} stamp_event;

static int cmp_event(const void *pa, const void *pb) {
    const stamp_event *a = pa, *b = pb;
    if (a->stamp != b->stamp) return a->stamp < b->stamp ? -1 : 1;
    if (a->moved_rank != b->moved_rank) return a->moved_rank < b->moved_rank ? -1 : 1;
    if (a->op != b->op) return a->op < b->op ? -1 : 1;
    return (int)a->is_ret - (int)b->is_ret;
}

/* After moves, stamps may coincide: renumber all events 1..k in (stamp, moved first, op, call first) order. */
static bool rerank_stamps(lf_op *ops, size_t n, const bool *moved) {
    stamp_event *ev = malloc(2 * n * sizeof *ev);
    if (!ev) return false;
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        ev[k++] = (stamp_event){ops[i].call, (uint32_t)i, moved[i] ? 0 : 1, 0};
        if (!lf_op_pending(&ops[i])) ev[k++] = (stamp_event){ops[i].ret, (uint32_t)i, moved[i] ? 0 : 1, 1};
    }
    qsort(ev, k, sizeof *ev, cmp_event);
    for (size_t j = 0; j < k; j++) {
        if (ev[j].is_ret)
            ops[ev[j].op].ret = j + 1;
        else
            ops[ev[j].op].call = j + 1;
    }
    free(ev);
    return true;
}

static bool corrupt(sim *s, size_t count) {
    if (!count || !s->n) return true;
    bool *moved = calloc(s->n, sizeof *moved);
    if (!moved) return false;
    bool any_moved = false;
    for (size_t c = 0; c < count; c++) {
        /* Changed values are the most reliable violations, so half the corruptions are those. Try the drawn
         * kind first, then the others (a history may have no results to change). */
        uint64_t draw = lf_rng_below(&s->rng, 4);
        unsigned first = draw < 2 ? 0 : (unsigned)draw - 1;
        for (unsigned k = 0; k < 3; k++) {
            unsigned kind = (first + k) % 3;
            bool done = kind == 0   ? corrupt_value(s)
                        : kind == 1 ? corrupt_swap(s)
                                    : corrupt_move(s, s->o->threads + (uint32_t)c, moved);
            if (done) {
                any_moved |= kind == 2;
                break;
            }
        }
    }
    bool ok = !any_moved || rerank_stamps(s->ops, s->n, moved);
    free(moved);
    return ok;
}

/* ---- lagging and quiescent full/empty answers (docs/contracts.md): extra answers the contract allows, and
 * ones it forbids ---- */

typedef struct gen_iv {
    uint64_t call, ret;
    bool pending;
    size_t op;
} gen_iv;

static int cmp_gen_iv(const void *pa, const void *pb) {
    const gen_iv *a = pa, *b = pb;
    return (a->call > b->call) - (a->call < b->call);
}

/* The two halves of the contract's count at every stamp 1..max: done[t], the values of the ops done at t (the
 * inserts for the empty side, the removes for the full side; plus the capacity for the full side), and called[t],
 * the values of the ops of the other side called by t. At one moment t the count is done[t] - called[t]; a weak
 * answer over [a, b] counts done[a] - called[b]. An op is done after its return (lagging, weak), or after the end
 * of the run of overlapping intervals of its side that it belongs to (quiescent). */
static bool count_profile(const sim *s, bool full_side, uint64_t max, int64_t *done, int64_t *called) {
    size_t n = s->n;
    int64_t *d = calloc(max + 2, sizeof *d), *c = calloc(max + 2, sizeof *c);
    gen_iv *iv = malloc((n ? n : 1) * sizeof *iv);
    if (!d || !c || !iv) {
        free(d);
        free(c);
        free(iv);
        return false;
    }
    bool quiescent = s->o->contract.full_empty == LF_FULL_EMPTY_QUIESCENT;
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        const lf_op *op = &s->ops[i];
        bool insert = op->method == LF_M_ENQ || op->method == LF_M_PUSH, remove = op->method == LF_M_DEQ || op->method == LF_M_POP;
        if ((!insert && !remove) || op->res_kind == LF_K_FULL || op->res_kind == LF_K_EMPTY) continue;
        if (full_side ? insert : remove) c[op->call]++;
        else iv[k++] = (gen_iv){op->call, op->ret, lf_op_pending(op), i};
    }
    qsort(iv, k, sizeof *iv, cmp_gen_iv);
    for (size_t a = 0, b; a < k; a = b) {
        uint64_t end = iv[a].ret;
        bool never = iv[a].pending;
        for (b = a + 1; b < k && (never || iv[b].call <= end); b++) {
            never |= iv[b].pending;
            if (!iv[b].pending && iv[b].ret > end) end = iv[b].ret;
        }
        for (size_t j = a; j < b; j++) {
            if (iv[j].pending || (quiescent && never)) continue; /* never done */
            uint64_t key = quiescent ? end : iv[j].ret;
            if (key + 1 <= max) d[key + 1]++;
        }
    }
    int64_t dr = full_side ? (int64_t)s->o->capacity : 0, cr = 0;
    for (uint64_t t = 1; t <= max; t++) {
        done[t] = dr += d[t];
        called[t] = cr += c[t];
    }
    free(d);
    free(c);
    free(iv);
    return true;
}

/* An answer at [t, u] on the answers' own thread: a remove answering empty, or an insert answering full. */
static void add_answer(sim *s, uint64_t t, uint64_t u, bool full, uint32_t thread) {
    bool stack = s->o->type == LF_TYPE_STACK;
    lf_op *op = emit(s, full ? (stack ? LF_M_PUSH : LF_M_ENQ) : stack ? LF_M_POP : LF_M_DEQ);
    if (full) op->arg[0] = value_to_insert(s);
    op->res_kind = full ? LF_K_FULL : LF_K_EMPTY;
    op->call = t;
    op->ret = u;
    op->thread = thread;
}

/* Adds the answers the contract allows (chance o->spurious at each stamp, at most o->n_ops / 4) and `bugs` that
 * it forbids, on thread o->threads + o->bad: each at one stamp, weak answers over up to 8 stamps (one after the
 * other, so the thread stays sequential). */
static bool add_answers(sim *s, size_t bugs) {
    uint64_t max = 0;
    for (size_t i = 0; i < s->n; i++) {
        if (s->ops[i].call > max) max = s->ops[i].call;
        if (!lf_op_pending(&s->ops[i]) && s->ops[i].ret > max) max = s->ops[i].ret;
    }
    bool bounded = s->o->capacity != 0, weak = s->o->contract.full_empty == LF_FULL_EMPTY_WEAK;
    int64_t *e_done = malloc((max + 2) * sizeof *e_done), *e_called = malloc((max + 2) * sizeof *e_called);
    int64_t *f_done = bounded ? malloc((max + 2) * sizeof *f_done) : NULL;
    int64_t *f_called = bounded ? malloc((max + 2) * sizeof *f_called) : NULL;
    uint8_t *used = calloc(max + 2, 1);
    bool ok = e_done && e_called && used && (!bounded || (f_done && f_called)) &&
              count_profile(s, false, max, e_done, e_called) &&
              (!bounded || count_profile(s, true, max, f_done, f_called));
    uint32_t thread = s->o->threads + (uint32_t)s->o->bad;
    size_t limit = s->o->n_ops / 4;
    for (uint64_t t = 1; ok && t <= max && limit; t++) {
        if (!chance(s, s->o->spurious)) continue;
        uint64_t u = weak ? t + lf_rng_below(&s->rng, 8) : t;
        if (u > max) u = max;
        bool full = bounded && coin(s);
        int64_t count = full ? f_done[t] - f_called[u] : e_done[t] - e_called[u];
        if (count >= 1 && s->o->contract.full_empty != LF_FULL_EMPTY_UNCHECKED) continue;
        add_answer(s, t, u, full, thread);
        for (uint64_t x = t; x <= u; x++) used[x] = 1;
        limit--;
        t = u + 1; /* the next one is called after this one returned */
    }
    for (size_t b = 0; ok && b < bugs && max && s->o->contract.full_empty != LF_FULL_EMPTY_UNCHECKED; b++)
        for (int tries = 0; tries < 64; tries++) {
            uint64_t t = 1 + lf_rng_below(&s->rng, max);
            bool full = bounded && coin(s);
            if (used[t] || (full ? f_done[t] - f_called[t] < 1 : e_done[t] - e_called[t] < 1)) continue;
            add_answer(s, t, t, full, thread);
            used[t] = 1;
            break;
        }
    free(e_done), free(e_called), free(f_done), free(f_called), free(used);
    return ok;
}

/* ---- the generator ---- */

static void sim_free(sim *s) {
    free(s->pp_next);
    free(s->pp_head);
    free(s->pp_tail);
    free(s->pp_count);
    free(s->pp_nonempty);
    free(s->pp_slot);
    free(s->items);
    free(s->set_pos);
    free(s->kv_present);
    free(s->kv_val);
}

bool lf_gen_history(const lf_gen_options *o, lf_history *h, char *err, size_t errlen) {
    lf_history_init(h, o->type);
    if ((unsigned)o->type >= LF_TYPE_COUNT || o->threads < 1 || o->values > LF_GEN_MAX_VALUES ||
        !(o->peek >= 0 && o->peek <= 1) || !(o->empty >= 0 && o->empty <= 1) ||
        !(o->pending >= 0 && o->pending <= 1) || o->n_ops > (SIZE_MAX / 2) / sizeof(stamp_event) ||
        o->n_ops >= UINT32_MAX) {
        snprintf(err, errlen, "generator options out of range");
        return false;
    }
    if (o->bad > o->n_ops || o->bad > UINT32_MAX - o->threads) { /* a moved op gets thread threads + k */
        snprintf(err, errlen, "%zu corruptions of %zu ops: at most one per op", o->bad, o->n_ops);
        return false;
    }
    if (o->spread && o->type != LF_TYPE_PQUEUE) {
        snprintf(err, errlen, "spread priorities are for priority queues (pqueue), not %s", lf_type_name(o->type));
        return false;
    }
    if (o->shape == LF_GEN_WORK_STEALING && (o->type != LF_TYPE_DEQUE || o->threads < 2)) {
        snprintf(err, errlen, "the work-stealing shape needs a deque and at least 2 threads (an owner and a thief)");
        return false;
    }
    if (o->capacity && !lf_type_boundable(o->type)) {
        snprintf(err, errlen, "a capacity is only for stack, queue, pqueue and deque, not %s", lf_type_name(o->type));
        return false;
    }
    if (!lf_contract_valid(o->type, &o->contract, err, errlen)) return false;
    if (!(o->spurious >= 0 && o->spurious <= 1)) {
        snprintf(err, errlen, "generator options out of range");
        return false;
    }
    bool relaxed_answers = o->contract.full_empty != LF_FULL_EMPTY_EXACT;
    size_t count_bugs = 0;
    lf_rng split; /* which corruptions are forbidden answers: drawn apart, so the other ones stay as they were */
    lf_rng_seed(&split, o->seed ^ 0x636f756e74ULL);
    for (size_t c = 0; relaxed_answers && c < o->bad; c++) count_bugs += lf_rng_next(&split) >> 63;
    h->capacity = o->capacity;
    h->contract = o->contract;
    sim s;
    memset(&s, 0, sizeof s);
    s.o = o;
    s.next_value = 1;
    lf_rng_seed(&s.rng, o->seed);
    size_t n = o->n_ops;
    size_t room = relaxed_answers ? n + n / 4 + o->bad + 1 : n; /* the answers come after the ops */
    s.ops = malloc((room ? room : 1) * sizeof *s.ops);
    s.items = malloc((2 * n + 2) * sizeof *s.items);
    s.head = o->type == LF_TYPE_DEQUE ? n + 1 : 0;
    bool ok = s.ops && s.items;
    bool pp = o->contract.order == LF_ORDER_PER_PRODUCER;
    if (ok && pp) {
        s.pp_next = malloc((n ? n : 1) * sizeof *s.pp_next);
        s.pp_head = calloc(o->threads, sizeof *s.pp_head);
        s.pp_tail = calloc(o->threads, sizeof *s.pp_tail);
        s.pp_count = calloc(o->threads, sizeof *s.pp_count);
        s.pp_nonempty = calloc(o->threads, sizeof *s.pp_nonempty);
        s.pp_slot = calloc(o->threads, sizeof *s.pp_slot);
        ok = s.pp_next && s.pp_head && s.pp_tail && s.pp_count && s.pp_nonempty && s.pp_slot;
    }
    if (ok && o->type == LF_TYPE_SET) {
        s.max_value = o->values ? o->values : n + 1;
        s.set_pos = malloc((s.max_value + 1) * sizeof *s.set_pos);
        ok = s.set_pos != NULL;
        if (ok) memset(s.set_pos, 0xff, (s.max_value + 1) * sizeof *s.set_pos);
    }
    if (ok && o->type == LF_TYPE_KV) {
        s.kv_keys = o->values ? o->values : KV_DEFAULT_KEYS;
        s.kv_present = calloc(s.kv_keys + 1, sizeof *s.kv_present);
        s.kv_val = calloc(s.kv_keys + 1, sizeof *s.kv_val);
        ok = s.kv_present && s.kv_val;
    }
    if (ok) {
        simulate(&s);
        ok = place_stamps(s.ops, s.n, o->threads, o->shape == LF_GEN_WORK_STEALING || pp, &s.rng) &&
             make_pending(s.ops, s.n, o->threads, o->pending, &s.rng) &&
             corrupt(&s, o->bad - count_bugs) && (!relaxed_answers || add_answers(&s, count_bugs));
    }
    if (!ok) {
        snprintf(err, errlen, "out of memory generating %zu ops", n);
        free(s.ops);
        sim_free(&s);
        return false;
    }
    h->ops = s.ops;
    h->cap = room ? room : 1;
    h->n = s.n;
    sim_free(&s);
    return true;
}

/* ---- small random histories ---- */

/* Random ops with random results: inserted values are distinct (1, 2, ...); removes and observers return
 * one of them or empty/nil; cas, kv keys and counter reads use tiny domains. Stamps as for constructed
 * histories, so the result is well-formed but its verdict is whatever it is. */
static bool gen_random_ops(const lf_gen_options *o, lf_history *h) {
    lf_history_init(h, o->type);
    lf_rng rng;
    lf_rng_seed(&rng, o->seed);
    const lf_method_info *methods[LF_M_COUNT];
    size_t n_methods = 0;
    for (int m = 0; m < LF_M_COUNT; m++) {
        const lf_method_info *mi = lf_method_info_of(o->type, (lf_method)m);
        if (mi && !lf_method_is_bulk((unsigned)m)) methods[n_methods++] = mi; /* single-value ops only */
    }
    size_t n = o->n_ops;
    lf_op *ops = calloc(n ? n : 1, sizeof *ops);
    if (!ops) return false;
    int64_t next_value = 1, incs = 0;
    for (size_t i = 0; i < n; i++) {
        const lf_method_info *mi = methods[lf_rng_below(&rng, n_methods)];
        lf_op *op = &ops[i];
        op->method = (uint8_t)mi->method;
        if (mi->role == LF_ROLE_INSERT && mi->nargs == 1)
            op->arg[0] = next_value++;
        else if (mi->method == LF_M_PUT) {
            op->arg[0] = 1 + (int64_t)lf_rng_below(&rng, 3);
            op->arg[1] = next_value++;
        } else if (mi->method == LF_M_CAS) {
            op->arg[0] = (int64_t)lf_rng_below(&rng, 3);
            op->arg[1] = (int64_t)lf_rng_below(&rng, 3);
        } else if (mi->nargs == 1) { /* set remove/contains: a value of this history; kv get/delete: a key */
            op->arg[0] = 1 + (int64_t)lf_rng_below(&rng, o->type == LF_TYPE_KV ? 3 : (uint64_t)n);
        }
        if (mi->method == LF_M_INC) incs++;
    }
    for (size_t i = 0; i < n; i++) {
        lf_op *op = &ops[i];
        uint16_t allowed = lf_method_info_of(o->type, (lf_method)op->method)->results;
        if (!o->capacity) allowed &= (uint16_t)~LF_KBIT(LF_K_FULL);
        if (allowed & LF_KBIT(LF_K_FULL)) { /* a bounded insert: refused one time in four */
            if (lf_rng_below(&rng, 4) == 0) op->res_kind = LF_K_FULL;
            continue;
        }
        if (allowed == LF_KBIT(LF_K_NONE)) continue;
        /* Mostly integers where integers are allowed: nil and empty are rarely interesting. */
        if ((allowed & LF_KBIT(LF_K_INT)) && (lf_rng_below(&rng, 4) != 0 || allowed == LF_KBIT(LF_K_INT))) {
            op->res_kind = LF_K_INT;
            if (o->type == LF_TYPE_COUNTER)
                op->res = (int64_t)lf_rng_below(&rng, (uint64_t)incs + 1);
            else if (o->type == LF_TYPE_REGISTER || o->type == LF_TYPE_CAS_REGISTER)
                op->res = (int64_t)lf_rng_below(&rng, (uint64_t)next_value); /* 0 is the initial value */
            else
                op->res = next_value > 1 ? 1 + (int64_t)lf_rng_below(&rng, (uint64_t)next_value - 1) : 1;
            continue;
        }
        uint8_t kinds[LF_K_COUNT];
        size_t n_kinds = 0;
        for (int k = LF_K_NIL; k < LF_K_PENDING; k++)
            if (allowed & LF_KBIT(k)) kinds[n_kinds++] = (uint8_t)k;
        op->res_kind = kinds[lf_rng_below(&rng, n_kinds)];
    }
    if (!place_stamps(ops, n, o->threads, false, &rng) || !make_pending(ops, n, o->threads, o->pending, &rng)) {
        free(ops);
        return false;
    }
    h->ops = ops;
    h->cap = n ? n : 1;
    h->n = n;
    h->capacity = o->capacity;
    h->contract = o->contract;
    return true;
}

bool lf_gen_small(uint64_t seed, const lf_gen_small_options *so, lf_history *h) {
    lf_rng rng;
    lf_rng_seed(&rng, seed ^ 0x736d616c6c686973ULL);
    lf_gen_options o;
    lf_gen_options_default(&o);
    o.type = so->type;
    size_t lo = so->min_ops, hi = so->max_ops < so->min_ops ? so->min_ops : so->max_ops;
    o.n_ops = lo + lf_rng_below(&rng, hi - lo + 1);
    o.threads = 1 + (uint32_t)lf_rng_below(&rng, so->max_threads ? so->max_threads : 1);
    o.seed = lf_rng_next(&rng);
    o.values = so->values;
    o.peek = so->peek;
    o.empty = so->empty;
    o.pending = so->pending;
    o.capacity = so->capacity;
    o.contract = so->contract;
    if (so->contract.full_empty != LF_FULL_EMPTY_EXACT) o.spurious = 0.2;
    if (so->mode == LF_GEN_CORRUPTED) o.bad = 1 + lf_rng_below(&rng, 2);
    if (o.bad > o.n_ops) o.bad = o.n_ops;
    if (so->mode == LF_GEN_RANDOM) return gen_random_ops(&o, h);
    char err[128];
    return lf_gen_history(&o, h, err, sizeof err);
}
