/* Relaxed k-stack in the style of Scal's k-stack (Henzinger, Kirsch, Payer, Sezgin, Sokolova, POPL 2013).
 *
 * The stack is an array of segments of K slots with an atomic top segment index. push puts its value into
 * any free slot of the top segment (starting at a random slot) and opens the next segment when that one is
 * full; pop takes any value of the top segment and lowers the top when the segment is empty. Because "any"
 * slot is taken, pop may return any of the up to K newest values: the stack is K-relaxed LIFO and NOT
 * linearizable w.r.t. a stack. That is the documented semantics, not a coding mistake; the fuzzer must still
 * flag it.
 * No value is stranded above the top: a push re-reads the top after placing its value and takes it back if
 * the top fell below its segment, and a pop re-scans a segment after lowering the top past it. With seq_cst
 * atomics one of the two always sees the other. Values are unique and >= 1, so CAS(slot, v -> 0) cannot
 * suffer ABA even though slots are reused. */
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>

#include "linfuzz/adapter.h"

#define K 4

typedef struct k_stack {
    _Atomic size_t top;
    _Atomic uint64_t start_rng; /* where threads start scanning a segment; racy updates are harmless */
    size_t n_segs;
    _Atomic int64_t slots[];
} k_stack;

static void *kstack_create(size_t max_ops) {
    size_t n_segs = max_ops / K + 2; /* the top moves up only past a full segment */
    k_stack *s = malloc(sizeof *s + n_segs * K * sizeof s->slots[0]);
    if (!s) return NULL;
    atomic_init(&s->top, 0);
    atomic_init(&s->start_rng, 1);
    s->n_segs = n_segs;
    for (size_t i = 0; i < n_segs * K; i++) atomic_init(&s->slots[i], 0);
    return s;
}
static void kstack_destroy(void *obj) { free(obj); }

static unsigned random_start(k_stack *s) {
    uint64_t x = atomic_fetch_add_explicit(&s->start_rng, 0x9e3779b97f4a7c15ull, memory_order_relaxed);
    return (unsigned)((x >> 32) % K);
}

/* Takes any value of segment seg: returns it, or 0 when the segment holds none. */
static int64_t take_from(k_stack *s, size_t seg) {
    unsigned start = random_start(s);
    for (unsigned j = 0; j < K; j++) {
        _Atomic int64_t *slot = &s->slots[seg * K + (start + j) % K];
        int64_t x = atomic_load(slot);
        LF_YIELD();
        if (x && atomic_compare_exchange_strong(slot, &x, 0)) return x;
    }
    return 0;
}

static void kstack_push(k_stack *s, int64_t v) {
    for (;;) {
        size_t seg = atomic_load(&s->top);
        if (seg >= s->n_segs) abort(); /* more segments than the run can fill: a runner bug */
        unsigned start = random_start(s);
        for (unsigned j = 0; j < K; j++) {
            _Atomic int64_t *slot = &s->slots[seg * K + (start + j) % K];
            int64_t expected = 0;
            LF_YIELD();
            if (!atomic_compare_exchange_strong(slot, &expected, v)) continue;
            if (atomic_load(&s->top) >= seg) return;
            /* A pop lowered the top past our segment meanwhile: take the value back and retry, unless a pop
             * already took it (then the push is done). */
            expected = v;
            if (!atomic_compare_exchange_strong(slot, &expected, 0)) return;
            break;
        }
        size_t expected_top = seg;
        atomic_compare_exchange_strong(&s->top, &expected_top, seg + 1); /* full: open the next segment */
    }
}

static lf_kind kstack_pop(k_stack *s, int64_t *value) {
    for (;;) {
        size_t seg = atomic_load(&s->top);
        int64_t x = take_from(s, seg);
        if (x) {
            *value = x;
            return LF_K_INT;
        }
        if (seg == 0) return LF_K_EMPTY;
        size_t expected = seg;
        if (atomic_compare_exchange_strong(&s->top, &expected, seg - 1) && (x = take_from(s, seg))) {
            *value = x; /* a push landed while we lowered the top: it is still among the newest */
            return LF_K_INT;
        }
    }
}

static lf_kind kstack_op(void *obj, lf_method m, const int64_t *args, int64_t *value) {
    k_stack *s = obj;
    if (m == LF_M_PUSH) {
        kstack_push(s, args[0]);
        return LF_K_NONE;
    }
    return kstack_pop(s, value);
}

const lf_adapter lf_adapter_scal_k_stack = {
    .name = "scal_k_stack",
    .summary = "relaxed Scal-style k-stack (k=4): pop returns any of the k newest values",
    .type = LF_TYPE_STACK,
    .linearizable = false,
    .methods = LF_METHOD_BIT(LF_M_PUSH) | LF_METHOD_BIT(LF_M_POP),
    .create = kstack_create,
    .destroy = kstack_destroy,
    .op = kstack_op,
};
LF_REGISTER_ADAPTER(lf_adapter_scal_k_stack);
