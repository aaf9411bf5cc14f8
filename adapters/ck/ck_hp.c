/* Concurrency Kit hazard pointers (ck_hp) under the two structures ck builds on them, used as ck's regression
 * tests use them (regressions/ck_hp/validate/ck_hp_fifo.c, ck_hp_stack.c): every thread registers a hazard
 * record with the object's ck_hp (ck_hp_register; here in thread_enter, a record per thread and object, released
 * with ck_hp_unregister in thread_leave), the operations publish the nodes they read in it, and a dequeued or
 * popped node is retired with ck_hp_free, which frees it (free(3)) once no record holds it. The reclamation
 * threshold is small (2 retired nodes per record) so that runs scan and free often: a node freed while another
 * thread still reads it would return a reused node's value (or, under AddressSanitizer, a use after free).
 *
 * ck_hp_fifo: ck_hp_fifo_enqueue_mpmc / ck_hp_fifo_dequeue_mpmc, a Michael-Scott queue (two hazard slots). Built
 * over a ck with upstream's 7cebde2 (2024, after 0.7.2): before it, a dequeue reads the tail before it protects
 * and validates the head, takes a recycled head that is the last node for one that is not, and sets the head to
 * NULL; the next dequeue dereferences it (docs/findings.md). Debian's 0.7.1 is such a ck.
 * ck_hp_stack: ck_hp_stack_push_mpmc / ck_hp_stack_pop_mpmc, a Treiber stack (one hazard slot).
 * ck_hp_stack_unprotected (misuse): the same stack, its popped nodes reused at once by the popping thread's next
 * push instead of retired with ck_hp_free: another pop that read the node before may still compare-and-swap the
 * head from it to its old next (an ABA; the nodes come from an arena, so nothing is freed while in use).
 *
 * Records stay registered for the object's life (a thread_enter of a later thread takes a free slot's record
 * with its pending nodes); every op clears its hazard slots when it is done (ck_hp_clear), so that destroy can
 * ck_hp_purge each record with no hazard left. */
#include <ck_hp.h>
#include <ck_hp_fifo.h>
#include <ck_hp_stack.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "linfuzz/adapter.h"
#include "common/arena.h"

#define HP_RECORDS 16  /* threads of one object: the workers and the serial thread */
#define HP_THRESHOLD 2 /* retired nodes per record before a scan */

typedef struct hp_fifo_node {
    ck_hp_fifo_entry_t entry;
    ck_hp_hazard_t hazard;
} hp_fifo_node;

typedef struct hp_stack_node {
    ck_stack_entry_t entry;
    ck_hp_hazard_t hazard;
    int64_t value;
} hp_stack_node;

typedef struct hp_object {
    ck_hp_t hp;
    ck_hp_fifo_t fifo; /* ck_hp_fifo */
    ck_stack_t stack;  /* ck_hp_stack */
    pthread_mutex_t lock; /* the misuse's arena */
    ck_hp_record_t *records[HP_RECORDS];
    void **pointers[HP_RECORDS];
    bool used[HP_RECORDS];
    bool unprotected;  /* the misuse: nodes from the arena, reused at once */
    lf_arena nodes;    /* its nodes (under lock) */
    uint64_t id;
} hp_object;

static _Atomic uint64_t next_id = 1;

/* The calling thread's record for object id (ids are never reused). */
static _Thread_local struct {
    uint64_t id;
    unsigned slot;
    hp_stack_node *spare; /* the misuse: the node of this thread's last pop */
} mine;

static void destroy_node(void *p) { free(p); }

static void *hp_create_mode(bool unprotected) {
    hp_object *o = aligned_alloc(64, (sizeof(hp_object) + 63) / 64 * 64);
    if (!o) return NULL;
    memset(o, 0, sizeof *o);
    ck_hp_init(&o->hp, 2, HP_THRESHOLD, destroy_node);
    hp_fifo_node *stub = calloc(1, sizeof *stub);
    if (!stub) {
        free(o);
        return NULL;
    }
    ck_hp_fifo_init(&o->fifo, &stub->entry);
    ck_stack_init(&o->stack);
    pthread_mutex_init(&o->lock, NULL);
    lf_arena_init(&o->nodes, sizeof(hp_stack_node));
    o->unprotected = unprotected;
    o->id = next_id++;
    return o;
}

