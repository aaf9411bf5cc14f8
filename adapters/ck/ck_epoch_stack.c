/* Concurrency Kit ck_epoch protecting a ck_stack, as ck's regression test does
 * (regressions/ck_epoch/validate/ck_stack.c): every thread registers an epoch record (ck_epoch_register; here in
 * thread_enter, a record per thread and object, claimed with an atomic exchange since thread_enter runs outside
 * the controlled scheduler), push and pop run inside ck_epoch_begin / ck_epoch_end, and a popped node is retired
 * with ck_epoch_call and freed (free(3)) by ck_epoch_poll once every thread has left the epoch it could be seen
 * in. Without the epoch, ck_stack_pop_upmc's single-word CAS could swing the head to a freed and reused node's
 * next (ABA); with it, a node is never reused while a pop may hold it. ck_epoch_poll and the record functions are
 * in libck.so (a scheduling point at each call); begin, end, call and the stack are header code. */
#include <ck_epoch.h>
#include <ck_stack.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "linfuzz/adapter.h"

#define EPOCH_RECORDS 16 /* threads of one object: the workers and the serial thread */

typedef struct ep_node {
    ck_stack_entry_t entry; /* first member */
    ck_epoch_entry_t epoch_entry;
    int64_t value;
} ep_node;

CK_EPOCH_CONTAINER(ep_node, epoch_entry, ep_node_of)

typedef struct ep_object {
    ck_epoch_t epoch;
    ck_stack_t stack;
    ck_epoch_record_t *records[EPOCH_RECORDS];
    bool used[EPOCH_RECORDS];
    uint64_t id;
} ep_object;

static _Atomic uint64_t next_id = 1;

/* The calling thread's record for object id (ids are never reused). */
static _Thread_local struct {
    uint64_t id;
    unsigned slot;
} mine;

static void free_node(ck_epoch_entry_t *e) { free(ep_node_of(e)); }

static void *ep_create(size_t max_ops) {
    (void)max_ops;
    ep_object *o = aligned_alloc(64, (sizeof(ep_object) + 63) / 64 * 64);
    if (!o) return NULL;
    memset(o, 0, sizeof *o);
    ck_epoch_init(&o->epoch);
    ck_stack_init(&o->stack);
    o->id = next_id++;
    return o;
}

static void ep_enter(void *obj) {
    ep_object *o = obj;
    unsigned s = 0;
    while (s < EPOCH_RECORDS && __atomic_exchange_n(&o->used[s], true, __ATOMIC_ACQ_REL)) s++;
    if (s == EPOCH_RECORDS) abort(); /* more threads than the harness runs */
    if (!o->records[s]) { /* (a slot that had one keeps it registered, with its pending callbacks) */
        o->records[s] = aligned_alloc(64, (sizeof(ck_epoch_record_t) + 63) / 64 * 64);
        if (!o->records[s]) abort();
        ck_epoch_register(&o->epoch, o->records[s], NULL);
    }
    mine.id = o->id;
    mine.slot = s;
}

static void ep_leave(void *obj) {
    ep_object *o = obj;
    __atomic_store_n(&o->used[mine.slot], false, __ATOMIC_RELEASE);
    mine.id = 0;
}

static void ep_destroy(void *obj) {
    ep_object *o = obj;
    /* no thread is inside any section: every retired node can go */
    for (unsigned s = 0; s < EPOCH_RECORDS; s++)
        if (o->records[s]) ck_epoch_reclaim(o->records[s]);
    for (ck_stack_entry_t *e = o->stack.head; e;) {
        ck_stack_entry_t *next = e->next;
        free(e); /* entry is the first member of ep_node */
        e = next;
    }
    for (unsigned s = 0; s < EPOCH_RECORDS; s++) free(o->records[s]);
    free(o);
}

static lf_kind ep_op(void *obj, lf_method m, const int64_t *args, int64_t *value) {
    ep_object *o = obj;
    if (mine.id != o->id) abort(); /* an op outside thread_enter/thread_leave */
    ck_epoch_record_t *rec = o->records[mine.slot];
    if (m == LF_M_PUSH) {
        ep_node *n = malloc(sizeof *n);
        if (!n) abort();
        n->value = args[0];
        ck_epoch_begin(rec, NULL);
        ck_stack_push_upmc(&o->stack, &n->entry);
        ck_epoch_end(rec, NULL);
        return LF_K_NONE;
    }
    ck_epoch_begin(rec, NULL);
    ck_stack_entry_t *e = ck_stack_pop_upmc(&o->stack);
    ck_epoch_end(rec, NULL);
    if (!e) return LF_K_EMPTY;
    ep_node *n = (ep_node *)e;
    *value = n->value;
    ck_epoch_call(rec, &n->epoch_entry, free_node);
    ck_epoch_poll(rec); /* frees what no thread can see any more */
    return LF_K_INT;
}

const lf_adapter lf_adapter_ck_epoch_stack = {
    .name = "ck_epoch_stack",
    .summary = "Concurrency Kit ck_stack (upmc) under ck_epoch: sections around push and pop, nodes freed by "
               "ck_epoch_call and ck_epoch_poll",
    .type = LF_TYPE_STACK,
    .linearizable = true,
    .deterministic = true,
    .methods = LF_METHOD_BIT(LF_M_PUSH) | LF_METHOD_BIT(LF_M_POP),
    .create = ep_create,
    .destroy = ep_destroy,
    .op = ep_op,
    .thread_enter = ep_enter,
    .thread_leave = ep_leave,
};
LF_REGISTER_ADAPTER(lf_adapter_ck_epoch_stack);
