/* R1 ([Cirisci20], Fig. 1): the Afek-Gafni-Morrison array
 * stack, and the bug of popping with load + store instead of an atomic swap.
 *
 * push(x): i = fetch_add(range, 1); items[i] = x.  pop: t = range; scan i = t-1 down to 0 and take the first
 * non-empty slot. Correct pop takes a slot with x = exchange(items[i], 0). Buggy pop does x = load(items[i]);
 * store(items[i], 0), which allows (1) a duplicate pop: two pops load the same x before either stores 0, and
 * (2) a lost push: a pop loads an empty slot, a push then fills it, and the pop's store of 0 erases the value.
 * Slots are never reused (range only grows; the array holds every push of the run). Values are >= 1, so 0
 * marks an empty slot. */
#include <stdatomic.h>
#include <stdlib.h>

#include "common/fingerprint.h"
#include "common/variants.h"
#include "linfuzz/adapter.h"

typedef struct afek_stack {
    _Atomic size_t range;
    size_t cap;
    bool pop_without_swap;
    _Atomic int64_t items[];
} afek_stack;

static void *create_with(size_t max_ops, bool pop_without_swap) {
    size_t cap = max_ops + 1;
    afek_stack *s = malloc(sizeof *s + cap * sizeof s->items[0]);
    if (!s) return NULL;
    atomic_init(&s->range, 0);
    s->cap = cap;
    s->pop_without_swap = pop_without_swap;
    for (size_t i = 0; i < cap; i++) atomic_init(&s->items[i], 0);
    return s;
}
LF_VARIANT_CREATE(r1_create, create_with, true)
LF_VARIANT_CREATE(afek_create, create_with, false)
static void afek_destroy(void *obj) { free(obj); }

static lf_kind afek_op(void *obj, lf_method m, const int64_t *args, int64_t *value) {
    afek_stack *s = obj;
    if (m == LF_M_PUSH) {
        size_t i = atomic_fetch_add(&s->range, 1);
        if (i >= s->cap) abort(); /* more pushes than the run announced: a runner bug */
        LF_YIELD();
        atomic_store(&s->items[i], args[0]);
        return LF_K_NONE;
    }
    size_t t = atomic_load(&s->range);
    for (size_t i = t; i-- > 0;) {
        int64_t x;
        if (s->pop_without_swap) {
            x = atomic_load(&s->items[i]);
            LF_YIELD();
            atomic_store(&s->items[i], 0); /* THE BUG: not atomic with the load */
        } else {
            x = atomic_exchange(&s->items[i], 0);
        }
        if (x) {
            *value = x;
            return LF_K_INT;
        }
        LF_YIELD();
    }
    return LF_K_EMPTY;
}

/* The values still in the array below its range, bottom to top (popped slots hold 0). */
static uint64_t afek_fingerprint(void *obj) {
    afek_stack *s = obj;
    uint64_t h = 0;
    size_t range = atomic_load(&s->range);
    for (size_t i = 0; i < range && i < s->cap; i++) {
        int64_t v = atomic_load(&s->items[i]);
        if (v) h = lf_fp_seq_add(h, v);
    }
    return h;
}

#define STACK_METHODS (LF_METHOD_BIT(LF_M_PUSH) | LF_METHOD_BIT(LF_M_POP))

LF_DEFINE_DETERMINISTIC_ADAPTER(r1_afek_stack_no_swap, LF_TYPE_STACK, false, STACK_METHODS, r1_create, afek_destroy,
                                afek_op, afek_fingerprint,
                                "R1: Afek array stack whose pop clears a slot with load + store instead of swap");

LF_DEFINE_DETERMINISTIC_ADAPTER(afek_stack, LF_TYPE_STACK, true, STACK_METHODS, afek_create, afek_destroy, afek_op,
                                afek_fingerprint,
                                "R1's correct twin: Afek-Gafni-Morrison array stack (fetch-add push, swap pop)");
