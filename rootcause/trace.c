/* Controlled re-runs of a fuzz case with its accesses recorded (trace.h). */
#include "trace.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testcase/fuzz_case.h"
#include "util/grow.h"
#include "util/hash.h"

void lf_rc_trace_init(lf_rc_trace *t) {
    memset(t, 0, sizeof *t);
    t->max = 200000;
}

void lf_rc_trace_free(lf_rc_trace *t) {
    free(t->ev);
    lf_rc_trace_init(t);
}

/* The event hook: keeps the accesses (and lock operations, as read-modify-writes of the lock object). */
static void on_event(void *ctx, const lf_sched_event *e) {
    lf_rc_runner *r = ctx;
    lf_rc_trace *t = r->recording;
    if (!t) return;
    uint8_t kind;
    switch (e->kind) {
    case LF_EV_READ: kind = LF_RC_READ; break;
    case LF_EV_WRITE: kind = LF_RC_WRITE; break;
    case LF_EV_RMW:
    case LF_EV_SYNC:
    case LF_EV_LIBCALL: kind = LF_RC_RMW; break; /* a library call: its object, read and written */
    default: return;
    }
    if (!e->addr || !e->pc) return;
    if (t->n == t->max) {
        t->overflow = true;
        return;
    }
    if (!LF_GROW(t->ev, t->cap, t->n + 1, 1024)) {
        t->overflow = true;
        return;
    }
    lf_rc_event *ev = &t->ev[t->n++];
    *ev = (lf_rc_event){.seq = e->seq, .thread = e->thread, .op = e->op, .kind = kind,
                        .size = e->size ? e->size : 1, .addr = (uintptr_t)e->addr, .pc = e->pc};
    /* e->calls[0] is the call of the op's function (from the runner): the chain starts below it */
    for (unsigned d = 1; d < e->n_calls && ev->n_calls < LF_RC_MAX_CALLS; d++) ev->calls[ev->n_calls++] = e->calls[d];
}

bool lf_rc_runner_init(lf_rc_runner *r, const lf_adapter *a, const char *format, const uint8_t *data, size_t len,
                       unsigned run, const char *spec, double check_timeout, char *err, size_t errlen) {
    memset(r, 0, sizeof *r);
    lf_check_options base;
    lf_check_options_default(&base);
    base.timeout_s = check_timeout;
    /* a custom type without a spec is checked against its own serial runs, as the fuzz target checked it */
    if (!lf_adapter_checker_init(&r->checker, a, spec && !strcmp(spec, "self") ? LF_SPEC_SELF : LF_SPEC_AUTO, &base,
                                 err, errlen))
        return false;
    lf_method ms[LF_M_COUNT];
    lf_fuzz_case c;
    if (!lf_fuzz_case_decode_as(format ? format : LF_FUZZ_CASE_FORMAT, data, len, lf_fuzz_case_methods(a, ms), &c)) {
        snprintf(err, errlen, "the workload does not decode as '%s'", format ? format : LF_FUZZ_CASE_FORMAT);
        lf_adapter_checker_free(&r->checker);
        return false;
    }
    r->case_controlled = c.mode == LF_FC_CONTROLLED;
    c.mode = LF_FC_CONTROLLED;
    r->adapter = a;
    r->recorded_run = run;
    if (!lf_fc_plan_build(&r->plan, &c, a)) {
        lf_adapter_checker_free(&r->checker);
        snprintf(err, errlen, "out of memory");
        return false;
    }
    r->plan.mode = LF_FC_CONTROLLED;
    r->base = r->plan.schedule;
    if (!lf_fc_executor_init(&r->x, LF_CLOCK_TICKET) || !(r->x.sched = lf_sched_create(&r->x.sched_options))) {
        lf_fc_executor_free(&r->x);
        lf_fc_plan_free(&r->plan);
        lf_adapter_checker_free(&r->checker);
        snprintf(err, errlen, "cannot start the worker threads");
        return false;
    }
    lf_sched_set_event_hook(r->x.sched, on_event, r);
    lf_adapter_history_init(&r->h, a);
    return true;
}

void lf_rc_runner_free(lf_rc_runner *r) {
    lf_history_free(&r->h);
    lf_adapter_checker_free(&r->checker);
    lf_fc_executor_free(&r->x);
    lf_fc_plan_free(&r->plan);
    memset(r, 0, sizeof *r);
}

void lf_rc_schedule_at(const lf_rc_runner *r, uint64_t i, lf_schedule *out) {
    const lf_fc_plan *p = &r->plan;
    if (i == 0) {
        lf_schedule_for_run(&r->base, p->schedule_salt, r->recorded_run, p->threads, p->len, out);
    } else if (i % 2) {
        /* repetitions the fuzz target never ran (it runs at most a few dozen) */
        lf_schedule_for_run(&r->base, p->schedule_salt, (unsigned)(1000 + i), p->threads, p->len, out);
    } else {
        lf_schedule_random(out, lf_mix64(p->schedule_salt ^ (i * 0x9e3779b97f4a7c15ull)), p->threads, p->len);
    }
}

bool lf_rc_runner_set_pairs(lf_rc_runner *r, const uintptr_t *begin_pc, const uintptr_t *end_pc, size_t n) {
    lf_sched_clear_atomic_regions(r->x.sched);
    for (size_t k = 0; k < n; k++)
        if (!lf_sched_add_atomic_pair(r->x.sched, begin_pc[k], end_pc[k])) return false;
    return true;
}

lf_rc_outcome lf_rc_run(lf_rc_runner *r, const lf_schedule *sch, lf_rc_trace *trace) {
    if (r->work_budget && lf_rc_work(r->switches, r->points) >= r->work_budget) {
        r->over_budget = true;
        return LF_RC_OVER_BUDGET;
    }
    r->plan.schedule = *sch;
    if (trace) {
        trace->n = 0;
        trace->overflow = false;
        trace->threads = r->plan.threads;
        for (unsigned t = 0; t < r->plan.threads; t++) trace->ops[t] = r->plan.len[t];
    }
    r->recording = trace;
    bool ok = lf_fc_execute(&r->x, &r->plan, 0, &r->h);
    r->recording = NULL;
    r->plan.schedule = r->base;
    if (!ok) return LF_RC_ERROR;
    r->last_stats = r->x.last.stats;
    r->points += r->x.last.stats.points;
    r->switches += r->x.last.stats.switches;
    r->runs++;
    if (r->x.last.stuck) return LF_RC_STUCK;
    if (!r->x.last.stats.deterministic || r->x.last.stats.region_blocks) return LF_RC_DISCARDED;
    lf_result res;
    lf_result_init(&res);
    lf_adapter_checker_check(&r->checker, &r->h, &res);
    lf_rc_outcome o = res.verdict == LF_VIOLATION ? LF_RC_VIOLATION : LF_RC_PASS;
    lf_result_free(&res);
    return o;
}

const char *lf_rc_op_method(const lf_rc_runner *r, unsigned t, uint32_t op) {
    if (t >= r->plan.threads || op >= r->plan.len[t]) return "?";
    const lf_method_decl *d = lf_adapter_method(r->adapter, r->plan.ops[t][op].method);
    return d ? d->name : "?";
}
