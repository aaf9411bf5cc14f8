/* The time budget of a check (engines/budget/deadline.h, docs/budgets.md), stage by stage:
 *  - a deadline that has passed before a stage starts stops it before its first step: the monitors (which
 *    ignored the budget and answered linearizable), WGL and the frontier sweep (whose first look at the clock
 *    came after their O(n) setup and 1024 steps), the hitting prover, the pipeline;
 *  - budgets spread over each stage's run on 100,000-op histories of every monitored type and of the types the
 *    searches get: the answer is the full run's verdict or unknown for the time budget (never another
 *    verdict), and it comes within the budget plus a slack that only a machine stalling the test could
 *    exceed (the benchmark, ci/bench_budgets.sh, measures the lateness itself);
 *  - the same for the stages of contracts weaker than linearizability (docs/contracts.md): the count rule of
 *    full/empty answers, the monitors of relaxed orders, the searches with a relaxed spec;
 *  - the deadline object, and the radix sorts that stop on it.
 * The cases are a fixed list (seeded generator), fewer ops under sanitizers. */
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "budget/deadline.h"
#include "contract_test_util.h"
#include "linfuzz/check.h"
#include "linfuzz/generate.h"
#include "test_util.h"
#include "util/clock.h"
#include "util/radix_sort.h"
#include "wgl/wgl.h"

/* How far past its budget an answer may come here: the stages notice a deadline within milliseconds
 * (docs/budgets.md), but a loaded 2-core CI machine may stall a thread for a few hundred (a run under ASan). */
#define SLACK_S 1.0

static size_t ops_for_cases(void) { return LF_TEST_SANITIZED ? 20000 : 100000; }

/* A generated history of type under contract (NULL: linearizability). */
static bool gen_under(const char *type, const char *contract, size_t n, uint64_t values, lf_history *h) {
    lf_gen_options g;
    lf_gen_options_default(&g);
    if (!lf_type_from_name(type, strlen(type), &g.type)) return false;
    g.n_ops = n;
    g.seed = 11;
    g.threads = 8;
    g.peek = 0.2;
    g.values = values;
    if (contract) { /* as ci/bench_contracts.sh: empty answers, no peeks of values (the relaxed monitors' range) */
        g.contract = contract_of(contract);
        g.spurious = g.contract.full_empty ? 0.05 : 0;
        g.peek = 0;
        g.empty = 0.2;
    }
    char err[256];
    bool ok = lf_gen_history(&g, h, err, sizeof err);
    if (!ok) fprintf(stderr, "gen %s: %s\n", type, err);
    return ok;
}

static bool gen(const char *type, size_t n, uint64_t values, lf_history *h) { return gen_under(type, NULL, n, values, h); }

/* lf_check with engine e and the budget; returns its wall time. */
static double check(const lf_history *h, lf_engine e, double timeout, lf_result *r) {
    lf_check_options o;
    lf_check_options_default(&o);
    o.engine = e;
    o.timeout_s = timeout;
    lf_result_init(r);
    double t0 = lf_now_s();
    lf_check(h, &o, r);
    return lf_now_s() - t0;
}

static bool timed_out(const lf_result *r) { return r->verdict == LF_UNKNOWN && strstr(r->reason, "time budget"); }

/* ---- the deadline object and the sorts ---- */

