/* Harris-Michael lock-free ordered list set (Harris, DISC 2001; Michael, SPAA 2002).
 *
 * A sorted singly linked list between two sentinels. remove first marks the victim's next pointer (the low
 * bit: logical deletion, its linearization point), then unlinks it physically; every traversal that meets a
 * marked node unlinks it before going on, so add never links behind a deleted node. contains is wait-free
 * and never writes. Memory reclamation: nodes come from an arena and are never reused during a run (the role
 * Michael's hazard pointers play in the paper), so a traversal may safely walk through unlinked nodes. */
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>

#include "linfuzz/adapter.h"
#include "common/arena.h"
#include "common/fingerprint.h"

typedef struct hm_node {
    _Atomic uintptr_t next; /* pointer to the successor | 1 when this node is logically deleted */
    int64_t key;
} hm_node;

typedef struct hm_set {
    hm_node *head; /* key INT64_MIN, never deleted */
    lf_arena nodes;
} hm_set;

#define MARK ((uintptr_t)1)
static hm_node *ptr_of(uintptr_t w) { return (hm_node *)(w & ~MARK); }
static bool is_marked(uintptr_t w) { return w & MARK; }

static void *hm_create(size_t max_ops) {
    (void)max_ops;
    hm_set *s = malloc(sizeof *s);
    if (!s) return NULL;
    lf_arena_init(&s->nodes, sizeof(hm_node));
    hm_node *tail = lf_arena_alloc(&s->nodes);
    tail->key = INT64_MAX;
    s->head = lf_arena_alloc(&s->nodes);
    s->head->key = INT64_MIN;
    atomic_init(&s->head->next, (uintptr_t)tail);
    return s;
}

static void hm_destroy(void *obj) {
    hm_set *s = obj;
    lf_arena_destroy(&s->nodes);
    free(s);
}

/* Finds the first node with key >= k, unlinking marked nodes on the way. On return pred->key < k <=
 * curr->key, pred was unmarked and pred->next == curr when last read. Returns whether curr->key == k. */
static bool hm_find(hm_set *s, int64_t k, hm_node **pred_out, hm_node **curr_out) {
retry:;
    hm_node *pred = s->head;
    hm_node *curr = ptr_of(atomic_load_explicit(&pred->next, memory_order_acquire));
    for (;;) {
        uintptr_t succ = atomic_load_explicit(&curr->next, memory_order_acquire);
        while (is_marked(succ)) {
            uintptr_t expected = (uintptr_t)curr;
            LF_YIELD();
            if (!atomic_compare_exchange_strong_explicit(&pred->next, &expected, (uintptr_t)ptr_of(succ),
                                                         memory_order_acq_rel, memory_order_acquire))
                goto retry; /* pred changed or was deleted itself: start over */
            curr = ptr_of(succ);
            succ = atomic_load_explicit(&curr->next, memory_order_acquire);
        }
        if (curr->key >= k) {
            *pred_out = pred;
            *curr_out = curr;
            return curr->key == k;
        }
        pred = curr;
        curr = ptr_of(succ);
    }
}

static bool hm_add(hm_set *s, int64_t k) {
    hm_node *n = lf_arena_alloc(&s->nodes);
    n->key = k;
    for (;;) {
        hm_node *pred, *curr;
        if (hm_find(s, k, &pred, &curr)) return false;
        atomic_store_explicit(&n->next, (uintptr_t)curr, memory_order_relaxed);
        LF_YIELD();
        uintptr_t expected = (uintptr_t)curr;
        if (atomic_compare_exchange_strong_explicit(&pred->next, &expected, (uintptr_t)n, memory_order_release,
                                                    memory_order_relaxed))
            return true;
    }
}

static bool hm_remove(hm_set *s, int64_t k) {
    for (;;) {
        hm_node *pred, *curr;
        if (!hm_find(s, k, &pred, &curr)) return false;
        uintptr_t succ = atomic_load_explicit(&curr->next, memory_order_acquire);
        if (is_marked(succ)) continue; /* someone else deleted it first: find again */
        LF_YIELD();
        if (!atomic_compare_exchange_strong_explicit(&curr->next, &succ, succ | MARK, memory_order_acq_rel,
                                                     memory_order_relaxed))
            continue;
        /* Logically deleted. Try to unlink; if that fails a later find will do it. */
        uintptr_t expected = (uintptr_t)curr;
        atomic_compare_exchange_strong_explicit(&pred->next, &expected, succ, memory_order_release,
                                                memory_order_relaxed);
        return true;
    }
}

static bool hm_contains(hm_set *s, int64_t k) {
    hm_node *curr = s->head;
    while (curr->key < k) curr = ptr_of(atomic_load_explicit(&curr->next, memory_order_acquire));
    LF_YIELD(); /* between finding the node and reading its mark */
    return curr->key == k && !is_marked(atomic_load_explicit(&curr->next, memory_order_acquire));
}

static lf_kind hm_op(void *obj, lf_method m, const int64_t *args, int64_t *value) {
    hm_set *s = obj;
    (void)value;
    bool r = m == LF_M_ADD ? hm_add(s, args[0]) : m == LF_M_REMOVE ? hm_remove(s, args[0]) : hm_contains(s, args[0]);
    return r ? LF_K_TRUE : LF_K_FALSE;
}

/* The keys of the nodes not marked deleted, in order (after the head sentinel). */
static uint64_t hm_fingerprint(void *obj) {
    uint64_t h = 0;
    for (hm_node *n = ptr_of(atomic_load(&((hm_set *)obj)->head->next)); n; n = ptr_of(atomic_load(&n->next)))
        if (!is_marked(atomic_load(&n->next))) h = lf_fp_seq_add(h, n->key);
    return h;
}

const lf_adapter lf_adapter_harris_list_set = {
    .name = "harris_list_set",
    .summary = "Harris-Michael lock-free ordered list set (marked next pointers), nodes never reused",
    .type = LF_TYPE_SET,
    .linearizable = true,
    .deterministic = true,
    .fingerprint = hm_fingerprint,
    .methods = LF_METHOD_BIT(LF_M_ADD) | LF_METHOD_BIT(LF_M_REMOVE) | LF_METHOD_BIT(LF_M_CONTAINS),
    .create = hm_create,
    .destroy = hm_destroy,
    .op = hm_op,
};
LF_REGISTER_ADAPTER(lf_adapter_harris_list_set);
