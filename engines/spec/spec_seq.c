/* Built-in specs: stack, queue, deque and pqueue are one state machine. The state is a hash-consed sequence
 * handle (front first, spec/seqstore.h); each method of a type adds its argument at one end (or in sorted
 * place), takes the value at one end, or looks at it, so a type is its table from method to action.
 *   stack   push v puts v on top (the back); pop -> the top (removed) or empty; peek -> the top or empty.
 *   queue   enq v appends v; deq -> the front (removed) or empty; peek -> the front or empty.
 *   deque   push_front/push_back v add v at an end; pop_front/pop_back -> the value at that end (removed)
 *           or empty; peek_front/peek_back -> it without removing.
 *   pqueue  a multiset, smallest first: insert v adds v in order (nil first, then integers ascending, so
 *           equal multisets share one handle); poll -> the smallest (removed) or empty; peek -> it.
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
} seq_action;

typedef struct seq_type {
    uint8_t action[LF_M_COUNT]; /* seq_action by lf_method */
} seq_type;

/* An open instance: its type, the history's inserted values as dense ids, the sequence store. */
typedef struct seq_ctx {
    const seq_type *type;
    lf_value_table values;
    lf_seqstore store;
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
        if (t->action[m] == ADD_FRONT || t->action[m] == ADD_BACK || t->action[m] == ADD_SORTED) adding |= 1u << m;
    seq_ctx *c = calloc(1, sizeof *c);
    if (!c) return false;
    c->type = t;
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

static bool seq_step(void *p, const void *state, const lf_op *op, void *next) {
    seq_ctx *c = p;
    uint32_t s = load(state);
    seq_action act = op->method < LF_M_COUNT ? (seq_action)c->type->action[op->method] : NOT_A_METHOD;
    switch (act) {
    case NOT_A_METHOD: return false;
    case ADD_FRONT:
    case ADD_BACK:
    case ADD_SORTED: {
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

static const seq_type STACK = {.action = {[LF_M_PUSH] = ADD_BACK, [LF_M_POP] = TAKE_BACK, [LF_M_PEEK] = LOOK_BACK}};
static bool stack_open(const lf_spec_env *env, void **ctx, size_t *state_size) {
    return seq_open(&STACK, env, ctx, state_size);
}
const lf_spec lf_spec_stack = SEQ_SPEC("stack", stack_open);

static const seq_type QUEUE = {.action = {[LF_M_ENQ] = ADD_BACK, [LF_M_DEQ] = TAKE_FRONT, [LF_M_PEEK] = LOOK_FRONT}};
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
