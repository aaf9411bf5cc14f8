/* Delta debugging over a controlled fuzz case, re-run under its schedule (see testcase/minimize_test.h). */
#include "testcase/minimize_test.h"

#include <stdio.h>
#include <string.h>

#include "findings/crash.h"
#include "findings/capture.h"
#include "findings/stuck.h"
#include "runtime/adapter_type.h"
#include "runtime/workload.h"
#include "testcase/case_replay.h"
#include "util/parse.h"
#include "util/clock.h"

void lf_tmin_options_default(lf_tmin_options *o) {
    memset(o, 0, sizeof *o);
    o->max_runs = 3000;
    o->seconds = 5;
}

/* Calls of one run of c: its bodies times rounds (as planned) and its prefix. */
static size_t fc_case_calls(const lf_fuzz_case *c) { return lf_fuzz_case_run_ops(c) + c->prefix_len; }

int lf_tmin_describe(char *buf, size_t len, const lf_tmin_stats *s) {
    return snprintf(buf, len,
                    "test %u thread%s, %zu calls -> %u thread%s, %zu calls (history %zu -> %zu ops); %llu runs, "
                    "%.2f s%s",
                    s->threads_before, s->threads_before == 1 ? "" : "s", s->calls_before, s->threads_after,
                    s->threads_after == 1 ? "" : "s", s->calls_after, s->ops_before, s->ops_after,
                    (unsigned long long)s->runs, s->seconds, s->complete ? "" : ", stopped by a budget (not minimal)");
}

typedef struct tmin {
    const lf_adapter *a;
    lf_fc_executor *x;
    lf_adapter_checker *checker;
    const lf_tmin_options *o;
    unsigned n_methods;
    double start;
    lf_tmin_stats *s;
    lf_fuzz_case cur; /* the smallest violating case so far (canonical, repeats 1) */
    lf_history cur_h; /* its run 0's history */
    lf_history try_h;
    bool out_of_budget;
} tmin;

static bool over_budget(tmin *m) {
    if (m->s->runs >= m->o->max_runs || lf_now_s() - m->start >= m->o->seconds) m->out_of_budget = true;
    return m->out_of_budget;
}

static void progress(tmin *m) {
    if (!m->o->on_progress) return;
    m->s->seconds = lf_now_s() - m->start;
    m->s->threads_after = m->cur.threads;
    m->s->calls_after = fc_case_calls(&m->cur);
    m->s->ops_after = m->cur_h.n;
    m->o->on_progress(m->o->ctx, m->s);
}

/* Runs repetition `run` of c into h; true when it was a deterministic, checked violation. */
static bool violates(tmin *m, const lf_fuzz_case *c, unsigned run, lf_history *h) {
    lf_fc_plan plan;
    if (!lf_fc_plan_build(&plan, c, m->a)) return false;
    if (m->o->balance_blocking) lf_fc_plan_balance_blocking(&plan);
    bool ok = lf_fc_execute(m->x, &plan, run, h);
    lf_fc_plan_free(&plan);
    m->s->runs++;
    if (m->o->on_progress && m->s->runs % 64 == 0) progress(m);
    if (!ok || m->x->last.stuck || !m->x->last.stats.deterministic) return false;
    lf_result r;
    lf_result_init(&r);
    lf_adapter_checker_check(m->checker, h, &r);
    bool v = r.verdict == LF_VIOLATION;
    lf_result_free(&r);
    return v;
}

static bool positional(const lf_schedule *s);

/* Other schedules a smaller test is tried under when its own does not violate (not positional ones). */
#define RESCHEDULES 8

/* Tries a candidate (normalised here, run 0): keeps it when it still violates. A schedule that carries no
 * positions over (a random walk, choices counted in steps) follows another interleaving once a call is gone,
 * so such a candidate is also tried under RESCHEDULES schedules derived from its own (as repetitions are:
 * the same strategy, other seeds), and kept with the first that violates: the test shrinks, and its
 * schedule is found again for it. */
