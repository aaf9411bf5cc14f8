/* Michael-Scott lock-free queue (PODC 1996): a linked list with a dummy head node; enqueue links at the tail
 * with CAS on tail->next and then swings tail, and every operation helps a lagging tail forward. Four adapters
 * share this code: ms_queue (the algorithm) and its known-buggy variants below.
 *
 * Bug (ms_queue_lost_tail): after linking its node, enqueue swings the tail with a plain store instead of
 * CAS(tail, t, node), and dequeue decides emptiness from head == tail. A delayed enqueuer E1 links n1, then
 * sleeps before its swing. E2 helps the tail to n1, links n2, swings the tail to n2 and returns. E1 wakes and
 * stores tail = n1: the tail moves BACKWARDS over n2 and E2's swing is lost. Enqueuers still help the tail
 * forward, so nothing breaks for them; but a dequeue that trusts head == tail (as many MS derivatives do,
 * which is only safe while the tail never moves backwards) answers empty once n1 is dequeued, although E2's
 * completed enqueue of n2 is still in the queue.
 *
 * Memory orders (bugs ms_queue_acq_rel, ms_queue_relaxed_link): every atomic access of ms_queue is seq_cst.
 * Two known-buggy variants weaken them as ports to ARM do; each is found only under the c11 memory model of
 * controlled runs (docs/memory-models.md), never under sc or tso (x86's locked CAS orders everything):
 *  - ms_queue_acq_rel: loads acquire, CASes acq_rel. The algorithm is not linearizable so: a dequeue can read a
 *    stale NULL from head->next and answer empty although an enqueue that returned before it started linked a
 *    node (nothing orders the link before the load). An emptiness answer needs seq_cst.
 *  - ms_queue_relaxed_link: only the CAS that links a node is relaxed (line LINK). A dequeue that reads the link
 *    does not synchronize with the enqueuer, so it may read the node's value from before the enqueuer wrote it
 *    (message passing): a value nobody enqueued. The enqueuer's seq_cst loads of the tail between its write of
 *    the value and the link are no fences in C11.
 *
 * Memory reclamation: nodes come from a per-object arena and are never reused during a run, which gives the
 * algorithm the type-stable, ABA-free memory it assumes (the paper uses counted pointers instead); so the
 * variants have no ABA and no crash either: only their own bug. */
#include <stdatomic.h>
#include <stdlib.h>

#include "common/arena.h"
#include "common/fingerprint.h"
#include "common/variants.h"
#include "linfuzz/adapter.h"

typedef struct ms_node {
    _Atomic(struct ms_node *) next;
    int64_t value; /* written before the node is linked (by a releasing CAS but in one bug), never changed after */
} ms_node;

typedef struct ms_queue {
    _Atomic(ms_node *) head; /* the dummy: the first value is head->next->value */
    char pad[64];            /* keep enqueuers' and dequeuers' hot words on separate cache lines */
    _Atomic(ms_node *) tail;
    bool lost_tail; /* the bug: blind tail swing, emptiness from head == tail */
    lf_arena nodes;
} ms_queue;

static void *create_with(size_t max_ops, bool lost_tail) {
    (void)max_ops;
    ms_queue *q = malloc(sizeof *q);
    if (!q) return NULL;
    q->lost_tail = lost_tail;
    lf_arena_init(&q->nodes, sizeof(ms_node));
    ms_node *dummy = lf_arena_alloc(&q->nodes);
    atomic_init(&q->head, dummy);
    atomic_init(&q->tail, dummy);
    return q;
}
LF_VARIANT_CREATE(ms_create, create_with, false)
LF_VARIANT_CREATE(lost_tail_create, create_with, true)

static void ms_destroy(void *obj) {
    ms_queue *q = obj;
    lf_arena_destroy(&q->nodes);
    free(q);
}

/* The memory orders are each caller's constants (`load`: every load; `link`: the CAS that links a node; `update`:
 * every other CAS that succeeds): inlined, ms_queue's code is what it is with seq_cst written out, so that its and
 * ms_queue_lost_tail's scheduling points, and their committed entries' exact replays, do not depend on them. */
#define MS_INLINE static inline __attribute__((always_inline))

MS_INLINE void ms_enqueue(ms_queue *q, int64_t v, memory_order load, memory_order update, memory_order link) {
    ms_node *n = lf_arena_alloc(&q->nodes);
    n->value = v;
    for (;;) {
        ms_node *tail = atomic_load_explicit(&q->tail, load);
        ms_node *next = atomic_load_explicit(&tail->next, load);
        LF_YIELD();
        if (tail != atomic_load_explicit(&q->tail, load)) continue;
        if (next) { /* tail lags behind the last node: help it forward, then retry */
            atomic_compare_exchange_strong_explicit(&q->tail, &tail, next, update, memory_order_relaxed);
            continue;
        }
        ms_node *expected = NULL;
        if (atomic_compare_exchange_strong_explicit(&tail->next, &expected, n, link, /* LINK */
                                                    memory_order_relaxed)) {
            LF_YIELD(); /* the window in which tail lags and others must help */
            if (q->lost_tail)
                atomic_store_explicit(&q->tail, n, memory_order_seq_cst); /* THE BUG: can move the tail back */
            else
                atomic_compare_exchange_strong_explicit(&q->tail, &tail, n, update, memory_order_relaxed);
            return;
        }
    }
}

