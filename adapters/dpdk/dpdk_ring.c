/* DPDK rte_ring (Debian's libdpdk-dev 22.11) as a queue of pointers, without the EAL: a ring laid out by
 * rte_ring_init on the adapter's own memory (rte_ring_get_memsize bytes, cache-line aligned), as the DPDK
 * programmer's guide allows for rings in caller-provided memory, driven through rte_ring_enqueue and
 * rte_ring_dequeue, which follow the synchronisation mode the ring was created with. DPDK's atomics are compiler
 * atomics here (dpdk_atomics.h, RTE_USE_C11_MEM_MODEL, RTE_FORCE_INTRINSICS): every step of the ring is a
 * scheduling point.
 *
 * Modes (flags of rte_ring_init):
 *   dpdk_ring_spsc       RING_F_SP_ENQ | RING_F_SC_DEQ: one producer (worker 0), one consumer (worker 1), 4 slots
 *                        (3 entries): full and empty answers are exact.
 *   dpdk_ring_spsc_shared (misuse) the same single-producer/single-consumer ring used by every thread: two
 *                        producers claim the same slot (the misuse of the issue that reported it, found in 0.2 s).
 *   dpdk_ring_mpmc       the default multi-producer/multi-consumer mode;
 *   dpdk_ring_rts        RING_F_MP_RTS_ENQ | RING_F_MC_RTS_DEQ (relaxed tail sync): the tail moves only when the
 *                        last of the producers (consumers) in flight finishes, so a value whose enqueue returned
 *                        is not dequeued while another enqueue is in flight (found in 0.15 s: an empty answer
 *                        beside it). That is the mode's design, documented by DPDK, not a bug: the adapter is
 *                        marked not linearizable (like the relaxed scal adapters) until linfuzz can check its
 *                        weaker contract (a returned insert counts only once no insert is in flight);
 *   dpdk_ring_hts        RING_F_MP_HTS_ENQ | RING_F_MC_HTS_DEQ (head/tail sync: one operation at a time).
 * In the multi-producer modes a producer reserves its slots (head), writes them, then publishes (tail) after the
 * producers before it: a reserved, unpublished slot counts as taken for other producers' full test and not yet as
 * present for consumers (and the other way round for consumers), so a full or empty answer may lag an operation
 * in flight. DPDK does not promise linearizable full/empty answers, and linfuzz cannot yet take that weaker
 * contract (issue 23, item 1): until it can, these rings have 4096 slots, more than the calls of any run, so they
 * never fill, and every other answer is held to linearizability.
 *
 * Bulk and burst (the *_bulk twins): the same modes driven also through rte_ring_enqueue_bulk / _burst and
 * rte_ring_dequeue_bulk / _burst with 1 to 4 values (each follows the ring's synchronisation mode, as rte_ring_enqueue
 * does), on rings of 8 slots (7 entries) so that full answers come up, each declared with the contract DPDK promises
 * (docs/contracts.md): a producer's room test reads the consumers' tail, which moves only when the dequeues in
 * flight finish (and the other way round), so every mode's full and empty answers may lag operations in flight:
 * lagging-full-empty for MP/MC, HTS and SP/SC; RTS moves a tail only when the last operation in flight on its side
 * finishes, so a returned operation counts only once its side was quiescent: quiescent-full-empty. A bulk
 * enqueue reserves its n slots with one head move and publishes them with one tail move, so no dequeue sees part
 * of it: the order is the exact one, each bulk call one atomic step.
 *   dpdk_ring_spsc_bulk         SP/SC, worker 0 the producer, worker 1 the consumer (every enq and deq method);
 *   dpdk_ring_spsc_shared_bulk  (misuse) the SP/SC ring used by every thread;
 *   dpdk_ring_mpmc_bulk, dpdk_ring_hts_bulk, dpdk_ring_rts_bulk.
 * dpdk_ring_mpmc_bulk is marked not linearizable: under the C11 model (docs/memory-models.md) its dequeues read
 * slot values that were never, or no longer, in the ring, while it is clean under sc and tso. Our reading (not
 * confirmed by linfuzz rootcause, which found no single region): __rte_ring_update_tail waits for the earlier
 * producers with a relaxed load of the tail before its release store, so a consumer that acquires the last
 * producer's tail synchronises with that producer only, not with the earlier ones whose slots it then reads: a
 * C11 data race, harmless on hardware whose release is cumulative (x86, ARMv8). Debian's 22.11.11 has the head/tail
 * fix of upstream a4ad0eba, not this. The 4096-slot dpdk_ring_mpmc shows the same under c11 in its fuzz target
 * (a dequeue returns 0, the never-written slot's first value); it is left as it was declared. */
#include <errno.h>
#include <rte_ring.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "linfuzz/adapter.h"

#define SMALL_RING 4  /* SP/SC: 3 entries */
#define BULK_RING 8   /* the bulk twins: 7 entries */
#define LARGE_RING 4096 /* multi-producer modes: more than the concurrent calls of a run (2048) */

