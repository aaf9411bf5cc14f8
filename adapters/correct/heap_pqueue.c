/* Lock-based binary min-heap priority queue: an array heap (sift-up on insert, sift-down on poll) guarded by
 * one pthread mutex, with perturbation points inside the critical section.
 *
 * The sift loops leave the array transiently out of heap order, which is only safe because every reader,
 * peek included, holds the lock: a lock-free peek of heap[0] would be the classic bug here. */
#include <pthread.h>
#include <stdlib.h>

#include "linfuzz/adapter.h"
#include "common/fingerprint.h"

typedef struct heap_pqueue {
    pthread_mutex_t lock;
    int64_t *heap;
    size_t n, cap;
} heap_pqueue;

static void *heap_create(size_t max_ops) {
    heap_pqueue *q = malloc(sizeof *q);
    if (!q) return NULL;
    q->cap = max_ops + 1;
    q->n = 0;
    q->heap = malloc(q->cap * sizeof *q->heap);
    if (!q->heap || pthread_mutex_init(&q->lock, NULL) != 0) {
        free(q->heap);
        free(q);
        return NULL;
    }
    return q;
}

static void heap_destroy(void *obj) {
    heap_pqueue *q = obj;
    pthread_mutex_destroy(&q->lock);
    free(q->heap);
    free(q);
}

static void sift_up(int64_t *h, size_t i) {
    while (i > 0) {
        size_t parent = (i - 1) / 2;
        if (h[parent] <= h[i]) break;
        int64_t t = h[parent];
        h[parent] = h[i];
        h[i] = t;
        i = parent;
        LF_YIELD();
    }
}

static void sift_down(int64_t *h, size_t n, size_t i) {
    for (;;) {
        size_t smallest = i, l = 2 * i + 1, r = l + 1;
        if (l < n && h[l] < h[smallest]) smallest = l;
        if (r < n && h[r] < h[smallest]) smallest = r;
        if (smallest == i) return;
        int64_t t = h[smallest];
        h[smallest] = h[i];
        h[i] = t;
        i = smallest;
        LF_YIELD();
    }
}

static lf_kind heap_op(void *obj, lf_method m, const int64_t *args, int64_t *value) {
    heap_pqueue *q = obj;
    lf_kind k = LF_K_NONE;
    pthread_mutex_lock(&q->lock);
    if (m == LF_M_INSERT) {
        q->heap[q->n] = args[0];
        sift_up(q->heap, q->n++);
    } else if (q->n == 0) {
        k = LF_K_EMPTY;
    } else {
        *value = q->heap[0];
        k = LF_K_INT;
        if (m == LF_M_POLL) {
            q->heap[0] = q->heap[--q->n];
            sift_down(q->heap, q->n, 0);
        }
    }
    pthread_mutex_unlock(&q->lock);
    return k;
}

/* The multiset of priorities (the heap's array order is not part of the abstract state). */
static uint64_t heap_fingerprint(void *obj) {
    heap_pqueue *q = obj;
    uint64_t sum = q->n;
    for (size_t i = 0; i < q->n; i++) sum += lf_fp_elem(q->heap[i]);
    return lf_fp_mix(sum);
}

const lf_adapter lf_adapter_heap_pqueue = {
    .name = "heap_pqueue",
    .summary = "binary min-heap priority queue under one mutex (peek also locks)",
    .type = LF_TYPE_PQUEUE,
    .linearizable = true,
    .deterministic = true,
    .fingerprint = heap_fingerprint,
    .methods = LF_METHOD_BIT(LF_M_INSERT) | LF_METHOD_BIT(LF_M_POLL) | LF_METHOD_BIT(LF_M_PEEK),
    .create = heap_create,
    .destroy = heap_destroy,
    .op = heap_op,
};
LF_REGISTER_ADAPTER(lf_adapter_heap_pqueue);
