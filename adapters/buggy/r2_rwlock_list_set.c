/* R2 ([Cirisci20], Synchrobench RWLockCoarseGrainedListIntSet): a sorted linked-list set under one
 * reader-writer lock, with lock regions shrunk the way "Root causing linearizability violations" §7 did.
 *
 * Correct (rwlock_list_set): add and remove hold the write lock for the traversal and the update, contains
 * holds the read lock.
 * add variant (r2_rwlock_list_add): traverses WITHOUT the lock, then takes the write lock, compares the key
 * and links pred->next = new(key, curr) with no re-validation that pred and curr are still adjacent. A
 * concurrent add into the same gap is overwritten (lost insert), or a key is inserted twice.
 * remove variant (r2_rwlock_list_remove): traverses AND compares the key without the lock; only the unlink
 * pred->next = curr->next runs under the write lock. Results: double remove, unlinking with a stale pred
 * (which drops a concurrently inserted neighbour), or unlinking a node that is already gone.
 * both variant (r2_rwlock_list_both): the add and the remove bug in one adapter: two bugs of one fuzz target,
 * which root causing tells apart (two regions), so triage gives two groups and the fuzz target's crash
 * reports two crashes (fuzz/bug_report.h; tests/fuzz/test_crash_state.sh).
 * Nodes are never freed during a run (arena), so the bugs show as wrong results, not crashes. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>

#include "common/arena.h"
#include "common/fingerprint.h"
#include "common/variants.h"
#include "linfuzz/adapter.h"

/* the bugs, as bits: a variant may have both */
typedef enum { R2_CORRECT = 0, R2_ADD_UNLOCKED_TRAVERSAL = 1, R2_REMOVE_UNLOCKED_CHECK = 2 } r2_variant;

typedef struct r2_node {
    _Atomic(struct r2_node *) next;
    int64_t key;
} r2_node;

typedef struct r2_set {
    pthread_rwlock_t lock;
    r2_node *head; /* sentinels: head key INT64_MIN, tail key INT64_MAX */
    r2_variant variant;
    lf_arena nodes;
} r2_set;

static r2_node *new_node(r2_set *s, int64_t key, r2_node *next) {
    r2_node *n = lf_arena_alloc(&s->nodes);
    n->key = key;
    atomic_store_explicit(&n->next, next, memory_order_relaxed);
    return n;
}

static void *create_with(size_t max_ops, r2_variant variant) {
    (void)max_ops;
    r2_set *s = malloc(sizeof *s);
    if (!s) return NULL;
    if (pthread_rwlock_init(&s->lock, NULL) != 0) {
        free(s);
        return NULL;
    }
    s->variant = variant;
    lf_arena_init(&s->nodes, sizeof(r2_node));
    s->head = new_node(s, INT64_MIN, new_node(s, INT64_MAX, NULL));
    return s;
}
LF_VARIANT_CREATE(correct_create, create_with, R2_CORRECT)
LF_VARIANT_CREATE(add_variant_create, create_with, R2_ADD_UNLOCKED_TRAVERSAL)
LF_VARIANT_CREATE(remove_variant_create, create_with, R2_REMOVE_UNLOCKED_CHECK)
LF_VARIANT_CREATE(both_variant_create, create_with, R2_ADD_UNLOCKED_TRAVERSAL | R2_REMOVE_UNLOCKED_CHECK)

static void r2_destroy(void *obj) {
    r2_set *s = obj;
    pthread_rwlock_destroy(&s->lock);
    lf_arena_destroy(&s->nodes);
    free(s);
}

/* pred->key < key <= curr->key, as read at the time of the traversal. */
static void traverse(r2_set *s, int64_t key, r2_node **pred, r2_node **curr) {
    r2_node *p = s->head, *c = atomic_load_explicit(&p->next, memory_order_acquire);
    while (c->key < key) {
        p = c;
        c = atomic_load_explicit(&c->next, memory_order_acquire);
    }
    *pred = p;
    *curr = c;
}

