/* Relaxed k-FIFO queue in the style of Scal's bounded-size k-FIFO (Kirsch, Lippautz, Payer, PaCT 2013).
 *
 * The queue is a sequence of segments of K slots. enq puts its value into any free slot of the tail segment
 * (starting at a random slot), deq takes any value of the head segment; full and exhausted segments are left
 * behind by CAS on the tail and head segment indices. Taking "any" slot is the point: a deq may return any of
 * the up to K oldest values, so the queue is K-relaxed FIFO and NOT linearizable w.r.t. a FIFO queue. This is
 * the documented semantics of the data structure, not a coding mistake; the fuzzer must still flag it.
 * Consumed slots hold TAKEN. The tail only leaves a segment when all its slots are non-zero, so a slow enq
 * can never drop its value into a segment that was left behind (its CASes fail and it retries). Slots are
 * never reused: the slot array holds every enq of the run. */
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>

#include "linfuzz/adapter.h"

#define K 4
#define TAKEN INT64_MIN /* values are >= 1; 0 is a free slot */

typedef struct k_fifo {
    _Atomic size_t head_seg, tail_seg;
    _Atomic uint64_t start_rng; /* where threads start scanning a segment; racy updates are harmless */
    size_t n_segs;
    _Atomic int64_t slots[];
} k_fifo;

static void *kfifo_create(size_t max_ops) {
    size_t n_segs = max_ops / K + 2; /* a segment is left only when its K slots hold values or TAKEN */
    k_fifo *q = malloc(sizeof *q + n_segs * K * sizeof q->slots[0]);
    if (!q) return NULL;
    atomic_init(&q->head_seg, 0);
    atomic_init(&q->tail_seg, 0);
    atomic_init(&q->start_rng, 1);
    q->n_segs = n_segs;
    for (size_t i = 0; i < n_segs * K; i++) atomic_init(&q->slots[i], 0);
    return q;
}
static void kfifo_destroy(void *obj) { free(obj); }

static unsigned random_start(k_fifo *q) {
    uint64_t x = atomic_fetch_add_explicit(&q->start_rng, 0x9e3779b97f4a7c15ull, memory_order_relaxed);
    return (unsigned)((x >> 32) % K);
}

static void kfifo_enq(k_fifo *q, int64_t v) {
    for (;;) {
        size_t seg = atomic_load(&q->tail_seg);
        if (seg >= q->n_segs) abort(); /* more segments than the run can fill: a runner bug */
        unsigned start = random_start(q);
        for (unsigned j = 0; j < K; j++) {
            _Atomic int64_t *slot = &q->slots[seg * K + (start + j) % K];
            int64_t expected = 0;
            LF_YIELD();
            if (atomic_compare_exchange_strong(slot, &expected, v)) return;
        }
        /* The segment has no free slot: move the tail on (or see that someone did). */
        atomic_compare_exchange_strong(&q->tail_seg, &seg, seg + 1);
    }
}

static lf_kind kfifo_deq(k_fifo *q, bool remove, int64_t *value) {
    for (;;) {
        size_t seg = atomic_load(&q->head_seg);
        unsigned start = random_start(q), taken = 0;
        for (unsigned j = 0; j < K; j++) {
            _Atomic int64_t *slot = &q->slots[seg * K + (start + j) % K];
            int64_t x = atomic_load(slot);
            LF_YIELD();
            if (x == 0) continue;
            if (x != TAKEN) {
                if (!remove || atomic_compare_exchange_strong(slot, &x, TAKEN)) {
                    *value = x;
                    return LF_K_INT;
                }
            }
            taken++; /* TAKEN, or another deq took x first */
        }
        if (taken < K) return LF_K_EMPTY; /* a free slot: this is the tail segment, and it holds no value */
        /* Exhausted segment: move the tail past it if needed (head must not overtake tail), then the head. */
        size_t expected = seg;
        atomic_compare_exchange_strong(&q->tail_seg, &expected, seg + 1);
        expected = seg;
        atomic_compare_exchange_strong(&q->head_seg, &expected, seg + 1);
    }
}

static lf_kind kfifo_op(void *obj, lf_method m, const int64_t *args, int64_t *value) {
    k_fifo *q = obj;
    if (m == LF_M_ENQ) {
        kfifo_enq(q, args[0]);
        return LF_K_NONE;
    }
    return kfifo_deq(q, m == LF_M_DEQ, value);
}

const lf_adapter lf_adapter_scal_k_fifo = {
    .name = "scal_k_fifo",
    .summary = "relaxed Scal-style k-FIFO queue (k=4): deq returns any of the k oldest values",
    .type = LF_TYPE_QUEUE,
    .linearizable = false,
    .methods = LF_METHOD_BIT(LF_M_ENQ) | LF_METHOD_BIT(LF_M_DEQ),
    .create = kfifo_create,
    .destroy = kfifo_destroy,
    .op = kfifo_op,
};
LF_REGISTER_ADAPTER(lf_adapter_scal_k_fifo);
