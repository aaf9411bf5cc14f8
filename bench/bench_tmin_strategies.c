/* Test minimization per schedule strategy (ci/bench_minimize_test.sh --strategies; docs/fuzzing.md): for every
 * committed controlled entry given, its test is run under schedules of one strategy (PCT, CHOICES, PREEMPT,
 * WALK; schedule seeds 1, 2, ... up to 400, each with its 16 derived repetitions) until a repetition violates,
 * and that finding's test is minimized (testcase/minimize_test.h, budget SECONDS, default 10). One Markdown row
 * per entry and strategy: calls before and after, history ops after, runs and seconds; a strategy that found no
 * violation says so.
 *
 * Usage: linfuzz-bench-tmin-strategies [SECONDS] ENTRY... */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "findings/entry.h"
#include "runtime/adapter_check.h"
#include "runtime/adapter_type.h"
#include "testcase/case_replay.h"
#include "testcase/minimize_test.h"

static const lf_sched_strategy STRATEGIES[] = {LF_SCHED_PCT, LF_SCHED_CHOICES, LF_SCHED_PREEMPT, LF_SCHED_WALK};
static const char *const STRATEGY_NAMES[] = {"pct", "choices", "preempt", "walk"};

/* The first violating repetition of c under strategy s (seeds 1..400): its bytes and run; false if none. */
static bool find(const lf_adapter *a, lf_fc_executor *x, lf_adapter_checker *ck, lf_fuzz_case c, lf_sched_strategy s,
                 uint8_t *bytes, size_t *len, unsigned *run) {
    lf_method ms[LF_M_COUNT];
    unsigned n_methods = lf_fuzz_case_methods(a, ms);
    for (uint64_t seed = 1; seed <= 400; seed++) {
        c.mode = LF_FC_CONTROLLED;
        c.repeats = 16;
        memset(&c.schedule, 0, sizeof c.schedule);
        c.schedule.strategy = (uint8_t)s;
        c.schedule.bound = (uint8_t)(1 + seed % 3);
        c.schedule.walk_chance = (uint8_t)(8 + seed % 64);
        c.schedule.seed = seed * 0x9e3779b97f4a7c15ull;
        for (unsigned t = 0; t < LF_SCHED_MAX_THREADS; t++) c.schedule.priority[t] = (uint8_t)(seed * 31 + t * 97);
        lf_fuzz_case_normalize(&c, n_methods);
        *len = lf_fuzz_case_encode(&c, bytes);
        lf_fuzz_case_decode(bytes, *len, n_methods, &c);
        lf_fc_plan plan;
        if (!lf_fc_plan_build(&plan, &c, a)) return false;
        lf_history h;
        lf_adapter_history_init(&h, a);
        bool found = false;
        for (unsigned r = 0; r < c.repeats && !found; r++) {
            lf_adapter_checker_new_case(ck);
            if (!lf_fc_execute(x, &plan, r, &h)) break;
            if (x->last.stuck || !x->last.stats.deterministic) continue;
            lf_result res;
            lf_result_init(&res);
            lf_adapter_checker_check(ck, &h, &res);
            found = res.verdict == LF_VIOLATION && !res.serial_nondeterminism;
            lf_result_free(&res);
            if (found) *run = r;
        }
        lf_history_free(&h);
        lf_fc_plan_free(&plan);
        if (found) return true;
    }
    return false;
}

int main(int argc, char **argv) {
    int first = 1;
    double seconds = 10;
    if (argc > 1 && strtod(argv[1], NULL) > 0 && !strstr(argv[1], ".lfz")) seconds = strtod(argv[first++], NULL);
    printf("| entry | strategy | calls | history ops | runs | seconds |\n| --- | --- | --- | --- | --- | --- |\n");
    for (int i = first; i < argc; i++) {
        lf_violation_entry e;
        char err[1024];
        if (lf_entry_load(argv[i], &e, err, sizeof err) != LF_OK) {
            fprintf(stderr, "%s\n", err);
            continue;
        }
        const lf_adapter *a = lf_adapter_find(lf_entry_meta(&e, "adapter"));
        const char *format = lf_entry_meta(&e, "workload_format");
        lf_method ms[LF_M_COUNT];
        lf_fuzz_case c;
        lf_adapter_checker ck;
        lf_fc_executor x;
        if (!a || !format || !lf_fuzz_case_decode_as(format, e.workload, e.workload_len, lf_fuzz_case_methods(a, ms), &c) ||
            !lf_adapter_checker_for_saved(&ck, a->name, lf_entry_meta(&e, "spec"), NULL, err, sizeof err)) {
            lf_entry_free(&e);
            continue;
        }
        if (!lf_fc_executor_init(&x, LF_CLOCK_TICKET)) return 1;
        for (size_t s = 0; s < sizeof STRATEGIES / sizeof STRATEGIES[0]; s++) {
            uint8_t bytes[LF_FC_MAX_ENCODED], out[LF_FC_MAX_ENCODED];
            size_t len, out_len;
            unsigned run = 0;
            const char *name = STRATEGY_NAMES[s];
            if (!find(a, &x, &ck, c, STRATEGIES[s], bytes, &len, &run)) {
                printf("| %s | %s | no violation in 400 schedules | | | |\n", a->name, name);
                continue;
            }
            lf_tmin_options to;
            lf_tmin_options_default(&to);
            to.seconds = seconds;
            to.max_runs = 100000;
            lf_history h;
            lf_adapter_history_init(&h, a);
            lf_tmin_stats st;
            if (lf_fc_minimize_test(a, &x, &ck, NULL, bytes, len, run, &to, out, &out_len, &h, &st, err, sizeof err))
                printf("| %s | %s | %zu → %zu | %zu → %zu | %llu | %.2f%s |\n", a->name, name, st.calls_before,
                       st.calls_after, st.ops_before, st.ops_after, (unsigned long long)st.runs, st.seconds,
                       st.complete ? "" : " (budget)");
            else
                printf("| %s | %s | not minimized: %s | | | |\n", a->name, name, err);
            fflush(stdout);
            lf_history_free(&h);
        }
        lf_fc_executor_free(&x);
        lf_adapter_checker_free(&ck);
        lf_entry_free(&e);
    }
    return 0;
}
