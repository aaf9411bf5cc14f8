/* Tests of the adapters: the registry is consistent (custom types declared well and registered); run by one
 * thread, every adapter that is not relaxed by design answers exactly like the mutex reference of its type, or
 * for a custom type like its correct twin (so known-buggy adapters are wrong only under concurrency), and a
 * custom type's spec accepts its serial runs; every adapter marked deterministic gives the same results and
 * fingerprints on two serial runs; and every adapter expected to be linearizable passes a bounded number of
 * concurrent random workloads with the checker (its type's spec, or its self-spec) deciding "linearizable"
 * each time (not merely "no violation"). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "linfuzz/adapter.h"
#include "linfuzz/check.h"
#include "linfuzz/spec.h"
#include "runtime/adapter_check.h"
#include "runtime/adapter_type.h"
#include "runtime/runner.h"
#include "runtime/workload.h"
#include "test_util.h"

static void test_registry(void) {
    CHECK(lf_adapter_count() >= 32);
    for (size_t i = 0; i < lf_adapter_count(); i++) {
        const lf_adapter *a = lf_adapter_at(i);
        CHECKF(lf_adapter_find(a->name) == a, "%s: duplicate or unfindable name", a->name);
        CHECKF(a->create && a->destroy && a->op && a->summary && *a->summary, "%s: incomplete", a->name);
        char err[256];
        CHECKF(lf_adapter_check(a, err, sizeof err), "%s", err);
        bool methods_ok = a->methods != 0 || a->type == LF_TYPE_CUSTOM;
        for (int m = 0; m < LF_M_COUNT; m++)
            if (a->methods & LF_METHOD_BIT(m)) methods_ok &= lf_adapter_method(a, (unsigned)m) != NULL;
        CHECKF(methods_ok, "%s: methods outside its type", a->name);
        if (a->type == LF_TYPE_CUSTOM) { /* registered, so that files of its type find its declaration */
            const lf_type_desc *reg = lf_type_find(a->custom->name, strlen(a->custom->name));
            CHECKF(reg && lf_type_desc_equal(reg, a->custom), "%s: type %s not registered", a->name, a->custom->name);
        }
    }
    CHECK(lf_adapter_find("no_such_adapter") == NULL);
    CHECK(lf_adapter_at(lf_adapter_count()) == NULL);
}

/* The reference adapter of a's type: the mutex reference, or for a custom type another adapter of it that is
 * expected to be linearizable. */
static const lf_adapter *reference_of(const lf_adapter *a) {
    if (a->type == LF_TYPE_CUSTOM) {
        for (size_t i = 0; i < lf_adapter_count(); i++) {
            const lf_adapter *b = lf_adapter_at(i);
            if (b != a && b->type == LF_TYPE_CUSTOM && b->linearizable && lf_type_desc_equal(a->custom, b->custom))
                return b;
        }
        return NULL;
    }
    char name[64] = "mutex_";
    strncat(name, lf_type_name(a->type), sizeof name - strlen(name) - 1);
    for (char *p = name; *p; p++)
        if (*p == '-') *p = '_';
    return lf_adapter_find(name);
}

/* Relaxed by design: a single thread already sees non-FIFO/non-LIFO order. */
static bool relaxed(const lf_adapter *a) { return !strcmp(a->name, "scal_k_fifo") || !strcmp(a->name, "scal_k_stack"); }

/* Run by one thread, every adapter that is not relaxed answers as its type's sequential specification
 * (with its capacity): the sequential history it gives is linearizable. A blocking remove is not called
 * when the adapter's own answers say the container is empty (it would wait forever). This covers the types
 * and adapters that have no mutex reference (deque, bounded ones). */
