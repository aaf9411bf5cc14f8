/* Treiber's stack with its nodes freed: the classic lock-free crash, and its repair.
 *
 * treiber_uaf (known buggy): pop frees the node it unlinked at once. Another pop that read the same top just
 * before may still read top->next (and a peek top->value): a use after free. Under AddressSanitizer that is a
 * heap-use-after-free report at that load; without it, the freed memory may already be a new node (the ABA of
 * treiber_aba.c) and the stack is corrupted, or the read memory is garbage and a later pop crashes. In
 * controlled mode the schedule that interleaves the two pops replays it exactly: a crash entry
 * (findings/crash.h) with that schedule, the history up to the crash and the sanitizer's stacks.
 * treiber_hp (its correct twin): hazard pointers (Michael, "Hazard pointers: safe memory reclamation for
 * lock-free objects", IEEE TPDS 2004). A reader announces the top it is about to read in its slot and
 * re-checks that it is still the top; an unlinked node is retired to the popping thread's list and freed only
 * when no slot announces it (a scan once the list holds RETIRE_SCAN nodes; destroy frees the rest). A thread
 * takes a slot in thread_enter and gives it back in thread_leave. */
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#include "common/fingerprint.h"
#include "common/variants.h"
#include "linfuzz/adapter.h"

#define HP_SLOTS 128   /* threads of one object at a time: the runner's 64 workers and the serial thread */
#define RETIRE_SCAN 16 /* retired nodes of a slot before it scans the slots */

typedef struct tr_node {
    _Atomic(struct tr_node *) next;
    int64_t value; /* written before the node is published by a release CAS, never changed after */
} tr_node;

typedef struct tr_slot {
    atomic_bool taken;
    _Atomic(tr_node *) hazard; /* the node this slot's thread is about to read, or NULL */
    tr_node **retired;          /* unlinked, not yet freed (used by the slot's thread only) */
    size_t n_retired, cap_retired;
} tr_slot;

typedef struct tr_stack {
    _Atomic(tr_node *) head;
    bool hazard_pointers; /* the correct twin */
    tr_slot slots[HP_SLOTS];
} tr_stack;

/* The slot of the calling thread in the object it entered (thread_enter), or -1. */
static _Thread_local int my_slot = -1;
static _Thread_local tr_stack *my_stack;

static void *create_with(size_t max_ops, bool hazard_pointers) {
    (void)max_ops;
    tr_stack *s = calloc(1, sizeof *s);
    if (!s) return NULL;
    atomic_init(&s->head, NULL);
    s->hazard_pointers = hazard_pointers;
    return s;
}
LF_VARIANT_CREATE(uaf_create, create_with, false)
LF_VARIANT_CREATE(hp_create, create_with, true)

static void tr_destroy(void *obj) {
    tr_stack *s = obj;
    for (tr_node *n = atomic_load(&s->head), *next; n; n = next) {
        next = atomic_load(&n->next);
        free(n);
    }
    for (int i = 0; i < HP_SLOTS; i++) {
        for (size_t k = 0; k < s->slots[i].n_retired; k++) free(s->slots[i].retired[k]);
        free(s->slots[i].retired);
    }
    free(s);
}

static void tr_thread_enter(void *obj) {
    tr_stack *s = obj;
    if (!s->hazard_pointers) return;
    for (int i = 0; i < HP_SLOTS; i++) {
        bool free_slot = false;
        if (atomic_compare_exchange_strong(&s->slots[i].taken, &free_slot, true)) {
            my_slot = i;
            my_stack = s;
            return;
        }
    }
    fprintf(stderr, "treiber_hp: more than %d threads at once\n", HP_SLOTS);
    abort();
}

static void tr_thread_leave(void *obj) {
    tr_stack *s = obj;
    if (!s->hazard_pointers || my_stack != s || my_slot < 0) return;
    atomic_store(&s->slots[my_slot].hazard, NULL);
    atomic_store(&s->slots[my_slot].taken, false); /* its retired nodes stay: the next taker scans them */
    my_slot = -1;
    my_stack = NULL;
}

/* Frees the slot's retired nodes that no slot announces. */
static void scan(tr_stack *s, tr_slot *mine) {
    tr_node *announced[HP_SLOTS];
    for (int i = 0; i < HP_SLOTS; i++) announced[i] = atomic_load(&s->slots[i].hazard);
    size_t kept = 0;
    for (size_t k = 0; k < mine->n_retired; k++) {
        tr_node *n = mine->retired[k];
        bool in_use = false;
        for (int i = 0; i < HP_SLOTS && !in_use; i++) in_use = announced[i] == n;
        if (in_use)
            mine->retired[kept++] = n;
        else
            free(n);
    }
    mine->n_retired = kept;
}