static bool r2_add(r2_set *s, int64_t key) {
    r2_node *pred, *curr;
    if (s->variant & R2_ADD_UNLOCKED_TRAVERSAL) {
        traverse(s, key, &pred, &curr);
        LF_YIELD();
        pthread_rwlock_wrlock(&s->lock);
    } else {
        pthread_rwlock_wrlock(&s->lock);
        traverse(s, key, &pred, &curr);
    }
    bool added = curr->key != key;
    if (added) atomic_store_explicit(&pred->next, new_node(s, key, curr), memory_order_release);
    pthread_rwlock_unlock(&s->lock);
    return added;
}

static bool r2_remove(r2_set *s, int64_t key) {
    r2_node *pred, *curr;
    if (s->variant & R2_REMOVE_UNLOCKED_CHECK) {
        traverse(s, key, &pred, &curr);
        if (curr->key != key) return false;
        LF_YIELD();
        pthread_rwlock_wrlock(&s->lock);
    } else {
        pthread_rwlock_wrlock(&s->lock);
        traverse(s, key, &pred, &curr);
        if (curr->key != key) {
            pthread_rwlock_unlock(&s->lock);
            return false;
        }
    }
    atomic_store_explicit(&pred->next, atomic_load_explicit(&curr->next, memory_order_acquire), memory_order_release);
    pthread_rwlock_unlock(&s->lock);
    return true;
}

static bool r2_contains(r2_set *s, int64_t key) {
    r2_node *pred, *curr;
    pthread_rwlock_rdlock(&s->lock);
    traverse(s, key, &pred, &curr);
    pthread_rwlock_unlock(&s->lock);
    return curr->key == key;
}

static lf_kind r2_op(void *obj, lf_method m, const int64_t *args, int64_t *value) {
    r2_set *s = obj;
    (void)value;
    bool r = m == LF_M_ADD ? r2_add(s, args[0]) : m == LF_M_REMOVE ? r2_remove(s, args[0]) : r2_contains(s, args[0]);
    return r ? LF_K_TRUE : LF_K_FALSE;
}

/* The keys between the sentinels, in order. */
static uint64_t r2_fingerprint(void *obj) {
    r2_set *s = obj;
    uint64_t h = 0;
    for (r2_node *n = atomic_load(&s->head->next); n && n->key != INT64_MAX; n = atomic_load(&n->next))
        h = lf_fp_seq_add(h, n->key);
    return h;
}

#define SET_METHODS (LF_METHOD_BIT(LF_M_ADD) | LF_METHOD_BIT(LF_M_REMOVE) | LF_METHOD_BIT(LF_M_CONTAINS))
LF_DEFINE_DETERMINISTIC_ADAPTER(
    rwlock_list_set, LF_TYPE_SET, true, SET_METHODS, correct_create, r2_destroy, r2_op, r2_fingerprint,
    "R2's correct twin: sorted list set, updates under the write lock, contains under the read lock");
LF_DEFINE_DETERMINISTIC_ADAPTER(r2_rwlock_list_add, LF_TYPE_SET, false, SET_METHODS, add_variant_create, r2_destroy,
                                r2_op, r2_fingerprint,
                                "R2 add variant: rwlock list set whose add traverses before taking the lock");
LF_DEFINE_DETERMINISTIC_ADAPTER(r2_rwlock_list_remove, LF_TYPE_SET, false, SET_METHODS, remove_variant_create,
                                r2_destroy, r2_op, r2_fingerprint,
                                "R2 remove variant: rwlock list set whose remove finds and checks the key unlocked");
LF_DEFINE_DETERMINISTIC_ADAPTER(r2_rwlock_list_both, LF_TYPE_SET, false, SET_METHODS, both_variant_create, r2_destroy,
                                r2_op, r2_fingerprint,
                                "R2 with both bugs: add traverses before locking, remove checks the key unlocked");
