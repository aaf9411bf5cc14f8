/* Michael-Scott lock-free queue (PODC 1996): a linked list with a dummy head node; enqueue links at the tail
 * with CAS on tail->next and then swings tail, and every operation helps a lagging tail forward.
 *
 * Memory reclamation: nodes come from a per-object arena and are never reused during a run, which gives the
 * algorithm the type-stable, ABA-free memory it assumes (the paper uses counted pointers instead). */
#include <stdatomic.h>
#include <stdlib.h>

#include "linfuzz/adapter.h"
#include "common/arena.h"

typedef struct ms_node {
    _Atomic(struct ms_node *) next;
    int64_t value; /* written before the node is linked by a release CAS, never changed after */
} ms_node;

typedef struct ms_queue {
    _Atomic(ms_node *) head; /* the dummy: the first value is head->next->value */
    char pad[64];            /* keep enqueuers' and dequeuers' hot words on separate cache lines */
    _Atomic(ms_node *) tail;
    lf_arena nodes;
} ms_queue;

static void *ms_create(size_t max_ops) {
    (void)max_ops;
    ms_queue *q = malloc(sizeof *q);
    if (!q) return NULL;
    lf_arena_init(&q->nodes, sizeof(ms_node));
    ms_node *dummy = lf_arena_alloc(&q->nodes);
    atomic_init(&q->head, dummy);
    atomic_init(&q->tail, dummy);
    return q;
}

static void ms_destroy(void *obj) {
    ms_queue *q = obj;
    lf_arena_destroy(&q->nodes);
    free(q);
}

static void ms_enqueue(ms_queue *q, int64_t v) {
    ms_node *n = lf_arena_alloc(&q->nodes);
    n->value = v;
    for (;;) {
        ms_node *tail = atomic_load_explicit(&q->tail, memory_order_acquire);
        ms_node *next = atomic_load_explicit(&tail->next, memory_order_acquire);
        LF_YIELD();
        if (tail != atomic_load_explicit(&q->tail, memory_order_acquire)) continue;
        if (next) { /* tail lags behind the last node: help it forward, then retry */
            atomic_compare_exchange_strong_explicit(&q->tail, &tail, next, memory_order_release,
                                                    memory_order_relaxed);
            continue;
        }
        ms_node *expected = NULL;
        if (atomic_compare_exchange_strong_explicit(&tail->next, &expected, n, memory_order_release,
                                                    memory_order_relaxed)) {
            LF_YIELD(); /* the window in which tail lags and others must help */
            atomic_compare_exchange_strong_explicit(&q->tail, &tail, n, memory_order_release,
                                                    memory_order_relaxed);
            return;
        }
    }
}

static lf_kind ms_dequeue(ms_queue *q, bool remove, int64_t *value) {
    for (;;) {
        ms_node *head = atomic_load_explicit(&q->head, memory_order_acquire);
        ms_node *tail = atomic_load_explicit(&q->tail, memory_order_acquire);
        ms_node *next = atomic_load_explicit(&head->next, memory_order_acquire);
        LF_YIELD();
        if (head != atomic_load_explicit(&q->head, memory_order_acquire)) continue;
        if (!next) return LF_K_EMPTY; /* head->next is NULL: the queue was empty when it was read */
        if (!remove) {
            /* head->next never changes once set, so next was the front while head was still head. */
            *value = next->value;
            return LF_K_INT;
        }
        if (head == tail) { /* non-empty but tail lags: help before dequeuing past it */
            atomic_compare_exchange_strong_explicit(&q->tail, &tail, next, memory_order_release,
                                                    memory_order_relaxed);
            continue;
        }
        int64_t v = next->value;
        if (atomic_compare_exchange_strong_explicit(&q->head, &head, next, memory_order_acq_rel,
                                                    memory_order_relaxed)) {
            *value = v;
            return LF_K_INT;
        }
    }
}

static lf_kind ms_op(void *obj, lf_method m, const int64_t *args, int64_t *value) {
    ms_queue *q = obj;
    if (m == LF_M_ENQ) {
        ms_enqueue(q, args[0]);
        return LF_K_NONE;
    }
    return ms_dequeue(q, m == LF_M_DEQ, value);
}

const lf_adapter lf_adapter_ms_queue = {
    .name = "ms_queue",
    .summary = "Michael-Scott lock-free queue with tail helping, nodes never reused during a run",
    .type = LF_TYPE_QUEUE,
    .linearizable = true,
    .methods = LF_METHOD_BIT(LF_M_ENQ) | LF_METHOD_BIT(LF_M_DEQ) | LF_METHOD_BIT(LF_M_PEEK),
    .create = ms_create,
    .destroy = ms_destroy,
    .op = ms_op,
};
LF_REGISTER_ADAPTER(lf_adapter_ms_queue);
