/* Elimination under contention only: a Treiber stack whose push turns to an exchange slot after ELIM_AFTER
 * failed head CASes in a row (exponential backoff before that), and the bug of withdrawing an offer with a
 * load and a store instead of a CAS. A harder bug of the bundled set (docs/fuzzing.md, "Harder bugs").
 *
 * Adaptive elimination (Hendler, Shavit, Yerushalmi, SPAA 2004, and the backoff policies of Concurrency Kit's
 * ck_backoff): a push whose CAS on the head fails backs off, exponentially longer each time, and only after
 * ELIM_AFTER failures in a row offers its value in the exchange slot, where a pop (every pop looks at the slot
 * first) takes it: the pair cancels out without touching the head. The offer protocol is elim_stack.c's
 * (a generation and a state in one word): claim the empty slot, write the value, publish, wait a little,
 * then withdraw (FULL -> EMPTY) unless a pop took it (FULL -> TAKEN).
 *
 * Bug (backoff_elim_stack_withdraw_race): the withdrawal reads the slot, sees it still FULL and then stores
 * EMPTY: a pop whose CAS FULL -> TAKEN lands between the two has returned the value, and the pusher, which
 * believes it withdrew, pushes it on the stack again: the value is popped twice. The window is two accesses
 * of the pusher; reaching it needs a push that failed ELIM_AFTER head CASes in a row (a run of contention
 * that a random schedule rarely makes), an offer nobody took while it waited, and a pop in the slot at that
 * moment. The backoff's spin loop runs 2^failures times, so the coverage of a run (libFuzzer's hit-count
 * buckets of that loop) grows with the longest run of failures: a fuzz target can keep the inputs that came
 * closer, where a random search (`linfuzz stress`) must meet every condition in one run.
 * Correct twin: backoff_elim_stack, which withdraws with a CAS. Nodes are never reused (arena). */
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>

#include "linfuzz/adapter.h"
#include "common/arena.h"
#include "common/variants.h"

#define ELIM_AFTER 3  /* failed head CASes in a row before a push offers its value in the slot */
#define OFFER_WAIT 4  /* times the pusher looks at its offer before withdrawing it */

enum { SLOT_EMPTY, SLOT_CLAIMED, SLOT_FULL, SLOT_TAKEN };

/* The slot word: generation << 2 | state. */
static uint64_t slot_word(uint64_t generation, int state) { return generation << 2 | (uint64_t)state; }
static int state_of(uint64_t w) { return (int)(w & 3); }
static uint64_t generation_of(uint64_t w) { return w >> 2; }

typedef struct be_node {
    _Atomic(struct be_node *) next;
    int64_t value; /* written before the node is published by the head CAS, never changed after */
} be_node;

typedef struct be_stack {
    _Atomic(be_node *) head;
    _Atomic uint64_t slot;  /* the exchange slot's state word (slot_word) */
    _Atomic int64_t value;  /* the offered value: written by the pusher between claim and publish */
    bool withdraw_unchecked; /* the bug */
    lf_arena nodes;
} be_stack;

static void *create_with(size_t max_ops, bool withdraw_unchecked) {
    (void)max_ops;
    be_stack *s = malloc(sizeof *s);
    if (!s) return NULL;
    atomic_init(&s->head, NULL);
    atomic_init(&s->slot, slot_word(0, SLOT_EMPTY));
    atomic_init(&s->value, 0);
    s->withdraw_unchecked = withdraw_unchecked;
    lf_arena_init(&s->nodes, sizeof(be_node));
    return s;
}
LF_VARIANT_CREATE(buggy_create, create_with, true)
LF_VARIANT_CREATE(correct_create, create_with, false)

static void be_destroy(void *obj) {
    be_stack *s = obj;
    lf_arena_destroy(&s->nodes);
    free(s);
}

/* Exponential backoff after the failures-th failed CAS in a row: 2^failures idle iterations (no shared
 * access, so no scheduling point: only the coverage of the loop shows how long the run of failures was). */
static void backoff(unsigned failures) {
    for (unsigned i = 0; i < 1u << failures; i++) __asm__ volatile("" ::: "memory");
}

/* Offers v in the slot; true when a pop took it (the push is done). */
static bool offer(be_stack *s, int64_t v) {
    uint64_t w = atomic_load(&s->slot);
    if (state_of(w) != SLOT_EMPTY) return false; /* slot busy */
    uint64_t g = generation_of(w) + 1;
    if (!atomic_compare_exchange_strong(&s->slot, &w, slot_word(g, SLOT_CLAIMED))) return false;
    atomic_store(&s->value, v);
    atomic_store(&s->slot, slot_word(g, SLOT_FULL));
    for (int i = 0; i < OFFER_WAIT; i++)
        if (atomic_load(&s->slot) == slot_word(g, SLOT_TAKEN)) break;
    uint64_t full = slot_word(g, SLOT_FULL);
    if (s->withdraw_unchecked) {
        if (atomic_load(&s->slot) == full) {                /* THE BUG: a pop may take it right here... */
            atomic_store(&s->slot, slot_word(g, SLOT_EMPTY)); /* ...and this store hides that it did */
            return false;
        }
    } else if (atomic_compare_exchange_strong(&s->slot, &full, slot_word(g, SLOT_EMPTY))) {
        return false; /* withdrawn */
    }
    atomic_store(&s->slot, slot_word(g, SLOT_EMPTY)); /* TAKEN: free the slot for the next offer */
    return true;
}

/* Takes an offer from the slot, if there is one. */
static bool take(be_stack *s, int64_t *value) {
    uint64_t w = atomic_load(&s->slot);
    if (state_of(w) != SLOT_FULL) return false;
    int64_t v = atomic_load(&s->value); /* stable while the slot stays in this generation's FULL state */
    if (!atomic_compare_exchange_strong(&s->slot, &w, slot_word(generation_of(w), SLOT_TAKEN))) return false;
    *value = v;
    return true;
}

static lf_kind be_op(void *obj, lf_method m, const int64_t *args, int64_t *value) {
    be_stack *s = obj;
    if (m == LF_M_PUSH) {
        be_node *n = lf_arena_alloc(&s->nodes);
        n->value = args[0];
        for (unsigned failures = 0;;) {
            be_node *top = atomic_load(&s->head);
            atomic_store(&n->next, top);
            if (atomic_compare_exchange_strong(&s->head, &top, n)) return LF_K_NONE;
            if (++failures < ELIM_AFTER) {
                backoff(failures);
                continue;
            }
            if (offer(s, args[0])) return LF_K_NONE; /* eliminated against a pop */
            failures = 0;
        }
    }
    for (;;) {
        if (take(s, value)) return LF_K_INT;
        be_node *top = atomic_load(&s->head);
        if (!top) return LF_K_EMPTY;
        be_node *next = atomic_load(&top->next);
        if (atomic_compare_exchange_strong(&s->head, &top, next)) {
            *value = top->value;
            return LF_K_INT;
        }
    }
}

#define STACK_METHODS (LF_METHOD_BIT(LF_M_PUSH) | LF_METHOD_BIT(LF_M_POP))

LF_DEFINE_ADAPTER(backoff_elim_stack_withdraw_race, LF_TYPE_STACK, false, STACK_METHODS, buggy_create, be_destroy,
                  be_op, "stack eliminating after 3 failed pushes in a row, whose offer is withdrawn without a CAS");

LF_DEFINE_ADAPTER(backoff_elim_stack, LF_TYPE_STACK, true, STACK_METHODS, correct_create, be_destroy, be_op,
                  "backoff_elim_stack_withdraw_race's correct twin: the offer is withdrawn with a CAS");
