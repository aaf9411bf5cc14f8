/* The library of toy_counter.h. Relaxed atomics: the lost update is a logic error, not undefined behaviour. */
#include "toy_counter.h"

void toy_inc(toy_counter *c) {
    int64_t v = __atomic_load_n(&c->value, __ATOMIC_RELAXED);
    __atomic_store_n(&c->value, v + 1, __ATOMIC_RELAXED); /* not atomic with the load: the bug */
}

int64_t toy_get(const toy_counter *c) { return __atomic_load_n(&c->value, __ATOMIC_RELAXED); }
