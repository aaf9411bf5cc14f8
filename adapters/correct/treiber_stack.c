/* Treiber's lock-free stack (IBM RJ 5118, 1986): a linked list whose head is swung by CAS.
 *
 * Memory reclamation: nodes come from a per-object arena and are never reused during a run (common/arena.h),
 * so the classic ABA on head (pop reads top and top->next, top is popped and its memory recycled as a new top)
 * cannot happen. buggy/treiber_aba.c is the same algorithm with node reuse, and shows what goes wrong. */
#include <stdatomic.h>
#include <stdlib.h>

#include "linfuzz/adapter.h"
#include "common/arena.h"
#include "common/fingerprint.h"

typedef struct treiber_node {
    _Atomic(struct treiber_node *) next;
    int64_t value; /* written before the node is published by a release CAS, never changed after */
} treiber_node;

typedef struct treiber_stack {
    _Atomic(treiber_node *) head;
    lf_arena nodes;
} treiber_stack;

static void *treiber_create(size_t max_ops) {
    (void)max_ops;
    treiber_stack *s = malloc(sizeof *s);
    if (!s) return NULL;
    atomic_init(&s->head, NULL);
    lf_arena_init(&s->nodes, sizeof(treiber_node));
    return s;
}

static void treiber_destroy(void *obj) {
    treiber_stack *s = obj;
    lf_arena_destroy(&s->nodes);
    free(s);
}

static lf_kind treiber_op(void *obj, lf_method m, const int64_t *args, int64_t *value) {
    treiber_stack *s = obj;
    if (m == LF_M_PUSH) {
        treiber_node *n = lf_arena_alloc(&s->nodes);
        n->value = args[0];
        treiber_node *top = atomic_load_explicit(&s->head, memory_order_relaxed);
        do {
            atomic_store_explicit(&n->next, top, memory_order_relaxed);
            LF_YIELD();
        } while (!atomic_compare_exchange_weak_explicit(&s->head, &top, n, memory_order_release,
                                                        memory_order_relaxed));
        return LF_K_NONE;
    }
    treiber_node *top = atomic_load_explicit(&s->head, memory_order_acquire);
    if (m == LF_M_PEEK) {
        if (!top) return LF_K_EMPTY;
        *value = top->value;
        return LF_K_INT;
    }
    for (;;) {
        if (!top) return LF_K_EMPTY;
        LF_YIELD();
        treiber_node *next = atomic_load_explicit(&top->next, memory_order_relaxed);
        LF_YIELD();
        if (atomic_compare_exchange_weak_explicit(&s->head, &top, next, memory_order_acquire,
                                                  memory_order_acquire)) {
            *value = top->value;
            return LF_K_INT;
        }
    }
}

/* The values from top to bottom. */
static uint64_t treiber_fingerprint(void *obj) {
    uint64_t h = 0;
    for (treiber_node *n = atomic_load(&((treiber_stack *)obj)->head); n; n = atomic_load(&n->next))
        h = lf_fp_seq_add(h, n->value);
    return h;
}

const lf_adapter lf_adapter_treiber_stack = {
    .name = "treiber_stack",
    .summary = "Treiber lock-free stack (CAS on head), nodes never reused during a run",
    .type = LF_TYPE_STACK,
    .linearizable = true,
    .deterministic = true,
    .fingerprint = treiber_fingerprint,
    .methods = LF_METHOD_BIT(LF_M_PUSH) | LF_METHOD_BIT(LF_M_POP) | LF_METHOD_BIT(LF_M_PEEK),
    .create = treiber_create,
    .destroy = treiber_destroy,
    .op = treiber_op,
};
LF_REGISTER_ADAPTER(lf_adapter_treiber_stack);
