/* A lock-striped hash set (the Herlihy-Shavit StripedHashSet) whose resize takes one stripe's lock instead of all.
 *
 * Buckets are chains; bucket k % n is guarded by stripe lock k % 2 (n stays a power of two, so a key's stripe
 * never changes). add, remove and contains lock their key's stripe, read the current table and work on its
 * bucket. An add that leaves more than 2 keys per bucket resizes: under the locks it copies every chain into a
 * table twice as large and publishes it. The first table has 8 buckets, so the first resize comes with the
 * 17th key: only workloads with 17 or more keys present reach it. Hard to find on purpose (a bug of the harder
 * set in docs/fuzzing.md).
 *
 * Bug (striped_hash_set_resize_one_lock): resize takes stripe 0's lock only, the one its author thought guards
 * the table. An add or remove of an odd key (stripe 1) runs during the copy: when it changes the old table after
 * its bucket was copied, the change is lost with the old table (an add that answered true, then contains
 * false; a removed key back). Correct twin (striped_hash_set): resize takes every stripe's lock, in order. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

#include "common/arena.h"
#include "common/variants.h"
#include "linfuzz/adapter.h"

#define SH_STRIPES 2
#define SH_FIRST_BUCKETS 8
#define SH_MAX_TABLES 24 /* up to 8 << 23 buckets: far above the keys of any run */

typedef struct sh_node {
    _Atomic(struct sh_node *) next;
    int64_t key;
} sh_node;

typedef struct sh_table {
    size_t buckets; /* a power of two, at least SH_STRIPES */
    _Atomic(sh_node *) bucket[];
} sh_table;

typedef struct sh_set {
    pthread_mutex_t stripe[SH_STRIPES];
    _Atomic(sh_table *) table;
    atomic_long size;
    bool resize_locks_all; /* false: THE BUG */
    sh_table *tables[SH_MAX_TABLES]; /* every table made, freed at destroy (a reader may hold an old one) */
    size_t n_tables;               /* written under stripe 0's lock, which every resize holds */
    lf_arena nodes;
} sh_set;

static sh_table *new_table(sh_set *s, size_t buckets) {
    if (s->n_tables == SH_MAX_TABLES) return NULL;
    sh_table *t = calloc(1, sizeof *t + buckets * sizeof t->bucket[0]);
    if (!t) return NULL;
    t->buckets = buckets;
    for (size_t i = 0; i < buckets; i++) atomic_init(&t->bucket[i], NULL);
    s->tables[s->n_tables++] = t;
    return t;
}

static void sh_destroy(void *obj) {
    sh_set *s = obj;
    for (size_t i = 0; i < s->n_tables; i++) free(s->tables[i]);
    for (int i = 0; i < SH_STRIPES; i++) pthread_mutex_destroy(&s->stripe[i]);
    lf_arena_destroy(&s->nodes);
    free(s);
}

static void *create_with(size_t max_ops, bool resize_locks_all) {
    (void)max_ops;
    sh_set *s = calloc(1, sizeof *s);
    if (!s) return NULL;
    for (int i = 0; i < SH_STRIPES; i++) pthread_mutex_init(&s->stripe[i], NULL);
    s->resize_locks_all = resize_locks_all;
    lf_arena_init(&s->nodes, sizeof(sh_node));
    sh_table *t = new_table(s, SH_FIRST_BUCKETS);
    if (!t) {
        sh_destroy(s);
        return NULL;
    }
    atomic_init(&s->table, t);
    atomic_init(&s->size, 0);
    return s;
}
LF_VARIANT_CREATE(buggy_create, create_with, false)
LF_VARIANT_CREATE(correct_create, create_with, true)

static unsigned stripe_of(int64_t key) { return (unsigned)((uint64_t)key % SH_STRIPES); }
static _Atomic(sh_node *) *bucket_of(sh_table *t, int64_t key) { return &t->bucket[(uint64_t)key % t->buckets]; }