MS_INLINE lf_kind ms_dequeue(ms_queue *q, bool remove, int64_t *value, memory_order load, memory_order update) {
    for (;;) {
        ms_node *head = atomic_load_explicit(&q->head, load);
        ms_node *tail = atomic_load_explicit(&q->tail, load);
        ms_node *next = atomic_load_explicit(&head->next, load);
        LF_YIELD();
        if (head != atomic_load_explicit(&q->head, load)) continue;
        if (head == tail && q->lost_tail) return LF_K_EMPTY; /* THE BUG: trusts a tail that can move back */
        if (!next) return LF_K_EMPTY; /* head->next is NULL: the queue was empty when it was read */
        if (!remove) {
            /* head->next never changes once set, so next was the front while head was still head. */
            *value = next->value;
            return LF_K_INT;
        }
        if (head == tail) { /* non-empty but tail lags: help before dequeuing past it */
            atomic_compare_exchange_strong_explicit(&q->tail, &tail, next, update, memory_order_relaxed);
            continue;
        }
        int64_t v = next->value;
        if (atomic_compare_exchange_strong_explicit(&q->head, &head, next, update, memory_order_relaxed)) {
            *value = v;
            return LF_K_INT;
        }
    }
}

MS_INLINE lf_kind ms_op_with(void *obj, lf_method m, const int64_t *args, int64_t *value, memory_order load,
                             memory_order update, memory_order link) {
    ms_queue *q = obj;
    if (m == LF_M_ENQ) {
        ms_enqueue(q, args[0], load, update, link);
        return LF_K_NONE;
    }
    return ms_dequeue(q, m == LF_M_DEQ, value, load, update);
}

static lf_kind ms_op(void *obj, lf_method m, const int64_t *args, int64_t *value) {
    return ms_op_with(obj, m, args, value, memory_order_seq_cst, memory_order_seq_cst, memory_order_seq_cst);
}

/* THE BUG (ms_queue_acq_rel): acquire and acq_rel, not seq_cst */
static lf_kind acq_rel_op(void *obj, lf_method m, const int64_t *args, int64_t *value) {
    return ms_op_with(obj, m, args, value, memory_order_acquire, memory_order_acq_rel, memory_order_acq_rel);
}

/* THE BUG (ms_queue_relaxed_link): the CAS that links a node is relaxed */
static lf_kind relaxed_link_op(void *obj, lf_method m, const int64_t *args, int64_t *value) {
    return ms_op_with(obj, m, args, value, memory_order_seq_cst, memory_order_seq_cst, memory_order_relaxed);
}

/* The values from head to tail (after the dummy). */
static uint64_t ms_fingerprint(void *obj) {
    uint64_t h = 0;
    for (ms_node *n = atomic_load(&atomic_load(&((ms_queue *)obj)->head)->next); n; n = atomic_load(&n->next))
        h = lf_fp_seq_add(h, n->value);
    return h;
}

#define ENQ_DEQ (LF_METHOD_BIT(LF_M_ENQ) | LF_METHOD_BIT(LF_M_DEQ))
#define ENQ_DEQ_PEEK (ENQ_DEQ | LF_METHOD_BIT(LF_M_PEEK))

LF_DEFINE_DETERMINISTIC_ADAPTER(ms_queue, LF_TYPE_QUEUE, true, ENQ_DEQ_PEEK, ms_create,
                                ms_destroy, ms_op, ms_fingerprint,
                                "Michael-Scott lock-free queue with tail helping, nodes never reused during a run");

/* no peek: the twin's seeds and committed entries were made for enq and deq only */
LF_DEFINE_DETERMINISTIC_ADAPTER(
    ms_queue_lost_tail, LF_TYPE_QUEUE, false, ENQ_DEQ, lost_tail_create, ms_destroy, ms_op, ms_fingerprint,
    "Michael-Scott queue whose tail swing is a blind store (tail moves back; deq trusts head == tail)");

LF_DEFINE_DETERMINISTIC_ADAPTER(ms_queue_acq_rel, LF_TYPE_QUEUE, false, ENQ_DEQ_PEEK,
                                ms_create, ms_destroy, acq_rel_op, ms_fingerprint,
                                "Michael-Scott queue with acquire loads and acq_rel CASes, not seq_cst: under the C11 "
                                "model a dequeue reads a stale NULL next and answers empty after an enqueue returned");

LF_DEFINE_DETERMINISTIC_ADAPTER(ms_queue_relaxed_link, LF_TYPE_QUEUE, false, ENQ_DEQ_PEEK,
                                ms_create, ms_destroy, relaxed_link_op, ms_fingerprint,
                                "Michael-Scott queue whose CAS linking a node is relaxed: under the C11 model a "
                                "dequeue reads the node's value from before the enqueuer wrote it");
