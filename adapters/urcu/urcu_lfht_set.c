/* liburcu cds_lfht (RCU lock-free resizable hash table) as a set: add = cds_lfht_add_unique, remove = lookup
 * + cds_lfht_del (which fails if another thread deleted the node first), contains = lookup. Every call runs
 * inside rcu_read_lock by a registered thread (thread_enter), as the API requires. The table starts with one
 * bucket and auto-resizes, so runs exercise concurrent resizes. Removed nodes must outlive a grace period
 * before being freed; they are simply kept until destroy (arena). */
#include <urcu.h>
#include <urcu/rculfhash.h>
#include <stdint.h>
#include <stdlib.h>

#include "linfuzz/adapter.h"
#include "common/key_hash.h"
#include "common/arena.h"
#include "urcu/rcu_registration.h"

typedef struct lfht_entry {
    struct cds_lfht_node node;
    int64_t key;
} lfht_entry;

typedef struct lfht_object {
    struct cds_lfht *ht;
    lf_arena entries;
} lfht_object;

static unsigned long key_hash(int64_t k) { return (unsigned long)lf_key_hash((uint64_t)k); }

static int key_match(struct cds_lfht_node *node, const void *key) {
    return caa_container_of(node, lfht_entry, node)->key == *(const int64_t *)key;
}

static void *lfht_create(size_t max_ops) {
    (void)max_ops;
    lfht_object *o = malloc(sizeof *o);
    if (!o) return NULL;
    o->ht = cds_lfht_new(1, 1, 0, CDS_LFHT_AUTO_RESIZE | CDS_LFHT_ACCOUNTING, NULL);
    if (!o->ht) {
        free(o);
        return NULL;
    }
    lf_arena_init(&o->entries, sizeof(lfht_entry));
    return o;
}

/* cds_lfht_destroy requires an empty table, and deleting requires a registered reader: the destroying
 * thread (never one of the run's workers) registers for the duration. */
static void lfht_destroy(void *obj) {
    lfht_object *o = obj;
    rcu_register_thread();
    rcu_read_lock();
    struct cds_lfht_iter iter;
    struct cds_lfht_node *node;
    cds_lfht_for_each(o->ht, &iter, node) cds_lfht_del(o->ht, node);
    rcu_read_unlock();
    rcu_unregister_thread();
    cds_lfht_destroy(o->ht, NULL);
    lf_arena_destroy(&o->entries);
    free(o);
}

static lf_kind lfht_op(void *obj, lf_method m, const int64_t *args, int64_t *value) {
    lfht_object *o = obj;
    (void)value;
    int64_t key = args[0];
    unsigned long h = key_hash(key);
    bool r;
    rcu_read_lock();
    if (m == LF_M_ADD) {
        lfht_entry *e = lf_arena_alloc(&o->entries);
        cds_lfht_node_init(&e->node);
        e->key = key;
        r = cds_lfht_add_unique(o->ht, h, key_match, &key, &e->node) == &e->node;
    } else {
        struct cds_lfht_iter iter;
        cds_lfht_lookup(o->ht, h, key_match, &key, &iter);
        struct cds_lfht_node *node = cds_lfht_iter_get_node(&iter);
        LF_YIELD();
        r = node && (m == LF_M_CONTAINS || cds_lfht_del(o->ht, node) == 0);
    }
    rcu_read_unlock();
    return r ? LF_K_TRUE : LF_K_FALSE;
}

const lf_adapter lf_adapter_urcu_lfht_set = {
    .name = "urcu_lfht_set",
    .summary = "liburcu cds_lfht RCU lock-free hash table as a set (auto-resizing), calls under rcu_read_lock",
    .type = LF_TYPE_SET,
    .linearizable = true,
    .deterministic = true,
    .methods = LF_METHOD_BIT(LF_M_ADD) | LF_METHOD_BIT(LF_M_REMOVE) | LF_METHOD_BIT(LF_M_CONTAINS),
    .create = lfht_create,
    .destroy = lfht_destroy,
    .op = lfht_op,
    .thread_enter = lf_urcu_thread_enter,
    .thread_leave = lf_urcu_thread_leave,
};
LF_REGISTER_ADAPTER(lf_adapter_urcu_lfht_set);
