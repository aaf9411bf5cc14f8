/* Tests of the adapters: the registry is consistent; run by one thread, every adapter that is not relaxed by
 * design answers exactly like the mutex reference of its type (so known-buggy adapters are wrong only under
 * concurrency); and every adapter expected to be linearizable passes a bounded number of concurrent random
 * workloads with the checker deciding "linearizable" each time (not merely "no violation"). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "linfuzz/adapter.h"
#include "linfuzz/check.h"
#include "runner/runner.h"
#include "runner/workload.h"
#include "test_util.h"

static void test_registry(void) {
    CHECK(lf_adapter_count() >= 32);
    for (size_t i = 0; i < lf_adapter_count(); i++) {
        const lf_adapter *a = lf_adapter_at(i);
        CHECKF(lf_adapter_find(a->name) == a, "%s: duplicate or unfindable name", a->name);
        CHECKF(a->create && a->destroy && a->op && a->summary && *a->summary, "%s: incomplete", a->name);
        bool methods_ok = a->methods != 0;
        for (int m = 0; m < LF_M_COUNT; m++)
            if (a->methods & LF_METHOD_BIT(m)) methods_ok &= lf_method_info_of(a->type, (lf_method)m) != NULL;
        CHECKF(methods_ok, "%s: methods outside its type", a->name);
    }
    CHECK(lf_adapter_find("no_such_adapter") == NULL);
    CHECK(lf_adapter_at(lf_adapter_count()) == NULL);
}

/* The reference adapter of a's type. */
static const lf_adapter *reference_of(const lf_adapter *a) {
    char name[64] = "mutex_";
    strncat(name, lf_type_name(a->type), sizeof name - strlen(name) - 1);
    for (char *p = name; *p; p++)
        if (*p == '-') *p = '_';
    return lf_adapter_find(name);
}

/* Relaxed by design: a single thread already sees non-FIFO/non-LIFO order. */
static bool relaxed(const lf_adapter *a) { return !strcmp(a->name, "scal_k_fifo") || !strcmp(a->name, "scal_k_stack"); }

static void test_sequential_conformance(void) {
    for (size_t i = 0; i < lf_adapter_count(); i++) {
        const lf_adapter *a = lf_adapter_at(i), *ref = reference_of(a);
        if (relaxed(a) || !ref) continue;
        for (uint64_t seed = 1; seed <= 3; seed++) {
            lf_workload w;
            lf_workload_random(&w, seed, 1, 400);
            lf_plan p;
            CHECK(lf_plan_build(&p, &w, a));
            void *obj = a->create(400), *ref_obj = ref->create(400);
            CHECK(obj && ref_obj);
            if (a->thread_enter) a->thread_enter(obj);
            size_t mismatch = SIZE_MAX;
            for (size_t k = 0; k < p.ops_per_thread && mismatch == SIZE_MAX; k++) {
                const lf_planned_op *op = &p.ops[k];
                int64_t v = 0, rv = 0;
                lf_kind kind = a->op(obj, (lf_method)op->method, op->args, &v);
                lf_kind rkind = ref->op(ref_obj, (lf_method)op->method, op->args, &rv);
                if (kind != rkind || (kind == LF_K_INT && v != rv)) mismatch = k;
            }
            if (a->thread_leave) a->thread_leave(obj);
            CHECKF(mismatch == SIZE_MAX, "%s differs from %s at call %zu (seed %llu)", a->name, ref->name, mismatch,
                   (unsigned long long)seed);
            a->destroy(obj);
            ref->destroy(ref_obj);
            lf_plan_free(&p);
        }
    }
}

static void test_correct_adapters_concurrently(void) {
    lf_runner r;
    CHECK(lf_runner_init(&r, 4, LF_CLOCK_TICKET));
    lf_check_options o;
    lf_check_options_default(&o);
    o.timeout_s = 10;
    lf_history h;
    lf_history_init(&h, LF_TYPE_REGISTER);
    for (size_t i = 0; i < lf_adapter_count(); i++) {
        const lf_adapter *a = lf_adapter_at(i);
        if (!a->linearizable) continue;
        unsigned decided = 0, runs = 12;
        for (uint64_t seed = 1; seed <= runs; seed++) {
            lf_workload w;
            lf_workload_random(&w, seed * 7919, 4, 60);
            lf_result res;
            lf_result_init(&res);
            CHECK(lf_runner_run_checked(&r, a, &w, &o, &h, &res));
            CHECKF(res.verdict != LF_VIOLATION, "%s: violation with seed %llu: %s", a->name,
                   (unsigned long long)w.seed, res.reason);
            if (res.verdict == LF_LINEARIZABLE) decided++;
            else if (res.verdict == LF_UNKNOWN && decided + 1 == seed)
                fprintf(stderr, "%s: unknown: %s\n", a->name, res.reason);
            lf_result_free(&res);
        }
        CHECKF(decided == runs, "%s: the checker decided only %u of %u runs", a->name, decided, runs);
    }
    lf_history_free(&h);
    lf_runner_free(&r);
}

int main(void) {
    test_registry();
    test_sequential_conformance();
    test_correct_adapters_concurrently();
    TEST_DONE();
}
