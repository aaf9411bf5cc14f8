/* liburcu cds_lfq (RCU lock-free queue), used as urcu's own example does (examples/rculfqueue): every thread
 * registered with RCU (thread_enter), cds_lfq_enqueue_rcu and cds_lfq_dequeue_rcu inside read-side critical
 * sections, and a dequeued node freed only after a grace period (call_rcu). The queue is initialised with the
 * memb flavour's call_rcu, and destroyed empty (the adapter dequeues what is left first). */
#include <stdint.h>
#include <stdlib.h>
#include <urcu.h>
#include <urcu/rculfqueue.h>

#include "linfuzz/adapter.h"
#include "urcu/rcu_registration.h"

typedef struct lfq_entry {
    struct cds_lfq_node_rcu node;
    struct rcu_head rcu;
    int64_t value;
} lfq_entry;

static void free_entry(struct rcu_head *head) { free(caa_container_of(head, lfq_entry, rcu)); }

static void *lfq_create(size_t max_ops) {
    (void)max_ops;
    struct cds_lfq_queue_rcu *q = malloc(sizeof *q);
    if (!q) return NULL;
    cds_lfq_init_rcu(q, call_rcu);
    return q;
}

static void lfq_destroy(void *obj) {
    struct cds_lfq_queue_rcu *q = obj;
    rcu_register_thread(); /* (the dequeues below are read-side sections) */
    for (;;) {
        rcu_read_lock();
        struct cds_lfq_node_rcu *n = cds_lfq_dequeue_rcu(q);
        rcu_read_unlock();
        if (!n) break;
        call_rcu(&caa_container_of(n, lfq_entry, node)->rcu, free_entry);
    }
    rcu_unregister_thread();
    if (cds_lfq_destroy_rcu(q) != 0) abort(); /* not empty: cannot be */
    free(q);
}

static lf_kind lfq_op(void *obj, lf_method m, const int64_t *args, int64_t *value) {
    struct cds_lfq_queue_rcu *q = obj;
    if (m == LF_M_ENQ) {
        lfq_entry *e = malloc(sizeof *e);
        if (!e) abort();
        cds_lfq_node_init_rcu(&e->node);
        e->value = args[0];
        rcu_read_lock();
        cds_lfq_enqueue_rcu(q, &e->node);
        rcu_read_unlock();
        return LF_K_NONE;
    }
    rcu_read_lock();
    struct cds_lfq_node_rcu *n = cds_lfq_dequeue_rcu(q);
    rcu_read_unlock();
    if (!n) return LF_K_EMPTY;
    lfq_entry *e = caa_container_of(n, lfq_entry, node);
    *value = e->value;
    call_rcu(&e->rcu, free_entry); /* freed after a grace period: a concurrent dequeuer may still read it */
    return LF_K_INT;
}

const lf_adapter lf_adapter_urcu_lfqueue = {
    .name = "urcu_lfqueue",
    .summary = "liburcu cds_lfq RCU lock-free queue (read-side sections, nodes freed by call_rcu)",
    .type = LF_TYPE_QUEUE,
    .linearizable = true,
    .deterministic = true,
    .methods = LF_METHOD_BIT(LF_M_ENQ) | LF_METHOD_BIT(LF_M_DEQ),
    .create = lfq_create,
    .destroy = lfq_destroy,
    .op = lfq_op,
    .thread_enter = lf_urcu_thread_enter,
    .thread_leave = lf_urcu_thread_leave,
};
LF_REGISTER_ADAPTER(lf_adapter_urcu_lfqueue);