static bool try_case(tmin *m, lf_fuzz_case *cand) {
    if (over_budget(m)) return false;
    lf_fuzz_case_normalize(cand, m->n_methods);
    if (!memcmp(cand, &m->cur, sizeof *cand)) return false;
    lf_adapter_checker_new_case(m->checker);
    bool ok = violates(m, cand, 0, &m->try_h);
    lf_fc_plan plan;
    bool planned = !ok && !positional(&cand->schedule) && lf_fc_plan_build(&plan, cand, m->a);
    for (unsigned k = 1; planned && !ok && k <= RESCHEDULES && !over_budget(m); k++) {
        lf_fuzz_case alt = *cand;
        lf_schedule_for_run(&cand->schedule, plan.schedule_salt, k, plan.threads, plan.len, &alt.schedule);
        lf_fuzz_case_normalize(&alt, m->n_methods);
        lf_adapter_checker_new_case(m->checker);
        if ((ok = violates(m, &alt, 0, &m->try_h))) *cand = alt;
    }
    if (planned) lf_fc_plan_free(&plan);
    if (!ok) return false;
    m->cur = *cand;
    lf_history tmp = m->cur_h;
    m->cur_h = m->try_h;
    m->try_h = tmp;
    m->s->kept++;
    progress(m);
    return true;
}

/* ---- carrying the schedule's positions over ---- */

static bool positional(const lf_schedule *s) { return s->strategy == LF_SCHED_PCT || s->strategy == LF_SCHED_PREEMPT; }

/* Change point i removed (PCT, PREEMPT: the first `bound` are used). */
static void drop_change(lf_schedule *s, unsigned i) {
    for (unsigned k = i; k + 1 < LF_SCHED_MAX_CHANGES; k++) s->change[k] = s->change[k + 1];
    memset(&s->change[LF_SCHED_MAX_CHANGES - 1], 0, sizeof s->change[0]);
    if (s->bound > 0) s->bound--;
}

/* Thread t of `threads` dropped: priorities and change points of the threads after it move down one; the
 * change points of t itself go (a positional schedule), their count lowering the bound. */
static void schedule_drop_thread(lf_schedule *s, unsigned t, unsigned threads) {
    for (unsigned k = t; k + 1 < threads; k++) s->priority[k] = s->priority[k + 1];
    s->priority[threads - 1] = 0;
    if (!positional(s)) return;
    for (unsigned i = s->bound; i-- > 0;) {
        unsigned th = s->change[i].thread % threads;
        if (th == t)
            drop_change(s, i);
        else
            s->change[i].thread = (uint8_t)(th > t ? th - 1 : th);
    }
}

/* Thread t's body (len calls, `rounds` times) loses call j: its change points keep naming the same op (or the
 * next one, where they named the dropped call). */
static void schedule_drop_call(lf_schedule *s, unsigned threads, unsigned t, unsigned len, unsigned rounds,
                               unsigned j) {
    if (!positional(s) || len == 0) return;
    size_t ops = (size_t)len * rounds;
    for (unsigned i = 0; i < s->bound; i++) {
        if (s->change[i].thread % threads != t) continue;
        size_t o = s->change[i].op % ops, r = o / len, k = o % len;
        if (k > j) k--;
        if (len == 1) {
            s->change[i].op = 0;
            s->change[i].step = 0;
            continue;
        }
        if (k == len - 1) k = len - 2; /* the dropped call was the last of its round */
        s->change[i].op = (uint16_t)(r * (len - 1) + k);
    }
}

/* ---- reductions ---- */

static void drop_thread(lf_fuzz_case *c, unsigned t) {
    schedule_drop_thread(&c->schedule, t, c->threads);
    for (unsigned k = t; k + 1 < c->threads; k++) {
        c->body_len[k] = c->body_len[k + 1];
        memcpy(c->body[k], c->body[k + 1], sizeof c->body[k]);
    }
    c->threads--;
}

