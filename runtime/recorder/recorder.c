/* Recorder: log allocation and the merge of per-thread logs into one history. */
#include "runtime/recorder.h"

#include <stdlib.h>
#include <string.h>

bool lf_recorder_init(lf_recorder *r, lf_clock_kind clock, unsigned nthreads, size_t ops_per_thread) {
    memset(r, 0, sizeof *r);
    atomic_init(&r->ticket.next, 1);
    r->clock = clock;
    r->nthreads = nthreads;
    r->logs = aligned_alloc(64, ((nthreads * sizeof *r->logs) + 63) / 64 * 64);
    if (!r->logs) return false;
    memset(r->logs, 0, nthreads * sizeof *r->logs);
    for (unsigned t = 0; t < nthreads; t++) atomic_init(&r->logs[t].events, 0);
    for (unsigned t = 0; t < nthreads; t++) {
        r->logs[t].cap = ops_per_thread;
        r->logs[t].ops = malloc((ops_per_thread ? ops_per_thread : 1) * sizeof(lf_op));
        if (!r->logs[t].ops) {
            lf_recorder_free(r);
            return false;
        }
    }
    return true;
}

void lf_recorder_free(lf_recorder *r) {
    if (r->logs)
        for (unsigned t = 0; t < r->nthreads; t++) free(r->logs[t].ops);
    free(r->logs);
    r->logs = NULL;
    r->nthreads = 0;
}

void lf_recorder_reset(lf_recorder *r) {
    atomic_store_explicit(&r->ticket.next, 1, memory_order_relaxed);
    for (unsigned t = 0; t < r->nthreads; t++) {
        r->logs[t].n = 0;
        atomic_store_explicit(&r->logs[t].events, 0, memory_order_relaxed);
    }
}

uint64_t lf_recorder_progress(const lf_recorder *r, unsigned *in_flight) {
    uint64_t sum = 0;
    unsigned flying = 0;
    for (unsigned t = 0; t < r->nthreads; t++) {
        uint64_t e = atomic_load_explicit(&r->logs[t].events, memory_order_acquire);
        sum += e;
        flying += (unsigned)(e & 1);
    }
    if (in_flight) *in_flight = flying;
    return sum;
}

static int by_call_then_thread(const void *pa, const void *pb) {
    const lf_op *a = pa, *b = pb;
    if (a->call != b->call) return a->call < b->call ? -1 : 1;
    return a->thread < b->thread ? -1 : a->thread > b->thread;
}

bool lf_recorder_snapshot(const lf_recorder *r, lf_history *h) {
    size_t first = h->n;
    for (unsigned t = 0; t < r->nthreads; t++) {
        const lf_thread_log *log = &r->logs[t];
        uint64_t e = atomic_load_explicit(&log->events, memory_order_acquire);
        size_t done = (size_t)(e / 2);
        for (size_t i = 0; i < done; i++)
            if (!lf_history_push(h, &log->ops[i])) return false;
        if (e & 1) { /* called, not returned: its call, method and arguments are published, nothing else */
            const lf_op *src = &log->ops[done];
            lf_op op = {.call = src->call, .thread = src->thread, .method = src->method, .count = src->count,
                        .res_kind = LF_K_PENDING};
            /* (a bulk remove's slots take its outputs after it returns: a pending one has none) */
            if (!lf_method_is_bulk(src->method) || lf_method_is_bulk_insert(src->method))
                memcpy(op.arg, src->arg, sizeof op.arg);
            if (!lf_history_push(h, &op)) return false;
        }
    }
    /* by call stamp, then thread (a thread's calls have increasing stamps, so this keeps its order) */
    qsort(h->ops + first, h->n - first, sizeof *h->ops, by_call_then_thread);
    return true;
}

bool lf_recorder_merge(const lf_recorder *r, lf_history *h) {
    /* Each log is already in call order (a thread is sequential), so a k-way merge by smallest head suffices;
     * k is the thread count, small enough for a linear scan per op. */
    unsigned k = r->nthreads;
    size_t *pos = calloc(k ? k : 1, sizeof *pos);
    if (!pos) return false;
    bool ok = true;
    for (;;) {
        int best = -1;
        for (unsigned t = 0; t < k; t++) {
            if (pos[t] == r->logs[t].n) continue;
            if (best < 0 || r->logs[t].ops[pos[t]].call < r->logs[best].ops[pos[best]].call) best = (int)t;
        }
        if (best < 0 || !(ok = lf_history_push(h, &r->logs[best].ops[pos[best]++]))) break;
    }
    free(pos);
    return ok;
}