static sh_node *new_node(sh_set *s, int64_t key, sh_node *next) {
    sh_node *n = lf_arena_alloc(&s->nodes);
    n->key = key;
    atomic_store_explicit(&n->next, next, memory_order_relaxed);
    return n;
}

/* Copies every chain of OLD into a table twice as large and publishes it, unless another resize did first. */
static void resize(sh_set *s, sh_table *old) {
    int locked = s->resize_locks_all ? SH_STRIPES : 1;
    for (int i = 0; i < locked; i++) pthread_mutex_lock(&s->stripe[i]);
    sh_table *bigger = atomic_load(&s->table) == old ? new_table(s, old->buckets * 2) : NULL;
    if (bigger) {
        for (size_t b = 0; b < old->buckets; b++)
            for (sh_node *n = atomic_load(&old->bucket[b]); n; n = atomic_load(&n->next)) {
                _Atomic(sh_node *) *to = bucket_of(bigger, n->key);
                atomic_store(to, new_node(s, n->key, atomic_load(to)));
            }
        atomic_store(&s->table, bigger);
    }
    for (int i = locked - 1; i >= 0; i--) pthread_mutex_unlock(&s->stripe[i]);
}

static bool sh_add(sh_set *s, int64_t key) {
    pthread_mutex_t *lock = &s->stripe[stripe_of(key)];
    pthread_mutex_lock(lock);
    sh_table *t = atomic_load(&s->table);
    _Atomic(sh_node *) *b = bucket_of(t, key);
    for (sh_node *n = atomic_load(b); n; n = atomic_load(&n->next))
        if (n->key == key) {
            pthread_mutex_unlock(lock);
            return false;
        }
    atomic_store(b, new_node(s, key, atomic_load(b)));
    long size = atomic_fetch_add(&s->size, 1) + 1;
    pthread_mutex_unlock(lock);
    if ((size_t)size > 2 * t->buckets) resize(s, t);
    return true;
}

static bool sh_remove(sh_set *s, int64_t key) {
    pthread_mutex_t *lock = &s->stripe[stripe_of(key)];
    pthread_mutex_lock(lock);
    _Atomic(sh_node *) *link = bucket_of(atomic_load(&s->table), key);
    bool removed = false;
    for (sh_node *n; (n = atomic_load(link)) != NULL; link = &n->next)
        if (n->key == key) {
            atomic_store(link, atomic_load(&n->next));
            atomic_fetch_sub(&s->size, 1);
            removed = true;
            break;
        }
    pthread_mutex_unlock(lock);
    return removed;
}

static bool sh_contains(sh_set *s, int64_t key) {
    pthread_mutex_t *lock = &s->stripe[stripe_of(key)];
    pthread_mutex_lock(lock);
    bool found = false;
    for (sh_node *n = atomic_load(bucket_of(atomic_load(&s->table), key)); n && !found; n = atomic_load(&n->next))
        found = n->key == key;
    pthread_mutex_unlock(lock);
    return found;
}

static lf_kind sh_op(void *obj, lf_method m, const int64_t *args, int64_t *value) {
    sh_set *s = obj;
    (void)value;
    bool r = m == LF_M_ADD ? sh_add(s, args[0]) : m == LF_M_REMOVE ? sh_remove(s, args[0]) : sh_contains(s, args[0]);
    return r ? LF_K_TRUE : LF_K_FALSE;
}

#define SET_METHODS (LF_METHOD_BIT(LF_M_ADD) | LF_METHOD_BIT(LF_M_REMOVE) | LF_METHOD_BIT(LF_M_CONTAINS))

LF_DEFINE_ADAPTER(striped_hash_set_resize_one_lock, LF_TYPE_SET, false, SET_METHODS, buggy_create, sh_destroy, sh_op,
                  "lock-striped hash set whose resize takes one stripe's lock, not all: an odd key's add or "
                  "remove during the copy is lost");

LF_DEFINE_ADAPTER(striped_hash_set, LF_TYPE_SET, true, SET_METHODS, correct_create, sh_destroy, sh_op,
                  "striped_hash_set_resize_one_lock's correct twin: resize takes every stripe's lock, in order");
