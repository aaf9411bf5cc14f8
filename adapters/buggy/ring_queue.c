/* Bounded FIFO ring of 4 slots with two locks: enqueuers serialise on one mutex, dequeuers on another, and
 * an atomic count of the values inside tells both sides when the ring is full or empty. enq answers full
 * (LF_K_FULL) when 4 values are inside (lf_adapter.capacity = 4). Each operation takes effect when it updates
 * the count: enq after writing its slot, deq after reading its slot, so the count is the size at every
 * instant and a slot is never written while its old value may still be read.
 *
 * Bug (ring_queue_early_free): deq decrements the count *before* it reads its slot, announcing the room
 * early. With the ring full, an enqueuer that sees the lower count writes the slot the dequeuer is about to
 * read (tail % 4 == head % 4), so the dequeuer returns the newer value and the older one is lost: a
 * FIFO_ORDER violation (or VALUE_RETURNED_BEFORE_INSERTED when the two overlap). The LF_YIELD between the
 * decrement and the read is the window. Correct twin: ring_queue. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

#include "linfuzz/adapter.h"

#define RING_CAPACITY 4

typedef struct ring_queue {
    pthread_mutex_t enq_lock, deq_lock;
    _Atomic int64_t slots[RING_CAPACITY];
    size_t head, tail;   /* head: under deq_lock; tail: under enq_lock */
    atomic_size_t count; /* values inside */
    bool early_free;     /* the bug */
} ring_queue;

static void *create_with(bool early_free) {
    ring_queue *q = calloc(1, sizeof *q);
    if (!q) return NULL;
    if (pthread_mutex_init(&q->enq_lock, NULL) != 0) {
        free(q);
        return NULL;
    }
    if (pthread_mutex_init(&q->deq_lock, NULL) != 0) {
        pthread_mutex_destroy(&q->enq_lock);
        free(q);
        return NULL;
    }
    for (int i = 0; i < RING_CAPACITY; i++) atomic_init(&q->slots[i], 0);
    atomic_init(&q->count, 0);
    q->early_free = early_free;
    return q;
}

static void *ring_create(size_t max_ops) {
    (void)max_ops;
    return create_with(false);
}

static void *ring_early_free_create(size_t max_ops) {
    (void)max_ops;
    return create_with(true);
}

static void ring_destroy(void *obj) {
    ring_queue *q = obj;
    pthread_mutex_destroy(&q->enq_lock);
    pthread_mutex_destroy(&q->deq_lock);
    free(q);
}

static lf_kind ring_op(void *obj, lf_method m, const int64_t *args, int64_t *value) {
    ring_queue *q = obj;
    if (m == LF_M_ENQ) {
        pthread_mutex_lock(&q->enq_lock);
        if (atomic_load(&q->count) == RING_CAPACITY) {
            pthread_mutex_unlock(&q->enq_lock);
            return LF_K_FULL;
        }
        LF_YIELD();
        atomic_store(&q->slots[q->tail % RING_CAPACITY], args[0]);
        q->tail++;
        atomic_fetch_add(&q->count, 1); /* takes effect */
        pthread_mutex_unlock(&q->enq_lock);
        return LF_K_NONE;
    }
    pthread_mutex_lock(&q->deq_lock);
    if (atomic_load(&q->count) == 0) {
        pthread_mutex_unlock(&q->deq_lock);
        return LF_K_EMPTY;
    }
    if (m == LF_M_PEEK) {
        *value = atomic_load(&q->slots[q->head % RING_CAPACITY]);
        pthread_mutex_unlock(&q->deq_lock);
        return LF_K_INT;
    }
    if (q->early_free) atomic_fetch_sub(&q->count, 1); /* THE BUG: room announced before the slot is read */
    LF_YIELD();
    *value = atomic_load(&q->slots[q->head % RING_CAPACITY]);
    q->head++;
    if (!q->early_free) atomic_fetch_sub(&q->count, 1); /* takes effect */
    pthread_mutex_unlock(&q->deq_lock);
    return LF_K_INT;
}

#define RING_METHODS (LF_METHOD_BIT(LF_M_ENQ) | LF_METHOD_BIT(LF_M_DEQ) | LF_METHOD_BIT(LF_M_PEEK))

const lf_adapter lf_adapter_ring_queue = {
    .name = "ring_queue",
    .summary = "bounded FIFO ring (capacity 4, enq answers full), one lock per side and an atomic count",
    .type = LF_TYPE_QUEUE,
    .linearizable = true,
    .methods = RING_METHODS,
    .create = ring_create,
    .destroy = ring_destroy,
    .op = ring_op,
    .capacity = RING_CAPACITY,
};
LF_REGISTER_ADAPTER(lf_adapter_ring_queue);

const lf_adapter lf_adapter_ring_queue_early_free = {
    .name = "ring_queue_early_free",
    .summary = "bounded ring whose deq frees its slot before reading it: a full ring's next enq overwrites it",
    .type = LF_TYPE_QUEUE,
    .linearizable = false,
    .methods = RING_METHODS,
    .create = ring_early_free_create,
    .destroy = ring_destroy,
    .op = ring_op,
    .capacity = RING_CAPACITY,
};
LF_REGISTER_ADAPTER(lf_adapter_ring_queue_early_free);