static void drop_call(lf_fuzz_case *c, unsigned t, unsigned j) {
    schedule_drop_call(&c->schedule, c->threads, t, c->body_len[t], c->rounds, j);
    for (unsigned k = j; k + 1 < c->body_len[t]; k++) c->body[t][k] = c->body[t][k + 1];
    c->body_len[t]--;
}

static bool pass_threads(tmin *m) {
    bool any = false;
    for (unsigned t = 0; m->cur.threads > 1 && t < m->cur.threads;) {
        lf_fuzz_case cand = m->cur;
        drop_thread(&cand, t);
        if (try_case(m, &cand))
            any = true;
        else
            t++;
    }
    return any;
}

static bool pass_rounds(tmin *m) {
    bool any = false;
    while (m->cur.rounds > 1 && !m->out_of_budget) {
        unsigned from = m->cur.rounds, tries[3] = {1, from / 2, from - 1};
        bool kept = false;
        for (unsigned i = 0; i < 3 && !kept; i++) {
            if (tries[i] < 1 || tries[i] >= from || (i > 0 && tries[i] == tries[i - 1])) continue;
            lf_fuzz_case cand = m->cur;
            cand.rounds = (uint8_t)tries[i];
            kept = try_case(m, &cand);
        }
        if (!kept) break;
        any = true;
    }
    return any;
}

/* ddmin-like over one thread's body: chunks of half its length, then smaller, down to single calls. */
static bool pass_body(tmin *m, unsigned t) {
    bool any = false;
    for (unsigned n = m->cur.body_len[t] / 2 ? m->cur.body_len[t] / 2 : 1; n >= 1 && !m->out_of_budget; n /= 2) {
        for (unsigned start = 0; start < m->cur.body_len[t] && !m->out_of_budget;) {
            lf_fuzz_case cand = m->cur;
            unsigned end = start + n < cand.body_len[t] ? start + n : cand.body_len[t];
            for (unsigned j = end; j-- > start;) drop_call(&cand, t, j);
            if (try_case(m, &cand))
                any = true;
            else
                start += n;
        }
        if (n == 1) break;
    }
    return any;
}

static bool pass_prefix(tmin *m) {
    bool any = false;
    for (unsigned n = m->cur.prefix_len / 2 ? m->cur.prefix_len / 2 : 1; m->cur.prefix_len && !m->out_of_budget;
         n /= 2) {
        for (unsigned start = 0; start < m->cur.prefix_len && !m->out_of_budget;) {
            lf_fuzz_case cand = m->cur;
            unsigned end = start + n < cand.prefix_len ? start + n : cand.prefix_len;
            memmove(&cand.prefix[start], &cand.prefix[end], (cand.prefix_len - end) * sizeof cand.prefix[0]);
            cand.prefix_len = (uint8_t)(cand.prefix_len - (end - start));
            if (try_case(m, &cand))
                any = true;
            else
                start += n;
        }
        if (n <= 1) break;
    }
    return any;
}

static bool pass_knobs(tmin *m) {
    bool any = false;
    if (m->cur.drain) {
        lf_fuzz_case cand = m->cur;
        cand.drain = false;
        any |= try_case(m, &cand);
    }
    for (unsigned k = 1; k < m->cur.key_domain && !m->out_of_budget; k++) {
        if (!lf_fuzz_case_key_domain_valid(k)) continue; /* 17..31, 33..63, ...: not a domain */
        lf_fuzz_case cand = m->cur;
        cand.key_domain = (uint16_t)k;
        if (try_case(m, &cand)) {
            any = true;
            break;
        }
    }
    return any;
}

