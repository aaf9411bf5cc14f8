/* A register kept in two 32-bit halves under a sequence lock, written by one thread and read by any, with
 * the fences of Boehm's seqlock ([Boehm12]): the writer makes the sequence odd, a release fence, the halves
 * (relaxed atomics), the sequence even again (release); a reader reads the sequence (acquire), the halves,
 * an acquire fence, the sequence again, and retries unless both were the same even number.
 *
 * Bugs of one fence each (docs/memory-models.md), found by c11 only (x86 keeps these orders):
 *  - seqlock_pair_no_read_fence: the reader's fence is missing (relaxed, line READ_FENCE): its second read of
 *    the sequence may be older than a half it read, and a torn value (halves of two writes) passes the check;
 *  - seqlock_pair_no_write_fence: the writer's fence is missing (line WRITE_FENCE): a reader may see a new
 *    half while both its reads of the sequence see the old even number.
 * Correct twin: seqlock_pair. write belongs to one worker (an exclusive group). */
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>

#include "common/variants.h"
#include "linfuzz/adapter.h"

typedef struct seqlock_pair {
    _Atomic uint64_t seq;
    _Atomic uint32_t lo, hi; /* the value is hi << 16 | lo (values below 2^48) */
    memory_order write_fence, read_fence;
} seqlock_pair;

enum { SQ_OK, SQ_NO_READ_FENCE, SQ_NO_WRITE_FENCE };

static void *create_with(size_t max_ops, int variant) {
    (void)max_ops;
    seqlock_pair *s = calloc(1, sizeof *s);
    if (!s) return NULL;
    atomic_init(&s->seq, 0);
    atomic_init(&s->lo, 0);
    atomic_init(&s->hi, 0);
    s->write_fence = variant == SQ_NO_WRITE_FENCE ? memory_order_relaxed : memory_order_release;
    s->read_fence = variant == SQ_NO_READ_FENCE ? memory_order_relaxed : memory_order_acquire;
    return s;
}

static void sq_destroy(void *obj) { free(obj); }

static lf_kind sq_op(void *obj, lf_method m, const int64_t *args, int64_t *value) {
    seqlock_pair *s = obj;
    if (m == LF_M_WRITE) {
        uint64_t v = (uint64_t)args[0], q = atomic_load_explicit(&s->seq, memory_order_relaxed);
        atomic_store_explicit(&s->seq, q + 1, memory_order_relaxed);
        atomic_thread_fence(s->write_fence); /* WRITE_FENCE: must be release */
        atomic_store_explicit(&s->lo, (uint32_t)(v & 0xffff), memory_order_relaxed);
        atomic_store_explicit(&s->hi, (uint32_t)(v >> 16), memory_order_relaxed);
        atomic_store_explicit(&s->seq, q + 2, memory_order_release);
        return LF_K_NONE;
    }
    for (;;) {
        uint64_t q1 = atomic_load_explicit(&s->seq, memory_order_acquire);
        if (q1 & 1) { /* a write in progress */
            sched_yield();
            continue;
        }
        uint64_t lo = atomic_load_explicit(&s->lo, memory_order_relaxed);
        uint64_t hi = atomic_load_explicit(&s->hi, memory_order_relaxed);
        atomic_thread_fence(s->read_fence); /* READ_FENCE: must be acquire */
        uint64_t q2 = atomic_load_explicit(&s->seq, memory_order_relaxed);
        if (q1 == q2) {
            *value = (int64_t)(hi << 16 | lo);
            return LF_K_INT;
        }
    }
}

LF_VARIANT_CREATE(sq_create, create_with, SQ_OK)
LF_VARIANT_CREATE(sq_no_read_fence_create, create_with, SQ_NO_READ_FENCE)
LF_VARIANT_CREATE(sq_no_write_fence_create, create_with, SQ_NO_WRITE_FENCE)

#define SQ_FIELDS                                                                                                      \
    .type = LF_TYPE_REGISTER, .methods = LF_METHOD_BIT(LF_M_READ) | LF_METHOD_BIT(LF_M_WRITE),                         \
    .exclusive = {LF_METHOD_BIT(LF_M_WRITE)}, .destroy = sq_destroy, .op = sq_op

LF_DEFINE_VARIANT(seqlock_pair, true, sq_create,
    "register in two halves under a seqlock with Boehm's fences (one writer)", SQ_FIELDS);
LF_DEFINE_VARIANT(seqlock_pair_no_read_fence, false, sq_no_read_fence_create,
    "seqlock register whose reader has no acquire fence before re-reading the sequence: torn reads pass", SQ_FIELDS);
LF_DEFINE_VARIANT(seqlock_pair_no_write_fence, false, sq_no_write_fence_create,
    "seqlock register whose writer has no release fence after making the sequence odd: torn reads pass", SQ_FIELDS);
