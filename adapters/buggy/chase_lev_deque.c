/* Chase-Lev work-stealing deque ([ChaseLev05], C11 orderings of [Le13]): the owner pushes and takes at the
 * bottom, thieves steal at the top. The owner's methods form an exclusive group (lf_adapter.exclusive):
 * push_back and pop_back are called by one worker only, pop_front (steal) by every worker.
 *
 * Deque view: the top is the front, the bottom the back; push_back = push, pop_back = take, pop_front =
 * steal. A steal that loses its CAS to another steal or to the owner's take of the last element retries, so
 * it answers a value or empty, never "abort". The array is sized for the run (create's max_ops): pushes
 * never exceed it, so there is no resizing.
 *
 * Bug (chase_lev_take_race): take never competes for the last element. Take reserves the bottom slot (bottom
 * = b - 1), then reads top; when one element is left (t == b - 1) the correct deque CASes top from t to t+1,
 * because a thief that read the old bottom may be stealing that same element. The buggy take skips the CAS
 * and keeps the element, so the owner and a thief both return it: VALUE_RETURNED_TWICE. The LF_YIELD between
 * the steal's read of the element and its CAS is the window. Correct twin: chase_lev_deque. */
#include <stdatomic.h>
#include <stdlib.h>

#include "linfuzz/adapter.h"

typedef struct chase_lev {
    _Atomic int64_t top;    /* next slot a thief steals */
    _Atomic int64_t bottom; /* next slot the owner pushes */
    _Atomic int64_t *slots; /* slots[top, bottom) hold the elements */
    size_t cap;
    bool race_on_last; /* the bug: take does not CAS top for the last element */
} chase_lev;

static void *create_with(size_t max_ops, bool race_on_last) {
    chase_lev *d = calloc(1, sizeof *d);
    if (!d) return NULL;
    d->cap = max_ops + 1;
    d->slots = calloc(d->cap, sizeof *d->slots);
    if (!d->slots) {
        free(d);
        return NULL;
    }
    atomic_init(&d->top, 0);
    atomic_init(&d->bottom, 0);
    d->race_on_last = race_on_last;
    return d;
}

static void *chase_lev_create(size_t max_ops) { return create_with(max_ops, false); }
static void *chase_lev_buggy_create(size_t max_ops) { return create_with(max_ops, true); }

static void chase_lev_destroy(void *obj) {
    chase_lev *d = obj;
    free((void *)d->slots);
    free(d);
}

/* Owner: push at the bottom. */
static void push(chase_lev *d, int64_t v) {
    int64_t b = atomic_load_explicit(&d->bottom, memory_order_relaxed);
    atomic_store_explicit(&d->slots[b], v, memory_order_relaxed);
    LF_YIELD();
    atomic_thread_fence(memory_order_release);
    atomic_store_explicit(&d->bottom, b + 1, memory_order_relaxed);
}

/* Owner: take at the bottom; 0 when empty (values are >= 1). */
static int64_t take(chase_lev *d) {
    int64_t b = atomic_load_explicit(&d->bottom, memory_order_relaxed) - 1;
    atomic_store_explicit(&d->bottom, b, memory_order_relaxed);
    atomic_thread_fence(memory_order_seq_cst);
    LF_YIELD();
    int64_t t = atomic_load_explicit(&d->top, memory_order_relaxed);
    if (t > b) { /* empty: restore */
        atomic_store_explicit(&d->bottom, b + 1, memory_order_relaxed);
        return 0;
    }
    int64_t v = atomic_load_explicit(&d->slots[b], memory_order_relaxed);
    if (t == b) { /* the last element: thieves may be after it too */
        LF_YIELD();
        if (!d->race_on_last &&
            !atomic_compare_exchange_strong_explicit(&d->top, &t, t + 1, memory_order_seq_cst, memory_order_relaxed))
            v = 0; /* a thief got it */
        if (d->race_on_last) atomic_store_explicit(&d->top, t + 1, memory_order_relaxed); /* THE BUG: no CAS */
        atomic_store_explicit(&d->bottom, b + 1, memory_order_relaxed);
    }
    return v;
}

/* Thief: steal at the top, retrying a lost race; 0 when empty. */
static int64_t steal(chase_lev *d) {
    for (;;) {
        int64_t t = atomic_load_explicit(&d->top, memory_order_acquire);
        atomic_thread_fence(memory_order_seq_cst);
        int64_t b = atomic_load_explicit(&d->bottom, memory_order_acquire);
        if (t >= b) return 0;
        int64_t v = atomic_load_explicit(&d->slots[t], memory_order_relaxed);
        LF_YIELD();
        if (atomic_compare_exchange_strong_explicit(&d->top, &t, t + 1, memory_order_seq_cst, memory_order_relaxed))
            return v;
    }
}

static lf_kind chase_lev_op(void *obj, lf_method m, const int64_t *args, int64_t *value) {
    chase_lev *d = obj;
    int64_t v;
    switch (m) {
    case LF_M_PUSH_BACK:
        push(d, args[0]);
        return LF_K_NONE;
    case LF_M_POP_BACK:
        v = take(d);
        break;
    default: /* LF_M_POP_FRONT */
        v = steal(d);
        break;
    }
    if (!v) return LF_K_EMPTY;
    *value = v;
    return LF_K_INT;
}

#define OWNER (LF_METHOD_BIT(LF_M_PUSH_BACK) | LF_METHOD_BIT(LF_M_POP_BACK))

const lf_adapter lf_adapter_chase_lev_deque = {
    .name = "chase_lev_deque",
    .summary = "Chase-Lev work-stealing deque: owner push_back/pop_back (one thread), steal = pop_front",
    .type = LF_TYPE_DEQUE,
    .linearizable = true,
    .methods = OWNER | LF_METHOD_BIT(LF_M_POP_FRONT),
    .create = chase_lev_create,
    .destroy = chase_lev_destroy,
    .op = chase_lev_op,
    .exclusive = {OWNER},
};
LF_REGISTER_ADAPTER(lf_adapter_chase_lev_deque);

const lf_adapter lf_adapter_chase_lev_take_race = {
    .name = "chase_lev_take_race",
    .summary = "Chase-Lev deque whose take keeps the last element without a CAS: owner and thief both get it",
    .type = LF_TYPE_DEQUE,
    .linearizable = false,
    .methods = OWNER | LF_METHOD_BIT(LF_M_POP_FRONT),
    .create = chase_lev_buggy_create,
    .destroy = chase_lev_destroy,
    .op = chase_lev_op,
    .exclusive = {OWNER},
};
LF_REGISTER_ADAPTER(lf_adapter_chase_lev_take_race);
