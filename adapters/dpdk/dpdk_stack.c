/* DPDK rte_stack (Debian's libdpdk-dev 22.11), lock-based and lock-free, without the EAL. rte_stack_create needs
 * the EAL's memzones, so the adapter lays the stack out on its own memory as rte_stack_create does (lib/stack:
 * rte_stack_get_memsize's size, rte_stack_std_init's spinlock, rte_stack_lf_init's free list of every element)
 * and then uses the public API only: rte_stack_push and rte_stack_pop of one object, which answer 0 when the
 * stack is full or empty. DPDK's atomics are compiler atomics here (dpdk_atomics.h: the lock-free stack's
 * 16-byte CAS and the spinlock are scheduling points).
 *
 * dpdk_stack_std: RTE stack with a spinlock, 4 entries: every answer, full and empty included, is exact.
 * dpdk_stack_lf: RTE_STACK_F_LF, the lock-free stack. Its length is a separate counter: a push links its element
 * and then adds to the length, a pop first takes from the length and then unlinks whatever element is on top
 * then, so the length lags the list: a pop that took the last unit of length makes another pop answer empty,
 * and then unlinks a value pushed after that answer (found in 0.6 s: push a; [pop -> b], pop -> empty, push b,
 * with a never removed). DPDK does not promise linearizable empty answers from it: the adapter is marked not
 * linearizable (like the relaxed scal adapters) until linfuzz can check its weaker contract; the stack has 4096
 * elements (never full in a run). */
#include <rte_stack.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "linfuzz/adapter.h"

#define STD_CAPACITY 4
#define LF_CAPACITY 4096 /* more than the concurrent calls of a run (2048) */

static size_t round_line(size_t n) { return (n + RTE_CACHE_LINE_SIZE - 1) / RTE_CACHE_LINE_SIZE * RTE_CACHE_LINE_SIZE; }

static void *stack_create(unsigned count, bool lock_free) {
    /* rte_stack_std_get_memsize / rte_stack_lf_get_memsize */
    size_t size = sizeof(struct rte_stack) +
                  round_line(count * (lock_free ? sizeof(struct rte_stack_lf_elem) : sizeof(void *))) +
                  2 * RTE_CACHE_LINE_SIZE;
    struct rte_stack *s = aligned_alloc(RTE_CACHE_LINE_SIZE, round_line(size));
    if (!s) return NULL;
    memset(s, 0, size);
    snprintf(s->name, sizeof s->name, "linfuzz");
    s->capacity = count;
    s->flags = lock_free ? RTE_STACK_F_LF : 0;
    if (lock_free) /* rte_stack_lf_init */
        for (unsigned i = 0; i < count; i++)
            __rte_stack_lf_push_elems(&s->stack_lf.free, &s->stack_lf.elems[i], &s->stack_lf.elems[i], 1);
    else /* rte_stack_std_init */
        rte_spinlock_init(&s->stack_std.lock);
    return s;
}

static void *std_create(size_t max_ops) {
    (void)max_ops;
    return stack_create(STD_CAPACITY, false);
}

static void *lf_create(size_t max_ops) {
    (void)max_ops;
    return stack_create(LF_CAPACITY, true);
}

static void stack_destroy(void *obj) { free(obj); }

static lf_kind stack_op(void *obj, lf_method m, const int64_t *args, int64_t *value) {
    struct rte_stack *s = obj;
    if (m == LF_M_PUSH) {
        void *v = (void *)(intptr_t)args[0];
        return rte_stack_push(s, &v, 1) == 1 ? LF_K_NONE : LF_K_FULL;
    }
    void *v;
    if (rte_stack_pop(s, &v, 1) != 1) return LF_K_EMPTY;
    *value = (int64_t)(intptr_t)v;
    return LF_K_INT;
}

const lf_adapter lf_adapter_dpdk_stack_std = {
    .name = "dpdk_stack_std",
    .summary = "DPDK rte_stack with its spinlock, 4 entries",
    .type = LF_TYPE_STACK,
    .linearizable = true,
    .deterministic = true,
    .capacity = STD_CAPACITY,
    .methods = LF_METHOD_BIT(LF_M_PUSH) | LF_METHOD_BIT(LF_M_POP),
    .create = std_create,
    .destroy = stack_destroy,
    .op = stack_op,
};
LF_REGISTER_ADAPTER(lf_adapter_dpdk_stack_std);

const lf_adapter lf_adapter_dpdk_stack_lf = {
    .name = "dpdk_stack_lf",
    .summary = "DPDK rte_stack, lock-free (RTE_STACK_F_LF): relaxed by design, its length lags its list, so an "
               "empty answer may lag a pop in flight (4096 elements)",
    .type = LF_TYPE_STACK,
    .linearizable = false,
    .deterministic = true,
    .capacity = LF_CAPACITY,
    .methods = LF_METHOD_BIT(LF_M_PUSH) | LF_METHOD_BIT(LF_M_POP),
    .create = lf_create,
    .destroy = stack_destroy,
    .op = stack_op,
};
LF_REGISTER_ADAPTER(lf_adapter_dpdk_stack_lf);
