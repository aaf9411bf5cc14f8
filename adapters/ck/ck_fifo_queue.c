/* Concurrency Kit ck_fifo_mpmc: the Michael-Scott queue with generation-counted pointers (double-width CAS).
 *
 * dequeue hands back the previous stub entry as "garbage" that the caller may reuse only once no other
 * thread can still read it (ck_epoch or hazard pointers in real code). Here garbage is simply never reused:
 * entries come from the per-object arena and are freed at destroy, which is trivially safe. peek is not
 * offered: ck_fifo has no linearizable way to read the front without dequeuing it. */
#include <ck_fifo.h>
#include <stdint.h>
#include <stdlib.h>

#include "linfuzz/adapter.h"
#include "common/arena.h"

typedef struct ck_fifo_object {
    ck_fifo_mpmc_t fifo; /* needs 16-byte alignment for the double-width CAS: the object is 64-aligned */
    lf_arena entries;
} ck_fifo_object;

static void *ckf_create(size_t max_ops) {
    (void)max_ops;
    ck_fifo_object *o = aligned_alloc(64, (sizeof *o + 63) / 64 * 64);
    if (!o) return NULL;
    lf_arena_init(&o->entries, sizeof(ck_fifo_mpmc_entry_t));
    ck_fifo_mpmc_init(&o->fifo, lf_arena_alloc(&o->entries));
    return o;
}

static void ckf_destroy(void *obj) {
    ck_fifo_object *o = obj;
    ck_fifo_mpmc_entry_t *garbage;
    ck_fifo_mpmc_deinit(&o->fifo, &garbage);
    lf_arena_destroy(&o->entries);
    free(o);
}

static lf_kind ckf_op(void *obj, lf_method m, const int64_t *args, int64_t *value) {
    ck_fifo_object *o = obj;
    if (m == LF_M_ENQ) {
        ck_fifo_mpmc_enqueue(&o->fifo, lf_arena_alloc(&o->entries), (void *)(intptr_t)args[0]);
        return LF_K_NONE;
    }
    void *v;
    ck_fifo_mpmc_entry_t *garbage; /* not reused: see the file comment */
    if (!ck_fifo_mpmc_dequeue(&o->fifo, &v, &garbage)) return LF_K_EMPTY;
    *value = (int64_t)(intptr_t)v;
    return LF_K_INT;
}

const lf_adapter lf_adapter_ck_fifo_mpmc = {
    .name = "ck_fifo_mpmc",
    .summary = "Concurrency Kit ck_fifo_mpmc (MS queue, generation-counted double-width CAS)",
    .type = LF_TYPE_QUEUE,
    .linearizable = true,
    .deterministic = true,
    .methods = LF_METHOD_BIT(LF_M_ENQ) | LF_METHOD_BIT(LF_M_DEQ),
    .create = ckf_create,
    .destroy = ckf_destroy,
    .op = ckf_op,
};
LF_REGISTER_ADAPTER(lf_adapter_ck_fifo_mpmc);
