/* Budgets of the general checker (WGL, the frontier sweep, both at once): a history that cannot be finished
 * (QWIDE concurrent enqueues of distinct values, then a dequeue of a value never enqueued: both searches
 * must go through the orders of the enqueues before they can say violation) must answer unknown, with a
 * reason, within the time budget plus a small slack; within a memory budget without the process growing
 * past it; and within a step budget. A tiny memory budget answers unknown at once. The WGL search alone
 * keeps its own budgets on a register history that only it finds hard (26 concurrent writes of one value,
 * then a read of a value never written: 2^26 subsets). In a split history, a violating part wins over a
 * part that ran out of its memory budget; otherwise the undecided part makes the answer unknown. When the time
 * budget runs out the parts after it are not checked (the answer comes within the budget): unknown, naming the
 * part it ran out in. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "linfuzz/check.h"
#include "test_util.h"
#include "wgl/wgl.h"
#include "util/clock.h"

/* How far past a time budget an answer may come: the steps up to the next budget check, freeing the search
 * state and joining the second search thread, on a loaded 2-core machine that may stall a thread for a few
 * hundred milliseconds (a CI run under ASan). Without the budget these searches run for minutes. */
#define BUDGET_SLACK_S 1.0

#define WIDE 26
#define QWIDE 24

/* A sanitizer's redzones and quarantine add to the process, not to what the checker counts. */
#define RSS_SLACK_MIB (LF_TEST_SANITIZED ? 32 : 8)


static long max_rss_kib(void) {
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return ru.ru_maxrss;
}

static lf_op mk(uint32_t thread, uint64_t call, uint64_t ret, lf_method m, int64_t a0, int64_t a1, lf_kind kind,
                int64_t res) {
    lf_op op;
    memset(&op, 0, sizeof op);
    op.thread = thread;
    op.call = call;
    op.ret = ret;
    op.method = (uint8_t)m;
    op.arg[0] = a0;
    op.arg[1] = a1;
    op.res_kind = (uint8_t)kind;
    op.res = res;
    return op;
}

/* WIDE concurrent writes of 1, then (after all of them) a read that returns 2. */
static void hard_register(lf_history *h) {
    lf_history_init(h, LF_TYPE_REGISTER);
    for (uint32_t t = 0; t < WIDE; t++) {
        lf_op w = mk(t, 1 + t, 100 + t, LF_M_WRITE, 1, 0, LF_K_NONE, 0);
        lf_history_push(h, &w);
    }
    lf_op r = mk(WIDE, 200, 201, LF_M_READ, 0, 0, LF_K_INT, 2);
    lf_history_push(h, &r);
}

/* QWIDE concurrent enqueues of 1..QWIDE, then (after all of them) a dequeue that returns 99. */
static void hard_queue(lf_history *h) {
    lf_history_init(h, LF_TYPE_QUEUE);
    for (uint32_t t = 0; t < QWIDE; t++) {
        lf_op e = mk(t, 1 + t, 100 + t, LF_M_ENQ, 1 + t, 0, LF_K_NONE, 0);
        lf_history_push(h, &e);
    }
    lf_op d = mk(QWIDE, 200, 201, LF_M_DEQ, 0, 0, LF_K_INT, 99);
    lf_history_push(h, &d);
}

static bool wgl_alone = false; /* run: WGL without the frontier sweep */

static void run(const lf_history *h, double timeout, size_t mem, uint64_t steps, lf_result *r, double *secs) {
    lf_wgl_options o;
    lf_wgl_options_default(&o);
    o.frontier = !wgl_alone;
    o.timeout_s = timeout;
    o.max_memory_bytes = mem;
    o.max_steps = steps;
    lf_result_init(r);
    double t0 = lf_now_s();
    lf_wgl_check(h, &o, r);
    *secs = lf_now_s() - t0;
}

