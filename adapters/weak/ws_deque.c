/* Chase-Lev work-stealing deque ([ChaseLev05]) with the C11 orders of [Le13], without any LF_YIELD: its bugs
 * need a weak memory model, not an unlucky interleaving. The owner pushes and takes at the bottom, thieves
 * steal at the top (deque view: push_back, pop_back, pop_front; the owner's methods are one exclusive group).
 * The array is sized for the run, so there is no resizing.
 *
 * Bugs of one order each (docs/memory-models.md):
 *  - ws_deque_take_no_fence: take's fence between its store of bottom and its load of top is acq_rel instead
 *    of seq_cst (line TAKE_FENCE): store buffering. The owner's store of the reduced bottom is not yet seen by
 *    a thief that reads bottom, while the owner reads an old top: both take the same element. x86 shows it too
 *    (an acq_rel fence compiles to nothing): found by tso and c11.
 *  - ws_deque_steal_relaxed: steal's load of bottom is relaxed instead of acquire (line STEAL_BOTTOM): a thief
 *    that sees a pushed bottom may still read the slot's old contents (message passing). c11 only.
 * Correct twin: ws_deque, which differs only in those two orders. */
#include <stdatomic.h>
#include <stdlib.h>

#include "common/variants.h"
#include "linfuzz/adapter.h"

typedef struct ws_deque {
    _Atomic int64_t top;    /* next slot a thief steals */
    _Atomic int64_t bottom; /* next slot the owner pushes */
    _Atomic int64_t *slots;
    memory_order take_fence;   /* between take's store of bottom and its load of top */
    memory_order steal_bottom; /* steal's load of bottom */
} ws_deque;

enum { WS_OK, WS_TAKE_NO_FENCE, WS_STEAL_RELAXED };

static void *create_with(size_t max_ops, int variant) {
    ws_deque *d = calloc(1, sizeof *d);
    if (!d) return NULL;
    d->slots = calloc(max_ops + 1, sizeof *d->slots);
    if (!d->slots) {
        free(d);
        return NULL;
    }
    atomic_init(&d->top, 0);
    atomic_init(&d->bottom, 0);
    d->take_fence = variant == WS_TAKE_NO_FENCE ? memory_order_acq_rel : memory_order_seq_cst;
    d->steal_bottom = variant == WS_STEAL_RELAXED ? memory_order_relaxed : memory_order_acquire;
    return d;
}

static void ws_destroy(void *obj) {
    ws_deque *d = obj;
    free((void *)d->slots);
    free(d);
}

/* Owner: push at the bottom. */
static void push(ws_deque *d, int64_t v) {
    int64_t b = atomic_load_explicit(&d->bottom, memory_order_relaxed);
    atomic_store_explicit(&d->slots[b], v, memory_order_relaxed);
    atomic_thread_fence(memory_order_release);
    atomic_store_explicit(&d->bottom, b + 1, memory_order_relaxed);
}

/* Owner: take at the bottom; 0 when empty (values are >= 1). */
static int64_t take(ws_deque *d) {
    int64_t b = atomic_load_explicit(&d->bottom, memory_order_relaxed) - 1;
    atomic_store_explicit(&d->bottom, b, memory_order_relaxed);
    atomic_thread_fence(d->take_fence); /* TAKE_FENCE: must be seq_cst */
    int64_t t = atomic_load_explicit(&d->top, memory_order_relaxed);
    int64_t v = 0;
    if (t <= b) {
        v = atomic_load_explicit(&d->slots[b], memory_order_relaxed);
        if (t == b) { /* the last element: a thief may be after it too */
            if (!atomic_compare_exchange_strong_explicit(&d->top, &t, t + 1, memory_order_seq_cst, memory_order_relaxed))
                v = 0;
            atomic_store_explicit(&d->bottom, b + 1, memory_order_relaxed);
        }
    } else { /* empty: restore */
        atomic_store_explicit(&d->bottom, b + 1, memory_order_relaxed);
    }
    return v;
}

/* Thief: steal at the top, retrying a lost race; 0 when empty. */
static int64_t steal(ws_deque *d) {
    for (;;) {
        int64_t t = atomic_load_explicit(&d->top, memory_order_acquire);
        atomic_thread_fence(memory_order_seq_cst);
        int64_t b = atomic_load_explicit(&d->bottom, d->steal_bottom); /* STEAL_BOTTOM: must be acquire */
        if (t >= b) return 0;
        int64_t v = atomic_load_explicit(&d->slots[t], memory_order_relaxed);
        if (atomic_compare_exchange_strong_explicit(&d->top, &t, t + 1, memory_order_seq_cst, memory_order_relaxed))
            return v;
    }
}

static lf_kind ws_op(void *obj, lf_method m, const int64_t *args, int64_t *value) {
    ws_deque *d = obj;
    int64_t v;
    if (m == LF_M_PUSH_BACK) {
        push(d, args[0]);
        return LF_K_NONE;
    }
    v = m == LF_M_POP_BACK ? take(d) : steal(d);
    if (!v) return LF_K_EMPTY;
    *value = v;
    return LF_K_INT;
}

LF_VARIANT_CREATE(ws_create, create_with, WS_OK)
LF_VARIANT_CREATE(ws_take_no_fence_create, create_with, WS_TAKE_NO_FENCE)
LF_VARIANT_CREATE(ws_steal_relaxed_create, create_with, WS_STEAL_RELAXED)

#define WS_OWNER (LF_METHOD_BIT(LF_M_PUSH_BACK) | LF_METHOD_BIT(LF_M_POP_BACK))
#define WS_FIELDS                                                                                                      \
    .type = LF_TYPE_DEQUE, .methods = WS_OWNER | LF_METHOD_BIT(LF_M_POP_FRONT), .exclusive = {WS_OWNER},               \
    .destroy = ws_destroy, .op = ws_op

LF_DEFINE_VARIANT(ws_deque, true, ws_create,
    "Chase-Lev work-stealing deque with the C11 orders of Le et al., no yields", WS_FIELDS);
LF_DEFINE_VARIANT(ws_deque_take_no_fence, false, ws_take_no_fence_create,
    "Chase-Lev deque whose take has an acq_rel fence, not seq_cst: owner and thief take the same element", WS_FIELDS);
LF_DEFINE_VARIANT(ws_deque_steal_relaxed, false, ws_steal_relaxed_create,
    "Chase-Lev deque whose steal loads bottom relaxed, not acquire: a thief can read a slot before its push",
    WS_FIELDS);
