/* Differential test of the log-linear monitors against the brute-force oracle, on thousands of small random
 * histories per monitor type (register, set, stack, queue, pqueue, deque): linearizable by construction (with and
 * without peeks, empty results, pending ops, equal stamps and repeated values), corrupted, and fully random
 * with distinct inserted values.
 *
 * Whenever the monitor answers linearizable or violation it must agree with brute force. It may answer
 * unknown only outside its domain: for unambiguous histories without pending removes, unknown is a failure.
 * Every history is reproducible from (type, mode, seed), which a mismatch report prints along with the
 * history itself; the smallest mismatching history per type is printed again at the end. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "brute/brute.h"
#include "generate/stamp_remap.h"
#include "history_test_util.h"
#include "linfuzz/format.h"
#include "linfuzz/generate.h"
#include "monitor/monitor.h"
#include "test_util.h"

static const lf_type MONITOR_TYPES[] = {LF_TYPE_REGISTER, LF_TYPE_SET, LF_TYPE_STACK, LF_TYPE_QUEUE, LF_TYPE_PQUEUE,
                                        LF_TYPE_DEQUE};
#define N_MONITOR_TYPES (sizeof MONITOR_TYPES / sizeof MONITOR_TYPES[0])

/* Per-type tallies. */
typedef struct {
    size_t histories, mismatches, unknown, unknown_in_domain, linearizable, violations, shift_changes;
    lf_history smallest; /* smallest failing history, when have_smallest */
    bool have_smallest;
} tally;

static bool has_pending_remove(const lf_history *h) {
    for (size_t i = 0; i < h->n; i++) {
        const lf_method_info *mi = lf_method_info_of(h->type, (lf_method)h->ops[i].method);
        if (lf_op_pending(&h->ops[i]) && mi && mi->role == LF_ROLE_REMOVE) return true;
    }
    return false;
}

/* Runs both checkers on h; returns false on a disagreement. */
static bool compare(const lf_history *h, const char *what, uint64_t seed, tally *t, bool verbose) {
    lf_brute_options bo;
    lf_brute_options_default(&bo);
    lf_result mon, bru;
    lf_result_init(&mon);
    lf_result_init(&bru);
    lf_monitor_check(h, NULL, &mon);
    lf_brute_check(h, &bo, &bru);
    t->histories++;
    bool ok = true;
    /* Brute force decides every history this small; anything else is a harness problem. */
    CHECKF(bru.verdict != LF_UNKNOWN, "%s seed %llu: brute force answered unknown: %s", what,
           (unsigned long long)seed, bru.reason);
    t->linearizable += bru.verdict == LF_LINEARIZABLE;
    t->violations += bru.verdict == LF_VIOLATION;
    if (mon.verdict == LF_UNKNOWN) {
        t->unknown++;
        if (lf_history_unambiguous(h) && !has_pending_remove(h)) {
            t->unknown_in_domain++;
            ok = false;
            if (verbose)
                fprintf(stderr, "%s seed %llu: monitor answered unknown on an unambiguous history without pending "
                            "removes: %s\n", what, (unsigned long long)seed, mon.reason);
        }
    } else if (bru.verdict != LF_UNKNOWN && mon.verdict != bru.verdict) {
        t->mismatches++;
        ok = false;
        if (verbose)
            fprintf(stderr, "%s seed %llu: MISMATCH monitor=%s (%s) brute=%s (%s)\n", what, (unsigned long long)seed,
                lf_verdict_name(mon.verdict), mon.reason, lf_verdict_name(bru.verdict), bru.reason);
    }
    /* Stamps only matter by order: the same verdict with them moved to the edges of the range. */
    for (int m = 0; m < LF_STAMPS_MAP_COUNT; m++) {
        lf_history c;
        if (!lf_history_copy(&c, h)) break;
        if (lf_history_remap_stamps(&c, (lf_stamp_map)m, seed)) {
            lf_result mc;
            lf_result_init(&mc);
            lf_monitor_check(&c, NULL, &mc);
            if (mc.verdict != mon.verdict) {
                t->shift_changes++;
                ok = false;
                if (verbose)
                    fprintf(stderr, "%s seed %llu: stamps %s change the monitor's verdict to %s (%s)\n", what,
                            (unsigned long long)seed, lf_stamp_map_name((lf_stamp_map)m), lf_verdict_name(mc.verdict),
                            mc.reason);
            }
            lf_result_free(&mc);
        }
        lf_history_free(&c);
    }
    if (!ok) {
        if (verbose) print_history(h);
        if (!t->have_smallest || h->n < t->smallest.n) {
            if (t->have_smallest) lf_history_free(&t->smallest);
            t->have_smallest = lf_history_copy(&t->smallest, h);
        }
    }
    lf_result_free(&mon);
    lf_result_free(&bru);
    return ok;
}