static bool pass_schedule(tmin *m) {
    bool any = false;
    /* the memory model: sc when the bug needs no weak behaviour, else fewer weak choices (a lower chance takes
     * a subset of the same generator's draws) */
    uint8_t model = m->cur.schedule.memory_model;
    if ((model == LF_MM_TSO || model == LF_MM_C11) && !m->out_of_budget) {
        lf_fuzz_case cand = m->cur;
        cand.schedule.memory_model = LF_MM_SC;
        lf_schedule_normalize(&cand.schedule);
        if (try_case(m, &cand)) return true;
        while (m->cur.schedule.weak_chance > 1 && !m->out_of_budget) {
            cand = m->cur;
            cand.schedule.weak_chance /= 2;
            if (!try_case(m, &cand)) break;
            any = true;
        }
    }
    if (positional(&m->cur.schedule))
        for (unsigned i = 0; i < m->cur.schedule.bound && !m->out_of_budget;) {
            lf_fuzz_case cand = m->cur;
            drop_change(&cand.schedule, i);
            if (try_case(m, &cand))
                any = true;
            else
                i++;
        }
    if (m->cur.schedule.strategy == LF_SCHED_CHOICES)
        for (unsigned i = 0; i < m->cur.schedule.n_choices && !m->out_of_budget;) {
            lf_fuzz_case cand = m->cur;
            lf_schedule *s = &cand.schedule;
            memmove(&s->choices[i], &s->choices[i + 1], (s->n_choices - i - 1) * sizeof s->choices[0]);
            s->n_choices--;
            if (try_case(m, &cand))
                any = true;
            else
                i++;
        }
    return any;
}

bool lf_fc_minimize_test(const lf_adapter *a, lf_fc_executor *x, lf_adapter_checker *checker, const char *format,
                         const uint8_t *data, size_t len, unsigned run, const lf_tmin_options *o, uint8_t *out,
                         size_t *out_len, lf_history *h, lf_tmin_stats *s, char *err, size_t errlen) {
    memset(s, 0, sizeof *s);
    lf_method ms[LF_M_COUNT];
    tmin m = {.a = a, .x = x, .checker = checker, .o = o, .n_methods = lf_fuzz_case_methods(a, ms), .s = s};
    m.start = lf_now_s();
    lf_fuzz_case c;
    if (!lf_fuzz_case_decode_as(format ? format : LF_FUZZ_CASE_FORMAT, data, len, m.n_methods, &c)) {
        snprintf(err, errlen, "unknown workload format '%s'", format ? format : "?");
        return false;
    }
    if (c.mode != LF_FC_CONTROLLED) {
        snprintf(err, errlen, "a free-mode case: only controlled runs replay, so only they are minimized");
        return false;
    }
    if (run >= c.repeats) {
        snprintf(err, errlen, "repetition %u of a case of %u", run, (unsigned)c.repeats);
        return false;
    }
    lf_history orig;
    lf_adapter_history_init(&orig, a);
    lf_adapter_history_init(&m.cur_h, a);
    lf_adapter_history_init(&m.try_h, a);
    lf_adapter_checker_new_case(checker);
    bool ok = violates(&m, &c, run, &orig);
    if (!ok) {
        snprintf(err, errlen, "repetition %u does not violate again in a controlled run", run + 1);
    } else {
        s->threads_before = c.threads;
        s->calls_before = fc_case_calls(&c);
        s->ops_before = orig.n;
        /* pin the repetition: run 0 of a one-run case with the schedule repetition `run` followed */
        m.cur = c;
        m.cur.repeats = 1;
        m.cur.schedule = x->last.schedule;
        lf_fuzz_case_normalize(&m.cur, m.n_methods);
        lf_adapter_checker_new_case(checker);
        ok = violates(&m, &m.cur, 0, &m.cur_h);
        if (!ok) snprintf(err, errlen, "repetition %u, made the case's only run, does not violate", run + 1);
        s->same_history = ok && lf_histories_identical(&orig, &m.cur_h);
    }
    if (ok) {
        /* to a fixpoint: each kept candidate is smaller, so this ends; the budget ends it sooner */
        for (bool changed = true; changed && !over_budget(&m);) {
            changed = pass_threads(&m);
            changed |= pass_rounds(&m);
            for (unsigned t = 0; t < m.cur.threads; t++) changed |= pass_body(&m, t);
            changed |= pass_prefix(&m);
            changed |= pass_knobs(&m);
            changed |= pass_schedule(&m);
        }
        s->complete = !m.out_of_budget;
        *out_len = lf_fuzz_case_encode(&m.cur, out);
        ok = lf_history_copy(h, &m.cur_h);
        if (!ok) snprintf(err, errlen, "out of memory");
    }
    s->seconds = lf_now_s() - m.start;
    s->threads_after = m.cur.threads;
    s->calls_after = fc_case_calls(&m.cur);
    s->ops_after = m.cur_h.n;
    lf_history_free(&orig);
    lf_history_free(&m.cur_h);
    lf_history_free(&m.try_h);
    return ok;
}

