/* Elimination-backoff stack (Hendler, Shavit, Yerushalmi, SPAA 2004) with one exchange slot, and the bug of
 * taking an offer whose value is not written yet.
 *
 * A Treiber stack; a push whose CAS on the head fails (contention) offers its value in the exchange slot
 * instead, and a pop first looks there: a push and a pop that meet in the slot cancel out without touching
 * the head (the pair linearizes at the exchange, push first). An offer is a small protocol on the slot's
 * state word (a generation and a state, so that a late CAS never matches a later offer): the pusher claims
 * the empty slot (EMPTY -> CLAIMED, next generation), writes its value, publishes it (CLAIMED -> FULL) and
 * waits a little; a pop reads the value of a published offer and takes it (FULL -> TAKEN, same
 * generation); the pusher sees TAKEN and is done, or withdraws (FULL -> EMPTY) and pushes on the stack
 * again.
 *
 * Bug (elim_stack_takes_claimed): pop takes any offer that is not EMPTY or TAKEN, a CLAIMED one included,
 * i.e. a slot claimed before its value is written. That pop returns whatever the value field held (0, which
 * no push ever inserts, or the value of an earlier exchange, already returned once); the pusher then
 * publishes over TAKEN, nobody takes it, and it pushes its value on the stack: the history shows a value
 * popped twice or a value never pushed. The window is the pusher's two steps between claim and publish,
 * with no LF_YIELD(); reaching it also needs a push whose head CAS failed and a pop at that very moment.
 * Correct twin: elim_stack, whose pop takes only FULL offers. Nodes are never reused (arena). */
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>

#include "linfuzz/adapter.h"
#include "common/variants.h"
#include "common/arena.h"

enum { SLOT_EMPTY, SLOT_CLAIMED, SLOT_FULL, SLOT_TAKEN };
#define OFFER_WAIT 16 /* times the pusher looks at its offer before withdrawing it */

/* The slot word: generation << 2 | state. */
static uint64_t slot_word(uint64_t generation, int state) { return generation << 2 | (uint64_t)state; }
static int state_of(uint64_t w) { return (int)(w & 3); }
static uint64_t generation_of(uint64_t w) { return w >> 2; }

typedef struct es_node {
    _Atomic(struct es_node *) next;
    int64_t value; /* written before the node is published by the head CAS, never changed after */
} es_node;

typedef struct es_stack {
    _Atomic(es_node *) head;
    _Atomic uint64_t slot; /* the exchange slot's state word (slot_word) */
    _Atomic int64_t value; /* the offered value: written by the pusher between claim and publish */
    bool takes_claimed;    /* the bug */
    lf_arena nodes;
} es_stack;

static void *create_with(size_t max_ops, bool takes_claimed) {
    (void)max_ops;
    es_stack *s = malloc(sizeof *s);
    if (!s) return NULL;
    atomic_init(&s->head, NULL);
    atomic_init(&s->slot, slot_word(0, SLOT_EMPTY));
    atomic_init(&s->value, 0);
    s->takes_claimed = takes_claimed;
    lf_arena_init(&s->nodes, sizeof(es_node));
    return s;
}
LF_VARIANT_CREATE(buggy_create, create_with, true)
LF_VARIANT_CREATE(correct_create, create_with, false)

static void es_destroy(void *obj) {
    es_stack *s = obj;
    lf_arena_destroy(&s->nodes);
    free(s);
}

/* Offers v in the slot; true when a pop took it (the push is done). */
static bool offer(es_stack *s, int64_t v) {
    uint64_t w = atomic_load(&s->slot);
    if (state_of(w) != SLOT_EMPTY) return false; /* slot busy */
    uint64_t g = generation_of(w) + 1;
    if (!atomic_compare_exchange_strong(&s->slot, &w, slot_word(g, SLOT_CLAIMED))) return false;
    atomic_store(&s->value, v);
    atomic_store(&s->slot, slot_word(g, SLOT_FULL));
    for (int i = 0; i < OFFER_WAIT; i++)
        if (atomic_load(&s->slot) == slot_word(g, SLOT_TAKEN)) break;
    uint64_t full = slot_word(g, SLOT_FULL);
    if (atomic_compare_exchange_strong(&s->slot, &full, slot_word(g, SLOT_EMPTY))) return false; /* withdrawn */
    atomic_store(&s->slot, slot_word(g, SLOT_EMPTY)); /* TAKEN: free the slot for the next offer */
    return true;
}

/* Takes an offer from the slot, if there is one. */
static bool take(es_stack *s, int64_t *value) {
    uint64_t w = atomic_load(&s->slot);
    bool available = s->takes_claimed ? state_of(w) == SLOT_CLAIMED || state_of(w) == SLOT_FULL /* THE BUG */
                                      : state_of(w) == SLOT_FULL;
    if (!available) return false;
    int64_t v = atomic_load(&s->value); /* stable while the slot stays in this generation's FULL state */
    if (!atomic_compare_exchange_strong(&s->slot, &w, slot_word(generation_of(w), SLOT_TAKEN))) return false;
    *value = v;
    return true;
}

static lf_kind es_op(void *obj, lf_method m, const int64_t *args, int64_t *value) {
    es_stack *s = obj;
    if (m == LF_M_PUSH) {
        es_node *n = lf_arena_alloc(&s->nodes);
        n->value = args[0];
        for (;;) {
            es_node *top = atomic_load(&s->head);
            atomic_store(&n->next, top);
            if (atomic_compare_exchange_strong(&s->head, &top, n)) return LF_K_NONE;
            if (offer(s, args[0])) return LF_K_NONE; /* contention: eliminated against a pop */
        }
    }
    for (;;) {
        if (take(s, value)) return LF_K_INT;
        es_node *top = atomic_load(&s->head);
        if (!top) return LF_K_EMPTY;
        es_node *next = atomic_load(&top->next);
        if (atomic_compare_exchange_strong(&s->head, &top, next)) {
            *value = top->value;
            return LF_K_INT;
        }
    }
}

#define STACK_METHODS (LF_METHOD_BIT(LF_M_PUSH) | LF_METHOD_BIT(LF_M_POP))

LF_DEFINE_ADAPTER(elim_stack_takes_claimed, LF_TYPE_STACK, false, STACK_METHODS, buggy_create, es_destroy, es_op,
                  "elimination stack whose pop takes an offer claimed before its value is written");

LF_DEFINE_ADAPTER(elim_stack, LF_TYPE_STACK, true, STACK_METHODS, correct_create, es_destroy, es_op,
                  "elim_stack_takes_claimed's correct twin: elimination stack whose pop takes published offers only");