static void *hp_create(size_t max_ops) {
    (void)max_ops;
    return hp_create_mode(false);
}

static void *hp_unprotected_create(size_t max_ops) {
    (void)max_ops;
    return hp_create_mode(true);
}

/* thread_enter and thread_leave run outside the controlled scheduler, beside controlled workers: they claim a
 * slot with an atomic exchange, never with the lock the operations take (a controlled thread waiting for a lock
 * that an uncontrolled one holds would look deadlocked to the scheduler). */
static void hp_enter(void *obj) {
    hp_object *o = obj;
    unsigned s = 0;
    while (s < HP_RECORDS && __atomic_exchange_n(&o->used[s], true, __ATOMIC_ACQ_REL)) s++;
    if (s == HP_RECORDS) abort(); /* more threads than the harness runs */
    if (!o->records[s]) { /* (a slot that had one keeps it registered, with its pending nodes) */
        o->records[s] = aligned_alloc(64, (sizeof(ck_hp_record_t) + 63) / 64 * 64);
        o->pointers[s] = calloc(2, sizeof(void *));
        if (!o->records[s] || !o->pointers[s]) abort();
        ck_hp_register(&o->hp, o->records[s], o->pointers[s]);
    }
    mine.id = o->id;
    mine.slot = s;
    mine.spare = NULL;
}

static void hp_leave(void *obj) {
    hp_object *o = obj;
    __atomic_store_n(&o->used[mine.slot], false, __ATOMIC_RELEASE);
    mine.id = 0;
}

static ck_hp_record_t *record_of(hp_object *o) {
    if (mine.id != o->id) abort(); /* an op outside thread_enter/thread_leave */
    return o->records[mine.slot];
}

static void hp_destroy(void *obj) {
    hp_object *o = obj;
    /* no thread is inside and no hazard is set: every retired node can go */
    for (unsigned s = 0; s < HP_RECORDS; s++)
        if (o->records[s]) ck_hp_purge(o->records[s]);
    ck_hp_fifo_entry_t *stub;
    ck_hp_fifo_deinit(&o->fifo, &stub);
    for (ck_hp_fifo_entry_t *e = stub; e;) { /* the stub and what is still queued */
        ck_hp_fifo_entry_t *next = e->next;
        free(e); /* entry is the first member of hp_fifo_node */
        e = next;
    }
    for (ck_stack_entry_t *e = o->stack.head; e && !o->unprotected;) { /* (the misuse's are the arena's) */
        ck_stack_entry_t *next = e->next;
        free(e); /* entry is the first member of hp_stack_node */
        e = next;
    }
    lf_arena_destroy(&o->nodes);
    for (unsigned s = 0; s < HP_RECORDS; s++) {
        free(o->records[s]);
        free(o->pointers[s]);
    }
    pthread_mutex_destroy(&o->lock);
    free(o);
}

#ifndef LINFUZZ_CK_HP_FIFO_SKIP
static lf_kind hp_fifo_op(void *obj, lf_method m, const int64_t *args, int64_t *value) {
    hp_object *o = obj;
    ck_hp_record_t *rec = record_of(o);
    if (m == LF_M_ENQ) {
        hp_fifo_node *n = malloc(sizeof *n);
        if (!n) abort();
        ck_hp_fifo_enqueue_mpmc(rec, &o->fifo, &n->entry, (void *)(intptr_t)args[0]);
        ck_hp_clear(rec);
        return LF_K_NONE;
    }
    void *v;
    ck_hp_fifo_entry_t *garbage = ck_hp_fifo_dequeue_mpmc(rec, &o->fifo, &v);
    ck_hp_clear(rec); /* done with the nodes it read */
    if (!garbage) return LF_K_EMPTY;
    hp_fifo_node *n = (hp_fifo_node *)garbage;
    ck_hp_free(rec, &n->hazard, n, garbage);
    *value = (int64_t)(intptr_t)v;
    return LF_K_INT;
}

