/* Recorder: per-thread, append-only logs of completed operations, merged into one lf_history.
 *
 * Each worker thread owns one log (its own cache lines, preallocated for the whole run), so recording an op
 * is two stamps and one 48-byte store with no sharing besides the clock itself. lf_recorder_call is the one
 * primitive the runner uses: stamp, call the adapter, stamp, append. */
#ifndef LINFUZZ_RECORDER_H
#define LINFUZZ_RECORDER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "linfuzz/adapter.h"
#include "linfuzz/history.h"
#include "recorder/clock.h"

typedef struct lf_thread_log {
    _Alignas(64) lf_op *ops;
    size_t n, cap;
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

/* Performs method m of adapter a on obj as thread `thread` and records it. The log must have room. */
static inline void lf_recorder_call(lf_recorder *r, unsigned thread, const lf_adapter *a, void *obj,
                                    lf_method m, const int64_t *args, unsigned nargs) {
    lf_thread_log *log = &r->logs[thread];
    lf_op *op = &log->ops[log->n++];
    int64_t value = 0;
    op->call = lf_call_stamp(r->clock, &r->ticket);
    lf_kind kind = a->op(obj, m, args, &value);
    op->ret = lf_return_stamp(r->clock, &r->ticket);
    op->arg[0] = nargs > 0 ? args[0] : 0;
    op->arg[1] = nargs > 1 ? args[1] : 0;
    op->res = kind == LF_K_INT ? value : 0;
    op->thread = thread;
    op->method = (uint8_t)m;
    op->arg_nil = 0;
    op->res_kind = (uint8_t)kind;
    op->reserved = 0;
}

/* Appends every logged op to h (whose type the caller set), ordered by call stamp. Returns false when out
 * of memory. */
bool lf_recorder_merge(const lf_recorder *r, lf_history *h);

#endif
