/* liburcu cds_lfht (RCU lock-free resizable hash table) as a key-value map, used as urcu's examples use it
 * (examples/rculfhash: cds_lfht_add_replace, cds_lfht_lookup, cds_lfht_del, cds_lfht_add_unique): every call inside
 * a read-side critical section of a registered thread, replaced and deleted nodes freed after a grace period
 * (call_rcu). The table starts with one bucket and resizes itself, so runs exercise concurrent resizes.
 *
 * urcu_lfht_kv: put = cds_lfht_add_replace (the old node, if any, goes to call_rcu); get = cds_lfht_lookup;
 * delete = cds_lfht_lookup then cds_lfht_del, looked up again when the del fails because a concurrent put
 * replaced the node (-ENOENT: "already removed": the key may still be there, in the new node).
 * urcu_lfht_kv_del_add (misuse): put = lookup, cds_lfht_del of the old node, then cds_lfht_add of the new one,
 * instead of the atomic cds_lfht_add_replace: serially the same, but a get between the two calls finds the key
 * absent, and two concurrent puts may both add (cds_lfht_add "does not check for duplicates"). */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <urcu.h>
#include <urcu/rculfhash.h>

#include "linfuzz/adapter.h"
#include "common/key_hash.h"
#include "urcu/rcu_registration.h"

typedef struct kv_entry {
    struct cds_lfht_node node;
    struct rcu_head rcu;
    int64_t key, value;
} kv_entry;

typedef struct kv_object {
    struct cds_lfht *ht;
    bool del_then_add; /* the misuse */
} kv_object;

static unsigned long key_hash(int64_t k) { return (unsigned long)lf_key_hash((uint64_t)k); }

static int key_match(struct cds_lfht_node *node, const void *key) {
    return caa_container_of(node, kv_entry, node)->key == *(const int64_t *)key;
}

static void free_entry(struct rcu_head *head) { free(caa_container_of(head, kv_entry, rcu)); }

static void *kv_create_mode(bool del_then_add) {
    kv_object *o = malloc(sizeof *o);
    if (!o) return NULL;
    o->ht = cds_lfht_new(1, 1, 0, CDS_LFHT_AUTO_RESIZE | CDS_LFHT_ACCOUNTING, NULL);
    if (!o->ht) {
        free(o);
        return NULL;
    }
    o->del_then_add = del_then_add;
    return o;
}

static void *kv_create(size_t max_ops) {
    (void)max_ops;
    return kv_create_mode(false);
}

static void *kv_add_create(size_t max_ops) {
    (void)max_ops;
    return kv_create_mode(true);
}

/* cds_lfht_destroy requires an empty table and deleting a registered reader: the destroying thread (never one of
 * the run's workers) registers for the duration. */
static void kv_destroy(void *obj) {
    kv_object *o = obj;
    rcu_register_thread();
    rcu_read_lock();
    struct cds_lfht_iter iter;
    struct cds_lfht_node *node;
    cds_lfht_for_each(o->ht, &iter, node) {
        if (cds_lfht_del(o->ht, node) == 0) call_rcu(&caa_container_of(node, kv_entry, node)->rcu, free_entry);
    }
    rcu_read_unlock();
    rcu_unregister_thread();
    cds_lfht_destroy(o->ht, NULL);
    free(o);
}

static lf_kind kv_op(void *obj, lf_method m, const int64_t *args, int64_t *value) {
    kv_object *o = obj;
    int64_t key = args[0];
    unsigned long h = key_hash(key);
    lf_kind k = LF_K_NONE;
    rcu_read_lock();
    if (m == LF_M_PUT) {
        kv_entry *e = malloc(sizeof *e);
        if (!e) abort();
        cds_lfht_node_init(&e->node);
        e->key = key;
        e->value = args[1];
        if (o->del_then_add) { /* the misuse: two steps where add_replace is one */
            struct cds_lfht_iter iter;
            cds_lfht_lookup(o->ht, h, key_match, &key, &iter);
            struct cds_lfht_node *old = cds_lfht_iter_get_node(&iter);
            if (old && cds_lfht_del(o->ht, old) == 0) call_rcu(&caa_container_of(old, kv_entry, node)->rcu, free_entry);
            cds_lfht_add(o->ht, h, &e->node);
        } else {
            struct cds_lfht_node *old = cds_lfht_add_replace(o->ht, h, key_match, &key, &e->node);
            if (old) call_rcu(&caa_container_of(old, kv_entry, node)->rcu, free_entry);
        }
    } else if (m == LF_M_GET) {
        struct cds_lfht_iter iter;
        cds_lfht_lookup(o->ht, h, key_match, &key, &iter);
        struct cds_lfht_node *node = cds_lfht_iter_get_node(&iter);
        if (node) *value = caa_container_of(node, kv_entry, node)->value;
        k = node ? LF_K_INT : LF_K_NIL;
    } else { /* delete */
        for (;;) {
            struct cds_lfht_iter iter;
            cds_lfht_lookup(o->ht, h, key_match, &key, &iter);
            struct cds_lfht_node *node = cds_lfht_iter_get_node(&iter);
            if (!node) {
                k = LF_K_FALSE;
                break;
            }
            if (cds_lfht_del(o->ht, node) == 0) {
                call_rcu(&caa_container_of(node, kv_entry, node)->rcu, free_entry);
                k = LF_K_TRUE;
                break;
            }
            /* -ENOENT: removed by a concurrent delete or replaced by a concurrent put: look again */
        }
    }
    rcu_read_unlock();
    return k;
}

const lf_adapter lf_adapter_urcu_lfht_kv = {
    .name = "urcu_lfht_kv",
    .summary = "liburcu cds_lfht as a map: add_replace, lookup, del (looked up again when replaced), call_rcu",
    .type = LF_TYPE_KV,
    .linearizable = true,
    .deterministic = true,
    .methods = LF_METHOD_BIT(LF_M_PUT) | LF_METHOD_BIT(LF_M_GET) | LF_METHOD_BIT(LF_M_DELETE),
    .create = kv_create,
    .destroy = kv_destroy,
    .op = kv_op,
    .thread_enter = lf_urcu_thread_enter,
    .thread_leave = lf_urcu_thread_leave,
};
LF_REGISTER_ADAPTER(lf_adapter_urcu_lfht_kv);

const lf_adapter lf_adapter_urcu_lfht_kv_del_add = {
    .name = "urcu_lfht_kv_del_add",
    .summary = "liburcu cds_lfht misuse: put as del of the old node then add, instead of add_replace",
    .type = LF_TYPE_KV,
    .linearizable = false,
    .deterministic = true,
    .methods = LF_METHOD_BIT(LF_M_PUT) | LF_METHOD_BIT(LF_M_GET) | LF_METHOD_BIT(LF_M_DELETE),
    .create = kv_add_create,
    .destroy = kv_destroy,
    .op = kv_op,
    .thread_enter = lf_urcu_thread_enter,
    .thread_leave = lf_urcu_thread_leave,
};
LF_REGISTER_ADAPTER(lf_adapter_urcu_lfht_kv_del_add);