#endif

static lf_kind hp_stack_op(void *obj, lf_method m, const int64_t *args, int64_t *value) {
    hp_object *o = obj;
    ck_hp_record_t *rec = record_of(o);
    if (m == LF_M_PUSH) {
        hp_stack_node *n = o->unprotected ? mine.spare : malloc(sizeof *n);
        if (o->unprotected && n)
            mine.spare = NULL;
        else if (o->unprotected) {
            pthread_mutex_lock(&o->lock);
            n = lf_arena_alloc(&o->nodes);
            pthread_mutex_unlock(&o->lock);
        }
        if (!n) abort();
        n->value = args[0];
        ck_hp_stack_push_mpmc(&o->stack, &n->entry);
        return LF_K_NONE;
    }
    ck_stack_entry_t *e = ck_hp_stack_pop_mpmc(rec, &o->stack);
    ck_hp_clear(rec);
    if (!e) return LF_K_EMPTY;
    hp_stack_node *n = (hp_stack_node *)e;
    *value = n->value;
    if (o->unprotected)
        mine.spare = n; /* the misuse: reused by the next push while another pop may still hold it */
    else
        ck_hp_free(rec, &n->hazard, n, e);
    return LF_K_INT;
}

#ifndef LINFUZZ_CK_HP_FIFO_SKIP /* (adapters/CMakeLists.txt: left out over a ck whose ck_hp_fifo crashes) */
const lf_adapter lf_adapter_ck_hp_fifo = {
    .name = "ck_hp_fifo",
#ifdef LINFUZZ_CK_HP_FIFO_FIXED
    .summary = "Concurrency Kit ck_hp_fifo (Michael-Scott queue with hazard pointers, nodes freed by ck_hp_free)",
    .linearizable = true,
#else
    .summary = "Concurrency Kit ck_hp_fifo before upstream 7cebde2: a dequeue on a stale tail sets the head to NULL "
               "and crashes (docs/findings.md)",
    .linearizable = false,
#endif
    .type = LF_TYPE_QUEUE,
    .deterministic = true,
    .methods = LF_METHOD_BIT(LF_M_ENQ) | LF_METHOD_BIT(LF_M_DEQ),
    .create = hp_create,
    .destroy = hp_destroy,
    .op = hp_fifo_op,
    .thread_enter = hp_enter,
    .thread_leave = hp_leave,
};
LF_REGISTER_ADAPTER(lf_adapter_ck_hp_fifo);
#endif

const lf_adapter lf_adapter_ck_hp_stack = {
    .name = "ck_hp_stack",
    .summary = "Concurrency Kit ck_hp_stack (Treiber stack with hazard pointers, nodes freed by ck_hp_free)",
    .type = LF_TYPE_STACK,
    .linearizable = true,
    .deterministic = true,
    .methods = LF_METHOD_BIT(LF_M_PUSH) | LF_METHOD_BIT(LF_M_POP),
    .create = hp_create,
    .destroy = hp_destroy,
    .op = hp_stack_op,
    .thread_enter = hp_enter,
    .thread_leave = hp_leave,
};
LF_REGISTER_ADAPTER(lf_adapter_ck_hp_stack);

const lf_adapter lf_adapter_ck_hp_stack_unprotected = {
    .name = "ck_hp_stack_unprotected",
    .summary = "ck_hp_stack misuse: popped nodes reused at once instead of retired with ck_hp_free (ABA)",
    .type = LF_TYPE_STACK,
    .linearizable = false,
    .deterministic = true,
    .methods = LF_METHOD_BIT(LF_M_PUSH) | LF_METHOD_BIT(LF_M_POP),
    .create = hp_unprotected_create,
    .destroy = hp_destroy,
    .op = hp_stack_op,
    .thread_enter = hp_enter,
    .thread_leave = hp_leave,
};
LF_REGISTER_ADAPTER(lf_adapter_ck_hp_stack_unprotected);
