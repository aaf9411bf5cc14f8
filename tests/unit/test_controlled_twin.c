/* The search for a free finding's controlled twin (testcase/controlled_twin.h), on the two bundled bugs whose
 * free findings lost their twins most often: k4_reread_cas_register (an ABA race: a reader preempted twice,
 * at the right points, while a writer writes another value and back) and backoff_elim_stack_withdraw_race.
 *  - Of 6 fixed stress-shaped cases of each, in free mode, at least 4 get a twin within the default 1,000
 *    schedules (a case may have no violating interleaving at all). Before SURW schedules joined the family
 *    (every fourth), backoff_elim_stack_withdraw_race's cases got none (k4's 4, as now; clang build), and
 *    fuzz-target findings of the two got one 2 times in 6 (10 in 10 with them).
 *  - Every twin is a controlled case of one repetition that violates again when run again, with the same
 *    history (exact replay), and the search is deterministic (the same case gives the same twin).
 * The cases are drawn from fixed seeds (lf_fuzz_case_random); the runs are controlled, so the outcome is
 * fixed for a build (gcc's: 4 and 6 of 6). Skipped (77) in a build without access points (ASan, TSan). */
#include <string.h>

#include "linfuzz/adapter.h"
#include "linfuzz/check.h"
#include "runtime/adapter_check.h"
#include "runtime/sched.h"
#include "test_util.h"
#include "testcase/case_replay.h"
#include "testcase/case_runner.h"
#include "testcase/controlled_twin.h"
#include "testcase/fuzz_case.h"

#define CASES 6

/* Case k of adapter a: stress-shaped, free mode, four threads. */
static size_t free_case(const lf_adapter *a, unsigned k, uint8_t *out) {
    lf_method ms[LF_M_COUNT];
    unsigned nm = lf_fuzz_case_methods(a, ms);
    uint64_t rng = 0x7717 + 1000003u * k;
    lf_fuzz_case c;
    lf_fuzz_case_random(&c, nm, false, &rng);
    c.mode = LF_FC_FREE;
    lf_fuzz_case_normalize(&c, nm);
    return lf_fuzz_case_encode(&c, out);
}

/* Runs the twin's bytes once more (run 0) and checks that the same history comes back as a violation. */
static bool replays(const lf_adapter *a, lf_fc_executor *x, lf_adapter_checker *checker, const lf_twin *t) {
    lf_method ms[LF_M_COUNT];
    lf_fuzz_case c;
    lf_fuzz_case_decode(t->bytes, t->len, lf_fuzz_case_methods(a, ms), &c);
    if (c.mode != LF_FC_CONTROLLED || c.repeats != 1) return false;
    lf_fc_plan p;
    if (!lf_fc_plan_build(&p, &c, a)) return false;
    lf_history h;
    lf_adapter_history_init(&h, a);
    bool ok = lf_fc_execute(x, &p, 0, &h) && lf_histories_identical(&h, &t->history);
    lf_result r;
    lf_result_init(&r);
    lf_adapter_checker_check(checker, &h, &r);
    ok = ok && r.verdict == LF_VIOLATION;
    lf_result_free(&r);
    lf_history_free(&h);
    lf_fc_plan_free(&p);
    return ok;
}

static void twins_of(const char *name) {
    const lf_adapter *a = lf_adapter_find(name);
    CHECK(a != NULL);
    if (!a) return;
    lf_check_options base;
    lf_check_options_default(&base);
    lf_adapter_checker checker;
    char err[512];
    CHECKF(lf_adapter_checker_init(&checker, a, LF_SPEC_AUTO, &base, err, sizeof err), "%s", err);
    lf_fc_executor x;
    CHECK(lf_fc_executor_init(&x, LF_CLOCK_TICKET));
    lf_twin_options o;
    lf_twin_options_default(&o);
    o.seconds = 120; /* the schedules bound the search here, not a busy machine's clock */
    unsigned found = 0;
    for (unsigned k = 0; k < CASES; k++) {
        uint8_t bytes[LF_FC_MAX_ENCODED];
        size_t len = free_case(a, k, bytes);
        lf_twin t, again;
        bool ran = lf_fc_controlled_twin(a, &x, &checker, NULL, bytes, len, &o, &t, err, sizeof err);
        CHECKF(ran, "%s case %u: %s", name, k, err);
        if (ran && t.found) {
            found++;
            CHECKF(replays(a, &x, &checker, &t), "%s case %u: the twin (schedule %llu) does not replay", name, k,
                   (unsigned long long)t.schedule_index);
            bool ran2 = lf_fc_controlled_twin(a, &x, &checker, NULL, bytes, len, &o, &again, err, sizeof err);
            CHECKF(ran2 && again.found && again.schedule_index == t.schedule_index && again.len == t.len &&
                       !memcmp(again.bytes, t.bytes, t.len),
                   "%s case %u: a second search found another twin", name, k);
            if (ran2) lf_history_free(&again.history);
        }
        if (ran) lf_history_free(&t.history);
    }
    printf("%s: %u of %d free cases got a controlled twin\n", name, found, CASES);
    CHECKF(found >= CASES - 2, "%s: %u of %d free cases got a controlled twin", name, found, CASES);
    lf_fc_executor_free(&x);
    lf_adapter_checker_free(&checker);
}

int main(void) {
    /* Both races are inside operations: without the access instrumentation (the sanitizer builds) a
     * controlled run switches only between calls, and no schedule can show them. */
    if (!lf_sched_access_points_available()) {
        printf("skipped: this build's adapters have no scheduling points inside operations\n");
        return 77;
    }
    twins_of("k4_reread_cas_register");
    twins_of("backoff_elim_stack_withdraw_race");
    TEST_DONE();
}
