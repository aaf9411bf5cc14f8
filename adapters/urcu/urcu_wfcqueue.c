/* liburcu cds_wfcq: wait-free concurrent queue. Enqueue is wait-free (an exchange on the tail, then a link);
 * dequeuers are serialised by the queue's internal mutex (cds_wfcq_dequeue_blocking), and a dequeuer that
 * finds a node whose link is not yet written waits for the enqueuer to finish it. No RCU is involved;
 * nodes are never freed during a run anyway (arena). */
#include <urcu/wfcqueue.h>
#include <stdint.h>
#include <stdlib.h>

#include "linfuzz/adapter.h"
#include "common/arena.h"

typedef struct wfcq_entry {
    struct cds_wfcq_node node; /* first member: a node pointer is an entry pointer */
    int64_t value;
} wfcq_entry;

typedef struct wfcq_object {
    struct cds_wfcq_head head;
    struct cds_wfcq_tail tail;
    lf_arena entries;
} wfcq_object;

static void *wfcq_create(size_t max_ops) {
    (void)max_ops;
    wfcq_object *o = malloc(sizeof *o);
    if (!o) return NULL;
    cds_wfcq_init(&o->head, &o->tail);
    lf_arena_init(&o->entries, sizeof(wfcq_entry));
    return o;
}

static void wfcq_destroy(void *obj) {
    wfcq_object *o = obj;
    cds_wfcq_destroy(&o->head, &o->tail);
    lf_arena_destroy(&o->entries);
    free(o);
}

static lf_kind wfcq_op(void *obj, lf_method m, const int64_t *args, int64_t *value) {
    wfcq_object *o = obj;
    if (m == LF_M_ENQ) {
        wfcq_entry *e = lf_arena_alloc(&o->entries);
        cds_wfcq_node_init(&e->node);
        e->value = args[0];
        cds_wfcq_enqueue(&o->head, &o->tail, &e->node);
        return LF_K_NONE;
    }
    struct cds_wfcq_node *n = cds_wfcq_dequeue_blocking(&o->head, &o->tail);
    if (!n) return LF_K_EMPTY;
    *value = ((wfcq_entry *)n)->value;
    return LF_K_INT;
}

const lf_adapter lf_adapter_urcu_wfcqueue = {
    .name = "urcu_wfcqueue",
    .summary = "liburcu cds_wfcq wait-free queue (wait-free enqueue, mutex-serialised blocking dequeue)",
    .type = LF_TYPE_QUEUE,
    .linearizable = true,
    .deterministic = true,
    .methods = LF_METHOD_BIT(LF_M_ENQ) | LF_METHOD_BIT(LF_M_DEQ),
    .create = wfcq_create,
    .destroy = wfcq_destroy,
    .op = wfcq_op,
};
LF_REGISTER_ADAPTER(lf_adapter_urcu_wfcqueue);
