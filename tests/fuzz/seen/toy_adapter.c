/* Adapters of tests/fuzz/test_seen.sh (what the start-of-campaign probe sees, testcase/probe.h):
 *   TOY_NAME (a counter over toy_counter.h: the same file in both targets, the library instrumented or not);
 *   with ASM_COUNTER also asm_counter, a correct counter whose increment is `lock xadd` in inline assembly,
 *   invisible to the scheduler. */
#include <stdlib.h>

#include "linfuzz/adapter.h"
#include "toy_counter.h"

static void *toy_create(size_t max_ops) {
    (void)max_ops;
    return calloc(1, sizeof(toy_counter));
}

static void toy_destroy(void *obj) { free(obj); }

static lf_kind toy_op(void *obj, lf_method m, const int64_t *args, int64_t *value) {
    (void)args;
    if (m == LF_M_INC) {
        toy_inc(obj);
        return LF_K_NONE;
    }
    *value = toy_get(obj);
    return LF_K_INT;
}

const lf_adapter toy_adapter = {
    .name = TOY_NAME, .summary = "toy counter library: increment is a load and a store (lost update)",
    .type = LF_TYPE_COUNTER, .linearizable = false, .methods = LF_METHOD_BIT(LF_M_INC) | LF_METHOD_BIT(LF_M_GET),
    .create = toy_create, .destroy = toy_destroy, .op = toy_op,
};
LF_REGISTER_ADAPTER(toy_adapter);

#ifdef ASM_COUNTER
static lf_kind asm_op(void *obj, lf_method m, const int64_t *args, int64_t *value) {
    (void)args;
    int64_t *c = obj;
    if (m == LF_M_INC) {
#if defined(__x86_64__)
        int64_t one = 1;
        __asm__ __volatile__("lock; xaddq %0, %1" : "+r"(one), "+m"(*c) : : "memory");
#else
        __atomic_fetch_add(c, 1, __ATOMIC_SEQ_CST);
#endif
        return LF_K_NONE;
    }
    *value = __atomic_load_n(c, __ATOMIC_SEQ_CST);
    return LF_K_INT;
}

const lf_adapter asm_adapter = {
    .name = "asm_counter", .summary = "a counter incremented by lock xadd in inline assembly",
    .type = LF_TYPE_COUNTER, .linearizable = true, .methods = LF_METHOD_BIT(LF_M_INC) | LF_METHOD_BIT(LF_M_GET),
    .create = toy_create, .destroy = toy_destroy, .op = asm_op,
};
LF_REGISTER_ADAPTER(asm_adapter);
#endif
