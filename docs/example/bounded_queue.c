/* Bounded MPMC queue with per-cell sequence numbers, after Dmitry Vyukov's array queue ([Vyukov10]).
 *
 * Positions grow forever; position p uses cell p % capacity. A cell's sequence number says whose turn it is:
 * seq == p, free for the enqueuer of position p; seq == p + 1, holding that value for the dequeuer of p;
 * the dequeuer then sets seq = p + capacity, freeing the cell for the next round. Producers claim positions
 * by a CAS on enq_pos, consumers by a CAS on deq_pos. Each operation takes effect at its CAS, so the queue is
 * the positions [deq_pos, enq_pos).
 *
 * When the cell of the next position is not ready, Vyukov's original answers at once: full (an enqueue that
 * finds the cell still held) or empty (a dequeue that finds it not yet written). That is not linearizable:
 * the cell may belong to a *slower* operation in progress while others have completed after it, e.g. an
 * enqueuer claims position 0 and pauses, a second enqueuer fills position 1 and returns, and a dequeue then
 * answers empty although a value is certainly queued. This version answers full or empty only after
 * checking the other counter (enq_pos - deq_pos == capacity, or == 0, read in the order that makes the
 * answer true at the moment of the second read) and otherwise waits for the operation in progress.
 *
 * BQ_BUG (compile definition) switches back to the original answers: the known bug that the example's
 * fuzz target finds. LF_YIELD() marks where the fuzzer may preempt an operation; it is nothing outside the
 * fuzzer (LINFUZZ_HARNESS is defined only in the fuzz target's build). */
#include "bounded_queue.h"

#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>

#ifdef LINFUZZ_HARNESS
#include "linfuzz/adapter.h" /* LF_YIELD() */
#else
#define LF_YIELD() ((void)0)
#endif

typedef struct cell {
    _Atomic size_t seq;
    _Atomic int64_t value;
} cell;

struct bounded_queue {
    size_t mask;
    cell *cells;
    _Atomic size_t enq_pos, deq_pos;
};

bounded_queue *bq_create(size_t capacity) {
    if (capacity < 2 || (capacity & (capacity - 1))) return NULL;
    bounded_queue *q = malloc(sizeof *q);
    cell *cells = malloc(capacity * sizeof *cells);
    if (!q || !cells) {
        free(q);
        free(cells);
        return NULL;
    }
    for (size_t i = 0; i < capacity; i++) {
        atomic_init(&cells[i].seq, i);
        atomic_init(&cells[i].value, 0);
    }
    q->mask = capacity - 1;
    q->cells = cells;
    atomic_init(&q->enq_pos, 0);
    atomic_init(&q->deq_pos, 0);
    return q;
}

void bq_destroy(bounded_queue *q) {
    free(q->cells);
    free(q);
}

bool bq_enqueue(bounded_queue *q, int64_t v) {
    size_t pos = atomic_load(&q->enq_pos);
    for (;;) {
        cell *c = &q->cells[pos & q->mask];
        size_t seq = atomic_load_explicit(&c->seq, memory_order_acquire);
        if (seq == pos) { /* the cell is free for position pos: claim it */
            LF_YIELD();
            if (atomic_compare_exchange_weak(&q->enq_pos, &pos, pos + 1)) {
                LF_YIELD(); /* claimed, not yet written: the window of the original's spurious answers */
                atomic_store_explicit(&c->value, v, memory_order_relaxed);
                atomic_store_explicit(&c->seq, pos + 1, memory_order_release);
                return true;
            }
            continue; /* pos now holds the current enq_pos */
        }
        if ((intptr_t)(seq - pos) > 0) { /* another enqueuer took pos: move on */
            pos = atomic_load(&q->enq_pos);
            continue;
        }
        /* The cell still holds the value of position pos - capacity. */
#ifdef BQ_BUG
        return false; /* THE BUG: full, although that value's dequeuer may already be under way */
#else
        size_t deq = atomic_load(&q->deq_pos); /* read after pos: if pos - deq == capacity, full right now */
        if (pos - deq == q->mask + 1) return false;
        sched_yield(); /* its dequeuer has claimed it and not released it yet: wait */
        pos = atomic_load(&q->enq_pos);
#endif
    }
}

bool bq_dequeue(bounded_queue *q, int64_t *v) {
    size_t pos = atomic_load(&q->deq_pos);
    for (;;) {
        cell *c = &q->cells[pos & q->mask];
        size_t seq = atomic_load_explicit(&c->seq, memory_order_acquire);
        if (seq == pos + 1) { /* the value of position pos is there: claim it */
            LF_YIELD();
            if (atomic_compare_exchange_weak(&q->deq_pos, &pos, pos + 1)) {
                LF_YIELD();
                *v = atomic_load_explicit(&c->value, memory_order_relaxed);
                atomic_store_explicit(&c->seq, pos + q->mask + 1, memory_order_release);
                return true;
            }
            continue;
        }
        if ((intptr_t)(seq - (pos + 1)) > 0) { /* another dequeuer took pos: move on */
            pos = atomic_load(&q->deq_pos);
            continue;
        }
        /* The value of position pos is not written yet. */
#ifdef BQ_BUG
        return false; /* THE BUG: empty, although pos may be claimed by an enqueuer still under way */
#else
        size_t enq = atomic_load(&q->enq_pos); /* read after pos: if enq == pos, empty right now */
        if (enq == pos) return false;
        sched_yield(); /* its enqueuer has claimed it and not written it yet: wait */
        pos = atomic_load(&q->deq_pos);
#endif
    }
}