static void test_deadline(void) {
    lf_deadline none, past, far;
    lf_deadline_init(&none, 0);
    lf_deadline_init(&past, lf_now_s() - 1);
    lf_deadline_start(&far, 3600);
    CHECK(!lf_deadline_passed(&none) && lf_deadline_passed(&past) && !lf_deadline_passed(&far));
    CHECK(lf_deadline_expired(&past) && !lf_deadline_expired(&far) && !lf_deadline_expired(NULL));
    /* once seen, a passed deadline answers every charge without the clock */
    CHECK(lf_deadline_tick(&past) && lf_deadline_spend(&past, 1));
    /* spend reads the clock only when the credit runs out */
    lf_deadline soon;
    lf_deadline_init(&soon, lf_now_s() - 1); /* passed, but not seen yet */
    CHECK(!lf_deadline_spend(&soon, 1) && !lf_deadline_expired(&soon));
    CHECK(lf_deadline_spend(&soon, LF_DEADLINE_STRIDE) && lf_deadline_expired(&soon));
    /* every: the clock at iterations STRIDE - 1, 2 STRIDE - 1, ... only */
    lf_deadline_init(&soon, lf_now_s() - 1);
    CHECK(!lf_deadline_every(&soon, 0) && !lf_deadline_every(&soon, LF_DEADLINE_STRIDE - 2));
    CHECK(lf_deadline_every(&soon, LF_DEADLINE_STRIDE - 1) && !lf_deadline_every(NULL, LF_DEADLINE_STRIDE - 1));
    /* chunks: the whole range without a deadline; a passed one stops after the first chunk */
    size_t seen = 0, n = 3 * LF_DEADLINE_STRIDE + 5;
    LF_FOR_CHUNKS(lo, hi, 0, n, &none) {
        for (size_t i = lo; i < hi; i++) seen++;
    }
    CHECK(seen == n);
    lf_deadline_init(&soon, lf_now_s() - 1);
    seen = 0;
    LF_FOR_CHUNKS(lo, hi, 0, n, &soon) {
        for (size_t i = lo; i < hi; i++) seen++;
    }
    CHECKF(seen == LF_DEADLINE_STRIDE && lf_deadline_expired(&soon), "a passed deadline ran %zu iterations", seen);

    /* the radix sorts: sorted without a deadline, stopped by a passed one */
    size_t m = 300000;
    lf_keyed *a = malloc(m * sizeof *a);
    lf_gen_options g; /* any PRNG will do: the generator's */
    lf_gen_options_default(&g);
    lf_rng rng;
    lf_rng_seed(&rng, 5);
    for (size_t i = 0; i < m; i++) a[i] = (lf_keyed){lf_rng_next(&rng), (uint32_t)i};
    CHECK(lf_radix_sort_until(a, m, lf_now_s() - 1) == LF_SORT_LATE);
    CHECK(lf_radix_sort_until(a, m, 0) == LF_SORT_OK);
    bool ordered = true;
    for (size_t i = 1; i < m; i++) ordered &= a[i - 1].key <= a[i].key;
    CHECK(ordered);
    free(a);
}

/* ---- a deadline passed before a stage: no step of it ---- */

static void test_passed_deadline(void) {
    lf_history h;
    /* Every monitored type: the monitors answered linearizable whatever the budget. */
    const char *types[] = {"register", "set", "stack", "queue", "pqueue", "deque"};
    for (size_t t = 0; t < sizeof types / sizeof types[0]; t++) {
        if (!gen(types[t], 20000, 0, &h)) continue;
        lf_result r;
        check(&h, LF_ENGINE_MONITOR, 1e-9, &r);
        CHECKF(timed_out(&r) && strcmp(r.engine, "monitor") == 0, "%s monitor, passed deadline: %s: %s", types[t],
               lf_verdict_name(r.verdict), r.reason);
        lf_result_free(&r);
        check(&h, LF_ENGINE_MONITOR, 0, &r); /* and without one it decides */
        CHECKF(r.verdict == LF_LINEARIZABLE, "%s monitor: %s", types[t], r.reason);
        lf_result_free(&r);
        lf_history_free(&h);
    }
    /* WGL and the frontier sweep: unknown before their first step (the first look at the clock came after
     * their setup and 1024 steps). lf_wgl_check directly, so that no earlier stage looks at the clock first. */
    if (gen("counter", 200000, 5, &h)) {
        for (int frontier = 0; frontier < 2; frontier++) {
            lf_wgl_options o;
            lf_wgl_options_default(&o);
            o.frontier = frontier;
            o.deadline = lf_now_s() - 1;
            lf_result r;
            lf_result_init(&r);
            lf_wgl_check(&h, &o, &r);
            CHECKF(timed_out(&r) && r.steps == 0, "wgl%s, passed deadline: %" PRIu64 " steps: %s",
                   frontier ? " + frontier" : "", r.steps, r.reason);
            lf_result_free(&r);
        }
        lf_result r;
        check(&h, LF_ENGINE_HITTING, 1e-9, &r);
        CHECKF(timed_out(&r) && r.steps == 0, "hitting, passed deadline: %" PRIu64 " steps: %s", r.steps, r.reason);
        lf_result_free(&r);
        check(&h, LF_ENGINE_AUTO, 1e-9, &r);
        CHECKF(timed_out(&r) && r.steps == 0, "auto, passed deadline: %" PRIu64 " steps: %s", r.steps, r.reason);
        lf_result_free(&r);
        lf_history_free(&h);
    }
}

/* Every stage of a contract: the count rule (lagging, quiescent, weak), the monitors of relaxed orders and the
 * searches with a relaxed spec, on their own (--engine monitor, wgl) and in the pipeline. */
static const char *const CONTRACTS[] = {"lagging-full-empty", "quiescent-full-empty", "weak-full-empty", "k-relaxed 4",
                                        "bag", "per-producer", "k-relaxed 2 lagging-full-empty"};

