/* Built-in specs: stack, queue, deque and pqueue are one state machine. The state is a hash-consed sequence
 * handle (front first, spec/seqstore.h); each method of a type adds its argument at one end (or in sorted
 * place), takes the value at one end, or looks at it, so a type is its table from method to action.
 *   stack   push v puts v on top (the back); pop -> the top (removed) or empty; peek -> the top or empty.
 *   queue   enq v appends v; deq -> the front (removed) or empty; peek -> the front or empty.
 *   deque   push_front/push_back v add v at an end; pop_front/pop_back -> the value at that end (removed)
 *           or empty; peek_front/peek_back -> it without removing.
 *   pqueue  a multiset, smallest first: insert v adds v in order (nil first, then integers ascending, so
 *           equal multisets share one handle); poll -> the smallest (removed) or empty; peek -> it.
 * Bounded (the history's capacity, env->capacity): an add answers full exactly when the sequence holds
 * `capacity` values (and changes nothing), and succeeds only when it holds fewer.
 * Bulk and burst ops of stack and queue (docs/contracts.md) are n adds or takes at one end in one step: a bulk
 * op all n or none (full, empty), a burst the first k = min(n, room or values) (a take of none: empty).
 * Back operations are O(1) node steps, front ones and sorted insertion memoised (O(1) amortised). None is
 * ever partitioned: the order relates every value ([Horn15]), and poll observes every value. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spec/seqstore.h"
#include "spec/spec_builtin.h"

/* What a method does to the sequence. */
typedef enum seq_action {
    NOT_A_METHOD = 0, /* step refuses the op */
    ADD_FRONT,        /* add the argument before the first element */
    ADD_BACK,         /* after the last */
    ADD_SORTED,       /* in order (nil first, integers ascending): a multiset, smallest first */
    TAKE_FRONT,       /* remove and return the first element, or empty */
    TAKE_BACK,        /* the last */
    LOOK_FRONT,       /* return the first element, or empty */
    LOOK_BACK,        /* the last */
    BULK_ADD_BACK,    /* bulk or burst: add the values after the last element, in order */
    BULK_TAKE_FRONT,  /* bulk or burst: take values from the front, first one first */
    BULK_TAKE_BACK,   /* from the back, last one first */
} seq_action;

typedef struct seq_type {
    uint8_t action[LF_M_COUNT]; /* seq_action by lf_method */
} seq_type;

/* An open instance: its type, the history's inserted values as dense ids, the sequence store. */
typedef struct seq_ctx {
    const seq_type *type;
    lf_value_table values;
    lf_seqstore store;
    uint64_t capacity; /* bounded containers: at most this many values (lf_history.capacity); 0 = unbounded */
} seq_ctx;

static uint32_t load(const void *state) {
    uint32_t h;
    memcpy(&h, state, sizeof h);
    return h;
}
static void store(void *state, uint32_t h) { memcpy(state, &h, sizeof h); }

static void seq_close(void *p) {
    seq_ctx *c = p;
    if (!c) return;
    lf_value_table_free(&c->values);
    lf_seqstore_free(&c->store);
    free(c);
}

static bool seq_open(const seq_type *t, const lf_spec_env *env, void **ctx, size_t *state_size) {
    uint32_t adding = 0;
    for (unsigned m = 0; m < LF_M_COUNT; m++)
        if (t->action[m] == ADD_FRONT || t->action[m] == ADD_BACK || t->action[m] == ADD_SORTED ||
            t->action[m] == BULK_ADD_BACK)
            adding |= 1u << m;
    seq_ctx *c = calloc(1, sizeof *c);
    if (!c) return false;
    c->type = t;
    c->capacity = env->capacity;
    if (!lf_value_table_build(&c->values, env->ops, env->n, adding, LF_VT_ARG0) || !lf_seqstore_init(&c->store)) {
        seq_close(c);
        return false;
    }
    *state_size = sizeof(uint32_t);
    *ctx = c;
    return true;
}

