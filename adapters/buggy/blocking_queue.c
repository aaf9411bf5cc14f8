/* Blocking FIFO queue: a mutex and a condition variable; deq waits until there is a value
 * (lf_adapter.may_block), enq and peek never wait. The runs of a blocking structure can get stuck for two
 * reasons, which linfuzz tells apart (findings/stuck.h): more deqs than values (the specification's own
 * wait, STUCK_EMPTY; LINFUZZ_FUZZ_BLOCKING=balanced plans no such run), or a bug.
 *
 * Bug (blocking_queue_lost_wakeup): enq signals the condition only when the queue was empty before it, an
 * "optimisation" that loses wakeups with several waiters: two deqs wait, a first enq signals (waking one), a
 * second enq finds the queue non-empty (the woken deq has not taken its value yet) and signals nobody; one
 * value stays queued while a deq waits forever: STUCK_LOST_WAKEUP. Correct twin: blocking_queue, which
 * signals at every enq. */
#include <pthread.h>
#include <stdlib.h>

#include "linfuzz/adapter.h"

typedef struct blocking_queue {
    pthread_mutex_t lock;
    pthread_cond_t nonempty;
    int64_t *items;
    size_t head, tail; /* items[head, tail); no wrap-around: max_ops bounds all enqs of a run */
    bool signal_on_empty_only; /* the bug */
} blocking_queue;

static void *create_with(size_t max_ops, bool signal_on_empty_only) {
    blocking_queue *q = calloc(1, sizeof *q);
    if (!q) return NULL;
    q->items = malloc((max_ops + 1) * sizeof *q->items);
    if (!q->items || pthread_mutex_init(&q->lock, NULL) != 0) {
        free(q->items);
        free(q);
        return NULL;
    }
    if (pthread_cond_init(&q->nonempty, NULL) != 0) {
        pthread_mutex_destroy(&q->lock);
        free(q->items);
        free(q);
        return NULL;
    }
    q->signal_on_empty_only = signal_on_empty_only;
    return q;
}

static void *blocking_create(size_t max_ops) { return create_with(max_ops, false); }
static void *lost_wakeup_create(size_t max_ops) { return create_with(max_ops, true); }

static void blocking_destroy(void *obj) {
    blocking_queue *q = obj;
    pthread_cond_destroy(&q->nonempty);
    pthread_mutex_destroy(&q->lock);
    free(q->items);
    free(q);
}

static lf_kind blocking_op(void *obj, lf_method m, const int64_t *args, int64_t *value) {
    blocking_queue *q = obj;
    pthread_mutex_lock(&q->lock);
    lf_kind k = LF_K_NONE;
    if (m == LF_M_ENQ) {
        bool was_empty = q->head == q->tail;
        q->items[q->tail++] = args[0];
        LF_YIELD();
        if (!q->signal_on_empty_only || was_empty) pthread_cond_signal(&q->nonempty); /* the bug: only if empty */
    } else if (m == LF_M_DEQ) {
        while (q->head == q->tail) pthread_cond_wait(&q->nonempty, &q->lock);
        LF_YIELD();
        *value = q->items[q->head++];
        k = LF_K_INT;
    } else { /* peek */
        k = q->head == q->tail ? LF_K_EMPTY : LF_K_INT;
        if (k == LF_K_INT) *value = q->items[q->head];
    }
    pthread_mutex_unlock(&q->lock);
    return k;
}

#define BLOCKING_METHODS (LF_METHOD_BIT(LF_M_ENQ) | LF_METHOD_BIT(LF_M_DEQ) | LF_METHOD_BIT(LF_M_PEEK))

const lf_adapter lf_adapter_blocking_queue = {
    .name = "blocking_queue",
    .summary = "blocking FIFO: deq waits for a value (may_block), mutex and condition variable",
    .type = LF_TYPE_QUEUE,
    .linearizable = true,
    .methods = BLOCKING_METHODS,
    .create = blocking_create,
    .destroy = blocking_destroy,
    .op = blocking_op,
    .may_block = LF_METHOD_BIT(LF_M_DEQ),
};
LF_REGISTER_ADAPTER(lf_adapter_blocking_queue);

const lf_adapter lf_adapter_blocking_queue_lost_wakeup = {
    .name = "blocking_queue_lost_wakeup",
    .summary = "blocking FIFO whose enq signals only when the queue was empty: a waiting deq can sleep forever",
    .type = LF_TYPE_QUEUE,
    .linearizable = false,
    .methods = BLOCKING_METHODS,
    .create = lost_wakeup_create,
    .destroy = blocking_destroy,
    .op = blocking_op,
    .may_block = LF_METHOD_BIT(LF_M_DEQ),
};
LF_REGISTER_ADAPTER(lf_adapter_blocking_queue_lost_wakeup);
