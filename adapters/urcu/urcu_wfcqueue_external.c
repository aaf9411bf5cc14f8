/* liburcu cds_wfcq with the dequeuers' mutual exclusion provided by the caller, as wfcqueue.h's "__cds_wfcq_*"
 * functions require (the "blocking" and "nonblocking" families: "Mutual exclusion with cds_wfcq_dequeue_blocking
 * and dequeue lock is ensured by the caller"), enqueue from every thread with cds_wfcq_enqueue (wait-free).
 *
 * urcu_wfcqueue_blocking: dequeue = __cds_wfcq_dequeue_blocking under the adapter's dequeue mutex (the call
 * waits, inside the library, for an enqueuer that has exchanged the tail but not yet linked its node).
 * urcu_wfcqueue_nonblocking: dequeue = __cds_wfcq_dequeue_nonblocking under the same mutex; when it answers
 * CDS_WFCQ_WOULDBLOCK (a node not yet linked), the dequeuer releases the mutex, yields and tries again, as a
 * non-blocking caller does.
 (No misuse twin: dequeuing without the mutex races only inside the library's code, which is one step in
 * controlled runs; in free runs it hangs a dequeuer now and then, after thousands of executions.)
 * Nodes come from an arena and are freed at destroy (no RCU is needed: the dequeuers are serialised). */
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdlib.h>
#include <urcu/wfcqueue.h>

#include "linfuzz/adapter.h"
#include "common/arena.h"

enum { DEQ_BLOCKING, DEQ_NONBLOCKING };

typedef struct wfx_entry {
    struct cds_wfcq_node node; /* first member */
    int64_t value;
} wfx_entry;

typedef struct wfx_object {
    struct __cds_wfcq_head head; /* the caller-synchronised head */
    struct cds_wfcq_tail tail;
    pthread_mutex_t dequeue_lock; /* the dequeuers' mutual exclusion */
    lf_arena entries;             /* (lock-free allocation) */
    int mode;
} wfx_object;

static void *wfx_create_mode(int mode) {
    wfx_object *o = malloc(sizeof *o);
    if (!o) return NULL;
    __cds_wfcq_init(&o->head, &o->tail);
    pthread_mutex_init(&o->dequeue_lock, NULL);
    lf_arena_init(&o->entries, sizeof(wfx_entry));
    o->mode = mode;
    return o;
}

static void *wfx_blocking_create(size_t max_ops) {
    (void)max_ops;
    return wfx_create_mode(DEQ_BLOCKING);
}
static void *wfx_nonblocking_create(size_t max_ops) {
    (void)max_ops;
    return wfx_create_mode(DEQ_NONBLOCKING);
}

static void wfx_destroy(void *obj) {
    wfx_object *o = obj;
    pthread_mutex_destroy(&o->dequeue_lock);
    lf_arena_destroy(&o->entries);
    free(o);
}

static lf_kind wfx_op(void *obj, lf_method m, const int64_t *args, int64_t *value) {
    wfx_object *o = obj;
    if (m == LF_M_ENQ) {
        wfx_entry *e = lf_arena_alloc(&o->entries);
        cds_wfcq_node_init(&e->node);
        e->value = args[0];
        cds_wfcq_enqueue(&o->head, &o->tail, &e->node);
        return LF_K_NONE;
    }
    struct cds_wfcq_node *n;
    for (;;) {
        pthread_mutex_lock(&o->dequeue_lock);
        n = o->mode == DEQ_BLOCKING ? __cds_wfcq_dequeue_blocking(&o->head, &o->tail)
                                    : __cds_wfcq_dequeue_nonblocking(&o->head, &o->tail);
        pthread_mutex_unlock(&o->dequeue_lock);
        if (n != CDS_WFCQ_WOULDBLOCK) break;
        sched_yield(); /* a node is being linked: try again */
    }
    if (!n) return LF_K_EMPTY;
    *value = ((wfx_entry *)n)->value;
    return LF_K_INT;
}

#define WFX(ident, create_, summary_)                                                               \
    const lf_adapter lf_adapter_##ident = {.name = #ident,                                                         \
                                           .summary = summary_,                                                    \
                                           .type = LF_TYPE_QUEUE,                                                  \
                                           .linearizable = true,                                                   \
                                           .deterministic = true,                                                  \
                                           .methods = LF_METHOD_BIT(LF_M_ENQ) | LF_METHOD_BIT(LF_M_DEQ),           \
                                           .create = create_,                                                      \
                                           .destroy = wfx_destroy,                                                 \
                                           .op = wfx_op};                                                          \
    LF_REGISTER_ADAPTER(lf_adapter_##ident)

WFX(urcu_wfcqueue_blocking, wfx_blocking_create,
    "liburcu cds_wfcq, __cds_wfcq_dequeue_blocking under the caller's dequeue mutex");
WFX(urcu_wfcqueue_nonblocking, wfx_nonblocking_create,
    "liburcu cds_wfcq, __cds_wfcq_dequeue_nonblocking under the caller's dequeue mutex, retried on WOULDBLOCK");
