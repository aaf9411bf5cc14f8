/* A single-producer multi-consumer queue whose one state word counts both the values published and the
 * values claimed: state = published << 32 | claimed. The producer writes slot[published] (plain memory), a
 * release fence, then adds 1 << 32 to the state with a relaxed fetch-add; a consumer claims the next value
 * with a relaxed compare-exchange of the state, then an acquire fence, and reads slot[claimed]. A consumer's
 * compare-exchange often reads a state written by another consumer's, not by the producer's fetch-add: it
 * still synchronises with the producer because RMWs continue release sequences (headed here by the fenced
 * fetch-add: C11 29.8p2, RC11's rs), and the acquire fence completes the synchronisation.
 *
 * Bugs of one fence each (docs/memory-models.md), found by c11 only:
 *  - relseq_queue_no_release: the producer's fence is missing (relaxed, line PUBLISH_FENCE): no release
 *    sequence starts, and a consumer can read a slot's old contents;
 *  - relseq_queue_no_acquire: the consumers' fence is missing (line CLAIM_FENCE).
 * Correct twin: relseq_queue (whose correctness in c11 needs the model's release sequences through other
 * threads' RMWs). enq belongs to one worker; every worker may deq. */
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>

#include "common/variants.h"
#include "linfuzz/adapter.h"

typedef struct relseq_queue {
    _Atomic uint64_t state; /* published << 32 | claimed */
    uint64_t published;     /* the producer's own count */
    int64_t *slot;
    size_t cap;
    memory_order publish_fence, claim_fence;
} relseq_queue;

enum { RQ_OK, RQ_NO_RELEASE, RQ_NO_ACQUIRE };

static void *create_with(size_t max_ops, int variant) {
    relseq_queue *q = calloc(1, sizeof *q);
    if (!q) return NULL;
    q->cap = max_ops + 1;
    q->slot = calloc(q->cap, sizeof *q->slot);
    if (!q->slot) {
        free(q);
        return NULL;
    }
    atomic_init(&q->state, 0);
    q->publish_fence = variant == RQ_NO_RELEASE ? memory_order_relaxed : memory_order_release;
    q->claim_fence = variant == RQ_NO_ACQUIRE ? memory_order_relaxed : memory_order_acquire;
    return q;
}

static void rq_destroy(void *obj) {
    relseq_queue *q = obj;
    free(q->slot);
    free(q);
}

static lf_kind rq_op(void *obj, lf_method m, const int64_t *args, int64_t *value) {
    relseq_queue *q = obj;
    if (m == LF_M_ENQ) {
        q->slot[q->published++] = args[0];
        atomic_thread_fence(q->publish_fence); /* PUBLISH_FENCE: must be release */
        atomic_fetch_add_explicit(&q->state, (uint64_t)1 << 32, memory_order_relaxed);
        return LF_K_NONE;
    }
    uint64_t s = atomic_load_explicit(&q->state, memory_order_relaxed);
    for (;;) {
        uint64_t claimed = s & 0xffffffffu;
        if (claimed == s >> 32) return LF_K_EMPTY;
        if (atomic_compare_exchange_weak_explicit(&q->state, &s, s + 1, memory_order_relaxed, memory_order_relaxed)) {
            atomic_thread_fence(q->claim_fence); /* CLAIM_FENCE: must be acquire */
            *value = q->slot[claimed];
            return LF_K_INT;
        }
    }
}

LF_VARIANT_CREATE(rq_create, create_with, RQ_OK)
LF_VARIANT_CREATE(rq_no_release_create, create_with, RQ_NO_RELEASE)
LF_VARIANT_CREATE(rq_no_acquire_create, create_with, RQ_NO_ACQUIRE)

#define RQ_FIELDS                                                                                                      \
    .type = LF_TYPE_QUEUE, .methods = LF_METHOD_BIT(LF_M_ENQ) | LF_METHOD_BIT(LF_M_DEQ),                               \
    .exclusive = {LF_METHOD_BIT(LF_M_ENQ)}, .destroy = rq_destroy, .op = rq_op

LF_DEFINE_VARIANT(relseq_queue, true, rq_create,
    "SPMC queue with one packed state word: fenced relaxed fetch-add publishes, consumers' CAS continue it", RQ_FIELDS);
LF_DEFINE_VARIANT(relseq_queue_no_release, false, rq_no_release_create,
    "relseq_queue whose producer has no release fence before its fetch-add: consumers read stale slots", RQ_FIELDS);
LF_DEFINE_VARIANT(relseq_queue_no_acquire, false, rq_no_acquire_create,
    "relseq_queue whose consumers have no acquire fence after their claim: they read stale slots", RQ_FIELDS);
