/* R3 ([Cirisci20], Synchrobench OptimisticListSortedSet, the Herlihy-Shavit optimistic list): a
 * sorted list set with one mutex per node, traversed without locks and validated after locking.
 *
 * Correct (optimistic_list_set): loop { traverse unlocked to (pred, curr); lock pred, lock curr (list order);
 * validate: re-traverse from head, pred is still reachable and pred->next == curr; if valid, check the key
 * and link or unlink, unlock, return; else unlock and retry }. contains locks and validates too (the book's
 * version), so it is linearizable without logical-deletion marks.
 * add variant (r3_optimistic_list_add): validate runs BEFORE the locks are taken. Between validating and
 * locking, another thread can insert into the same gap or unlink pred: the add then overwrites a concurrent
 * insert (lost insert) or links behind an unlinked node (lost again).
 * remove variant (r3_optimistic_list_remove): the same change in remove: unlinking with a stale pred drops a
 * concurrently inserted neighbour, two removes of one key can both succeed.
 * Removed nodes stay allocated until destroy (arena): even the correct algorithm reads unlinked nodes. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>

#include "common/arena.h"
#include "common/fingerprint.h"
#include "common/variants.h"
#include "linfuzz/adapter.h"

typedef enum { R3_CORRECT, R3_ADD_VALIDATES_UNLOCKED, R3_REMOVE_VALIDATES_UNLOCKED } r3_variant;

typedef struct r3_node {
    _Atomic(struct r3_node *) next;
    int64_t key;
    pthread_mutex_t lock;
} r3_node;

typedef struct r3_set {
    r3_node *head; /* sentinels: head key INT64_MIN, tail key INT64_MAX */
    r3_variant variant;
    lf_arena nodes;
} r3_set;

static r3_node *new_node(r3_set *s, int64_t key, r3_node *next) {
    r3_node *n = lf_arena_alloc(&s->nodes);
    n->key = key;
    pthread_mutex_init(&n->lock, NULL);
    atomic_store_explicit(&n->next, next, memory_order_relaxed);
    return n;
}

static void *create_with(size_t max_ops, r3_variant variant) {
    (void)max_ops;
    r3_set *s = malloc(sizeof *s);
    if (!s) return NULL;
    s->variant = variant;
    lf_arena_init(&s->nodes, sizeof(r3_node));
    s->head = new_node(s, INT64_MIN, new_node(s, INT64_MAX, NULL));
    return s;
}
LF_VARIANT_CREATE(correct_create, create_with, R3_CORRECT)
LF_VARIANT_CREATE(add_variant_create, create_with, R3_ADD_VALIDATES_UNLOCKED)
LF_VARIANT_CREATE(remove_variant_create, create_with, R3_REMOVE_VALIDATES_UNLOCKED)

static void r3_destroy(void *obj) {
    r3_set *s = obj;
    for (size_t i = 0; i < lf_arena_count(&s->nodes); i++)
        pthread_mutex_destroy(&((r3_node *)lf_arena_node(&s->nodes, i))->lock);
    lf_arena_destroy(&s->nodes);
    free(s);
}

static void traverse(r3_set *s, int64_t key, r3_node **pred, r3_node **curr) {
    r3_node *p = s->head, *c = atomic_load_explicit(&p->next, memory_order_acquire);
    while (c->key < key) {
        p = c;
        c = atomic_load_explicit(&c->next, memory_order_acquire);
    }
    *pred = p;
    *curr = c;
}

/* pred is reachable from head and still points to curr. */
static bool validate(r3_set *s, r3_node *pred, r3_node *curr) {
    r3_node *n = s->head;
    while (n->key <= pred->key) {
        if (n == pred) return atomic_load_explicit(&pred->next, memory_order_acquire) == curr;
        n = atomic_load_explicit(&n->next, memory_order_acquire);
    }
    return false;
}

/* Finds (pred, curr) for key and returns with both locked. With validate_unlocked (the bug), validation
 * happens before the locks are taken and is not repeated under them. */
static void lock_window(r3_set *s, int64_t key, bool validate_unlocked, r3_node **pred, r3_node **curr) {
    for (;;) {
        traverse(s, key, pred, curr);
        if (validate_unlocked && !validate(s, *pred, *curr)) continue;
        LF_YIELD();
        pthread_mutex_lock(&(*pred)->lock);
        pthread_mutex_lock(&(*curr)->lock);
        LF_YIELD();
        if (validate_unlocked || validate(s, *pred, *curr)) return;
        pthread_mutex_unlock(&(*curr)->lock);
        pthread_mutex_unlock(&(*pred)->lock);
    }
}

static void unlock_window(r3_node *pred, r3_node *curr) {
    pthread_mutex_unlock(&curr->lock);
    pthread_mutex_unlock(&pred->lock);
}

static lf_kind r3_op(void *obj, lf_method m, const int64_t *args, int64_t *value) {
    r3_set *s = obj;
    (void)value;
    int64_t key = args[0];
    bool validate_unlocked = (m == LF_M_ADD && s->variant == R3_ADD_VALIDATES_UNLOCKED) ||
                             (m == LF_M_REMOVE && s->variant == R3_REMOVE_VALIDATES_UNLOCKED);
    r3_node *pred, *curr;
    lock_window(s, key, validate_unlocked, &pred, &curr);
    bool present = curr->key == key, result = present;
    if (m == LF_M_ADD && !present) {
        atomic_store_explicit(&pred->next, new_node(s, key, curr), memory_order_release);
        result = true;
    } else if (m == LF_M_ADD) {
        result = false;
    } else if (m == LF_M_REMOVE && present) {
        atomic_store_explicit(&pred->next, atomic_load_explicit(&curr->next, memory_order_acquire),
                              memory_order_release);
    }
    unlock_window(pred, curr);
    return result ? LF_K_TRUE : LF_K_FALSE;
}

/* The keys between the sentinels, in order. */
static uint64_t r3_fingerprint(void *obj) {
    r3_set *s = obj;
    uint64_t h = 0;
    for (r3_node *n = atomic_load(&s->head->next); n && n->key != INT64_MAX; n = atomic_load(&n->next))
        h = lf_fp_seq_add(h, n->key);
    return h;
}

#define SET_METHODS (LF_METHOD_BIT(LF_M_ADD) | LF_METHOD_BIT(LF_M_REMOVE) | LF_METHOD_BIT(LF_M_CONTAINS))
LF_DEFINE_DETERMINISTIC_ADAPTER(optimistic_list_set, LF_TYPE_SET, true, SET_METHODS, correct_create, r3_destroy, r3_op,
                                r3_fingerprint,
                                "R3's correct twin: Herlihy-Shavit optimistic list set (validate after locking)");
LF_DEFINE_DETERMINISTIC_ADAPTER(r3_optimistic_list_add, LF_TYPE_SET, false, SET_METHODS, add_variant_create, r3_destroy,
                                r3_op, r3_fingerprint,
                                "R3 add variant: optimistic list set whose add validates before locking");
LF_DEFINE_DETERMINISTIC_ADAPTER(r3_optimistic_list_remove, LF_TYPE_SET, false, SET_METHODS, remove_variant_create,
                                r3_destroy, r3_op, r3_fingerprint,
                                "R3 remove variant: optimistic list set whose remove validates before locking");
