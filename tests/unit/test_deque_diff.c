/* Differential test of the deque monitor (engines/monitor/deque_monitor.c) against the brute-force oracle on
 * many thousands of small random deque histories (linearizable by construction, corrupted, fully random; with
 * peeks, empty results, pending ops, equal stamps and repeated values), against WGL on medium ones, and on
 * stamp-remapped copies of every history (the verdict may not change when stamps move to 0 or 2^64-1).
 *
 * Whenever the monitor answers linearizable or violation it must agree with the reference. It may answer
 * unknown only outside its domain: ambiguous values, pending pops, and a value seen at the far end of its
 * own stack (docs/monitors.md, "Deques"); every other unknown is a failure. The hand-written cases at the
 * end pin the decomposition's rules (the layout lemma, free moments, phases).
 *
 * Under a sanitizer (LF_TEST_SANITIZED) a third of the small histories (500 per variant, not 1500) and WGL with
 * a budget of 300000 steps instead of 10^6 on the medium ones (163 of the 300 decided instead of 184): the
 * same code paths, 41 s of CPU under ASan before, most of it in the budgets WGL ran out of. */
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
#include "wgl/wgl.h"

typedef struct {
    size_t histories, linearizable, violations, mismatches, unknown, unknown_far_peek, unknown_in_domain, shift_changes;
} tally;

static bool has_pending_pop(const lf_history *h) {
    for (size_t i = 0; i < h->n; i++)
        if (lf_op_pending(&h->ops[i]) && (h->ops[i].method == LF_M_POP_FRONT || h->ops[i].method == LF_M_POP_BACK))
            return true;
    return false;
}

/* The monitor's one documented gap: a value seen at the far end of its own stack. */
static bool is_stack_far_peek(const lf_result *r) { return strstr(r->reason, "at the other end") != NULL; }

static lf_verdict monitor(const lf_history *h, lf_result *r) {
    lf_result_init(r);
    lf_monitor_check(h, NULL, r);
    return r->verdict;
}

/* Compares the monitor with the reference verdict want on h and on remapped copies of it. */
static bool compare(const lf_history *h, lf_verdict want, const char *what, uint64_t seed, tally *t, bool verbose) {
    lf_result mon;
    monitor(h, &mon);
    t->histories++;
    t->linearizable += want == LF_LINEARIZABLE;
    t->violations += want == LF_VIOLATION;
    bool ok = true;
    if (mon.verdict == LF_UNKNOWN) {
        t->unknown++;
        t->unknown_far_peek += is_stack_far_peek(&mon);
        if (lf_history_unambiguous(h) && !has_pending_pop(h) && !is_stack_far_peek(&mon)) {
            t->unknown_in_domain++;
            ok = false;
            if (verbose)
                fprintf(stderr, "%s seed %llu: unknown inside the domain: %s\n", what, (unsigned long long)seed,
                        mon.reason);
        }
    } else if (want != LF_UNKNOWN && mon.verdict != want) {
        t->mismatches++;
        ok = false;
        if (verbose)
            fprintf(stderr, "%s seed %llu: MISMATCH monitor=%s (%s) reference=%s\n", what, (unsigned long long)seed,
                    lf_verdict_name(mon.verdict), mon.reason, lf_verdict_name(want));
    }
    for (int m = 0; m < LF_STAMPS_MAP_COUNT; m++) {
        lf_history c;
        if (!lf_history_copy(&c, h)) break;
        if (lf_history_remap_stamps(&c, (lf_stamp_map)m, seed)) {
            lf_result mc;
            if (monitor(&c, &mc) != mon.verdict) {
                t->shift_changes++;
                ok = false;
                if (verbose)
                    fprintf(stderr, "%s seed %llu: stamps %s change the verdict to %s (%s)\n", what,
                            (unsigned long long)seed, lf_stamp_map_name((lf_stamp_map)m), lf_verdict_name(mc.verdict),
                            mc.reason);
            }
            lf_result_free(&mc);
        }
        lf_history_free(&c);
    }
    if (!ok && verbose) print_history(h);
    lf_result_free(&mon);
    return ok;
}

static lf_verdict wgl(const lf_history *h) {
    lf_wgl_options o;
    lf_wgl_options_default(&o);
    o.max_steps = LF_TEST_SANITIZED ? 300000 : 1000000; /* steps, not time: the same answer on every machine */
    lf_result r;
    lf_result_init(&r);
    lf_wgl_check(h, &o, &r);
    lf_verdict v = r.verdict;
    lf_result_free(&r);
    return v;
}

