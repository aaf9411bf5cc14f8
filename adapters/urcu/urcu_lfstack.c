/* liburcu cds_lfs: lock-free Treiber-style stack. push needs no synchronisation; __cds_lfs_pop must be
 * protected against ABA/use-after-free, and the library offers two ways: an internal mutex
 * (cds_lfs_pop_blocking) or an RCU read-side critical section with nodes freed only after a grace period.
 * This adapter uses the lock-free RCU way: pop runs under rcu_read_lock and popped nodes are never freed
 * during the run (arena), which satisfies the grace-period requirement trivially. */
#include <urcu.h>
#include <urcu/lfstack.h>
#include <stdint.h>
#include <stdlib.h>

#include "linfuzz/adapter.h"
#include "common/arena.h"
#include "urcu/rcu_registration.h"

typedef struct lfs_entry {
    struct cds_lfs_node node; /* first member: a node pointer is an entry pointer */
    int64_t value;
} lfs_entry;

typedef struct lfs_object {
    struct __cds_lfs_stack stack;
    lf_arena entries;
} lfs_object;

static void *lfs_create(size_t max_ops) {
    (void)max_ops;
    lfs_object *o = malloc(sizeof *o);
    if (!o) return NULL;
    __cds_lfs_init(&o->stack);
    lf_arena_init(&o->entries, sizeof(lfs_entry));
    return o;
}

static void lfs_destroy(void *obj) {
    lfs_object *o = obj;
    lf_arena_destroy(&o->entries);
    free(o);
}

static lf_kind lfs_op(void *obj, lf_method m, const int64_t *args, int64_t *value) {
    lfs_object *o = obj;
    if (m == LF_M_PUSH) {
        lfs_entry *e = lf_arena_alloc(&o->entries);
        cds_lfs_node_init(&e->node);
        e->value = args[0];
        cds_lfs_push(&o->stack, &e->node);
        return LF_K_NONE;
    }
    rcu_read_lock();
    struct cds_lfs_node *n = __cds_lfs_pop(&o->stack);
    rcu_read_unlock();
    if (!n) return LF_K_EMPTY;
    *value = ((lfs_entry *)n)->value;
    return LF_K_INT;
}

const lf_adapter lf_adapter_urcu_lfstack = {
    .name = "urcu_lfstack",
    .summary = "liburcu cds_lfs lock-free stack, pop under rcu_read_lock (nodes not freed during a run)",
    .type = LF_TYPE_STACK,
    .linearizable = true,
    .deterministic = true,
    .methods = LF_METHOD_BIT(LF_M_PUSH) | LF_METHOD_BIT(LF_M_POP),
    .create = lfs_create,
    .destroy = lfs_destroy,
    .op = lfs_op,
    .thread_enter = lf_urcu_thread_enter,
    .thread_leave = lf_urcu_thread_leave,
};
LF_REGISTER_ADAPTER(lf_adapter_urcu_lfstack);
