/* The linfuzz adapter of bounded_queue.c: the queue behind linfuzz's interface (include/linfuzz/adapter.h).
 * This file, and the CMake lines that build it into a fuzz target, are all the example adds to the queue.
 * The queue is bounded (capacity 4, small on purpose so that it is often full): enq answers LF_K_FULL when
 * it refuses a value, and .capacity tells the checker to hold it to exactly that. */
#include "bounded_queue.h"
#include "linfuzz/adapter.h"

#define CAPACITY 4

static void *queue_create(size_t max_ops) {
    (void)max_ops; /* the capacity does not depend on the run */
    return bq_create(CAPACITY);
}

static void queue_destroy(void *obj) { bq_destroy(obj); }

static lf_kind queue_op(void *obj, lf_method m, const int64_t *args, int64_t *value) {
    if (m == LF_M_ENQ) return bq_enqueue(obj, args[0]) ? LF_K_NONE : LF_K_FULL;
    return bq_dequeue(obj, value) ? LF_K_INT : LF_K_EMPTY; /* LF_M_DEQ */
}

const lf_adapter bounded_queue_adapter = {
    .name = "bounded_queue",
    .summary = "bounded MPMC queue with per-cell sequence numbers (Vyukov), capacity 4",
    .type = LF_TYPE_QUEUE,
    .linearizable = true, /* what we claim; the fuzzer checks it */
    .methods = LF_METHOD_BIT(LF_M_ENQ) | LF_METHOD_BIT(LF_M_DEQ),
    .create = queue_create,
    .destroy = queue_destroy,
    .op = queue_op,
    .capacity = CAPACITY,
};
LF_REGISTER_ADAPTER(bounded_queue_adapter);