/* Histories per (mode, variant); LINFUZZ_DIFF_PER_VARIANT for a longer hunt. */
static uint64_t per_variant = LF_TEST_CASES(1500, 3);

static void run_small(tally *t) {
    char what[96];
    for (int mode = LF_GEN_CONSTRUCTED; mode <= LF_GEN_RANDOM; mode++) {
        for (int variant = 0; variant < 9; variant++) {
            lf_gen_small_options so;
            lf_gen_small_options_default(&so, LF_TYPE_DEQUE, (lf_gen_small_mode)mode);
            so.peek = variant & 1 ? 0.3 : 0;
            so.empty = variant & 2 ? 0.3 : 0;
            if (variant == 3) so.pending = 0.4;
            if (variant == 6) so.values = 3;
            if (variant == 4 || variant == 5 || variant == 7) {
                so.min_ops = 8;
                so.max_ops = variant == 7 ? 16 : 13;
                so.max_threads = variant == 7 ? 6 : 4;
                so.peek = so.empty = 0.15;
            }
            if (variant == 8) { /* many threads: long overlaps, where the middle's order is a real choice */
                so.min_ops = 10;
                so.max_ops = 18;
                so.max_threads = 10;
                so.peek = 0.25;
                so.empty = 0.15;
            }
            snprintf(what, sizeof what, "deque %s variant %d", gen_mode_name(mode), variant);
            size_t failures = 0;
            for (uint64_t i = 0; i < per_variant; i++) {
                uint64_t seed = (uint64_t)0xDE << 40 | (uint64_t)mode << 32 | (uint64_t)variant << 24 | i;
                lf_history h;
                if (!lf_gen_small(seed, &so, &h)) {
                    CHECKF(0, "%s seed %llu: generator failed", what, (unsigned long long)seed);
                    continue;
                }
                if (variant == 5 && !halve_stamps(&h)) {
                    lf_history_free(&h);
                    continue;
                }
                lf_verdict want = h.n <= 16 ? brute_verdict(&h, 0) : wgl(&h);
                if (!compare(&h, want, what, seed, t, failures < 3) && ++failures == 3)
                    fprintf(stderr, "%s: further failures are counted, not printed\n", what);
                lf_history_free(&h);
            }
        }
    }
}

/* Medium histories (20-350 ops, up to 24 threads), against WGL where WGL decides. */
static void run_medium(tally *t, size_t *wgl_decided) {
    for (uint64_t seed = 1; seed <= 300; seed++) {
        lf_gen_options o;
        lf_gen_options_default(&o);
        o.type = LF_TYPE_DEQUE;
        o.seed = seed;
        o.n_ops = 20 + seed % 7 * 55;
        o.threads = 2 + (uint32_t)(seed % 23);
        o.peek = seed % 3 == 0 ? 0 : 0.25;
        o.empty = seed % 2 ? 0.2 : 0;
        o.bad = seed % 4 == 1 ? 1 : seed % 8 == 2 ? 2 : 0;
        lf_history h;
        char err[200];
        if (!lf_gen_history(&o, &h, err, sizeof err)) {
            CHECKF(0, "gen: %s", err);
            continue;
        }
        lf_verdict want = wgl(&h);
        *wgl_decided += want != LF_UNKNOWN;
        compare(&h, want, "deque medium", seed, t, true);
        lf_history_free(&h);
    }
}

/* Hand-written cases: (text, expected verdict). */
typedef struct {
    const char *name, *text;
    lf_verdict want;
} hand_case;

