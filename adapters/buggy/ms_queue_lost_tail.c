/* Michael-Scott queue that loses the tail swing: after linking its node, enqueue swings the tail with a
 * plain store instead of CAS(tail, t, node).
 *
 * Bug: a delayed enqueuer E1 links n1, then sleeps before its swing. E2 helps the tail to n1, links n2,
 * swings the tail to n2 and returns. E1 wakes and stores tail = n1: the tail moves BACKWARDS over n2 and E2's
 * swing is lost. Enqueuers still help the tail forward, so nothing breaks for them; but dequeue decides
 * emptiness from head == tail (as many MS derivatives do, which is only safe while the tail never moves
 * backwards): once n1 is dequeued, head == tail == n1 and deq answers empty although E2's completed enqueue
 * of n2 is still in the queue. Nodes are never reused (arena), so there is no ABA and no crash: only the
 * lost swing. Correct twin: ms_queue. */
#include <stdatomic.h>
#include <stdlib.h>

#include "linfuzz/adapter.h"
#include "common/arena.h"

typedef struct lt_node {
    _Atomic(struct lt_node *) next;
    int64_t value; /* written before the node is linked by a release CAS, never changed after */
} lt_node;

typedef struct lt_queue {
    _Atomic(lt_node *) head;
    char pad[64];
    _Atomic(lt_node *) tail;
    lf_arena nodes;
} lt_queue;

static void *lt_create(size_t max_ops) {
    (void)max_ops;
    lt_queue *q = malloc(sizeof *q);
    if (!q) return NULL;
    lf_arena_init(&q->nodes, sizeof(lt_node));
    lt_node *dummy = lf_arena_alloc(&q->nodes);
    atomic_init(&q->head, dummy);
    atomic_init(&q->tail, dummy);
    return q;
}

static void lt_destroy(void *obj) {
    lt_queue *q = obj;
    lf_arena_destroy(&q->nodes);
    free(q);
}

static void lt_enqueue(lt_queue *q, int64_t v) {
    lt_node *n = lf_arena_alloc(&q->nodes);
    n->value = v;
    for (;;) {
        lt_node *tail = atomic_load(&q->tail);
        lt_node *next = atomic_load(&tail->next);
        LF_YIELD();
        if (next) {
            atomic_compare_exchange_strong(&q->tail, &tail, next);
            continue;
        }
        lt_node *expected = NULL;
        if (atomic_compare_exchange_strong(&tail->next, &expected, n)) {
            LF_YIELD();
            atomic_store(&q->tail, n); /* THE BUG: a blind store can move the tail backwards */
            return;
        }
    }
}

static lf_kind lt_dequeue(lt_queue *q, int64_t *value) {
    for (;;) {
        lt_node *head = atomic_load(&q->head);
        lt_node *tail = atomic_load(&q->tail);
        LF_YIELD();
        if (head == tail) return LF_K_EMPTY; /* trusts the tail: wrong once it can move backwards */
        lt_node *next = atomic_load(&head->next);
        if (!next) return LF_K_EMPTY; /* the tail is behind the head: nothing after head */
        int64_t v = next->value;
        if (atomic_compare_exchange_strong(&q->head, &head, next)) {
            *value = v;
            return LF_K_INT;
        }
    }
}

static lf_kind lt_op(void *obj, lf_method m, const int64_t *args, int64_t *value) {
    lt_queue *q = obj;
    if (m == LF_M_ENQ) {
        lt_enqueue(q, args[0]);
        return LF_K_NONE;
    }
    return lt_dequeue(q, value);
}

const lf_adapter lf_adapter_ms_queue_lost_tail = {
    .name = "ms_queue_lost_tail",
    .summary = "Michael-Scott queue whose tail swing is a blind store (tail moves back; deq trusts head == tail)",
    .type = LF_TYPE_QUEUE,
    .linearizable = false,
    .methods = LF_METHOD_BIT(LF_M_ENQ) | LF_METHOD_BIT(LF_M_DEQ),
    .create = lt_create,
    .destroy = lt_destroy,
    .op = lt_op,
};
LF_REGISTER_ADAPTER(lf_adapter_ms_queue_lost_tail);
