/* Registry of every adapter linked into this build: correct ones first, then the known-buggy ones, then the
 * library-backed ones whose libraries were found at configure time (LINFUZZ_HAVE_CK, LINFUZZ_HAVE_URCU). */
#include <string.h>

#include "adapter.h"

#define ADAPTERS_CORRECT(X)                                                                       \
    X(mutex_register) X(mutex_cas_register) X(mutex_counter) X(mutex_set) X(mutex_stack)           \
    X(mutex_queue) X(mutex_pqueue) X(mutex_kv) X(atomic_register) X(atomic_cas_register)           \
    X(atomic_counter) X(cas_counter) X(treiber_stack) X(ms_queue) X(harris_list_set) X(heap_pqueue)
/* The correct twins of the known-buggy adapters share their file (same code, bug switched off). */
#define ADAPTERS_TWINS(X)                                                                          \
    X(lock_queue) X(hit_count_cas_register) X(afek_stack) X(rwlock_list_set) X(optimistic_list_set)  \
    X(treiber_tag32) X(elim_stack) X(seqlock_register) X(harris_list_marked)
#define ADAPTERS_BUGGY(X)                                                                          \
    X(k1_counter_lost_update) X(k3_trylock_queue) X(k4_reread_cas_register) X(r1_afek_stack_no_swap) \
    X(r2_rwlock_list_add) X(r2_rwlock_list_remove) X(r3_optimistic_list_add)                        \
    X(r3_optimistic_list_remove) X(scal_k_fifo) X(scal_k_stack) X(treiber_aba) X(ms_queue_lost_tail)      \
    X(treiber_tag_wrap) X(elim_stack_takes_claimed) X(seqlock_register_no_recheck)                     \
    X(harris_list_unmarked_remove)
#ifdef LINFUZZ_HAVE_CK
#define ADAPTERS_CK(X) X(ck_fifo_mpmc) X(ck_stack_upmc) X(ck_stack_mpmc) X(ck_hs_set)
#else
#define ADAPTERS_CK(X)
#endif
#ifdef LINFUZZ_HAVE_URCU
#define ADAPTERS_URCU(X) X(urcu_lfstack) X(urcu_wfcqueue) X(urcu_lfht_set)
#else
#define ADAPTERS_URCU(X)
#endif
#define ALL_ADAPTERS(X) ADAPTERS_CORRECT(X) ADAPTERS_TWINS(X) ADAPTERS_BUGGY(X) ADAPTERS_CK(X) ADAPTERS_URCU(X)

#define DECLARE(id) extern const lf_adapter lf_adapter_##id;
ALL_ADAPTERS(DECLARE)
#define ENTRY(id) &lf_adapter_##id,
static const lf_adapter *const ADAPTERS[] = {ALL_ADAPTERS(ENTRY)};
#define N_ADAPTERS (sizeof ADAPTERS / sizeof ADAPTERS[0])

size_t lf_adapter_count(void) { return N_ADAPTERS; }

const lf_adapter *lf_adapter_at(size_t i) { return i < N_ADAPTERS ? ADAPTERS[i] : NULL; }

const lf_adapter *lf_adapter_find(const char *name) {
    for (size_t i = 0; i < N_ADAPTERS; i++)
        if (!strcmp(ADAPTERS[i]->name, name)) return ADAPTERS[i];
    return NULL;
}
