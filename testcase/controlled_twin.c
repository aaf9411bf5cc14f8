/* The search for a free finding's controlled twin (controlled_twin.h). */
#include "testcase/controlled_twin.h"

#include <stdio.h>
#include <string.h>

#include "runtime/adapter_type.h"
#include "util/clock.h"
#include "util/hash.h"

void lf_twin_options_default(lf_twin_options *o) {
    memset(o, 0, sizeof *o);
    o->schedules = 1000;
    o->seconds = 10;
}

/* Schedule i of the family for case c planned as p. */
static void schedule_at(const lf_fuzz_case *c, const lf_fc_plan *p, uint64_t i, lf_schedule *out) {
    if (i == 0)
        *out = c->schedule;
    else if (i % 2)
        lf_schedule_for_run(&c->schedule, p->schedule_salt, (unsigned)i, p->threads, p->len, out);
    else
        lf_schedule_random(out, lf_mix64(p->schedule_salt ^ (i * 0x9e3779b97f4a7c15ull)), p->threads, p->len);
    if (i % 4 == 2) { /* every fourth: SURW, with the selectivity the seed gives */
        out->strategy = LF_SCHED_SURW;
        out->bound = (uint8_t)(out->seed % (LF_SCHED_MAX_CHANGES + 1));
        lf_schedule_normalize(out);
    }
}

bool lf_fc_controlled_twin(const lf_adapter *a, lf_fc_executor *x, lf_adapter_checker *checker, const char *format,
                           const uint8_t *data, size_t len, const lf_twin_options *o, lf_twin *t, char *err,
                           size_t errlen) {
    memset(t, 0, sizeof *t);
    lf_adapter_history_init(&t->history, a);
    lf_method ms[LF_M_COUNT];
    unsigned n_methods = lf_fuzz_case_methods(a, ms);
    lf_fuzz_case c;
    if (!lf_fuzz_case_decode_as(format ? format : LF_FUZZ_CASE_FORMAT, data, len, n_methods, &c)) {
        snprintf(err, errlen, "unknown workload format '%s'", format ? format : "?");
        return false;
    }
    c.mode = LF_FC_CONTROLLED;
    c.repeats = 1;
    lf_fuzz_case_normalize(&c, n_methods);
    lf_fc_plan base;
    if (!lf_fc_plan_build(&base, &c, a)) {
        snprintf(err, errlen, "out of memory");
        return false;
    }
    double start = lf_now_s(), cpu_start = lf_cpu_now_s();
    bool ok = true;
    for (uint64_t i = 0; i < o->schedules && lf_cpu_now_s() - cpu_start < o->seconds && !t->found; i++) {
        /* the candidate as bytes and back, so that what is found is what its bytes replay */
        lf_fuzz_case cand = c;
        schedule_at(&c, &base, i, &cand.schedule);
        lf_fuzz_case_normalize(&cand, n_methods);
        uint8_t bytes[LF_FC_MAX_ENCODED];
        size_t n = lf_fuzz_case_encode(&cand, bytes);
        lf_fuzz_case_decode(bytes, n, n_methods, &cand);
        lf_fc_plan plan;
        if (!lf_fc_plan_build(&plan, &cand, a)) {
            snprintf(err, errlen, "out of memory");
            ok = false;
            break;
        }
        if (o->balance_blocking) lf_fc_plan_balance_blocking(&plan);
        lf_adapter_checker_new_case(checker);
        bool ran = lf_fc_execute(x, &plan, 0, &t->history);
        lf_fc_plan_free(&plan);
        t->tried++;
        if (!ran) {
            snprintf(err, errlen, "cannot run the workload (out of memory or threads)");
            ok = false;
            break;
        }
        if (x->last.stuck || !x->last.stats.deterministic) continue; /* no exact replay: not a twin */
        lf_result r;
        lf_result_init(&r);
        lf_adapter_checker_check(checker, &t->history, &r);
        if (r.verdict == LF_VIOLATION && !r.serial_nondeterminism) {
            t->found = true;
            t->schedule_index = i;
            memcpy(t->bytes, bytes, n);
            t->len = n;
            t->info = x->last;
            t->engine = r.engine;
            snprintf(t->reason, sizeof t->reason, "%s", r.reason);
        }
        lf_result_free(&r);
    }
    lf_fc_plan_free(&base);
    t->seconds = lf_now_s() - start;
    return ok;
}
