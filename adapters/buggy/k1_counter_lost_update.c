/* K1 ([Burckhardt10], Line-Up "Counter1"): a counter whose inc is a load followed by a store.
 *
 * Bug: inc() { v = load(count); store(count, v + 1); } is not atomic. Two overlapping incs can both load v
 * and both store v + 1, so one increment is lost: after two completed incs a get returns 1. The LF_YIELD
 * between the load and the store is the race window. Correct twin: atomic_counter (fetch-add). Every field
 * is _Atomic, so the bug is an atomicity violation, not a C data race. */
#include <stdatomic.h>
#include <stdlib.h>

#include "linfuzz/adapter.h"
#include "common/fingerprint.h"

typedef struct k1_counter {
    _Atomic int64_t count;
} k1_counter;

static void *k1_create(size_t max_ops) {
    (void)max_ops;
    k1_counter *c = malloc(sizeof *c);
    if (c) atomic_init(&c->count, 0);
    return c;
}

static void k1_destroy(void *obj) { free(obj); }

static lf_kind k1_op(void *obj, lf_method m, const int64_t *args, int64_t *value) {
    k1_counter *c = obj;
    (void)args;
    if (m == LF_M_INC) {
        int64_t v = atomic_load_explicit(&c->count, memory_order_relaxed);
        LF_YIELD();
        atomic_store_explicit(&c->count, v + 1, memory_order_relaxed);
        return LF_K_NONE;
    }
    *value = atomic_load_explicit(&c->count, memory_order_relaxed);
    return LF_K_INT;
}

static uint64_t k1_counter_fingerprint(void *obj) {
    return lf_fp_mix((uint64_t)atomic_load(&((k1_counter *)obj)->count));
}

const lf_adapter lf_adapter_k1_counter_lost_update = {
    .name = "k1_counter_lost_update",
    .summary = "K1: counter whose inc is load-then-store (two overlapping incs count once)",
    .type = LF_TYPE_COUNTER,
    .linearizable = false,
    .deterministic = true,
    .fingerprint = k1_counter_fingerprint,
    .methods = LF_METHOD_BIT(LF_M_INC) | LF_METHOD_BIT(LF_M_GET),
    .create = k1_create,
    .destroy = k1_destroy,
    .op = k1_op,
};
LF_REGISTER_ADAPTER(lf_adapter_k1_counter_lost_update);