static void *ring_create(unsigned count, unsigned flags) {
    ssize_t size = rte_ring_get_memsize(count);
    if (size < 0) return NULL;
    struct rte_ring *r = aligned_alloc(RTE_CACHE_LINE_SIZE, ((size_t)size + RTE_CACHE_LINE_SIZE - 1) /
                                                              RTE_CACHE_LINE_SIZE * RTE_CACHE_LINE_SIZE);
    if (!r) return NULL;
    memset(r, 0, (size_t)size);
    if (rte_ring_init(r, "linfuzz", count, flags) != 0) {
        free(r);
        return NULL;
    }
    return r;
}

static void *spsc_create(size_t max_ops) {
    (void)max_ops;
    return ring_create(SMALL_RING, RING_F_SP_ENQ | RING_F_SC_DEQ);
}
static void *mpmc_create(size_t max_ops) {
    (void)max_ops;
    return ring_create(LARGE_RING, 0);
}
static void *rts_create(size_t max_ops) {
    (void)max_ops;
    return ring_create(LARGE_RING, RING_F_MP_RTS_ENQ | RING_F_MC_RTS_DEQ);
}
static void *hts_create(size_t max_ops) {
    (void)max_ops;
    return ring_create(LARGE_RING, RING_F_MP_HTS_ENQ | RING_F_MC_HTS_DEQ);
}

static void *spsc_bulk_create(size_t max_ops) {
    (void)max_ops;
    return ring_create(BULK_RING, RING_F_SP_ENQ | RING_F_SC_DEQ);
}
static void *mpmc_bulk_create(size_t max_ops) {
    (void)max_ops;
    return ring_create(BULK_RING, 0);
}
static void *rts_bulk_create(size_t max_ops) {
    (void)max_ops;
    return ring_create(BULK_RING, RING_F_MP_RTS_ENQ | RING_F_MC_RTS_DEQ);
}
static void *hts_bulk_create(size_t max_ops) {
    (void)max_ops;
    return ring_create(BULK_RING, RING_F_MP_HTS_ENQ | RING_F_MC_HTS_DEQ);
}

static void ring_destroy(void *obj) { free(obj); }

static lf_kind ring_op(void *obj, lf_method m, const int64_t *args, int64_t *value) { /* enq, deq */
    struct rte_ring *r = obj;
    if (m == LF_M_ENQ) return rte_ring_enqueue(r, (void *)(intptr_t)args[0]) == 0 ? LF_K_NONE : LF_K_FULL;
    void *v;
    if (rte_ring_dequeue(r, &v) != 0) return LF_K_EMPTY;
    *value = (int64_t)(intptr_t)v;
    return LF_K_INT;
}

/* The bulk and burst calls (adapter.h: lf_adapter_bulk_fn), through the ring's own mode. gcc with the sanitizers
 * reports objs as maybe uninitialized inside DPDK's unrolled copy loop, initialised as it is: a false report. */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
static lf_kind ring_bulk_op(void *obj, lf_method m, unsigned n, const int64_t *in, int64_t *out, unsigned *moved) {
    struct rte_ring *r = obj;
    void *objs[LF_BULK_MAX] = {0};
    if (n > LF_BULK_MAX) n = LF_BULK_MAX;
    if (m == LF_M_ENQ_BULK || m == LF_M_ENQ_BURST) {
        for (unsigned i = 0; i < n; i++) objs[i] = (void *)(intptr_t)in[i];
        *moved = m == LF_M_ENQ_BULK ? rte_ring_enqueue_bulk(r, objs, n, NULL) : rte_ring_enqueue_burst(r, objs, n, NULL);
        return m == LF_M_ENQ_BURST ? LF_K_INT : *moved ? LF_K_NONE : LF_K_FULL;
    }
    *moved = m == LF_M_DEQ_BULK ? rte_ring_dequeue_bulk(r, objs, n, NULL) : rte_ring_dequeue_burst(r, objs, n, NULL);
    for (unsigned i = 0; i < *moved; i++) out[i] = (int64_t)(intptr_t)objs[i];
    return *moved ? LF_K_INT : LF_K_EMPTY;
}
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif

#define BULK_METHODS                                                                                               \
    (LF_METHOD_BIT(LF_M_ENQ) | LF_METHOD_BIT(LF_M_DEQ) | LF_METHOD_BIT(LF_M_ENQ_BULK) |                            \
     LF_METHOD_BIT(LF_M_ENQ_BURST) | LF_METHOD_BIT(LF_M_DEQ_BULK) | LF_METHOD_BIT(LF_M_DEQ_BURST))

