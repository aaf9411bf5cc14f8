/* A single-producer single-consumer ring (the shape of DPDK's, FreeBSD's buf_ring, the JACK ring buffer):
 * the producer writes a slot, then publishes it by storing the new tail; the consumer reads the tail, then the
 * slot, then frees it by storing the new head. The slots are plain memory: what makes the consumer's read of
 * a slot see the producer's write is the tail's release store and the consumer's acquire load of it.
 *
 * Bugs of one memory order each (docs/memory-models.md; found only under a weak model, never sc):
 *  - spsc_ring_relaxed_publish: the producer's tail store is relaxed (line PUBLISH below): the consumer may see
 *    the new tail and still read the slot's old contents (message passing, MP). c11 only: x86 keeps stores in
 *    order.
 *  - spsc_ring_relaxed_consume: the consumer's tail load is relaxed (line CONSUME below): same effect from the
 *    reading side (a load-load reordering).
 * Correct twin: spsc_ring (release / acquire), which differs only in those two orders. enq belongs to one
 * worker, deq to another (exclusive groups). */
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>

#include "common/variants.h"
#include "linfuzz/adapter.h"

#define RING_CAP 4

typedef struct spsc_ring {
    _Atomic uint64_t head; /* the next slot the consumer reads */
    _Atomic uint64_t tail; /* the next slot the producer writes */
    int64_t slot[RING_CAP];
    memory_order publish; /* the producer's tail store */
    memory_order consume; /* the consumer's tail load */
} spsc_ring;

enum { RING_OK, RING_RELAXED_PUBLISH, RING_RELAXED_CONSUME };

static void *create_with(size_t max_ops, int variant) {
    (void)max_ops;
    spsc_ring *r = calloc(1, sizeof *r);
    if (!r) return NULL;
    atomic_init(&r->head, 0);
    atomic_init(&r->tail, 0);
    r->publish = variant == RING_RELAXED_PUBLISH ? memory_order_relaxed : memory_order_release;
    r->consume = variant == RING_RELAXED_CONSUME ? memory_order_relaxed : memory_order_acquire;
    return r;
}

static void ring_destroy(void *obj) { free(obj); }

static lf_kind ring_op(void *obj, lf_method m, const int64_t *args, int64_t *value) {
    spsc_ring *r = obj;
    if (m == LF_M_ENQ) {
        uint64_t t = atomic_load_explicit(&r->tail, memory_order_relaxed); /* its own */
        uint64_t h = atomic_load_explicit(&r->head, memory_order_acquire);
        if (t - h == RING_CAP) return LF_K_FULL;
        r->slot[t % RING_CAP] = args[0];
        atomic_store_explicit(&r->tail, t + 1, r->publish); /* PUBLISH: must be release */
        return LF_K_NONE;
    }
    uint64_t h = atomic_load_explicit(&r->head, memory_order_relaxed); /* its own */
    uint64_t t = atomic_load_explicit(&r->tail, r->consume);          /* CONSUME: must be acquire */
    if (h == t) return LF_K_EMPTY;
    *value = r->slot[h % RING_CAP];
    atomic_store_explicit(&r->head, h + 1, memory_order_release);
    return LF_K_INT;
}

LF_VARIANT_CREATE(ring_create, create_with, RING_OK)
LF_VARIANT_CREATE(ring_relaxed_publish_create, create_with, RING_RELAXED_PUBLISH)
LF_VARIANT_CREATE(ring_relaxed_consume_create, create_with, RING_RELAXED_CONSUME)

#define RING_METHODS (LF_METHOD_BIT(LF_M_ENQ) | LF_METHOD_BIT(LF_M_DEQ))
#define RING_FIELDS                                                                                                    \
    .type = LF_TYPE_QUEUE, .methods = RING_METHODS, .capacity = RING_CAP,                                              \
    .exclusive = {LF_METHOD_BIT(LF_M_ENQ), LF_METHOD_BIT(LF_M_DEQ)}, .destroy = ring_destroy, .op = ring_op

LF_DEFINE_VARIANT(spsc_ring, true, ring_create,
    "single-producer single-consumer ring of 4 plain slots, release/acquire tail", RING_FIELDS);
LF_DEFINE_VARIANT(spsc_ring_relaxed_publish, false, ring_relaxed_publish_create,
    "SPSC ring whose producer publishes the tail with a relaxed store: the consumer can read a stale slot",
    RING_FIELDS);
LF_DEFINE_VARIANT(spsc_ring_relaxed_consume, false, ring_relaxed_consume_create,
    "SPSC ring whose consumer loads the tail relaxed (not acquire): it can read a stale slot", RING_FIELDS);
