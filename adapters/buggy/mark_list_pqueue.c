/* A priority queue kept as a sorted linked list whose polls mark the node they take (a list-based relative of
 * the Lotan-Shavit skip-list priority queue): a taken node stays linked until a poll unlinks the taken prefix.
 *
 * insert links its node in value order under the list's mutex (taken nodes keep their place). poll takes the
 * first node not yet taken (a compare-and-swap of its flag claims it), then, under the mutex, unlinks every
 * taken node at the front. Hard to find on purpose (a bug of the harder set in docs/fuzzing.md): it takes a
 * poll, a second poll and two inserts in one window.
 *
 * Bug (mark_list_pqueue_lockfree_poll): the claiming walk runs without the mutex, as in the lock-free original.
 * A poll P that has passed a taken node N (claimed by another poll, not yet unlinked) goes on from N's next.
 * An insert of a smaller value lands before N, out of P's sight; a later insert of a larger one lands after N,
 * and P takes it: P returns a larger value than one inserted before it (the smaller stays in the queue).
 * The original is quiescently consistent, not linearizable. Correct twin (mark_list_pqueue): the walk holds
 * the mutex. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

#include "common/arena.h"
#include "common/variants.h"
#include "linfuzz/adapter.h"

typedef struct mp_node {
    _Atomic(struct mp_node *) next;
    atomic_bool taken;
    int64_t value;
} mp_node;

typedef struct mp_queue {
    pthread_mutex_t lock; /* inserts and unlinks; the claiming walk too in the correct twin */
    mp_node head;         /* sentinel: head.next is the smallest node, taken or not */
    bool walk_locked;     /* false: THE BUG */
    lf_arena nodes;
} mp_queue;

static void mp_destroy(void *obj) {
    mp_queue *q = obj;
    pthread_mutex_destroy(&q->lock);
    lf_arena_destroy(&q->nodes);
    free(q);
}

static void *create_with(size_t max_ops, bool walk_locked) {
    (void)max_ops;
    mp_queue *q = calloc(1, sizeof *q);
    if (!q) return NULL;
    if (pthread_mutex_init(&q->lock, NULL) != 0) {
        free(q);
        return NULL;
    }
    atomic_init(&q->head.next, NULL);
    q->walk_locked = walk_locked;
    lf_arena_init(&q->nodes, sizeof(mp_node));
    return q;
}
LF_VARIANT_CREATE(buggy_create, create_with, false)
LF_VARIANT_CREATE(correct_create, create_with, true)

static void mp_insert(mp_queue *q, int64_t value) {
    mp_node *n = lf_arena_alloc(&q->nodes);
    n->value = value;
    pthread_mutex_lock(&q->lock);
    mp_node *prev = &q->head, *next;
    while ((next = atomic_load(&prev->next)) != NULL && next->value < value) prev = next;
    atomic_store(&n->next, next);
    atomic_store(&prev->next, n);
    pthread_mutex_unlock(&q->lock);
}

/* Unlinks the taken nodes at the front. The caller holds the mutex. */
static void unlink_taken_prefix(mp_queue *q) {
    mp_node *first;
    while ((first = atomic_load(&q->head.next)) != NULL && atomic_load(&first->taken))
        atomic_store(&q->head.next, atomic_load(&first->next));
}

static lf_kind mp_poll(mp_queue *q, int64_t *value) {
    if (q->walk_locked) pthread_mutex_lock(&q->lock);
    mp_node *claimed = NULL;
    for (mp_node *n = atomic_load(&q->head.next); n && !claimed; n = atomic_load(&n->next)) {
        bool was_taken = false;
        if (!atomic_load(&n->taken) && atomic_compare_exchange_strong(&n->taken, &was_taken, true)) claimed = n;
    }
    if (!q->walk_locked) pthread_mutex_lock(&q->lock);
    unlink_taken_prefix(q);
    pthread_mutex_unlock(&q->lock);
    if (!claimed) return LF_K_EMPTY;
    *value = claimed->value;
    return LF_K_INT;
}

static lf_kind mp_op(void *obj, lf_method m, const int64_t *args, int64_t *value) {
    mp_queue *q = obj;
    if (m == LF_M_INSERT) {
        mp_insert(q, args[0]);
        return LF_K_NONE;
    }
    return mp_poll(q, value);
}

#define PQUEUE_METHODS (LF_METHOD_BIT(LF_M_INSERT) | LF_METHOD_BIT(LF_M_POLL))

LF_DEFINE_ADAPTER(mark_list_pqueue_lockfree_poll, LF_TYPE_PQUEUE, false, PQUEUE_METHODS, buggy_create, mp_destroy,
                  mp_op,
                  "sorted-list priority queue whose polls claim nodes by marking them without the lock: a poll past "
                  "a taken node misses a smaller value inserted before it");

LF_DEFINE_ADAPTER(mark_list_pqueue, LF_TYPE_PQUEUE, true, PQUEUE_METHODS, correct_create, mp_destroy, mp_op,
                  "mark_list_pqueue_lockfree_poll's correct twin: the claiming walk holds the list's mutex");