static size_t seq_ctx_bytes(const void *p) {
    const seq_ctx *c = p;
    return sizeof *c + c->values.n_ints * sizeof(int64_t) + lf_seqstore_bytes(&c->store);
}

static bool seq_failed(const void *p) { return ((const seq_ctx *)p)->store.failed; }

static void seq_init(void *ctx, void *state) {
    (void)ctx;
    store(state, LF_SEQ_EMPTY);
}

static int seq_describe_state(void *p, const void *state, char *buf, size_t len) {
    seq_ctx *c = p;
    return lf_seq_describe(&c->store, load(state), &c->values, buf, len);
}

/* A bulk or burst op (act: BULK_*) from sequence s: the next sequence, or LF_SEQ_NONE when its recorded result is not
 * legal there (or memory ran out). */
static uint32_t bulk_step(seq_ctx *c, uint32_t s, const lf_op *op, seq_action act) {
    uint64_t len = lf_seq_len(&c->store, s), n = op->count;
    bool burst = lf_method_is_burst(op->method), pending = lf_op_pending(op);
    if (act == BULK_ADD_BACK) {
        uint64_t room = !c->capacity ? n : c->capacity > len ? c->capacity - len : 0;
        uint64_t k = room >= n ? n : burst ? room : 0;
        if (!pending && (burst ? op->res_kind != LF_K_INT || (uint64_t)op->res != k
                               : op->res_kind != (k ? LF_K_NONE : LF_K_FULL)))
            return LF_SEQ_NONE;
        for (uint64_t i = 0; i < k && s != LF_SEQ_NONE; i++) {
            uint32_t v = lf_value_table_arg(&c->values, op, (int)i);
            s = v == UINT32_MAX ? LF_SEQ_NONE : lf_seq_push_back(&c->store, s, v);
        }
        return s;
    }
    uint64_t k = len >= n ? n : burst ? len : 0;
    if (!pending && (k ? op->res_kind != LF_K_INT || (uint64_t)op->res != k : op->res_kind != LF_K_EMPTY))
        return LF_SEQ_NONE;
    for (uint64_t i = 0; i < k && s != LF_SEQ_NONE; i++) {
        bool front = act == BULK_TAKE_FRONT;
        uint32_t v = front ? lf_seq_first(&c->store, s) : lf_seq_last(&c->store, s);
        if (!pending && lf_value_table_id(&c->values, false, op->arg[i]) != v) return LF_SEQ_NONE;
        s = front ? lf_seq_pop_front(&c->store, s) : lf_seq_pop_back(&c->store, s);
    }
    return s;
}

static bool seq_step(void *p, const void *state, const lf_op *op, void *next) {
    seq_ctx *c = p;
    uint32_t s = load(state);
    seq_action act = op->method < LF_M_COUNT ? (seq_action)c->type->action[op->method] : NOT_A_METHOD;
    switch (act) {
    case NOT_A_METHOD: return false;
    case BULK_ADD_BACK:
    case BULK_TAKE_FRONT:
    case BULK_TAKE_BACK:
        s = bulk_step(c, s, op, act);
        if (s == LF_SEQ_NONE) return false;
        break;
    case ADD_FRONT:
    case ADD_BACK:
    case ADD_SORTED: {
        /* bounded: full exactly at capacity (a pending add into a full container takes no effect) */
        bool full = c->capacity && lf_seq_len(&c->store, s) >= c->capacity;
        if (!lf_op_pending(op) && (op->res_kind == LF_K_FULL) != full) return false;
        if (full) break;
        uint32_t v = lf_value_table_arg(&c->values, op, 0);
        if (v == UINT32_MAX) return false;
        s = act == ADD_FRONT  ? lf_seq_push_front(&c->store, s, v)
            : act == ADD_BACK ? lf_seq_push_back(&c->store, s, v)
                              : lf_seq_insert_sorted(&c->store, s, v); /* dense ids follow the order */
        if (s == LF_SEQ_NONE) return false;
        break;
    }
    default: { /* take or look at one end: the result must be that end's value, or empty */
        bool front = act == TAKE_FRONT || act == LOOK_FRONT;
        bool empty = s == LF_SEQ_EMPTY;
        if (!lf_op_pending(op)) {
            if (empty ? op->res_kind != LF_K_EMPTY
                      : !lf_spec_result_is_value(op, &c->values,
                                                 front ? lf_seq_first(&c->store, s) : lf_seq_last(&c->store, s)))
                return false;
        }
        if (!empty && act == TAKE_FRONT) s = lf_seq_pop_front(&c->store, s);
        if (!empty && act == TAKE_BACK) s = lf_seq_pop_back(&c->store, s);
        if (s == LF_SEQ_NONE) return false;
    }
    }
    store(next, s);
    return true;
}

