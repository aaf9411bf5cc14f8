/* Concurrency Kit ck_ring: a bounded ring of pointers, in its single-producer/single-consumer and its
 * multi-producer/multi-consumer disciplines, as ck_ring(3) and ck's regression tests use it
 * (regressions/ck_ring/validate/ck_ring_spsc.c, ck_ring_mpmc.c): ck_ring_init(ring, size) with a power-of-two
 * size over the caller's ck_ring_buffer_t array; enqueue answers false when the ring is full (it holds size - 1
 * entries: the linfuzz capacity), dequeue false when it is empty.
 *
 * ck_ring_spsc: ck_ring_enqueue_spsc / ck_ring_dequeue_spsc, one producer thread and one consumer thread
 * (exclusive groups: enq belongs to worker 0, deq to worker 1, docs/writing-an-adapter.md).
 * ck_ring_spsc_shared (misuse): the same single-producer functions called by every thread: two producers write
 * the same slot and one value is lost, two consumers take the same one.
 * ck_ring_mpmc: ck_ring_enqueue_mpmc / ck_ring_dequeue_mpmc from every thread. A producer reserves its slot
 * (CAS on p_head), writes it, then waits until the producers before it have published (p_tail): a reserved but
 * unpublished slot counts as taken for the full test of other producers and not yet as present for the
 * consumers, so a full answer can lag behind an enqueue in flight (found in 0.2 s on a 4-slot ring: enq -> full
 * beside an unpublished enqueue, then every value dequeued and an empty answer). ck does not document its
 * MPMC full answers as linearizable (ck's MPMC regression test checks per-producer order and single delivery),
 * and linfuzz cannot yet take a weaker contract for them: until it can, the ring has RING_MPMC_SIZE slots, more
 * than the calls of any run, so that it never fills, and every other answer is held to linearizability. */
#include <ck_ring.h>
#include <stdint.h>
#include <stdlib.h>

#include "linfuzz/adapter.h"

#define RING_SIZE 4         /* a power of two; the ring holds RING_SIZE - 1 entries */
#define RING_MPMC_SIZE 4096 /* more than the concurrent calls of a run (2048): the MPMC ring never fills */

typedef struct ring_object {
    ck_ring_t ring;
    ck_ring_buffer_t buffer[]; /* size slots */
} ring_object;

static void *ring_create_sized(unsigned size) {
    ring_object *o = aligned_alloc(64, (sizeof(ring_object) + size * sizeof(ck_ring_buffer_t) + 63) / 64 * 64);
    if (!o) return NULL;
    ck_ring_init(&o->ring, size);
    return o;
}

static void *ring_create(size_t max_ops) {
    (void)max_ops;
    return ring_create_sized(RING_SIZE);
}

static void *ring_mpmc_create(size_t max_ops) {
    (void)max_ops;
    return ring_create_sized(RING_MPMC_SIZE);
}

static void ring_destroy(void *obj) { free(obj); }

static lf_kind ring_spsc_op(void *obj, lf_method m, const int64_t *args, int64_t *value) {
    ring_object *o = obj;
    if (m == LF_M_ENQ) return ck_ring_enqueue_spsc(&o->ring, o->buffer, (void *)(intptr_t)args[0]) ? LF_K_NONE : LF_K_FULL;
    void *v;
    if (!ck_ring_dequeue_spsc(&o->ring, o->buffer, &v)) return LF_K_EMPTY;
    *value = (int64_t)(intptr_t)v;
    return LF_K_INT;
}

static lf_kind ring_mpmc_op(void *obj, lf_method m, const int64_t *args, int64_t *value) {
    ring_object *o = obj;
    if (m == LF_M_ENQ) return ck_ring_enqueue_mpmc(&o->ring, o->buffer, (void *)(intptr_t)args[0]) ? LF_K_NONE : LF_K_FULL;
    void *v;
    if (!ck_ring_dequeue_mpmc(&o->ring, o->buffer, &v)) return LF_K_EMPTY;
    *value = (int64_t)(intptr_t)v;
    return LF_K_INT;
}

const lf_adapter lf_adapter_ck_ring_spsc = {
    .name = "ck_ring_spsc",
    .summary = "Concurrency Kit ck_ring, single producer (worker 0) and single consumer (worker 1), 3 entries",
    .type = LF_TYPE_QUEUE,
    .linearizable = true,
    .deterministic = true,
    .capacity = RING_SIZE - 1,
    .methods = LF_METHOD_BIT(LF_M_ENQ) | LF_METHOD_BIT(LF_M_DEQ),
    .exclusive = {LF_METHOD_BIT(LF_M_ENQ), LF_METHOD_BIT(LF_M_DEQ)},
    .create = ring_create,
    .destroy = ring_destroy,
    .op = ring_spsc_op,
};
LF_REGISTER_ADAPTER(lf_adapter_ck_ring_spsc);

const lf_adapter lf_adapter_ck_ring_spsc_shared = {
    .name = "ck_ring_spsc_shared",
    .summary = "ck_ring misuse: the single-producer/single-consumer functions called from every thread",
    .type = LF_TYPE_QUEUE,
    .linearizable = false,
    .deterministic = true,
    .capacity = RING_SIZE - 1,
    .methods = LF_METHOD_BIT(LF_M_ENQ) | LF_METHOD_BIT(LF_M_DEQ),
    .create = ring_create,
    .destroy = ring_destroy,
    .op = ring_spsc_op,
};
LF_REGISTER_ADAPTER(lf_adapter_ck_ring_spsc_shared);

const lf_adapter lf_adapter_ck_ring_mpmc = {
    .name = "ck_ring_mpmc",
    .summary = "Concurrency Kit ck_ring, multi-producer/multi-consumer (4095 entries: never full in a run)",
    .type = LF_TYPE_QUEUE,
    .linearizable = true,
    .deterministic = true,
    .capacity = RING_MPMC_SIZE - 1,
    .methods = LF_METHOD_BIT(LF_M_ENQ) | LF_METHOD_BIT(LF_M_DEQ),
    .create = ring_mpmc_create,
    .destroy = ring_destroy,
    .op = ring_mpmc_op,
};
LF_REGISTER_ADAPTER(lf_adapter_ck_ring_mpmc);
