/* Force-included into the Concurrency Kit adapters: ck_pr with the compiler's atomic builtins
 * (CK_USE_CC_BUILTINS=1) instead of inline assembly, so that the access instrumentation of controlled mode
 * (and ThreadSanitizer) sees ck's loads, stores, CASes and fences; plus the double-width CAS that ck's
 * builtin port lacks (ck_pr_cas_ptr_2 and _value, needed by ck_fifo_mpmc and ck_stack_pop_mpmc), built on
 * the 16-byte __sync compare-and-swap (cmpxchg16b, -mcx16). Same algorithms, visible atomics. */
#ifndef LINFUZZ_CK_PR_BUILTINS_H
#define LINFUZZ_CK_PR_BUILTINS_H

#define CK_USE_CC_BUILTINS 1
#include <ck_pr.h>
#include <stdbool.h>
#include <string.h>

#if !defined(CK_F_PR_CAS_PTR_2) && defined(__SIZEOF_INT128__) && defined(__GCC_HAVE_SYNC_COMPARE_AND_SWAP_16)
#define CK_F_PR_CAS_PTR_2
#define CK_F_PR_CAS_PTR_2_VALUE

/* CAS of the 16 bytes at target (16-byte aligned) from *compare to *set; the value found goes to *value. */
static inline bool lf_ck_cas_16(void *target, const void *compare, const void *set, void *value) {
    unsigned __int128 c, s, found;
    memcpy(&c, compare, sizeof c);
    memcpy(&s, set, sizeof s);
    found = __sync_val_compare_and_swap((unsigned __int128 *)target, c, s);
    if (value) memcpy(value, &found, sizeof found);
    return found == c;
}

static inline bool ck_pr_cas_ptr_2(void *target, void *compare, void *set) {
    return lf_ck_cas_16(target, compare, set, NULL);
}

static inline bool ck_pr_cas_ptr_2_value(void *target, void *compare, void *set, void *value) {
    return lf_ck_cas_16(target, compare, set, value);
}
#endif

#endif