static void test_passed_deadline_contracts(void) {
    const lf_engine engines[] = {LF_ENGINE_AUTO, LF_ENGINE_MONITOR, LF_ENGINE_WGL};
    for (size_t c = 0; c < sizeof CONTRACTS / sizeof *CONTRACTS; c++)
        for (int stack = 0; stack < 2; stack++) {
            if (stack && !strcmp(CONTRACTS[c], "per-producer")) continue; /* queues only */
            lf_history h;
            if (!gen_under(stack ? "stack" : "queue", CONTRACTS[c], 20000, 0, &h)) continue;
            for (size_t e = 0; e < sizeof engines / sizeof *engines; e++) {
                lf_result r;
                check(&h, engines[e], 1e-9, &r);
                CHECKF(timed_out(&r) && r.steps == 0 && strstr(r.reason, CONTRACTS[c]), "%s %s %s, passed deadline: %s "
                       "%" PRIu64 " steps: %s", stack ? "stack" : "queue", CONTRACTS[c], lf_engine_name(engines[e]),
                       lf_verdict_name(r.verdict), r.steps, r.reason);
                lf_result_free(&r);
            }
            lf_history_free(&h);
        }
}

/* ---- budgets spread over every stage ---- */

typedef struct stage_case {
    const char *type;
    uint64_t values; /* 0: unambiguous (the monitors'), else values 1..V (the searches') */
    lf_engine engine;
    const char *contract; /* NULL: linearizability */
} stage_case;

static void test_spread_budgets(void) {
    const stage_case cases[] = {
        {"register", 0, LF_ENGINE_MONITOR, NULL}, {"set", 0, LF_ENGINE_MONITOR, NULL},
        {"stack", 0, LF_ENGINE_MONITOR, NULL},    {"queue", 0, LF_ENGINE_MONITOR, NULL},
        {"pqueue", 0, LF_ENGINE_MONITOR, NULL},   {"deque", 0, LF_ENGINE_MONITOR, NULL},
        {"queue", 0, LF_ENGINE_AUTO, NULL},       {"kv", 5, LF_ENGINE_AUTO, NULL},
        {"counter", 5, LF_ENGINE_WGL, NULL},      {"cas-register", 5, LF_ENGINE_WGL, NULL},
        {"register", 3, LF_ENGINE_HITTING, NULL},
        {"queue", 0, LF_ENGINE_AUTO, "lagging-full-empty"}, {"stack", 0, LF_ENGINE_AUTO, "quiescent-full-empty"},
        {"queue", 0, LF_ENGINE_AUTO, "k-relaxed 4 weak-full-empty"}, {"queue", 0, LF_ENGINE_MONITOR, "per-producer"},
        {"stack", 0, LF_ENGINE_MONITOR, "bag"}, {"stack", 3, LF_ENGINE_WGL, "bag"},
    };
    const double fractions[] = {0.02, 0.1, 0.3, 0.6, 0.9};
    double worst = 0;
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        const stage_case *k = &cases[c];
        lf_history h;
        if (!gen_under(k->type, k->contract, ops_for_cases(), k->values, &h)) continue;
        lf_result full;
        /* The full run, within a budget of its own (a search may not finish: then its own verdict is unknown). */
        double t_full = check(&h, k->engine, 3, &full);
        for (size_t f = 0; f < sizeof fractions / sizeof fractions[0]; f++) {
            double budget = t_full * fractions[f];
            if (budget < 1e-4) budget = 1e-4;
            lf_result r;
            double t = check(&h, k->engine, budget, &r);
            bool same = r.verdict == full.verdict;
            CHECKF(same || timed_out(&r), "%s %s %s, budget %.4f s of %.4f: %s (%s), full run %s", k->type,
                   k->contract ? k->contract : "", lf_engine_name(k->engine), budget, t_full,
                   lf_verdict_name(r.verdict), r.reason, lf_verdict_name(full.verdict));
            if (timed_out(&r)) {
                CHECKF(t < budget + SLACK_S, "%s %s %s: budget %.4f s answered after %.4f s", k->type,
                       k->contract ? k->contract : "", lf_engine_name(k->engine), budget, t);
                if (t - budget > worst) worst = t - budget;
            }
            lf_result_free(&r);
        }
        lf_result_free(&full);
        lf_history_free(&h);
    }
    printf("budgets spread over each stage: latest answer %.1f ms after its deadline\n", worst * 1e3);
}

int main(void) {
    test_deadline();
    test_passed_deadline();
    test_passed_deadline_contracts();
    test_spread_budgets();
    TEST_DONE();
}