static void retire(tr_stack *s, tr_slot *mine, tr_node *n) {
    if (mine->n_retired == mine->cap_retired) {
        size_t cap = mine->cap_retired ? 2 * mine->cap_retired : RETIRE_SCAN * 2;
        tr_node **r = realloc(mine->retired, cap * sizeof *r);
        if (!r) abort();
        mine->retired = r;
        mine->cap_retired = cap;
    }
    mine->retired[mine->n_retired++] = n;
    if (mine->n_retired >= RETIRE_SCAN) scan(s, mine);
}

/* The current top, announced in the caller's slot when the twin protects its reads (NULL: empty). */
static tr_node *protected_top(tr_stack *s, tr_slot *mine) {
    tr_node *top = atomic_load_explicit(&s->head, memory_order_acquire);
    while (mine && top) {
        atomic_store(&mine->hazard, top);
        tr_node *again = atomic_load(&s->head); /* still the top: it cannot have been freed since */
        if (again == top) break;
        top = again;
    }
    return top;
}

static lf_kind tr_op(void *obj, lf_method m, const int64_t *args, int64_t *value) {
    tr_stack *s = obj;
    tr_slot *mine = NULL;
    if (s->hazard_pointers) {
        if (my_stack != s || my_slot < 0) tr_thread_enter(s); /* (a caller that did not enter: take a slot) */
        mine = &s->slots[my_slot];
    }
    if (m == LF_M_PUSH) {
        tr_node *n = malloc(sizeof *n);
        if (!n) abort();
        n->value = args[0];
        tr_node *top = atomic_load_explicit(&s->head, memory_order_relaxed);
        do {
            atomic_store_explicit(&n->next, top, memory_order_relaxed);
            LF_YIELD();
        } while (!atomic_compare_exchange_weak_explicit(&s->head, &top, n, memory_order_release,
                                                        memory_order_relaxed));
        return LF_K_NONE;
    }
    lf_kind kind = LF_K_EMPTY;
    if (m == LF_M_PEEK) {
        tr_node *top = protected_top(s, mine);
        if (top) {
            LF_YIELD();
            *value = top->value; /* treiber_uaf: top may have been popped and freed meanwhile */
            kind = LF_K_INT;
        }
    } else {
        for (;;) {
            tr_node *top = protected_top(s, mine);
            if (!top) break;
            LF_YIELD();
            tr_node *next = atomic_load_explicit(&top->next, memory_order_relaxed); /* THE BUG (treiber_uaf) */
            LF_YIELD();
            if (atomic_compare_exchange_weak_explicit(&s->head, &top, next, memory_order_acquire,
                                                      memory_order_acquire)) {
                *value = top->value;
                kind = LF_K_INT;
                if (mine) {
                    atomic_store(&mine->hazard, NULL);
                    retire(s, mine, top);
                } else {
                    free(top); /* treiber_uaf: another pop may hold top and read it next */
                }
                break;
            }
        }
    }
    if (mine) atomic_store(&mine->hazard, NULL);
    return kind;
}

/* The values from top to bottom (serial use only). */
static uint64_t tr_fingerprint(void *obj) {
    uint64_t h = 0;
    for (tr_node *n = atomic_load(&((tr_stack *)obj)->head); n; n = atomic_load(&n->next)) h = lf_fp_seq_add(h, n->value);
    return h;
}

#define STACK_METHODS (LF_METHOD_BIT(LF_M_PUSH) | LF_METHOD_BIT(LF_M_POP) | LF_METHOD_BIT(LF_M_PEEK))
const lf_adapter lf_adapter_treiber_uaf = {
    .name = "treiber_uaf",
    .summary = "Treiber stack whose pop frees the popped node at once: a use after free by a concurrent pop",
    .type = LF_TYPE_STACK,
    .linearizable = false,
    .deterministic = true,
    .fingerprint = tr_fingerprint,
    .methods = STACK_METHODS,
    .create = uaf_create,
    .destroy = tr_destroy,
    .op = tr_op,
};
LF_REGISTER_ADAPTER(lf_adapter_treiber_uaf);
const lf_adapter lf_adapter_treiber_hp = {
    .name = "treiber_hp",
    .summary = "treiber_uaf's correct twin: popped nodes freed through hazard pointers",
    .type = LF_TYPE_STACK,
    .linearizable = true,
    .deterministic = true,
    .fingerprint = tr_fingerprint,
    .methods = STACK_METHODS,
    .create = hp_create,
    .destroy = tr_destroy,
    .op = tr_op,
    .thread_enter = tr_thread_enter,
    .thread_leave = tr_thread_leave,
};
LF_REGISTER_ADAPTER(lf_adapter_treiber_hp);
