/* The adapter of tests/fuzz/test_early_entry.sh: a counter whose code crashes in the first run after it went
 * wrong, which is the first run of the test's minimization (a controlled violation's test is minimized before
 * its entry is complete: fuzz/fuzz_adapter.c). Wrong: once an object has seen 40 calls, get answers one more
 * than the increments (a violation of any run that long, in any interleaving). Crash: every create after a
 * wrong answer raises SIGSEGV, as a use after free would in a smaller case. */
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>

#include "linfuzz/adapter.h"

typedef struct counter {
    _Atomic int64_t value, calls;
} counter;

static atomic_bool went_wrong;

static void *counter_create(size_t max_ops) {
    (void)max_ops;
    if (atomic_load(&went_wrong)) raise(SIGSEGV);
    return calloc(1, sizeof(counter));
}

static void counter_destroy(void *obj) { free(obj); }

static lf_kind counter_op(void *obj, lf_method m, const int64_t *args, int64_t *value) {
    (void)args;
    counter *c = obj;
    int64_t calls = atomic_fetch_add(&c->calls, 1) + 1;
    if (m == LF_M_INC) {
        atomic_fetch_add(&c->value, 1);
        return LF_K_NONE;
    }
    *value = atomic_load(&c->value);
    if (calls >= 40) {
        *value += 1;
        atomic_store(&went_wrong, true);
    }
    return LF_K_INT;
}

const lf_adapter crash_in_minimization = {
    .name = "crash_in_minimization",
    .summary = "a counter that answers wrong after 40 calls, then crashes in the next run",
    .type = LF_TYPE_COUNTER, .linearizable = false, .methods = LF_METHOD_BIT(LF_M_INC) | LF_METHOD_BIT(LF_M_GET),
    .create = counter_create, .destroy = counter_destroy, .op = counter_op,
};
LF_REGISTER_ADAPTER(crash_in_minimization);
