/* The monitors kept in two forms give the same answers -- verdict, reason and culprits, word for word: the
 * priority-queue time sweep lf_monitor_check uses (pqueue_monitor.c) against the priority-order sweep over a
 * segment tree (monitor_forms/pqueue_tree.c), and the stack monitor handing out segments of equal coverage
 * (stack_monitor.c) against the one handing out single partitions (monitor_forms/stack_partitions.c). On
 * histories too large for the brute-force oracle: generated ones of 100..3000 ops (linearizable, corrupted, with peeks,
 * empty results, pending ops, stamp ties, spread priorities with many values present at once) and small
 * random ones (mostly violations of every kind). */
#include <stdio.h>
#include <string.h>

#include "linfuzz/generate.h"
#include "monitor/monitors.h"
#include "monitor/standardize.h"
#include "monitor_forms/monitor_forms.h"
#include "test_util.h"

typedef lf_verdict (*monitor_fn)(const lf_history *, const lf_std *, lf_result *);

static int counts[4];

/* Runs both forms on h (after one standardisation each) and compares everything they say. */
static void compare(const lf_history *h, monitor_fn a_fn, monitor_fn b_fn, const char *what, uint64_t seed) {
    lf_result a, b;
    lf_result_init(&a);
    lf_result_init(&b);
    lf_std sa, sb;
    lf_verdict va = lf_standardize(h, NULL, &sa, &a), vb = lf_standardize(h, NULL, &sb, &b);
    if (va == LF_LINEARIZABLE) va = a_fn(h, &sa, &a);
    if (vb == LF_LINEARIZABLE) vb = b_fn(h, &sb, &b);
    lf_std_free(&sa);
    lf_std_free(&sb);
    bool same = va == vb && strcmp(va == LF_LINEARIZABLE ? "" : a.reason, vb == LF_LINEARIZABLE ? "" : b.reason) == 0 &&
                a.n_culprits == b.n_culprits &&
                (a.n_culprits == 0 || memcmp(a.culprits, b.culprits, a.n_culprits * sizeof *a.culprits) == 0);
    CHECKF(same, "%s seed %llu (%zu ops): %s (%s) vs %s (%s)", what, (unsigned long long)seed, h->n,
           lf_verdict_name(va), a.reason, lf_verdict_name(vb), b.reason);
    counts[va]++;
    lf_result_free(&a);
    lf_result_free(&b);
}

static void run_generated(lf_type type, monitor_fn a_fn, monitor_fn b_fn, const char *what) {
    for (uint64_t seed = 1; seed <= 300; seed++) {
        lf_gen_options o;
        lf_gen_options_default(&o);
        o.type = type;
        o.n_ops = 100 + 100 * (seed % 30);
        o.threads = 1 + (uint32_t)(seed % 12);
        o.seed = seed;
        o.peek = 0.1 * (double)(seed % 4);
        o.empty = seed % 3 ? 0.1 : 0;
        o.bad = seed % 4 == 0 ? 0 : seed % 3;
        o.pending = seed % 7 == 0 ? 0.3 : 0;
        o.spread = type == LF_TYPE_PQUEUE && seed % 2 == 0;
        lf_history h;
        char err[256];
        CHECKF(lf_gen_history(&o, &h, err, sizeof err), "%s", err);
        if (seed % 5 == 0) { /* coarser stamps: ties between threads */
            for (size_t i = 0; i < h.n; i++) {
                h.ops[i].call = h.ops[i].call * 3 / 4;
                if (!lf_op_pending(&h.ops[i])) h.ops[i].ret = h.ops[i].ret * 3 / 4;
            }
            if (lf_history_validate(&h, err, sizeof err) != SIZE_MAX) {
                lf_history_free(&h);
                continue;
            }
        }
        compare(&h, a_fn, b_fn, what, seed);
        lf_history_free(&h);
    }
    for (uint64_t seed = 1; seed <= 3000; seed++) {
        lf_gen_small_options so;
        lf_gen_small_options_default(&so, type, (lf_gen_small_mode)(seed % 3));
        so.max_ops = 12 + seed % 30;
        so.max_threads = 2 + (uint32_t)(seed % 5);
        lf_history h;
        if (!lf_gen_small(seed, &so, &h)) continue;
        compare(&h, a_fn, b_fn, what, seed);
        lf_history_free(&h);
    }
}

static void report(const char *what) {
    printf("%s: linearizable %d, violation %d, unknown %d\n", what, counts[LF_LINEARIZABLE], counts[LF_VIOLATION],
           counts[LF_UNKNOWN]);
    CHECKF(counts[LF_LINEARIZABLE] > 300 && counts[LF_VIOLATION] > 300, "%s: too few of a kind", what);
    memset(counts, 0, sizeof counts);
}

int main(void) {
    run_generated(LF_TYPE_PQUEUE, lf_monitor_pqueue, lf_monitor_pqueue_tree, "pqueue");
    report("pqueue");
    run_generated(LF_TYPE_STACK, lf_monitor_stack, lf_monitor_stack_partitions, "stack");
    report("stack");
    TEST_DONE();
}
