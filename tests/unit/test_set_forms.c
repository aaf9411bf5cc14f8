/* The set monitor's two forms agree: the direct one lf_monitor_check uses (no standardisation) and the
 * standardised one of [Lee25] (monitor_forms/set_monitor.c), on large generated histories (linearizable,
 * corrupted, with pending ops and timestamp ties) where the brute-force oracle cannot go. */
#include <stdio.h>
#include <string.h>

#include "linfuzz/generate.h"
#include "monitor/monitors.h"
#include "monitor/standardize.h"
#include "monitor_forms/monitor_forms.h"
#include "test_util.h"

static lf_verdict standardized(const lf_history *h, lf_result *r) {
    lf_std s;
    lf_verdict v = lf_standardize(h, NULL, &s, r);
    if (v == LF_LINEARIZABLE) v = lf_monitor_set(h, &s, r);
    lf_std_free(&s);
    return v;
}

int main(void) {
    int counts[4] = {0};
    for (uint64_t seed = 1; seed <= 240; seed++) {
        lf_gen_options o;
        lf_gen_options_default(&o);
        o.type = LF_TYPE_SET;
        o.n_ops = 500 + 100 * (seed % 20);
        o.threads = 1 + (uint32_t)(seed % 8);
        o.seed = seed;
        o.peek = 0.1 * (double)(seed % 5);
        o.empty = 0.2;
        o.bad = seed % 4;
        o.pending = seed % 3 == 0 ? 0.3 : 0;
        lf_history h;
        char err[256];
        CHECKF(lf_gen_history(&o, &h, err, sizeof err), "%s", err);
        /* Coarsen the stamps on some seeds: ties between threads (each thread stays sequential). */
        if (seed % 5 == 0) {
            for (size_t i = 0; i < h.n; i++) {
                h.ops[i].call = h.ops[i].call * 4 / 5;
                if (!lf_op_pending(&h.ops[i])) h.ops[i].ret = h.ops[i].ret * 4 / 5;
            }
            if (lf_history_validate(&h, err, sizeof err) != SIZE_MAX) { /* coarsening merged a thread's ops */
                lf_history_free(&h);
                continue;
            }
        }
        lf_result a, b;
        lf_result_init(&a);
        lf_result_init(&b);
        lf_verdict direct = lf_monitor_set_direct(&h, NULL, &a);
        lf_verdict std = standardized(&h, &b);
        CHECKF(direct == std, "seed %llu: direct %s (%s), standardised %s (%s)", (unsigned long long)seed,
               lf_verdict_name(direct), a.reason, lf_verdict_name(std), b.reason);
        counts[direct]++;
        lf_result_free(&a);
        lf_result_free(&b);
        lf_history_free(&h);
    }
    printf("linearizable %d, violation %d, unknown %d\n", counts[LF_LINEARIZABLE], counts[LF_VIOLATION],
           counts[LF_UNKNOWN]);
    CHECK(counts[LF_LINEARIZABLE] > 20 && counts[LF_VIOLATION] > 20);
    TEST_DONE();
}