/* ---- the four types ---- */

#define SEQ_SPEC(NAME, OPEN)                                                                                           \
    {                                                                                                                  \
        .name = NAME, .state_size = sizeof(uint32_t), .open = OPEN, .close = seq_close, .ctx_bytes = seq_ctx_bytes,    \
        .ctx_failed = seq_failed, .init = seq_init, .observer = lf_spec_builtin_observer, .step = seq_step,            \
        .describe_state = seq_describe_state,                                                                          \
    }

static const seq_type STACK = {.action = {[LF_M_PUSH] = ADD_BACK,
                                          [LF_M_POP] = TAKE_BACK,
                                          [LF_M_PEEK] = LOOK_BACK,
                                          [LF_M_PUSH_BULK] = BULK_ADD_BACK,
                                          [LF_M_PUSH_BURST] = BULK_ADD_BACK,
                                          [LF_M_POP_BULK] = BULK_TAKE_BACK,
                                          [LF_M_POP_BURST] = BULK_TAKE_BACK}};
static bool stack_open(const lf_spec_env *env, void **ctx, size_t *state_size) {
    return seq_open(&STACK, env, ctx, state_size);
}
const lf_spec lf_spec_stack = SEQ_SPEC("stack", stack_open);

static const seq_type QUEUE = {.action = {[LF_M_ENQ] = ADD_BACK,
                                          [LF_M_DEQ] = TAKE_FRONT,
                                          [LF_M_PEEK] = LOOK_FRONT,
                                          [LF_M_ENQ_BULK] = BULK_ADD_BACK,
                                          [LF_M_ENQ_BURST] = BULK_ADD_BACK,
                                          [LF_M_DEQ_BULK] = BULK_TAKE_FRONT,
                                          [LF_M_DEQ_BURST] = BULK_TAKE_FRONT}};
static bool queue_open(const lf_spec_env *env, void **ctx, size_t *state_size) {
    return seq_open(&QUEUE, env, ctx, state_size);
}
const lf_spec lf_spec_queue = SEQ_SPEC("queue", queue_open);

static const seq_type DEQUE = {.action = {[LF_M_PUSH_FRONT] = ADD_FRONT,
                                          [LF_M_PUSH_BACK] = ADD_BACK,
                                          [LF_M_POP_FRONT] = TAKE_FRONT,
                                          [LF_M_POP_BACK] = TAKE_BACK,
                                          [LF_M_PEEK_FRONT] = LOOK_FRONT,
                                          [LF_M_PEEK_BACK] = LOOK_BACK}};
static bool deque_open(const lf_spec_env *env, void **ctx, size_t *state_size) {
    return seq_open(&DEQUE, env, ctx, state_size);
}
const lf_spec lf_spec_deque = SEQ_SPEC("deque", deque_open);

static const seq_type PQUEUE = {
    .action = {[LF_M_INSERT] = ADD_SORTED, [LF_M_POLL] = TAKE_FRONT, [LF_M_PEEK] = LOOK_FRONT}};
static bool pqueue_open(const lf_spec_env *env, void **ctx, size_t *state_size) {
    return seq_open(&PQUEUE, env, ctx, state_size);
}
const lf_spec lf_spec_pqueue = SEQ_SPEC("pqueue", pqueue_open);
