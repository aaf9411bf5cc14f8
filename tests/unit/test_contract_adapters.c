/* Adapters and contracts (docs/contracts.md): how relaxed the bundled relaxed structures are, checked by running
 * them. scal_k_fifo (segments of 4 slots, a dequeue scanning the head segment slot by slot) satisfies
 * 'k-relaxed 4 weak-full-empty' on every controlled run here, and not 'k-relaxed 3 weak-full-empty' nor
 * 'k-relaxed 4' with exact empty answers; the contract an adapter declares travels with the histories it records
 * and is what its checker holds it to; a history without a contract line is checked under the adapter's own. The
 * runs are controlled (one schedule per seed), so every verdict here is the same on every run of the test. The
 * relaxed modes of DPDK's rte_stack and rte_ring satisfy the contracts that describe them (when built). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "linfuzz/adapter.h"
#include "linfuzz/check.h"
#include "runtime/adapter_check.h"
#include "runtime/adapter_type.h"
#include "runtime/runner.h"
#include "runtime/workload.h"
#include "contract_test_util.h"
#include "test_util.h"

/* Runs `runs` controlled random workloads of a (4 threads x 100 ops) held to contract c; returns how many of their
 * histories violate it (and counts the undecided ones in *unknown). */
static unsigned violations_under(const lf_adapter *declared, const char *contract, unsigned runs, unsigned *unknown) {
    lf_adapter a = *declared;
    a.contract = contract_of(contract);
    lf_runner r;
    CHECK(lf_runner_init(&r, 4, LF_CLOCK_TICKET));
    r.controlled = true;
    lf_check_options o;
    lf_check_options_default(&o);
    o.timeout_s = 20;
    lf_adapter_checker checker;
    char err[256];
    CHECKF(lf_adapter_checker_init(&checker, &a, LF_SPEC_TYPE, &o, err, sizeof err), "%s", err);
    lf_history h;
    lf_adapter_history_init(&h, &a);
    unsigned bad = 0;
    *unknown = 0;
    for (uint64_t seed = 1; seed <= runs; seed++) {
        lf_workload w;
        lf_workload_random(&w, seed * 104729, 4, 100);
        size_t ops[LF_WORKLOAD_MAX_THREADS];
        for (unsigned t = 0; t < w.threads; t++) ops[t] = w.ops_per_thread;
        lf_schedule_random(&r.schedule, w.seed, w.threads, ops);
        lf_plan p;
        CHECK(lf_plan_build(&p, &w, &a));
        lf_adapter_history_reset(&h, &a);
        CHECK(lf_runner_run(&r, &a, &w, &p, &h));
        lf_plan_free(&p);
        /* the recorded history carries the contract */
        CHECK(lf_contract_equal(&h.contract, &a.contract));
        lf_result res;
        lf_result_init(&res);
        lf_adapter_checker_check(&checker, &h, &res);
        bad += res.verdict == LF_VIOLATION;
        *unknown += res.verdict == LF_UNKNOWN;
        lf_result_free(&res);
    }
    lf_history_free(&h);
    lf_adapter_checker_free(&checker);
    lf_runner_free(&r);
    return bad;
}

static void test_scal_k_fifo(void) {
    const lf_adapter *a = lf_adapter_find("scal_k_fifo");
    CHECK(a != NULL);
    if (!a) return;
    unsigned unknown, runs = 100;
    unsigned v4 = violations_under(a, "k-relaxed 4 weak-full-empty", runs, &unknown);
    CHECKF(v4 == 0 && unknown == 0, "k-relaxed 4 weak-full-empty: %u violations, %u unknown in %u runs", v4, unknown,
           runs);
    unsigned v3 = violations_under(a, "k-relaxed 3 weak-full-empty", runs, &unknown);
    CHECKF(v3 > 0, "k-relaxed 3 weak-full-empty: no violation in %u runs", runs);
    unsigned exact_empty = violations_under(a, "k-relaxed 4", runs, &unknown);
    CHECKF(exact_empty > 0, "k-relaxed 4 (exact empty answers): no violation in %u runs", runs);
    unsigned lin = violations_under(a, "linearizable", runs, &unknown);
    CHECKF(lin > v3, "linearizable: %u violations, k-relaxed 3: %u", lin, v3);
    printf("scal_k_fifo in %u controlled runs: violations of k-relaxed 4 weak-full-empty %u, k-relaxed 3 "
           "weak-full-empty %u, k-relaxed 4 %u, linearizable %u\n",
           runs, v4, v3, exact_empty, lin);
}

