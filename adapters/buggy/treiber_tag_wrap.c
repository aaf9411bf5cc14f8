/* Treiber stack with a tagged head whose tag is too narrow: ABA once the tag wraps after 256 updates.
 *
 * Popped nodes are recycled (a LIFO free list: no safe memory reclamation), and the head word packs the top
 * node's index with a modification tag that every successful push and pop increments, the classic defence
 * against ABA (IBM System/370 "tagged pointers"): pop's CAS from (A, t) to (A->next, t + 1) fails when the
 * head was changed meanwhile, even if A is back on top.
 *
 * Bug: the tag has 8 bits. A pop that read head = (A, t), next = B and A's value, and then is delayed while
 * other threads make exactly 256 * k updates that leave A on top again (a pop of A and a push that recycles
 * it at once is the simplest pair), finds the head equal to (A, t) and succeeds: it returns A's old value,
 * which the other pop already returned, and the value A holds now is lost (and if B was popped meanwhile, a
 * node from the free list is back on the stack). The window (between pop's load of next and its CAS) has no LF_YIELD(): only a scheduler that can
 * preempt there, or luck, finds it. Correct twin: treiber_tag32, the same stack with a 32-bit tag (it would
 * take four billion updates inside one pop). Every field is _Atomic: no C data race, only the logical ABA. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>

#include "linfuzz/adapter.h"
#include "common/variants.h"

typedef struct tw_node {
    _Atomic uint32_t next; /* index + 1 of the node below, 0 at the bottom */
    _Atomic int64_t value;
    uint32_t free_next;    /* free-list link (index + 1), under free_lock */
} tw_node;

typedef struct tw_stack {
    _Atomic uint64_t head; /* tag << 32 | (index + 1 of the top node; 0 when empty) */
    uint64_t tag_mask;     /* 0xff: the bug; 0xffffffff: the twin */
    tw_node *nodes;        /* every node ever used by the run: pushes never exceed max_ops */
    size_t cap;
    _Atomic uint32_t allocated;
    pthread_mutex_t free_lock;
    uint32_t free_top;     /* LIFO of popped nodes (index + 1): the next push recycles the last one popped */
} tw_stack;

static void *create_with(size_t max_ops, uint64_t tag_mask) {
    tw_stack *s = malloc(sizeof *s);
    if (!s) return NULL;
    s->cap = max_ops + 1;
    s->nodes = calloc(s->cap, sizeof *s->nodes);
    if (!s->nodes || pthread_mutex_init(&s->free_lock, NULL) != 0) {
        free(s->nodes);
        free(s);
        return NULL;
    }
    atomic_init(&s->head, 0);
    atomic_init(&s->allocated, 0);
    s->tag_mask = tag_mask;
    s->free_top = 0;
    return s;
}
LF_VARIANT_CREATE(tag8_create, create_with, 0xff)
LF_VARIANT_CREATE(tag32_create, create_with, 0xffffffffu)

static void tw_destroy(void *obj) {
    tw_stack *s = obj;
    pthread_mutex_destroy(&s->free_lock);
    free(s->nodes);
    free(s);
}

static uint32_t index_of(uint64_t head) { return (uint32_t)head; }
static uint64_t next_head(const tw_stack *s, uint64_t head, uint32_t index) {
    uint64_t tag = ((head >> 32) + 1) & s->tag_mask;
    return tag << 32 | index;
}

/* A node for a push: the last one popped, or a fresh one. Returns its index + 1. */
static uint32_t node_get(tw_stack *s) {
    pthread_mutex_lock(&s->free_lock);
    uint32_t i = s->free_top;
    if (i) s->free_top = s->nodes[i - 1].free_next;
    pthread_mutex_unlock(&s->free_lock);
    if (i) return i;
    uint32_t fresh = atomic_fetch_add(&s->allocated, 1);
    if (fresh >= s->cap) abort(); /* more pushes than the run announced: a runner bug */
    return fresh + 1;
}

static void node_put(tw_stack *s, uint32_t i) {
    pthread_mutex_lock(&s->free_lock);
    s->nodes[i - 1].free_next = s->free_top;
    s->free_top = i;
    pthread_mutex_unlock(&s->free_lock);
}

static lf_kind tw_op(void *obj, lf_method m, const int64_t *args, int64_t *value) {
    tw_stack *s = obj;
    if (m == LF_M_PUSH) {
        uint32_t i = node_get(s);
        tw_node *n = &s->nodes[i - 1];
        atomic_store(&n->value, args[0]);
        uint64_t head = atomic_load(&s->head);
        do {
            atomic_store(&n->next, index_of(head));
        } while (!atomic_compare_exchange_weak(&s->head, &head, next_head(s, head, i)));
        return LF_K_NONE;
    }
    uint64_t head = atomic_load(&s->head);
    for (;;) {
        uint32_t i = index_of(head);
        if (!i) return LF_K_EMPTY;
        tw_node *top = &s->nodes[i - 1];
        uint32_t next = atomic_load(&top->next);
        int64_t v = atomic_load(&top->value);
        /* the window: top may be popped, recycled and pushed again here, 256 updates later */
        if (atomic_compare_exchange_strong(&s->head, &head, next_head(s, head, next))) {
            node_put(s, i);
            *value = v;
            return LF_K_INT;
        }
    }
}

#define STACK_METHODS (LF_METHOD_BIT(LF_M_PUSH) | LF_METHOD_BIT(LF_M_POP))

LF_DEFINE_ADAPTER(treiber_tag_wrap, LF_TYPE_STACK, false, STACK_METHODS, tag8_create, tw_destroy, tw_op,
                  "Treiber stack with node reuse and an 8-bit ABA tag on the head (wraps after 256 updates)");

LF_DEFINE_ADAPTER(treiber_tag32, LF_TYPE_STACK, true, STACK_METHODS, tag32_create, tw_destroy, tw_op,
                  "treiber_tag_wrap's correct twin: the same stack with a 32-bit ABA tag");
