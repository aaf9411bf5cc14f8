/* Recorder: per-thread, append-only logs of completed operations, merged into one lf_history.
 *
 * Each worker thread owns one log (its own cache lines, preallocated for the whole run), so recording an op
 * is two stamps and one 48-byte store with no sharing besides the clock itself. lf_recorder_call is the one
 * primitive the runner uses: stamp, call the adapter, stamp, append. Each log publishes its progress (an
 * event count), so that a watchdog can tell a run that stopped making progress and show what was in flight. */
#ifndef LINFUZZ_RECORDER_H
#define LINFUZZ_RECORDER_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "linfuzz/adapter.h"
#include "linfuzz/history.h"
#include "runtime/stamp_clock.h"

typedef struct lf_thread_log {
    _Alignas(64) lf_op *ops;
    size_t n, cap;
    /* Calls and returns recorded so far, published with release order for the STUCK watchdog
     * (runner/stuck_watch.h): odd while an op is in flight, whose thread, method, arguments and call stamp
     * are then already written. Only the log's thread writes it. */
    _Atomic uint64_t events;
} lf_thread_log;

typedef struct lf_recorder {
    lf_ticket_clock ticket;
    lf_clock_kind clock;
    unsigned nthreads;
    lf_thread_log *logs;
} lf_recorder;

/* Room for ops_per_thread ops on each of nthreads threads. Returns false when out of memory. */
bool lf_recorder_init(lf_recorder *r, lf_clock_kind clock, unsigned nthreads, size_t ops_per_thread);
void lf_recorder_free(lf_recorder *r);
/* Empties every log and restarts the ticket counter (call with no thread recording). */
void lf_recorder_reset(lf_recorder *r);

/* Performs method m of adapter a on obj as thread `thread` and records it. The log must have room. A bulk or
 * burst method (history.h) goes to a->bulk_op with n = nargs, an insert's values in args[0..n). */
static inline void lf_recorder_call(lf_recorder *r, unsigned thread, const lf_adapter *a, void *obj,
                                    lf_method m, const int64_t *args, unsigned nargs) {
    lf_thread_log *log = &r->logs[thread];
    lf_op *op = &log->ops[log->n++];
    int64_t value = 0;
    uint64_t events = atomic_load_explicit(&log->events, memory_order_relaxed);
    for (unsigned i = 0; i < LF_CUSTOM_MAX_ARGS; i++) op->arg[i] = i < nargs ? args[i] : 0;
    op->thread = thread;
    op->method = (uint8_t)m;
    op->arg_nil = 0;
    op->count = 0;
    bool bulk = lf_method_is_bulk(m) && a->type != LF_TYPE_CUSTOM; /* nargs: its n (adapter.h) */
    int64_t took[LF_BULK_MAX];
    unsigned moved = 0;
    if (bulk) {
        op->count = (uint8_t)nargs;
        if (!lf_method_is_bulk_insert(m)) memset(op->arg, 0, sizeof op->arg); /* the values taken go there */
    }
    op->call = lf_call_stamp(r->clock, &r->ticket);
    atomic_store_explicit(&log->events, events + 1, memory_order_release); /* in flight */
    lf_kind kind = bulk ? a->bulk_op(obj, m, nargs, args, took, &moved) : a->op(obj, m, args, &value);
    op->ret = lf_return_stamp(r->clock, &r->ticket);
    if (bulk) {
        value = moved;
        for (unsigned i = 0; !lf_method_is_bulk_insert(m) && i < moved && i < LF_BULK_MAX; i++) op->arg[i] = took[i];
    }
    op->res = kind == LF_K_INT ? value : 0;
    op->res_kind = (uint8_t)kind;
    atomic_store_explicit(&log->events, events + 2, memory_order_release); /* returned */
}

/* Appends every logged op to h (whose type the caller set), ordered by call stamp. Returns false when out
 * of memory. */
bool lf_recorder_merge(const lf_recorder *r, lf_history *h);

/* Progress of the run: the sum of every log's events (it changes at each call and return) and, in
 * *in_flight, how many ops are called and not returned. Safe while the threads record. */
uint64_t lf_recorder_progress(const lf_recorder *r, unsigned *in_flight);
/* The history so far, while threads may still be inside ops (the STUCK watchdog): every returned op, and
 * every op in flight as pending (LF_K_PENDING), ordered by call stamp, appended to h. Reads only what the
 * logs' events published. False when out of memory. */
bool lf_recorder_snapshot(const lf_recorder *r, lf_history *h);

#endif