/* Histories per (type, mode, variant): 1000 (about 19000 per type, about a second in all), or the value of the
 * environment variable LINFUZZ_DIFF_PER_VARIANT for a longer hunt. */
static uint64_t per_variant = 1000;

static void run_type(lf_type type, tally *t) {
    char what[96];
    for (int mode = LF_GEN_CONSTRUCTED; mode <= LF_GEN_RANDOM; mode++) {
        /* Variants: peeks and empty results on or off, pending ops, bigger histories, equal stamps, repeated
         * values (ambiguous: the monitor should mostly say unknown, and must be right when it does not). */
        for (int variant = 0; variant < 7; variant++) {
            lf_gen_small_options so;
            lf_gen_small_options_default(&so, type, (lf_gen_small_mode)mode);
            so.peek = variant & 1 ? 0.3 : 0;
            so.empty = variant & 2 ? 0.3 : 0;
            if (variant == 3) so.pending = 0.4;
            if (variant == 6) so.values = 3;
            if (variant == 4 || variant == 5) {
                so.min_ops = 8;
                so.max_ops = 14;
                so.max_threads = 4;
                so.peek = so.empty = 0.2;
            }
            snprintf(what, sizeof what, "%s %s variant %d", lf_type_name(type), gen_mode_name(mode), variant);
            size_t failures = 0;
            for (uint64_t i = 0; i < per_variant; i++) {
                uint64_t seed = (uint64_t)type << 40 | (uint64_t)mode << 32 | (uint64_t)variant << 24 | i;
                lf_history h;
                bool made = lf_gen_small(seed, &so, &h);
                CHECKF(made, "%s seed %llu: generator failed", what, (unsigned long long)seed);
                if (!made) continue;
                if (variant == 5 && !halve_stamps(&h)) {
                    lf_history_free(&h);
                    continue;
                }
                /* Print the first few failures of a variant; the tallies count them all. */
                if (!compare(&h, what, seed, t, failures < 3) && ++failures == 3)
                    fprintf(stderr, "%s: further failures are counted, not printed\n", what);
                lf_history_free(&h);
            }
        }
    }
}

int main(void) {
    const char *env = getenv("LINFUZZ_DIFF_PER_VARIANT");
    if (env && strtoull(env, NULL, 10) > 0) per_variant = strtoull(env, NULL, 10);
    tally tallies[N_MONITOR_TYPES];
    memset(tallies, 0, sizeof tallies);
    for (size_t k = 0; k < N_MONITOR_TYPES; k++) {
        tally *t = &tallies[k];
        run_type(MONITOR_TYPES[k], t);
        printf("%-9s %zu histories (%zu linearizable, %zu violations by brute force): %zu mismatches, %zu unknown "
               "(%zu of them on unambiguous histories without pending removes), %zu verdicts changed by remapped "
               "stamps\n",
               lf_type_name(MONITOR_TYPES[k]), t->histories, t->linearizable, t->violations, t->mismatches,
               t->unknown, t->unknown_in_domain, t->shift_changes);
        CHECKF(t->mismatches == 0, "%s: %zu mismatches between monitor and brute force",
               lf_type_name(MONITOR_TYPES[k]), t->mismatches);
        CHECKF(t->unknown_in_domain == 0, "%s: %zu unknown answers inside the monitors' domain",
               lf_type_name(MONITOR_TYPES[k]), t->unknown_in_domain);
        CHECKF(t->shift_changes == 0, "%s: %zu verdicts changed by remapped stamps", lf_type_name(MONITOR_TYPES[k]),
               t->shift_changes);
        /* Both verdicts must be well represented, or the comparison proves little. */
        CHECKF(t->linearizable > t->histories / 5 && t->violations > t->histories / 5,
               "%s: unbalanced sample (%zu linearizable, %zu violations)", lf_type_name(MONITOR_TYPES[k]),
               t->linearizable, t->violations);
        if (t->have_smallest) {
            fprintf(stderr, "smallest failing %s history (%zu ops):\n", lf_type_name(MONITOR_TYPES[k]),
                    t->smallest.n);
            print_history(&t->smallest);
            lf_history_free(&t->smallest);
        }
    }
    TEST_DONE();
}
