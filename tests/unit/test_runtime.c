/* Tests of the recorder, the clocks, the thread pool and workload expansion: stamps are distinct and ordered,
 * merged histories are well-formed and unambiguous, plans are deterministic and respect the value scheme,
 * and a recorded history of a deliberately broken object is caught. */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "linfuzz/adapter.h"
#include "linfuzz/check.h"
#include "runtime/recorder.h"
#include "runtime/pool.h"
#include "runtime/runner.h"
#include "runtime/workload.h"
#include "test_util.h"

/* ---- pool: every index runs exactly once per run, across many runs ---- */
typedef struct pool_probe {
    _Atomic unsigned hits[8];
} pool_probe;

static void count_hit(unsigned index, void *arg) { atomic_fetch_add(&((pool_probe *)arg)->hits[index], 1); }

static void test_pool(void) {
    lf_pool *p = lf_pool_create(8);
    CHECK(p != NULL);
    if (!p) return;
    CHECK(lf_pool_size(p) == 8);
    pool_probe probe;
    for (int i = 0; i < 8; i++) atomic_init(&probe.hits[i], 0);
    for (int run = 0; run < 200; run++) lf_pool_run(p, 1 + run % 8, count_hit, &probe);
    /* Thread i takes part in the runs whose size exceeds i: 200 runs cycle through sizes 1..8. */
    for (unsigned i = 0; i < 8; i++) CHECKF(atomic_load(&probe.hits[i]) == 25 * (8 - i), "thread %u ran %u times", i,
                                            atomic_load(&probe.hits[i]));
    lf_pool_destroy(p);
}

/* ---- clocks ---- */
static void test_clock_names(void) {
    lf_clock_kind k;
    CHECK(lf_clock_from_name("ticket", &k) && k == LF_CLOCK_TICKET);
    CHECK(lf_clock_from_name("tsc", &k) && k == LF_CLOCK_TSC);
    CHECK(!lf_clock_from_name("rdtsc", &k));
    CHECK(lf_clock_available(LF_CLOCK_TICKET));
    CHECK(!strcmp(lf_clock_name(LF_CLOCK_TSC), "tsc"));
}

/* One thread's stamps strictly increase with both clocks (the history format needs prev.ret < next.call). */
static void test_stamps_increase(void) {
    lf_ticket_clock c;
    atomic_init(&c.next, 1);
    for (int kind = 0; kind < 2; kind++) {
        if (!lf_clock_available((lf_clock_kind)kind)) continue;
        uint64_t prev = 0;
        bool ok = true;
        for (int i = 0; i < 10000; i++) {
            uint64_t a = lf_call_stamp((lf_clock_kind)kind, &c), b = lf_return_stamp((lf_clock_kind)kind, &c);
            ok &= prev < a && a < b;
            prev = b;
        }
        CHECKF(ok, "clock %s", lf_clock_name((lf_clock_kind)kind));
    }
}

/* ---- workloads ---- */
static const lf_adapter *need(const char *name) {
    const lf_adapter *a = lf_adapter_find(name);
    CHECKF(a != NULL, "adapter %s missing", name);
    return a;
}

static void test_plan_value_scheme(void) {
    const lf_adapter *queue = need("mutex_queue"), *set = need("mutex_set"), *casreg = need("mutex_cas_register");
    if (!queue || !set || !casreg) return;
    lf_workload w;
    lf_workload_random(&w, 42, 5, 300);
    w.value_spread = 7;
    lf_plan p1, p2;
    CHECK(lf_plan_build(&p1, &w, queue) && lf_plan_build(&p2, &w, queue));
    size_t total = (size_t)p1.threads * p1.ops_per_thread;
    CHECK(p1.threads == 5 && p1.ops_per_thread == 300);
    CHECK(!memcmp(p1.ops, p2.ops, total * sizeof *p1.ops)); /* deterministic */
    /* Every enq value is >= 1 and distinct. */
    int64_t *vals = malloc(total * sizeof *vals);
    size_t n = 0;
    for (size_t i = 0; i < total; i++)
        if (p1.ops[i].method == LF_M_ENQ) vals[n++] = p1.ops[i].args[0];
    bool distinct = true;
    for (size_t i = 0; i < n; i++)
        for (size_t j = i + 1; j < n; j++) distinct &= vals[i] != vals[j];
    bool positive = true;
    for (size_t i = 0; i < n; i++) positive &= vals[i] >= 1;
    CHECK(n > 0 && distinct && positive);
    free(vals);
    lf_plan_free(&p1);
    lf_plan_free(&p2);

    /* Set: removes/contains mostly target added values; cas-register values stay in the key domain. */
    w.absent_share = 0;
    CHECK(lf_plan_build(&p1, &w, set));
    size_t probes = 0, hits = 0;
    for (size_t i = 0; i < total; i++) {
        if (p1.ops[i].method == LF_M_ADD) continue;
        probes++;
        for (size_t j = 0; j < total; j++)
            if (p1.ops[j].method == LF_M_ADD && p1.ops[j].args[0] == p1.ops[i].args[0]) {
                hits++;
                break;
            }
    }
    CHECK(probes > 0 && hits == probes);
    lf_plan_free(&p1);
    w.key_domain = 3;
    CHECK(lf_plan_build(&p1, &w, casreg));
    bool in_domain = true;
    for (size_t i = 0; i < total; i++) {
        const lf_planned_op *op = &p1.ops[i];
        if (op->method == LF_M_WRITE) in_domain &= op->args[0] >= 1 && op->args[0] <= 3;
        if (op->method == LF_M_CAS) in_domain &= op->args[0] >= 0 && op->args[0] <= 3 && op->args[1] >= 1 && op->args[1] <= 3;
    }
    CHECK(in_domain);
    lf_plan_free(&p1);
}

