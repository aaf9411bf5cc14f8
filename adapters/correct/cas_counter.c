/* Counter incremented by a CAS loop: correct, and the complete example of docs/writing-an-adapter.md. */
#include <stdatomic.h>
#include <stdlib.h>

#include "linfuzz/adapter.h"

typedef struct cas_counter {
    _Atomic int64_t count;
} cas_counter;

static void *cas_counter_create(size_t max_ops) {
    (void)max_ops;
    cas_counter *c = malloc(sizeof *c);
    if (c) atomic_init(&c->count, 0);
    return c;
}

static void cas_counter_destroy(void *obj) { free(obj); }

static lf_kind cas_counter_op(void *obj, lf_method m, const int64_t *args, int64_t *value) {
    cas_counter *c = obj;
    (void)args;
    if (m == LF_M_INC) {
        int64_t v = atomic_load(&c->count);
        do LF_YIELD(); /* between the load and the CAS: the window other incs race into */
        while (!atomic_compare_exchange_weak(&c->count, &v, v + 1));
        return LF_K_NONE;
    }
    *value = atomic_load(&c->count); /* get */
    return LF_K_INT;
}

const lf_adapter lf_adapter_cas_counter = {
    .name = "cas_counter",
    .summary = "counter incremented by a CAS loop",
    .type = LF_TYPE_COUNTER,
    .linearizable = true,
    .deterministic = true,
    .methods = LF_METHOD_BIT(LF_M_INC) | LF_METHOD_BIT(LF_M_GET),
    .create = cas_counter_create,
    .destroy = cas_counter_destroy,
    .op = cas_counter_op,
};
LF_REGISTER_ADAPTER(lf_adapter_cas_counter);
