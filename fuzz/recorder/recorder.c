/* Recorder: log allocation and the merge of per-thread logs into one history. */
#include "recorder/recorder.h"

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
    for (unsigned t = 0; t < r->nthreads; t++) r->logs[t].n = 0;
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
