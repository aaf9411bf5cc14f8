/* Concurrency Kit ck_fifo_mpmc with its garbage entries recycled, as ck's own regression test does
 * (regressions/ck_fifo/validate/ck_fifo_mpmc.c: every dequeued node is re-enqueued right away).
 *
 * ck_fifo_mpmc_dequeue hands back the previous stub entry ("garbage"). The queue's pointers carry generation
 * counters (double-width CAS) so that a garbage entry may be enqueued again at once: a dequeuer holding a stale
 * snapshot of it fails its CAS. Here each thread keeps the last garbage entry it got and uses it for its next
 * enqueue; entries are never freed before the object is (a stale reader may still load from one), which is the
 * type-stable memory ck_fifo relies on.
 *
 * What ck does with that (docs/findings.md), two bugs, so the adapter is known-buggy:
 *   - Debian's ck (0.7.1): a dequeue that read the head, then saw the head's entry dequeued elsewhere and
 *     re-enqueued as the tail (its next pointer reset to NULL), takes "head == tail and next == NULL" for an empty
 *     queue although the queue never was empty while it ran: a spurious empty. Fixed upstream in e78c421
 *     ("ck_fifo_mpmc: fix linearability issue with original algorithm", after 0.7.2).
 *   - every version up to upstream's HEAD: ck_fifo_mpmc_enqueue resets the recycled entry's next generation to 0,
 *     so an enqueuer that read that entry as the tail (next {NULL, 0}) long ago can still link its node after it
 *     once it is recycled, before it is back in the queue: a value enqueued and returned is not in the queue, and
 *     values enqueued after it come out first (found with e78c421 applied to the header).
 */
#include <ck_fifo.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>

#include "linfuzz/adapter.h"
#include "common/arena.h"

typedef struct ckr_object {
    ck_fifo_mpmc_t fifo; /* 16-byte aligned for the double-width CAS: the object is 64-aligned */
    lf_arena entries;
    pthread_mutex_t arena_lock; /* the arena is not thread-safe; a thread without a spare entry takes one */
    uint64_t id;
} ckr_object;

/* A thread's spare entry: the last garbage it got from object `id` (ids are never reused). */
static _Thread_local struct {
    uint64_t id;
    ck_fifo_mpmc_entry_t *entry;
} spare;
static _Atomic uint64_t next_id = 1;

static void *ckr_create(size_t max_ops) {
    (void)max_ops;
    ckr_object *o = aligned_alloc(64, (sizeof *o + 63) / 64 * 64);
    if (!o) return NULL;
    lf_arena_init(&o->entries, sizeof(ck_fifo_mpmc_entry_t));
    pthread_mutex_init(&o->arena_lock, NULL);
    o->id = next_id++;
    ck_fifo_mpmc_init(&o->fifo, lf_arena_alloc(&o->entries));
    return o;
}

static void ckr_destroy(void *obj) {
    ckr_object *o = obj;
    ck_fifo_mpmc_entry_t *garbage;
    ck_fifo_mpmc_deinit(&o->fifo, &garbage);
    pthread_mutex_destroy(&o->arena_lock);
    lf_arena_destroy(&o->entries);
    free(o);
}

static ck_fifo_mpmc_entry_t *entry_for(ckr_object *o) {
    if (spare.id == o->id && spare.entry) {
        ck_fifo_mpmc_entry_t *e = spare.entry;
        spare.entry = NULL;
        return e;
    }
    pthread_mutex_lock(&o->arena_lock);
    ck_fifo_mpmc_entry_t *e = lf_arena_alloc(&o->entries);
    pthread_mutex_unlock(&o->arena_lock);
    return e;
}

static lf_kind ckr_op(void *obj, lf_method m, const int64_t *args, int64_t *value) {
    ckr_object *o = obj;
    if (m == LF_M_ENQ) {
        ck_fifo_mpmc_enqueue(&o->fifo, entry_for(o), (void *)(intptr_t)args[0]);
        return LF_K_NONE;
    }
    void *v;
    ck_fifo_mpmc_entry_t *garbage;
    if (!ck_fifo_mpmc_dequeue(&o->fifo, &v, &garbage)) return LF_K_EMPTY;
    spare.id = o->id; /* recycled by this thread's next enqueue (a spare it had is left in the arena) */
    spare.entry = garbage;
    *value = (int64_t)(intptr_t)v;
    return LF_K_INT;
}

const lf_adapter lf_adapter_ck_fifo_mpmc_recycled = {
    .name = "ck_fifo_mpmc_recycled",
    .summary = "Concurrency Kit ck_fifo_mpmc, dequeued entries re-enqueued at once (as ck's regression test): "
               "spurious empty (fixed upstream) and lost FIFO order (enqueue resets a recycled entry's generation)",
    .linearizable = false,
    .type = LF_TYPE_QUEUE,
    .deterministic = true,
    .methods = LF_METHOD_BIT(LF_M_ENQ) | LF_METHOD_BIT(LF_M_DEQ),
    .create = ckr_create,
    .destroy = ckr_destroy,
    .op = ckr_op,
};
LF_REGISTER_ADAPTER(lf_adapter_ck_fifo_mpmc_recycled);
