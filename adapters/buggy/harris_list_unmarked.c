/* Harris-Michael lock-free ordered list set whose remove unlinks without marking first.
 *
 * The correct algorithm (harris_list_marked, like correct/harris_list_set.c) deletes in two steps: it marks
 * the victim's next pointer (the logical deletion, after which no CAS on that pointer can succeed), then
 * unlinks the victim. Traversals unlink marked nodes they meet.
 *
 * Bug (harris_list_unmarked_remove): remove swings pred->next from the victim to its successor directly,
 * without the mark. An add that found (pred = victim, curr = its successor) and is delayed before its CAS
 * still succeeds on the unmarked, unlinked victim's next pointer: the new node hangs off a node that is no
 * longer in the list, the add returned true and the key is missing (a lost insert). Likewise a remove of the
 * victim's successor that CASes the victim's next pointer unlinks nothing: it returned true and the key is
 * still there. One preemption between find and CAS, no LF_YIELD() anywhere. Nodes are never reused (arena):
 * no ABA, no crash, only the missing mark. */
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>

#include "linfuzz/adapter.h"
#include "common/variants.h"
#include "common/arena.h"

typedef struct hu_node {
    _Atomic uintptr_t next; /* successor | 1 when logically deleted (the correct variant only) */
    int64_t key;
} hu_node;

typedef struct hu_set {
    hu_node *head; /* key INT64_MIN */
    bool mark_first;
    lf_arena nodes;
} hu_set;

#define MARK ((uintptr_t)1)
static hu_node *ptr_of(uintptr_t w) { return (hu_node *)(w & ~MARK); }
static bool is_marked(uintptr_t w) { return w & MARK; }

static void *create_with(size_t max_ops, bool mark_first) {
    (void)max_ops;
    hu_set *s = malloc(sizeof *s);
    if (!s) return NULL;
    lf_arena_init(&s->nodes, sizeof(hu_node));
    hu_node *tail = lf_arena_alloc(&s->nodes);
    tail->key = INT64_MAX;
    s->head = lf_arena_alloc(&s->nodes);
    s->head->key = INT64_MIN;
    atomic_init(&s->head->next, (uintptr_t)tail);
    s->mark_first = mark_first;
    return s;
}
LF_VARIANT_CREATE(unmarked_create, create_with, false)
LF_VARIANT_CREATE(marked_create, create_with, true)

static void hu_destroy(void *obj) {
    hu_set *s = obj;
    lf_arena_destroy(&s->nodes);
    free(s);
}

/* pred->key < k <= curr->key, pred unmarked and pred->next == curr when read; marked nodes on the way are
 * unlinked. Returns whether curr->key == k. */
static bool hu_find(hu_set *s, int64_t k, hu_node **pred_out, hu_node **curr_out) {
retry:;
    hu_node *pred = s->head, *curr = ptr_of(atomic_load(&pred->next));
    for (;;) {
        uintptr_t succ = atomic_load(&curr->next);
        while (is_marked(succ)) {
            uintptr_t expected = (uintptr_t)curr;
            if (!atomic_compare_exchange_strong(&pred->next, &expected, (uintptr_t)ptr_of(succ))) goto retry;
            curr = ptr_of(succ);
            succ = atomic_load(&curr->next);
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

static bool hu_add(hu_set *s, int64_t k) {
    hu_node *n = lf_arena_alloc(&s->nodes);
    n->key = k;
    for (;;) {
        hu_node *pred, *curr;
        if (hu_find(s, k, &pred, &curr)) return false;
        atomic_store(&n->next, (uintptr_t)curr);
        uintptr_t expected = (uintptr_t)curr;
        if (atomic_compare_exchange_strong(&pred->next, &expected, (uintptr_t)n)) return true;
    }
}

static bool hu_remove(hu_set *s, int64_t k) {
    for (;;) {
        hu_node *pred, *curr;
        if (!hu_find(s, k, &pred, &curr)) return false;
        uintptr_t succ = atomic_load(&curr->next);
        if (is_marked(succ)) continue;
        if (s->mark_first && !atomic_compare_exchange_strong(&curr->next, &succ, succ | MARK)) continue;
        /* Unlink. Marked: if this fails a later find does it. Unmarked (THE BUG): the unlink is the deletion,
         * and nothing stops a CAS on curr->next that was aimed at the list. */
        uintptr_t expected = (uintptr_t)curr;
        if (atomic_compare_exchange_strong(&pred->next, &expected, succ) || s->mark_first) return true;
    }
}

static bool hu_contains(hu_set *s, int64_t k) {
    hu_node *curr = s->head;
    while (curr->key < k) curr = ptr_of(atomic_load(&curr->next));
    return curr->key == k && !is_marked(atomic_load(&curr->next));
}

static lf_kind hu_op(void *obj, lf_method m, const int64_t *args, int64_t *value) {
    hu_set *s = obj;
    (void)value;
    bool r = m == LF_M_ADD ? hu_add(s, args[0]) : m == LF_M_REMOVE ? hu_remove(s, args[0]) : hu_contains(s, args[0]);
    return r ? LF_K_TRUE : LF_K_FALSE;
}

#define SET_METHODS (LF_METHOD_BIT(LF_M_ADD) | LF_METHOD_BIT(LF_M_REMOVE) | LF_METHOD_BIT(LF_M_CONTAINS))

LF_DEFINE_ADAPTER(harris_list_unmarked_remove, LF_TYPE_SET, false, SET_METHODS, unmarked_create, hu_destroy, hu_op,
                  "Harris-Michael list set whose remove unlinks without marking (lost inserts and removes)");

LF_DEFINE_ADAPTER(harris_list_marked, LF_TYPE_SET, true, SET_METHODS, marked_create, hu_destroy, hu_op,
                  "harris_list_unmarked_remove's correct twin: remove marks the victim before unlinking it");
