/* Force-included into the DPDK adapters (adapters/CMakeLists.txt), after rte_config.h: DPDK's atomics as compiler
 * atomics, so that the controlled scheduler sees them (docs/scheduling.md, "Seeing library code").
 *
 * DPDK's x86 headers implement rte_atomic*_cmpset, rte_atomic*_add & co. and rte_spinlock in inline assembly
 * (lock cmpxchg, lock xadd, xchg) unless RTE_FORCE_INTRINSICS is defined, and the rings use them unless
 * RTE_USE_C11_MEM_MODEL selects the __atomic versions (rte_ring_c11_pvt.h); both are defined on the command line.
 * rte_atomic128_cmp_exchange, the lock-free stack's 16-byte CAS, is inline assembly (lock cmpxchg16b) whatever is
 * defined: it is replaced here, before rte_stack.h uses it, by the same operation on a compiler builtin (the
 * instrumentation turns it into __tsan_atomic128_compare_exchange_val; needs -mcx16). */
#ifndef LINFUZZ_DPDK_ATOMICS_H
#define LINFUZZ_DPDK_ATOMICS_H

#include <rte_atomic.h>

static inline int linfuzz_rte_atomic128_cmp_exchange(rte_int128_t *dst, rte_int128_t *exp, const rte_int128_t *src,
                                                     unsigned int weak, int success, int failure) {
    (void)weak;
    (void)success;
    (void)failure;
    __int128 expected, desired, seen;
    __builtin_memcpy(&expected, exp, sizeof expected);
    __builtin_memcpy(&desired, src, sizeof desired);
    seen = __sync_val_compare_and_swap((__int128 *)dst, expected, desired); /* cmpxchg16b, seq_cst */
    if (seen == expected) return 1;
    __builtin_memcpy(exp, &seen, sizeof seen);
    return 0;
}
#define rte_atomic128_cmp_exchange linfuzz_rte_atomic128_cmp_exchange

#endif
