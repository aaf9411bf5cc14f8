/* One worker's share of a controlled run, abandoned objects of stuck runs, deadlock descriptions (see
 * controlled.h). */
#include "runtime/controlled.h"

#include <pthread.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>

#include "util/appendf.h"
#include "util/grow.h"

bool lf_controlled_worker(lf_sched *s, unsigned t, lf_recorder *rec, const lf_adapter *a, void *obj,
                          const lf_planned_op *ops, size_t n) {
    lf_thread_log *log = &rec->logs[t];
    jmp_buf *escape = lf_sched_thread_attach(s, t);
    if (setjmp(*escape) != 0) {
        /* STUCK inside an op: it was logged at its call, it never returned. */
        log->n--;
        lf_call_out_reset();
        lf_sched_thread_end(s);
        return false;
    }
    lf_sched_thread_start(s, t);
    for (size_t i = 0; i < n; i++) {
        if (ops[i].method == LF_PLAN_SKIP) continue; /* balanced blocking left it out (runner/workload.h) */
        lf_sched_op_begin(s, (uint32_t)i);
        lf_recorder_call(rec, t, a, obj, (lf_method)ops[i].method, ops[i].args, ops[i].nargs);
        lf_sched_op_end(s);
    }
    lf_sched_thread_end(s);
    return true;
}

static pthread_mutex_t abandoned_lock = PTHREAD_MUTEX_INITIALIZER;
static void **abandoned;
static size_t n_abandoned, cap_abandoned;

void lf_abandon_object(void *obj) {
    pthread_mutex_lock(&abandoned_lock);
    /* Out of memory: the object is simply leaked (unreachable), which only a leak checker would notice. */
    if (LF_GROW(abandoned, cap_abandoned, n_abandoned + 1, 16)) abandoned[n_abandoned++] = obj;
    pthread_mutex_unlock(&abandoned_lock);
}

int lf_describe_stuck(char *buf, size_t len, const lf_sched *s, unsigned threads,
                      const lf_planned_op *const *ops, const size_t *lens) {
    lf_sched_stuck_thread info[LF_SCHED_MAX_THREADS];
    unsigned n = lf_sched_stuck_info(s, info, threads < LF_SCHED_MAX_THREADS ? threads : LF_SCHED_MAX_THREADS);
    size_t w = 0;
#define PUT(...) lf_appendf(buf, len, &w, __VA_ARGS__)
    if (len) buf[0] = 0;
    for (unsigned t = 0; t < n; t++) {
        if (info[t].finished) {
            PUT("  T%u: finished its ops\n", t);
            continue;
        }
        PUT("  T%u: op %u", t, info[t].op);
        if (info[t].op < lens[t]) {
            const lf_planned_op *op = &ops[t][info[t].op];
            PUT(" (%s", op->method == LF_PLAN_SKIP ? "skipped" : lf_method_name((lf_method)op->method));
            for (unsigned k = 0; k < op->nargs; k++) PUT(" %lld", (long long)op->args[k]);
            PUT(")");
        }
        PUT(": blocked on %s %p", info[t].wait, info[t].obj);
        if (info[t].holder >= 0) PUT(" held by T%d", info[t].holder);
        PUT("\n");
    }
#undef PUT
    return (int)w;
}
