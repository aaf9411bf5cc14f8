/* Concurrency Kit ck_stack, in its two multi-consumer flavours:
 *  upmc: push/pop with a single-word CAS. Pop is ABA-prone if popped entries are reused while another pop
 *        may hold them; here entries are never reused during a run (arena), which is the discipline ck's
 *        documentation asks for (or SMR such as ck_epoch).
 *  mpmc: pop uses a generation counter next to the head and a double-width CAS, so it tolerates reuse.
 * Entries embed ck_stack_entry_t followed by the value. */
#include <ck_stack.h>
#include <stdint.h>
#include <stdlib.h>

#include "common/arena.h"
#include "common/variants.h"
#include "linfuzz/adapter.h"

typedef struct cks_entry {
    ck_stack_entry_t link; /* first member: a ck_stack_entry_t * is a cks_entry * */
    int64_t value;
} cks_entry;

typedef struct cks_object {
    ck_stack_t stack; /* head + generation: 16-byte aligned for the mpmc double-width CAS */
    bool mpmc;
    lf_arena entries;
} cks_object;

static void *create_with(size_t max_ops, bool mpmc) {
    (void)max_ops;
    cks_object *o = aligned_alloc(64, (sizeof *o + 63) / 64 * 64);
    if (!o) return NULL;
    ck_stack_init(&o->stack);
    o->mpmc = mpmc;
    lf_arena_init(&o->entries, sizeof(cks_entry));
    return o;
}
LF_VARIANT_CREATE(upmc_create, create_with, false)
LF_VARIANT_CREATE(mpmc_create, create_with, true)

static void cks_destroy(void *obj) {
    cks_object *o = obj;
    lf_arena_destroy(&o->entries);
    free(o);
}

static lf_kind cks_op(void *obj, lf_method m, const int64_t *args, int64_t *value) {
    cks_object *o = obj;
    if (m == LF_M_PUSH) {
        cks_entry *e = lf_arena_alloc(&o->entries);
        e->value = args[0];
        if (o->mpmc)
            ck_stack_push_mpmc(&o->stack, &e->link);
        else
            ck_stack_push_upmc(&o->stack, &e->link);
        return LF_K_NONE;
    }
    ck_stack_entry_t *top = o->mpmc ? ck_stack_pop_mpmc(&o->stack) : ck_stack_pop_upmc(&o->stack);
    if (!top) return LF_K_EMPTY;
    *value = ((cks_entry *)top)->value;
    return LF_K_INT;
}

LF_DEFINE_DETERMINISTIC_ADAPTER(ck_stack_upmc, LF_TYPE_STACK, true, LF_METHOD_BIT(LF_M_PUSH) | LF_METHOD_BIT(LF_M_POP),
                                upmc_create, cks_destroy, cks_op, NULL,
                                "Concurrency Kit ck_stack push/pop_upmc (single-word CAS; entries never reused)");

LF_DEFINE_DETERMINISTIC_ADAPTER(ck_stack_mpmc, LF_TYPE_STACK, true, LF_METHOD_BIT(LF_M_PUSH) | LF_METHOD_BIT(LF_M_POP),
                                mpmc_create, cks_destroy, cks_op, NULL,
                                "Concurrency Kit ck_stack push/pop_mpmc (generation-counted double-width CAS pop)");