int main(void) {
    lf_history h;
    hard_queue(&h);
    lf_result r;
    double secs;

    /* Memory first, while the process is still small: its peak RSS must stay near the budget. */
    long rss0 = max_rss_kib();
    run(&h, 0, (size_t)32 << 20, 0, &r, &secs);
    long grown_mib = (max_rss_kib() - rss0) / 1024;
    CHECKF(r.verdict == LF_UNKNOWN && strstr(r.reason, "memory budget"), "32 MiB: %s: %s", lf_verdict_name(r.verdict),
           r.reason);
    CHECKF(grown_mib <= 32 + RSS_SLACK_MIB, "a 32 MiB budget grew the process by %ld MiB", grown_mib);
    printf("memory budget 32 MiB: unknown after %.3f s, process grew %ld MiB: %s\n", secs, grown_mib, r.reason);
    lf_result_free(&r);

    run(&h, 0, 1024, 0, &r, &secs);
    CHECKF(r.verdict == LF_UNKNOWN && strstr(r.reason, "too small"), "1 KiB: %s", r.reason);
    CHECKF(secs < 0.5, "a tiny budget answers at once (%.3f s)", secs);
    lf_result_free(&r);

    /* Time: unknown within the budget plus a slack (docs/budgets.md: at the first step, then every 1024 units). */
    run(&h, 0.5, 0, 0, &r, &secs);
    CHECKF(r.verdict == LF_UNKNOWN && strstr(r.reason, "time budget"), "0.5 s: %s", r.reason);
    CHECKF(secs < 0.5 + BUDGET_SLACK_S, "0.5 s budget took %.3f s", secs);
    printf("time budget 0.5 s: unknown after %.3f s: %s\n", secs, r.reason);
    lf_result_free(&r);

    run(&h, 0, 0, 100000, &r, &secs);
    CHECKF(r.verdict == LF_UNKNOWN && strstr(r.reason, "step budget"), "steps: %s", r.reason);
    CHECKF(r.steps >= 100000 && r.steps < 100000 + 2048, "stopped near the step budget: %" PRIu64, r.steps);
    lf_result_free(&r);

    /* The same through lf_check (engine wgl). */
    lf_check_options co;
    lf_check_options_default(&co);
    co.timeout_s = 0.3;
    co.engine = LF_ENGINE_WGL;
    lf_result_init(&r);
    double t0 = lf_now_s();
    lf_check(&h, &co, &r);
    secs = lf_now_s() - t0;
    CHECKF(r.verdict == LF_UNKNOWN && strcmp(r.engine, "wgl") == 0 && strstr(r.reason, "time budget"),
           "lf_check wgl: %s by %s: %s", lf_verdict_name(r.verdict), r.engine, r.reason);
    CHECKF(secs < 0.3 + BUDGET_SLACK_S, "lf_check wgl took %.3f s", secs);
    lf_result_free(&r);
    lf_history_free(&h);

    /* The WGL search alone, on the register history that only it finds hard. */
    wgl_alone = true;
    hard_register(&h);
    run(&h, 0.3, 0, 0, &r, &secs);
    CHECKF(r.verdict == LF_UNKNOWN && strstr(r.reason, "time budget"), "WGL alone, 0.3 s: %s", r.reason);
    CHECKF(secs < 0.3 + BUDGET_SLACK_S, "WGL alone: 0.3 s budget took %.3f s", secs);
    lf_result_free(&r);
    run(&h, 0, 0, 100000, &r, &secs);
    CHECKF(r.verdict == LF_UNKNOWN && strstr(r.reason, "step budget"), "WGL alone, steps: %s", r.reason);
    CHECKF(r.steps >= 100000 && r.steps < 100000 + 2048, "WGL alone stopped near the step budget: %" PRIu64, r.steps);
    lf_result_free(&r);
    /* With the frontier sweep it is a violation at once: the writes overwrite each other (docs/wgl.md). */
    wgl_alone = false;
    run(&h, 0.3, 0, 0, &r, &secs);
    CHECKF(r.verdict == LF_VIOLATION && r.n_culprits >= 1 && r.culprits[0] == WIDE, "frontier: %s", r.reason);
    lf_result_free(&r);
    lf_history_free(&h);
    wgl_alone = true;

    /* Split kv history: key 1 is the hard part, key 2 a plain violation, key 3 linearizable. */
    lf_history kv;
    lf_history_init(&kv, LF_TYPE_KV);
    for (uint32_t t = 0; t < WIDE; t++) {
        lf_op p = mk(t, 1 + t, 100 + t, LF_M_PUT, 1, 1, LF_K_NONE, 0);
        lf_history_push(&kv, &p);
    }
    lf_op g = mk(WIDE, 200, 201, LF_M_GET, 1, 0, LF_K_INT, 2);
    lf_op p2 = mk(WIDE + 1, 1, 2, LF_M_PUT, 2, 5, LF_K_NONE, 0), g2 = mk(WIDE + 1, 3, 4, LF_M_GET, 2, 0, LF_K_INT, 6);
    lf_op p3 = mk(WIDE + 2, 1, 2, LF_M_PUT, 3, 5, LF_K_NONE, 0), g3 = mk(WIDE + 2, 3, 4, LF_M_GET, 3, 0, LF_K_INT, 5);
    lf_history_push(&kv, &g);
    lf_history_push(&kv, &p3);
    lf_history_push(&kv, &g3);
    run(&kv, 0.3, 0, 0, &r, &secs);
    CHECKF(r.verdict == LF_UNKNOWN && r.partitions == 2 && strstr(r.reason, "key 1") && strstr(r.reason, "time budget"),
           "kv without the violating key: %s (%" PRIu64 " parts)", r.reason, r.partitions);
    lf_result_free(&r);
    lf_history_push(&kv, &p2);
    lf_history_push(&kv, &g2);
    run(&kv, 0, (size_t)4 << 20, 0, &r, &secs);
    CHECKF(r.verdict == LF_VIOLATION && r.partitions == 3 && strstr(r.reason, "key 2"),
           "a violating part wins over one out of memory: %s", r.reason);
    CHECKF(r.n_culprits == 1 && r.culprits[0] == WIDE + 4, "the culprit is the get of key 2 (op %d)", WIDE + 4);
    lf_result_free(&r);
    run(&kv, 0.3, 0, 0, &r, &secs);
    CHECKF(r.verdict == LF_UNKNOWN && r.partitions == 3 && strstr(r.reason, "3 of 3 parts undecided") &&
               strstr(r.reason, "key 1") && strstr(r.reason, "time budget"),
           "the time budget ends the check in the part it ran out in: %s", r.reason);
    CHECKF(secs < 0.3 + BUDGET_SLACK_S, "split check took %.3f s", secs);
    lf_result_free(&r);
    lf_history_free(&kv);
    wgl_alone = false;
    TEST_DONE();
}
