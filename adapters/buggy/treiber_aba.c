/* Treiber stack with ABA on node reuse: the correct algorithm (correct/treiber_stack.c) without safe memory
 * reclamation. Popped nodes go to a free list and the next pushes recycle them.
 *
 * Bug: pop reads top = A and next = A->next, then CASes head from A to next. If meanwhile A is popped, B below
 * it is popped, and A is recycled by a push (head = A again, now holding a new value, with A->next = C), the
 * CAS still succeeds because head is "A" again, and installs the stale next = B: B, which was already popped
 * and sits in the free list, is back on the stack (its old value is popped twice), and C's push is lost.
 * The free list is FIFO so the first node freed is the first recycled, which is what makes the A-B-A shape
 * reachable with two threads. Nodes live in an arena; reuse is always of stack nodes, never freed memory, so
 * the bug shows as wrong results, not crashes. Every field is _Atomic: no C data race, only the logical ABA. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

#include "linfuzz/adapter.h"
#include "common/arena.h"
#include "common/fingerprint.h"

typedef struct aba_node {
    _Atomic(struct aba_node *) next;
    _Atomic int64_t value;
    struct aba_node *free_next; /* free-list link, only touched under free_lock */
} aba_node;

typedef struct aba_stack {
    _Atomic(aba_node *) head;
    pthread_mutex_t free_lock;
    aba_node *free_first, *free_last; /* FIFO of popped nodes waiting for reuse */
    lf_arena nodes;
} aba_stack;

static void *aba_create(size_t max_ops) {
    (void)max_ops;
    aba_stack *s = malloc(sizeof *s);
    if (!s) return NULL;
    if (pthread_mutex_init(&s->free_lock, NULL) != 0) {
        free(s);
        return NULL;
    }
    atomic_init(&s->head, NULL);
    s->free_first = s->free_last = NULL;
    lf_arena_init(&s->nodes, sizeof(aba_node));
    return s;
}

static void aba_destroy(void *obj) {
    aba_stack *s = obj;
    pthread_mutex_destroy(&s->free_lock);
    lf_arena_destroy(&s->nodes);
    free(s);
}

static aba_node *node_get(aba_stack *s) {
    pthread_mutex_lock(&s->free_lock);
    aba_node *n = s->free_first;
    if (n) {
        s->free_first = n->free_next;
        if (!s->free_first) s->free_last = NULL;
    }
    pthread_mutex_unlock(&s->free_lock);
    return n ? n : lf_arena_alloc(&s->nodes);
}

static void node_put(aba_stack *s, aba_node *n) {
    pthread_mutex_lock(&s->free_lock);
    n->free_next = NULL;
    if (s->free_last)
        s->free_last->free_next = n;
    else
        s->free_first = n;
    s->free_last = n;
    pthread_mutex_unlock(&s->free_lock);
}

static lf_kind aba_op(void *obj, lf_method m, const int64_t *args, int64_t *value) {
    aba_stack *s = obj;
    if (m == LF_M_PUSH) {
        aba_node *n = node_get(s);
        atomic_store(&n->value, args[0]);
        aba_node *top = atomic_load(&s->head);
        do {
            atomic_store(&n->next, top);
        } while (!atomic_compare_exchange_weak(&s->head, &top, n));
        return LF_K_NONE;
    }
    for (;;) {
        aba_node *top = atomic_load(&s->head);
        if (!top) return LF_K_EMPTY;
        LF_YIELD();
        aba_node *next = atomic_load(&top->next);
        int64_t v = atomic_load(&top->value);
        LF_YIELD(); /* the ABA window: top may be popped, recycled and pushed again here */
        if (atomic_compare_exchange_strong(&s->head, &top, next)) {
            node_put(s, top);
            *value = v;
            return LF_K_INT;
        }
    }
}

/* The values from top to bottom (the free list is not part of the abstract state). */
static uint64_t aba_fingerprint(void *obj) {
    uint64_t h = 0;
    for (aba_node *n = atomic_load(&((aba_stack *)obj)->head); n; n = atomic_load(&n->next))
        h = lf_fp_seq_add(h, atomic_load(&n->value));
    return h;
}

const lf_adapter lf_adapter_treiber_aba = {
    .name = "treiber_aba",
    .summary = "Treiber stack that recycles popped nodes without reclamation safety (ABA on head)",
    .type = LF_TYPE_STACK,
    .linearizable = false,
    .deterministic = true,
    .fingerprint = aba_fingerprint,
    .methods = LF_METHOD_BIT(LF_M_PUSH) | LF_METHOD_BIT(LF_M_POP),
    .create = aba_create,
    .destroy = aba_destroy,
    .op = aba_op,
};
LF_REGISTER_ADAPTER(lf_adapter_treiber_aba);