static const hand_case CASES[] = {
    {"stack at the front",
     "type deque\n0 1 2 push_front 1\n0 3 4 push_front 2\n0 5 6 pop_front -> 2\n0 7 8 pop_front -> 1\n",
     LF_LINEARIZABLE},
    {"queue through the deque",
     "type deque\n0 1 2 push_back 1\n0 3 4 push_back 2\n1 5 6 pop_front -> 1\n1 7 8 pop_front -> 2\n",
     LF_LINEARIZABLE},
    {"FIFO broken in the middle",
     "type deque\n0 1 2 push_back 1\n0 3 4 push_back 2\n1 5 6 pop_front -> 2\n1 7 8 pop_front -> 1\n",
     LF_VIOLATION},
    {"a BF value under a BB value can never leave",
     "type deque\n0 1 2 push_back 1\n0 3 4 push_back 2\n1 5 6 pop_front -> 1\n0 7 8 pop_back -> 2\n", LF_LINEARIZABLE},
    {"BF push while a BB value is certainly present",
     "type deque\n0 1 2 push_back 1\n0 3 4 push_back 2\n1 5 6 pop_back -> 1\n0 7 8 pop_front -> 2\n", LF_VIOLATION},
    {"FB and BF never coexist",
     "type deque\n0 1 2 push_front 1\n1 3 4 push_back 2\n0 5 6 pop_back -> 1\n1 7 8 pop_front -> 2\n", LF_VIOLATION},
    {"one value at a time is not enough: a crossing pop's deadline set by a third value",
     "type deque\n0 0 2 push_back 1\n1 1 3 push_back 2\n2 2 6 pop_back -> 3\n3 3 6 push_front 3\n"
     "4 6 10 pop_front -> 1\n5 7 9 push_front 4\n",
     LF_VIOLATION},
    {"work stealing",
     "type deque\n0 1 2 push_back 1\n0 3 4 push_back 2\n0 5 6 push_back 3\n1 4 9 pop_front -> 1\n"
     "0 7 8 pop_back -> 3\n2 8 12 pop_front -> 2\n0 10 11 pop_back -> empty\n",
     LF_LINEARIZABLE},
    {"a thief steals a value the owner still pops",
     "type deque\n0 1 2 push_back 1\n0 3 4 push_back 2\n1 5 6 pop_front -> 2\n0 7 8 pop_back -> 1\n", LF_VIOLATION},
    {"head peek and tail peek of the middle",
     "type deque\n0 1 2 push_back 1\n0 3 4 push_back 2\n1 5 6 peek_front -> 1\n1 7 8 peek_back -> 2\n"
     "1 9 10 pop_front -> 1\n1 11 12 pop_front -> 2\n",
     LF_LINEARIZABLE},
    {"ties are concurrent", "type deque\n0 1 2 push_front 1\n1 2 3 pop_back -> 1\n", LF_LINEARIZABLE},
};

static void run_cases(void) {
    for (size_t i = 0; i < sizeof CASES / sizeof CASES[0]; i++) {
        lf_history h;
        char err[300];
        if (lf_text_read_buffer(CASES[i].text, strlen(CASES[i].text), CASES[i].name, &h, err, sizeof err) != LF_OK) {
            CHECKF(0, "%s: %s", CASES[i].name, err);
            continue;
        }
        lf_result r;
        monitor(&h, &r);
        CHECKF(r.verdict == CASES[i].want, "%s: monitor says %s (%s), expected %s", CASES[i].name,
               lf_verdict_name(r.verdict), r.reason, lf_verdict_name(CASES[i].want));
        CHECKF(brute_verdict(&h, 0) == CASES[i].want, "%s: brute force disagrees with the expected verdict",
               CASES[i].name);
        if (r.verdict == LF_VIOLATION) CHECKF(r.n_culprits > 0, "%s: a violation without culprits", CASES[i].name);
        lf_result_free(&r);
        lf_history_free(&h);
    }
}

int main(void) {
    const char *env = getenv("LINFUZZ_DIFF_PER_VARIANT");
    if (env && strtoull(env, NULL, 10) > 0) per_variant = strtoull(env, NULL, 10);
    run_cases();
    tally t;
    memset(&t, 0, sizeof t);
    run_small(&t);
    printf("deque small: %zu histories (%zu linearizable, %zu violations by the reference): %zu mismatches, %zu "
           "unknown (%zu far-end peeks of a stack value, %zu inside the domain), %zu verdicts changed by remapped "
           "stamps\n",
           t.histories, t.linearizable, t.violations, t.mismatches, t.unknown, t.unknown_far_peek,
           t.unknown_in_domain, t.shift_changes);
    CHECK(t.mismatches == 0);
    CHECK(t.unknown_in_domain == 0);
    CHECK(t.shift_changes == 0);
    CHECKF(t.linearizable > t.histories / 5 && t.violations > t.histories / 5, "unbalanced sample (%zu / %zu)",
           t.linearizable, t.violations);
    tally m;
    memset(&m, 0, sizeof m);
    size_t decided = 0;
    run_medium(&m, &decided);
    printf("deque medium: %zu histories, WGL decided %zu (%zu linearizable, %zu violations): %zu mismatches, %zu "
           "unknown (%zu far-end peeks of a stack value, %zu inside the domain), %zu verdicts changed by remapped "
           "stamps\n",
           m.histories, decided, m.linearizable, m.violations, m.mismatches, m.unknown, m.unknown_far_peek,
           m.unknown_in_domain, m.shift_changes);
    CHECK(m.mismatches == 0);
    CHECK(m.unknown_in_domain == 0);
    CHECK(m.shift_changes == 0);
    TEST_DONE();
}
