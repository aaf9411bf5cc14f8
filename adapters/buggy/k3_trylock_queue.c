/* K3 ([Burckhardt10], Line-Up Fig. 1 / Fig. 7): a mutex-protected FIFO whose dequeue gives up when the
 * lock is busy.
 *
 * Bug: deq (and peek) use pthread_mutex_trylock and report "empty" when another thread holds the lock, as
 * the .NET 4.0 CTP TryTake did with its timed-out lock. A deq that returns empty although values enqueued by
 * completed operations are still queued is a violation. The LF_YIELD inside the critical section keeps the
 * lock held long enough for others to fail their trylock. Correct twin: lock_queue, same code with a
 * blocking pthread_mutex_lock. */
#include <pthread.h>
#include <stdlib.h>

#include "common/fingerprint.h"
#include "common/variants.h"
#include "linfuzz/adapter.h"

typedef struct lock_queue {
    pthread_mutex_t lock;
    int64_t *items;
    size_t head, tail, cap; /* items[head, tail) are queued; no wrap-around: cap bounds all enqs of a run */
    bool give_up_when_busy;
} lock_queue;

static void *create_with(size_t max_ops, bool give_up_when_busy) {
    lock_queue *q = calloc(1, sizeof *q);
    if (!q) return NULL;
    q->cap = max_ops + 1;
    q->items = malloc(q->cap * sizeof *q->items);
    q->give_up_when_busy = give_up_when_busy;
    if (!q->items || pthread_mutex_init(&q->lock, NULL) != 0) {
        free(q->items);
        free(q);
        return NULL;
    }
    return q;
}

LF_VARIANT_CREATE(k3_create, create_with, true)
LF_VARIANT_CREATE(lock_queue_create, create_with, false)

static void lock_queue_destroy(void *obj) {
    lock_queue *q = obj;
    pthread_mutex_destroy(&q->lock);
    free(q->items);
    free(q);
}

static lf_kind lock_queue_op(void *obj, lf_method m, const int64_t *args, int64_t *value) {
    lock_queue *q = obj;
    if (m == LF_M_ENQ) {
        pthread_mutex_lock(&q->lock);
        LF_YIELD();
        q->items[q->tail++] = args[0];
        pthread_mutex_unlock(&q->lock);
        return LF_K_NONE;
    }
    if (q->give_up_when_busy) {
        if (pthread_mutex_trylock(&q->lock) != 0) return LF_K_EMPTY; /* THE BUG: busy is not empty */
    } else {
        pthread_mutex_lock(&q->lock);
    }
    LF_YIELD();
    lf_kind k = LF_K_EMPTY;
    if (q->head < q->tail) {
        *value = q->items[q->head];
        if (m == LF_M_DEQ) q->head++;
        k = LF_K_INT;
    }
    pthread_mutex_unlock(&q->lock);
    return k;
}

/* The queued values, in order. */
static uint64_t lock_queue_fingerprint(void *obj) {
    lock_queue *q = obj;
    uint64_t h = 0;
    for (size_t i = q->head; i < q->tail; i++) h = lf_fp_seq_add(h, q->items[i]);
    return h;
}

#define QUEUE_METHODS (LF_METHOD_BIT(LF_M_ENQ) | LF_METHOD_BIT(LF_M_DEQ) | LF_METHOD_BIT(LF_M_PEEK))

LF_DEFINE_DETERMINISTIC_ADAPTER(k3_trylock_queue, LF_TYPE_QUEUE, false, QUEUE_METHODS, k3_create, lock_queue_destroy,
                                lock_queue_op, lock_queue_fingerprint,
                                "K3: mutex queue whose deq/peek use trylock and answer empty when the lock is busy");

LF_DEFINE_DETERMINISTIC_ADAPTER(lock_queue, LF_TYPE_QUEUE, true, QUEUE_METHODS, lock_queue_create, lock_queue_destroy,
                                lock_queue_op, lock_queue_fingerprint,
                                "K3's correct twin: mutex queue whose deq/peek wait for the lock");
