/* Concurrency Kit ck_stack with batch pops: ck_stack_batch_pop_upmc takes the whole stack at once (an atomic
 * exchange of the head), the way ck's users drain a stack of pending work. A batch of several values is not one
 * op of a built-in type, so this is a custom type without a spec (its own serial runs are the specification, the
 * self-spec of docs/custom-types.md):
 *   push V -> (nothing)      ck_stack_push_upmc; V in 1..6
 *   pop -> int|empty         ck_stack_pop_upmc
 *   pop_all -> int           ck_stack_batch_pop_upmc: the multiset of values taken, as sum of 256^(V-1) (a count
 *                            per value, one byte each), so that which values a batch took is in the history;
 *                            a node of no pushed value (a stale read of the misuse) counts in byte 7
 * Nodes come from an arena and are never reused during a run (ck_stack_pop_upmc is ABA-prone under reuse).
 *
 * ck_stack_batch: the multi-consumer batch pop. Linearizable.
 * ck_stack_batch_npsc (misuse): pop_all with ck_stack_batch_pop_npsc, "for no concurrent producers and single
 * consumer": a load of the head and a plain store of NULL, so a push between them is lost. */
#include <ck_stack.h>
#include <stdint.h>
#include <stdlib.h>

#include "linfuzz/adapter.h"
#include "common/arena.h"

enum { BS_PUSH, BS_POP, BS_POP_ALL };

static const lf_method_decl bs_methods[] = {
    [BS_PUSH] = {"push", 1, LF_KBIT(LF_K_NONE), 0},
    [BS_POP] = {"pop", 0, LF_KBIT(LF_K_INT) | LF_KBIT(LF_K_EMPTY), 0},
    [BS_POP_ALL] = {"pop_all", 0, LF_KBIT(LF_K_INT), 0},
};

static const lf_type_desc bs_type = {"batch_stack", bs_methods, 3, NULL};

static const lf_arg_range bs_args[][LF_CUSTOM_MAX_ARGS] = {[BS_PUSH] = {{1, 6}}};

typedef struct bs_node {
    ck_stack_entry_t link; /* first member */
    int64_t value;
} bs_node;

typedef struct bs_object {
    ck_stack_t stack; /* 16-byte aligned */
    lf_arena nodes;
    bool npsc; /* the misuse */
} bs_object;

static void *bs_create_mode(bool npsc) {
    bs_object *o = aligned_alloc(64, (sizeof(bs_object) + 63) / 64 * 64);
    if (!o) return NULL;
    ck_stack_init(&o->stack);
    lf_arena_init(&o->nodes, sizeof(bs_node));
    o->npsc = npsc;
    return o;
}

static void *bs_create(size_t max_ops) {
    (void)max_ops;
    return bs_create_mode(false);
}

static void *bs_npsc_create(size_t max_ops) {
    (void)max_ops;
    return bs_create_mode(true);
}

static void bs_destroy(void *obj) {
    bs_object *o = obj;
    lf_arena_destroy(&o->nodes);
    free(o);
}

static lf_kind bs_op(void *obj, lf_method method, const int64_t *args, int64_t *value) {
    bs_object *o = obj;
    if ((unsigned)method == BS_PUSH) {
        bs_node *n = lf_arena_alloc(&o->nodes);
        n->value = args[0];
        ck_stack_push_upmc(&o->stack, &n->link);
        return LF_K_NONE;
    }
    if ((unsigned)method == BS_POP) {
        ck_stack_entry_t *e = ck_stack_pop_upmc(&o->stack);
        if (!e) return LF_K_EMPTY;
        *value = ((bs_node *)e)->value;
        return LF_K_INT;
    }
    ck_stack_entry_t *e = o->npsc ? ck_stack_batch_pop_npsc(&o->stack) : ck_stack_batch_pop_upmc(&o->stack);
    uint64_t taken = 0;
    for (; e; e = e->next) { /* 6 values, a byte each */
        int64_t v = ((bs_node *)e)->value;
        /* A value no push wrote (the misuse's stale read of a node's field, under a weak memory model, sees the
         * arena's zero) counts in byte 7, which no serial run has: a violation, not a shift out of range. */
        taken += (uint64_t)1 << (v >= 1 && v <= 6 ? 8 * (v - 1) : 56);
    }
    *value = (int64_t)taken;
    return LF_K_INT;
}

/* The stack's values from the top. */
static uint64_t bs_fingerprint(void *obj) {
    bs_object *o = obj;
    uint64_t h = 0x6261746368ull;
    for (ck_stack_entry_t *e = o->stack.head; e; e = e->next) h = (h ^ (uint64_t)((bs_node *)e)->value) * 0x100000001b3ull;
    return h;
}

const lf_adapter lf_adapter_ck_stack_batch = {
    .name = "ck_stack_batch",
    .summary = "Concurrency Kit ck_stack (upmc) with ck_stack_batch_pop_upmc (custom type, self-spec)",
    .type = LF_TYPE_CUSTOM,
    .custom = &bs_type,
    .arg_ranges = bs_args,
    .linearizable = true,
    .deterministic = true,
    .create = bs_create,
    .destroy = bs_destroy,
    .op = bs_op,
    .fingerprint = bs_fingerprint,
};
LF_REGISTER_ADAPTER(lf_adapter_ck_stack_batch);

const lf_adapter lf_adapter_ck_stack_batch_npsc = {
    .name = "ck_stack_batch_npsc",
    .summary = "ck_stack misuse: batch pops with ck_stack_batch_pop_npsc (no concurrent producers) beside pushes",
    .type = LF_TYPE_CUSTOM,
    .custom = &bs_type,
    .arg_ranges = bs_args,
    .linearizable = false,
    .deterministic = true,
    .create = bs_npsc_create,
    .destroy = bs_destroy,
    .op = bs_op,
    .fingerprint = bs_fingerprint,
};
LF_REGISTER_ADAPTER(lf_adapter_ck_stack_batch_npsc);
