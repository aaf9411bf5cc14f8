/* Runner: one run = fresh object, pooled threads released together, each replaying its part of the plan
 * through the recorder with perturbation, then the per-thread logs merged into a history. */
#include "runtime/runner.h"

#include <string.h>

#include "runtime/controlled.h"
#include "runtime/adapter_type.h"

typedef struct run_context {
    lf_runner *runner;
    const lf_adapter *adapter;
    const lf_workload *workload;
    const lf_plan *plan;
    void *object;
    _Atomic uint64_t perturbations;
} run_context;

bool lf_runner_init(lf_runner *r, unsigned max_threads, lf_clock_kind clock) {
    memset(r, 0, sizeof *r);
    if (!lf_clock_available(clock)) return false;
    r->clock = clock;
    r->pool = lf_pool_create(max_threads);
    if (!r->pool) return false;
    r->watch = lf_stuck_watch_create();
    if (!r->watch || !lf_recorder_init(&r->recorder, clock, max_threads, 0)) {
        lf_stuck_watch_destroy(r->watch);
        lf_pool_destroy(r->pool);
        r->pool = NULL;
        r->watch = NULL;
        return false;
    }
    return true;
}

void lf_runner_free(lf_runner *r) {
    if (r->pool) lf_pool_destroy(r->pool);
    lf_stuck_watch_destroy(r->watch);
    lf_sched_destroy(r->sched);
    lf_recorder_free(&r->recorder);
    memset(r, 0, sizeof *r);
}

void lf_runner_on_stuck(lf_runner *r, lf_stuck_fn fn, void *ctx) { lf_stuck_watch_set_handler(r->watch, fn, ctx); }

static void worker_task(unsigned t, void *arg) {
    run_context *c = arg;
    const lf_plan *p = c->plan;
    const lf_adapter *a = c->adapter;
    lf_perturb_state ps;
    lf_perturb_state_init(&ps, &c->workload->perturb, c->workload->seed * 0xd1342543de82ef95ull + t + 1);
    lf_perturb_bind(&ps);
    if (a->thread_enter) a->thread_enter(c->object);
    const lf_planned_op *ops = &p->ops[(size_t)t * p->ops_per_thread];
    for (uint32_t i = 0; i < p->ops_per_thread; i++) {
        if (ops[i].method == LF_PLAN_SKIP) continue;
        lf_perturb_gap(&ps);
        lf_recorder_call(&c->runner->recorder, t, a, c->object, (lf_method)ops[i].method, ops[i].args,
                         ops[i].nargs);
    }
    if (a->thread_leave) a->thread_leave(c->object);
    lf_perturb_bind(NULL);
    atomic_fetch_add_explicit(&c->perturbations, ps.events, memory_order_relaxed);
}

static void controlled_task(unsigned t, void *arg) {
    run_context *c = arg;
    const lf_adapter *a = c->adapter;
    if (a->thread_enter) a->thread_enter(c->object);
    const lf_plan *p = c->plan;
    (void)lf_controlled_worker(c->runner->sched, t, &c->runner->recorder, a, c->object,
                               &p->ops[(size_t)t * p->ops_per_thread], p->ops_per_thread);
    if (a->thread_leave) a->thread_leave(c->object);
}

int lf_runner_describe_stuck(char *buf, size_t len, const lf_runner *r, const lf_plan *p) {
    const lf_planned_op *ops[LF_SCHED_MAX_THREADS];
    size_t lens[LF_SCHED_MAX_THREADS];
    unsigned n = p->threads < LF_SCHED_MAX_THREADS ? p->threads : LF_SCHED_MAX_THREADS;
    for (unsigned t = 0; t < n; t++) {
        ops[t] = &p->ops[(size_t)t * p->ops_per_thread];
        lens[t] = p->ops_per_thread;
    }
    if (!r->sched) {
        if (len) buf[0] = 0;
        return 0;
    }
    return lf_describe_stuck(buf, len, r->sched, n, ops, lens);
}

bool lf_runner_run(lf_runner *r, const lf_adapter *a, const lf_workload *w, const lf_plan *p, lf_history *h) {
    if (p->threads > lf_pool_size(r->pool)) return false;
    if (r->controlled && !r->sched && !(r->sched = lf_sched_create(NULL))) return false;
    r->last_stuck = false;
    if (p->ops_per_thread > r->recorder_ops) {
        unsigned n = r->recorder.nthreads;
        lf_recorder_free(&r->recorder);
        if (!lf_recorder_init(&r->recorder, r->clock, n, p->ops_per_thread)) {
            r->recorder_ops = 0;
            lf_recorder_init(&r->recorder, r->clock, n, 0);
            return false;
        }
        r->recorder_ops = p->ops_per_thread;
    }
    lf_recorder_reset(&r->recorder);
    h->capacity = a->capacity;
    run_context c = {.runner = r, .adapter = a, .workload = w, .plan = p};
    atomic_init(&c.perturbations, 0);
    c.object = a->create((size_t)p->threads * p->ops_per_thread);
    if (!c.object) return false;
    lf_stuck_watch_arm(r->watch, &r->recorder, a, (size_t)p->threads * p->ops_per_thread);
    if (r->controlled) {
        size_t ops[LF_SCHED_MAX_THREADS];
        for (unsigned t = 0; t < p->threads && t < LF_SCHED_MAX_THREADS; t++) ops[t] = p->ops_per_thread;
        lf_sched_run_begin(r->sched, p->threads, ops, &r->schedule);
        lf_stuck_watch_controlled_by(r->watch, r->sched); /* (the scheduler judges its own part) */
        lf_pool_run_with(r->pool, p->threads, controlled_task, &c, false);
        r->last_stuck = lf_sched_run_end(r->sched, &r->last_stats) == LF_SCHED_STUCK;
        lf_stuck_watch_controlled_by(r->watch, NULL);
        /* a deadlock: the STUCK handler, when one is set, reports it as the watchdog would (and ends the process) */
        if (r->last_stuck) lf_stuck_watch_deadlock(r->watch);
    } else {
        lf_pool_run(r->pool, p->threads, worker_task, &c);
    }
    lf_stuck_watch_disarm(r->watch);
    if (r->last_stuck)
        lf_abandon_object(c.object); /* a deadlock: the object may be in any state (runner/controlled.h) */
    else
        a->destroy(c.object);
    r->perturbations += atomic_load(&c.perturbations);
    return lf_recorder_merge(&r->recorder, h);
}

bool lf_runner_run_workload(lf_runner *r, const lf_adapter *a, const lf_workload *w, lf_history *h) {
    lf_plan p;
    if (!lf_plan_build(&p, w, a)) return false;
    /* Reuse h's buffer across runs: only the op count and header are reset. */
    lf_adapter_history_reset(h, a);
    bool ok = lf_runner_run(r, a, w, &p, h);
    lf_plan_free(&p);
    return ok;
}

bool lf_runner_run_checked(lf_runner *r, const lf_adapter *a, const lf_workload *w, const lf_check_options *o,
                           lf_history *h, lf_result *res) {
    if (!lf_runner_run_workload(r, a, w, h)) return false;
    if (!r->last_stuck) lf_check(h, o, res);
    return true;
}