#define DPDK_RING_BULK(ident, create_, linearizable_, exclusive_, full_empty_, summary_)                              \
    const lf_adapter lf_adapter_##ident = {.name = #ident,                                                           \
                                           .summary = summary_,                                                      \
                                           .type = LF_TYPE_QUEUE,                                                    \
                                           .linearizable = linearizable_,                                            \
                                           .deterministic = true,                                                    \
                                           .capacity = BULK_RING - 1,                                                \
                                           .methods = BULK_METHODS,                                                  \
                                           .exclusive = exclusive_,                                                  \
                                           .create = create_,                                                        \
                                           .destroy = ring_destroy,                                                  \
                                           .op = ring_op,                                                            \
                                           .bulk_op = ring_bulk_op,                                                  \
                                           .contract = {.full_empty = full_empty_}};                                 \
    LF_REGISTER_ADAPTER(lf_adapter_##ident)

#define DPDK_RING(ident, create_, capacity_, linearizable_, exclusive_, summary_)                                     \
    const lf_adapter lf_adapter_##ident = {.name = #ident,                                                           \
                                           .summary = summary_,                                                      \
                                           .type = LF_TYPE_QUEUE,                                                    \
                                           .linearizable = linearizable_,                                            \
                                           .deterministic = true,                                                    \
                                           .capacity = capacity_,                                                    \
                                           .methods = LF_METHOD_BIT(LF_M_ENQ) | LF_METHOD_BIT(LF_M_DEQ),             \
                                           .exclusive = exclusive_,                                                  \
                                           .create = create_,                                                        \
                                           .destroy = ring_destroy,                                                  \
                                           .op = ring_op};                                                           \
    LF_REGISTER_ADAPTER(lf_adapter_##ident)

#define ROLES {LF_METHOD_BIT(LF_M_ENQ), LF_METHOD_BIT(LF_M_DEQ)}
#define NO_ROLES {0}

DPDK_RING(dpdk_ring_spsc, spsc_create, SMALL_RING - 1, true, ROLES,
          "DPDK rte_ring, single producer (worker 0) and single consumer (worker 1), 3 entries");
DPDK_RING(dpdk_ring_spsc_shared, spsc_create, SMALL_RING - 1, false, NO_ROLES,
          "DPDK rte_ring misuse: a single-producer/single-consumer ring used by every thread");
DPDK_RING(dpdk_ring_mpmc, mpmc_create, LARGE_RING - 1, false, NO_ROLES,
          "DPDK rte_ring, multi-producer/multi-consumer (4095 entries: never full in a run): under the C11 model a "
          "dequeue reads a slot an earlier producer wrote without happening after it (the tail wait is relaxed); "
          "clean under sc and tso");
DPDK_RING(dpdk_ring_rts, rts_create, LARGE_RING - 1, false, NO_ROLES,
          "DPDK rte_ring, relaxed tail sync (RTS): relaxed by design, a returned enqueue is seen only once no other "
          "is in flight (4095 entries)");
DPDK_RING(dpdk_ring_hts, hts_create, LARGE_RING - 1, true, NO_ROLES,
          "DPDK rte_ring, head/tail sync (HTS) producers and consumers (4095 entries)");

#define BULK_ROLES                                                                                                   \
    {LF_METHOD_BIT(LF_M_ENQ) | LF_METHOD_BIT(LF_M_ENQ_BULK) | LF_METHOD_BIT(LF_M_ENQ_BURST),                         \
     LF_METHOD_BIT(LF_M_DEQ) | LF_METHOD_BIT(LF_M_DEQ_BULK) | LF_METHOD_BIT(LF_M_DEQ_BURST)}

DPDK_RING_BULK(dpdk_ring_spsc_bulk, spsc_bulk_create, true, BULK_ROLES, LF_FULL_EMPTY_LAGGING,
               "DPDK rte_ring SP/SC with bulk and burst calls, producer worker 0, consumer worker 1, 7 entries "
               "(lagging-full-empty)");
DPDK_RING_BULK(dpdk_ring_spsc_shared_bulk, spsc_bulk_create, false, NO_ROLES, LF_FULL_EMPTY_LAGGING,
               "DPDK rte_ring misuse: an SP/SC ring with bulk and burst calls used by every thread");
DPDK_RING_BULK(dpdk_ring_mpmc_bulk, mpmc_bulk_create, false, NO_ROLES, LF_FULL_EMPTY_LAGGING,
               "DPDK rte_ring MP/MC with bulk and burst calls, 7 entries (lagging-full-empty): under the C11 model a "
               "dequeue reads a slot an earlier producer wrote without happening after it (a data race: the tail "
               "wait is relaxed); clean under sc and tso");
DPDK_RING_BULK(dpdk_ring_hts_bulk, hts_bulk_create, true, NO_ROLES, LF_FULL_EMPTY_LAGGING,
               "DPDK rte_ring HTS with bulk and burst calls, 7 entries (lagging-full-empty)");
DPDK_RING_BULK(dpdk_ring_rts_bulk, rts_bulk_create, true, NO_ROLES, LF_FULL_EMPTY_QUIESCENT,
               "DPDK rte_ring RTS with bulk and burst calls, 7 entries (quiescent-full-empty)");