static void test_sanitize(void) {
    lf_workload w;
    memset(&w, 0xff, sizeof w);
    lf_workload_sanitize(&w);
    CHECK(w.threads == LF_WORKLOAD_MAX_THREADS && w.ops_per_thread == LF_WORKLOAD_MAX_OPS);
    CHECK(w.perturb.point_chance <= 1024 && w.perturb.gap_chance <= 1024);
    memset(&w, 0, sizeof w);
    lf_workload_sanitize(&w);
    CHECK(w.threads == 1 && w.ops_per_thread == 1 && w.key_domain == 1 && w.value_spread == 1);
}

/* ---- recorder + runner ---- */
static void test_recorded_histories(void) {
    const lf_adapter *a = need("treiber_stack");
    if (!a) return;
    for (int kind = 0; kind < 2; kind++) {
        if (!lf_clock_available((lf_clock_kind)kind)) continue;
        lf_runner r;
        CHECK(lf_runner_init(&r, 6, (lf_clock_kind)kind));
        lf_history h;
        lf_history_init(&h, LF_TYPE_QUEUE);
        for (uint64_t seed = 1; seed <= 20; seed++) {
            lf_workload w;
            lf_workload_random(&w, seed, 1 + seed % 6, 50);
            lf_plan p;
            CHECK(lf_plan_build(&p, &w, a));
            h.n = 0;
            h.type = a->type;
            CHECK(lf_runner_run(&r, a, &w, &p, &h));
            CHECK(h.n == (size_t)w.threads * 50);
            char err[256] = "";
            CHECKF(lf_history_validate(&h, err, sizeof err) == SIZE_MAX, "%s", err);
            CHECK(lf_history_unambiguous(&h));
            /* Merged in call order; ticket stamps are moreover globally distinct. */
            bool ordered = true, distinct = true;
            for (size_t i = 1; i < h.n; i++) {
                ordered &= h.ops[i - 1].call <= h.ops[i].call;
                if (kind == LF_CLOCK_TICKET) distinct &= h.ops[i - 1].call < h.ops[i].call;
            }
            CHECK(ordered && distinct);
            lf_plan_free(&p);
        }
        lf_history_free(&h);
        lf_runner_free(&r);
    }
}

/* A recorded history of a broken object must be caught: an "atomic register" whose read returns a value no
 * write ever wrote. This checks that recording, merging and checking fit together (it fails if the recorder
 * dropped results, or the runner never called the adapter). */
static lf_kind broken_read_op(void *obj, lf_method m, const int64_t *args, int64_t *value) {
    (void)obj;
    (void)args;
    if (m == LF_M_READ) {
        *value = -12345;
        return LF_K_INT;
    }
    return LF_K_NONE;
}
static void *broken_create(size_t max_ops) {
    (void)max_ops;
    return malloc(1);
}
static const lf_adapter broken_register = {
    .name = "broken_register",
    .summary = "test only",
    .type = LF_TYPE_REGISTER,
    .linearizable = false,
    .methods = LF_METHOD_BIT(LF_M_WRITE) | LF_METHOD_BIT(LF_M_READ),
    .create = broken_create,
    .destroy = free,
    .op = broken_read_op,
};

static void test_broken_adapter_caught(void) {
    lf_runner r;
    CHECK(lf_runner_init(&r, 2, LF_CLOCK_TICKET));
    lf_workload w;
    lf_workload_default(&w);
    w.threads = 2;
    w.ops_per_thread = 10;
    lf_check_options o;
    lf_check_options_default(&o);
    lf_history h;
    lf_history_init(&h, LF_TYPE_REGISTER);
    lf_result res;
    lf_result_init(&res);
    CHECK(lf_runner_run_checked(&r, &broken_register, &w, &o, &h, &res));
    CHECKF(res.verdict == LF_VIOLATION, "verdict %s: %s", lf_verdict_name(res.verdict), res.reason);
    lf_result_free(&res);
    lf_history_free(&h);
    lf_runner_free(&r);
}

int main(void) {
    test_pool();
    test_clock_names();
    test_stamps_increase();
    test_plan_value_scheme();
    test_sanitize();
    test_recorded_histories();
    test_broken_adapter_caught();
    TEST_DONE();
}
