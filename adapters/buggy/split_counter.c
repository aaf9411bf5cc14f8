/* A counter split into a low and a high word, the low one of 8 bits: a carry that is not atomic.
 *
 * Counters that must fit a narrow field (a statistics slot, a packed sequence number) are often kept in two
 * parts: inc adds one to the low part, and when the low part wraps it adds one to the high part. get reads the
 * high part, the low part and the high part again, and retries when the high part moved: its author's guard
 * against a carry. Hard to find on purpose (a bug of the harder set in docs/fuzzing.md): it needs 256 incs in
 * one run, then a get inside the one window of the wrapping inc.
 *
 * Bug (split_counter_carry, 8-bit low part): the wrapping inc sets the low part to 0 and only then adds one to
 * the high part. A get between the two reads the old high part twice and the new low part, and returns a value
 * 256 too small, below incs that completed before it began. Correct twin (split_counter_wide): the same code
 * with a 32-bit low part, which no run wraps. Every field is _Atomic, so the bug is an atomicity violation,
 * not a C data race. */
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

#include "linfuzz/adapter.h"
#include "common/variants.h"

typedef struct split_counter {
    uint32_t low_mask; /* 0xff: the buggy 8-bit low part; 0xffffffff: the twin's */
    _Atomic uint32_t low;
    _Atomic int64_t high;
} split_counter;

static void *create_with(size_t max_ops, uint32_t low_mask) {
    (void)max_ops;
    split_counter *c = malloc(sizeof *c);
    if (!c) return NULL;
    c->low_mask = low_mask;
    atomic_init(&c->low, 0);
    atomic_init(&c->high, 0);
    return c;
}

LF_VARIANT_CREATE(carry_create, create_with, 0xffu)
LF_VARIANT_CREATE(wide_create, create_with, 0xffffffffu)

static void split_destroy(void *obj) { free(obj); }

static void split_inc(split_counter *c) {
    uint32_t old = atomic_load(&c->low);
    while (!atomic_compare_exchange_weak(&c->low, &old, (old + 1) & c->low_mask)) {
    }
    if (old == c->low_mask) atomic_fetch_add(&c->high, 1); /* THE BUG: the carry comes after the wrap */
}

static int64_t split_get(split_counter *c) {
    for (;;) {
        int64_t high = atomic_load(&c->high);
        uint32_t low = atomic_load(&c->low);
        if (atomic_load(&c->high) == high) return high * ((int64_t)c->low_mask + 1) + low;
    }
}

static lf_kind split_op(void *obj, lf_method m, const int64_t *args, int64_t *value) {
    split_counter *c = obj;
    (void)args;
    if (m == LF_M_INC) {
        split_inc(c);
        return LF_K_NONE;
    }
    *value = split_get(c);
    return LF_K_INT;
}

#define COUNTER_METHODS (LF_METHOD_BIT(LF_M_INC) | LF_METHOD_BIT(LF_M_GET))

LF_DEFINE_ADAPTER(split_counter_carry, LF_TYPE_COUNTER, false, COUNTER_METHODS, carry_create, split_destroy, split_op,
                  "counter in two parts whose 8-bit low part wraps before the high part is carried: a get between "
                  "reads 256 too little");

LF_DEFINE_ADAPTER(split_counter_wide, LF_TYPE_COUNTER, true, COUNTER_METHODS, wide_create, split_destroy, split_op,
                  "split_counter_carry's correct twin: the same counter with a 32-bit low part (no run wraps it)");