static void test_sequential_specification(void) {
    lf_check_options o;
    lf_check_options_default(&o);
    o.timeout_s = 10;
    for (size_t i = 0; i < lf_adapter_count(); i++) {
        const lf_adapter *a = lf_adapter_at(i);
        /* a custom type without a spec is its own specification (the determinism test below) */
        if (relaxed(a) || (a->type == LF_TYPE_CUSTOM && !a->custom->spec)) continue;
        for (uint64_t seed = 1; seed <= 3; seed++) {
            lf_workload w;
            lf_workload_random(&w, seed, 1, 300);
            lf_plan p;
            CHECK(lf_plan_build(&p, &w, a));
            void *obj = a->create(300);
            CHECK(obj != NULL);
            if (a->thread_enter) a->thread_enter(obj);
            lf_history h;
            lf_adapter_history_init(&h, a); /* its type (a custom one's declaration) and capacity */
            int64_t inside = 0; /* containers: values inside, by the adapter's own answers */
            for (size_t k = 0; k < p.ops_per_thread; k++) {
                const lf_planned_op *op = &p.ops[k];
                const lf_method_info *mi = lf_method_info_of(a->type, (lf_method)op->method);
                if ((a->may_block & LF_METHOD_BIT(op->method)) && mi && mi->role == LF_ROLE_REMOVE && inside == 0) continue;
                lf_op rec = {.call = 2 * k + 1, .ret = 2 * k + 2, .method = op->method, .arg = {op->args[0], op->args[1]}};
                for (unsigned j = op->nargs; j < 2; j++) rec.arg[j] = 0;
                int64_t v = 0;
                if (lf_method_is_bulk(op->method)) { /* n values in one call (adapter.h) */
                    int64_t took[LF_BULK_MAX];
                    unsigned moved = 0;
                    lf_kind kind = a->bulk_op(obj, (lf_method)op->method, op->nargs, op->args, took, &moved);
                    bool insert = lf_method_is_bulk_insert(op->method);
                    rec.count = op->nargs;
                    for (unsigned j = 0; j < LF_BULK_MAX; j++)
                        rec.arg[j] = insert ? op->args[j] : j < moved ? took[j] : 0;
                    rec.res_kind = (uint8_t)kind;
                    rec.res = kind == LF_K_INT ? moved : 0;
                    CHECK(lf_history_push(&h, &rec));
                    inside += insert ? (int64_t)moved : -(int64_t)moved;
                    continue;
                }
                lf_kind kind = a->op(obj, (lf_method)op->method, op->args, &v);
                rec.res_kind = (uint8_t)kind;
                rec.res = kind == LF_K_INT ? v : 0;
                CHECK(lf_history_push(&h, &rec));
                if (mi && mi->role == LF_ROLE_INSERT && kind == LF_K_NONE) inside++;
                if (mi && mi->role == LF_ROLE_REMOVE && kind == LF_K_INT) inside--;
            }
            if (a->thread_leave) a->thread_leave(obj);
            a->destroy(obj);
            lf_result r;
            lf_result_init(&r);
            lf_check(&h, &o, &r);
            CHECKF(r.verdict == LF_LINEARIZABLE, "%s: its sequential history (seed %llu) is %s: %s", a->name,
                   (unsigned long long)seed, lf_verdict_name(r.verdict), r.reason);
            lf_result_free(&r);
            lf_history_free(&h);
            lf_plan_free(&p);
        }
    }
}