/* The relaxed modes of DPDK (adapters/dpdk, when built), held to the contracts that describe them: the lock-free
 * rte_stack, whose length lags its list, satisfies 'lagging-full-empty' and not linearizability; the ring with
 * relaxed tail sync, whose tail moves when the last producer in flight finishes, satisfies
 * 'quiescent-full-empty' and not 'lagging-full-empty'. */
static void test_dpdk(void) {
    const lf_adapter *stack = lf_adapter_find("dpdk_stack_lf"), *rts = lf_adapter_find("dpdk_ring_rts");
    if (!stack || !rts) {
        printf("DPDK adapters not built: their contracts not run\n");
        return;
    }
    unsigned unknown, runs = 200;
    unsigned stack_lagging = violations_under(stack, "lagging-full-empty", runs, &unknown);
    CHECKF(stack_lagging == 0 && unknown == 0, "dpdk_stack_lf, lagging-full-empty: %u violations, %u unknown",
           stack_lagging, unknown);
    unsigned stack_lin = violations_under(stack, "linearizable", runs, &unknown);
    CHECKF(stack_lin > 0, "dpdk_stack_lf, linearizable: no violation in %u runs", runs);
    unsigned rts_quiescent = violations_under(rts, "quiescent-full-empty", runs, &unknown);
    CHECKF(rts_quiescent == 0 && unknown == 0, "dpdk_ring_rts, quiescent-full-empty: %u violations, %u unknown",
           rts_quiescent, unknown);
    unsigned rts_lagging = violations_under(rts, "lagging-full-empty", runs, &unknown);
    CHECKF(rts_lagging > 0, "dpdk_ring_rts, lagging-full-empty: no violation in %u runs", runs);
    printf("in %u controlled runs: dpdk_stack_lf violates lagging-full-empty %u times, linearizability %u; "
           "dpdk_ring_rts violates quiescent-full-empty %u times, lagging-full-empty %u\n",
           runs, stack_lagging, stack_lin, rts_quiescent, rts_lagging);
}

/* An adapter's contract is what its checker uses for histories that name none; a history's own line wins. */
static void test_checker_contract(void) {
    const lf_adapter *fifo = lf_adapter_find("scal_k_fifo");
    if (!fifo) return;
    lf_adapter a = *fifo;
    a.contract = contract_of("k-relaxed 2");
    lf_check_options o;
    lf_check_options_default(&o);
    lf_adapter_checker checker;
    char err[256];
    CHECKF(lf_adapter_checker_init(&checker, &a, LF_SPEC_AUTO, &o, err, sizeof err), "%s", err);
    char desc[200];
    CHECK(strstr(lf_adapter_checker_describe(&checker, desc, sizeof desc), "under contract 'k-relaxed 2'") != NULL);
    lf_history h;
    lf_history_init(&h, LF_TYPE_QUEUE);
    lf_op ops[] = {{.call = 1, .ret = 2, .method = LF_M_ENQ, .arg = {1, 0}},
                   {.call = 3, .ret = 4, .method = LF_M_ENQ, .arg = {2, 0}},
                   {.call = 5, .ret = 6, .method = LF_M_DEQ, .res_kind = LF_K_INT, .res = 2}};
    for (size_t i = 0; i < 3; i++) CHECK(lf_history_push(&h, &ops[i]));
    lf_result r;
    lf_result_init(&r);
    lf_adapter_checker_check(&checker, &h, &r); /* no line: the adapter's k-relaxed 2 */
    CHECKF(r.verdict == LF_LINEARIZABLE, "%s", r.reason);
    lf_result_free(&r);
    h.contract = contract_of("k-relaxed 1"); /* its own line */
    lf_result_init(&r);
    lf_adapter_checker_check(&checker, &h, &r);
    CHECK(r.verdict == LF_VIOLATION && strstr(r.reason, "contract 'k-relaxed 1'"));
    lf_result_free(&r);
    lf_history_free(&h);
    lf_adapter_checker_free(&checker);
    /* a contract the type cannot have is refused with the adapter's name */
    const lf_adapter *stack = lf_adapter_find("scal_k_stack");
    if (!stack) return;
    lf_adapter s = *stack;
    s.contract = contract_of("per-producer");
    CHECK(!lf_adapter_check(&s, err, sizeof err) && strstr(err, "adapter scal_k_stack") && strstr(err, "only for queue"));
}

int main(void) {
    test_checker_contract();
    test_scal_k_fifo();
    test_dpdk();
    TEST_DONE();
}