lf_status lf_entry_minimize_test(const lf_violation_entry *old, const lf_adapter *a, const lf_tmin_options *o,
                                 lf_violation_entry *e, lf_tmin_stats *s, char *err, size_t errlen) {
    memset(s, 0, sizeof *s);
    const char *format = lf_entry_meta(old, "workload_format"), *mode = lf_entry_meta(old, "schedule_mode");
    const char *run_text = lf_entry_meta(old, "schedule_run");
    uint64_t run = 0;
    if (lf_entry_is_stuck(old) || lf_entry_is_crash(old) || lf_entry_category(old)) {
        snprintf(err, errlen, "a %s entry, not a violation",
                 lf_entry_is_stuck(old) ? "STUCK" : lf_entry_is_crash(old) ? "CRASH" : "serial nondeterminism");
        return LF_ERR_FORMAT;
    }
    if (!lf_fuzz_case_format_scheduled(format) || !mode || strcmp(mode, "controlled") != 0 ||
        (run_text && !lf_parse_u64(run_text, 0, LF_FC_MAX_REPEATS - 1, &run))) {
        snprintf(err, errlen, "not a controlled-mode finding of format '%s' (meta schedule_mode: %s)", LF_FUZZ_CASE_FORMAT,
                 mode ? mode : "none");
        return LF_ERR_FORMAT;
    }
    if (a->type != old->full.type) {
        snprintf(err, errlen, "adapter '%s' is a %s now, the entry a %s", a->name, lf_adapter_type_name(a),
                 lf_history_type_name(&old->full));
        return LF_ERR_FORMAT;
    }
    lf_adapter_checker checker;
    if (!lf_adapter_checker_for_saved(&checker, a->name, lf_entry_meta(old, "spec"), NULL, err, errlen))
        return LF_ERR_FORMAT;
    lf_fc_executor x;
    if (!lf_fc_executor_init(&x, LF_CLOCK_TICKET)) { /* no STUCK handler: a deadlocking candidate is rejected */
        lf_adapter_checker_free(&checker);
        snprintf(err, errlen, "cannot start %d threads", LF_FC_MAX_THREADS);
        return LF_ERR_NOMEM;
    }
    lf_tmin_options opt = *o;
    opt.balance_blocking = lf_blocking_from_meta(a, lf_entry_meta(old, "blocking")); /* as the target ran it */
    uint8_t test[LF_FC_MAX_ENCODED];
    size_t test_len = 0;
    lf_history h;
    lf_adapter_history_init(&h, a);
    lf_status st = LF_ERR_FORMAT;
    if (lf_fc_minimize_test(a, &x, &checker, format, old->workload, old->workload_len, (unsigned)run, &opt, test,
                            &test_len, &h, s, err, errlen)) {
        char summary[512];
        lf_tmin_describe(summary, sizeof summary, s);
        st = lf_capture_again_with_test(old, &checker.check, test, test_len, &h, s->threads_after, summary, e, err,
                                        errlen);
        const char *blocking = lf_entry_meta(old, "blocking");
        if (st == LF_OK && blocking && !lf_entry_set_meta(e, "blocking", blocking)) {
            lf_entry_free(e);
            snprintf(err, errlen, "out of memory");
            st = LF_ERR_NOMEM;
        }
    }
    lf_history_free(&h);
    lf_fc_executor_free(&x);
    lf_adapter_checker_free(&checker);
    return st;
}