static void test_sequential_conformance(void) {
    for (size_t i = 0; i < lf_adapter_count(); i++) {
        const lf_adapter *a = lf_adapter_at(i), *ref = reference_of(a);
        /* the mutex references are unbounded and never block */
        if (relaxed(a) || !ref || a->capacity || a->may_block) continue;
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

/* A serial run of a random workload: the results (kind and value per call) and, when offered, fingerprints. */
static void serial_run(const lf_adapter *a, uint64_t seed, lf_kind *kinds, int64_t *values, uint64_t *fps, size_t n) {
    lf_workload w;
    lf_workload_random(&w, seed, 1, (uint32_t)n);
    lf_plan p;
    CHECK(lf_plan_build(&p, &w, a));
    void *obj = a->create(n);
    if (a->thread_enter) a->thread_enter(obj);
    for (size_t k = 0; k < n; k++) {
        values[k] = 0;
        kinds[k] = a->op(obj, (lf_method)p.ops[k].method, p.ops[k].args, &values[k]);
        fps[k] = a->fingerprint ? a->fingerprint(obj) : 0;
    }
    if (a->thread_leave) a->thread_leave(obj);
    a->destroy(obj);
    lf_plan_free(&p);
}

/* Adapters marked deterministic are: two serial runs agree, results and fingerprints. Custom types with a spec:
 * the spec accepts the serial run. */
static void test_serial_determinism_and_specs(void) {
    enum { N = 300 };
    static lf_kind k1[N], k2[N];
    static int64_t v1[N], v2[N];
    static uint64_t f1[N], f2[N];
    size_t checked = 0;
    for (size_t i = 0; i < lf_adapter_count(); i++) {
        const lf_adapter *a = lf_adapter_at(i);
        if (!a->deterministic) continue;
        checked++;
        for (uint64_t seed = 1; seed <= 2; seed++) {
            serial_run(a, seed * 31, k1, v1, f1, N);
            serial_run(a, seed * 31, k2, v2, f2, N);
            size_t diff = SIZE_MAX;
            for (size_t k = 0; k < N && diff == SIZE_MAX; k++)
                if (k1[k] != k2[k] || (k1[k] == LF_K_INT && v1[k] != v2[k]) || f1[k] != f2[k]) diff = k;
            CHECKF(diff == SIZE_MAX, "%s is marked deterministic, but two serial runs differ at call %zu", a->name,
                   diff);
        }
        const lf_spec *spec = a->type == LF_TYPE_CUSTOM ? a->custom->spec : NULL;
        if (!spec) continue;
        lf_workload w;
        lf_workload_random(&w, 77, 1, N);
        lf_plan p;
        CHECK(lf_plan_build(&p, &w, a));
        serial_run(a, 77, k1, v1, f1, N);
        lf_history h;
        lf_adapter_history_init(&h, a);
        lf_spec_env env;
        lf_spec_env_of_history(&h, &env);
        lf_spec_inst inst;
        CHECK(lf_spec_open(spec, &env, &inst));
        unsigned char s0[256], s1[256];
        lf_spec_init(&inst, s0);
        size_t rejected = SIZE_MAX;
        for (size_t k = 0; k < N && rejected == SIZE_MAX; k++) {
            lf_op op = {.call = 2 * k + 1, .ret = 2 * k + 2, .method = p.ops[k].method, .res_kind = (uint8_t)k1[k],
                        .res = v1[k]};
            op.arg[0] = p.ops[k].args[0];
            op.arg[1] = p.ops[k].args[1];
            if (!lf_spec_step(&inst, s0, &op, s1)) rejected = k;
            memcpy(s0, s1, inst.state_size);
        }
        CHECKF(rejected == SIZE_MAX, "%s: its type's spec rejects call %zu of a serial run", a->name, rejected);
        lf_spec_close(&inst);
        lf_plan_free(&p);
    }
    CHECK(checked >= 30);
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
        lf_adapter_checker checker; /* its type's spec, or (a custom type without one) its self-spec */
        char err[256];
        CHECKF(lf_adapter_checker_init(&checker, a, LF_SPEC_AUTO, &o, err, sizeof err), "%s", err);
        unsigned decided = 0, runs = 12;
        for (uint64_t seed = 1; seed <= runs; seed++) {
            lf_workload w;
            lf_workload_random(&w, seed * 7919, 4, 60);
            w.balance_blocking = a->may_block != 0; /* a correct blocking structure then never waits forever */
            lf_result res;
            lf_result_init(&res);
            lf_plan p;
            CHECK(lf_plan_build(&p, &w, a));
            lf_adapter_history_reset(&h, a);
            CHECK(lf_runner_run(&r, a, &w, &p, &h));
            lf_plan_free(&p);
            lf_adapter_checker_new_case(&checker);
            lf_adapter_checker_check(&checker, &h, &res);
            CHECKF(res.verdict != LF_VIOLATION, "%s: violation with seed %llu: %s", a->name,
                   (unsigned long long)w.seed, res.reason);
            if (res.verdict == LF_LINEARIZABLE) decided++;
            else if (res.verdict == LF_UNKNOWN && decided + 1 == seed)
                fprintf(stderr, "%s: unknown: %s\n", a->name, res.reason);
            lf_result_free(&res);
        }
        CHECKF(decided == runs, "%s: the checker decided only %u of %u runs", a->name, decided, runs);
        lf_adapter_checker_free(&checker);
    }
    lf_history_free(&h);
    lf_runner_free(&r);
}

int main(void) {
    test_registry();
    test_sequential_specification();
    test_sequential_conformance();
    test_serial_determinism_and_specs();
    test_correct_adapters_concurrently();
    TEST_DONE();
}
