/* Tests of the history generator (engines/generate): well-formed output of every type, distinct stamps,
 * realistic overlap, unambiguous values by default, determinism, linearizability by construction (decided
 * by the brute-force oracle on thousands of small histories, pending ops included), and that corruptions
 * usually produce violations. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "brute/brute.h"
#include "history_test_util.h"
#include "linfuzz/format.h"
#include "linfuzz/generate.h"
#include "test_util.h"
#include "util/clock.h"

static const lf_type ALL_TYPES[] = {LF_TYPE_REGISTER, LF_TYPE_CAS_REGISTER, LF_TYPE_SET,     LF_TYPE_STACK,
                                    LF_TYPE_QUEUE,    LF_TYPE_PQUEUE,       LF_TYPE_KV,      LF_TYPE_COUNTER,
                                    LF_TYPE_DEQUE};
#define N_TYPES (sizeof ALL_TYPES / sizeof ALL_TYPES[0])

static bool is_monitor_type(lf_type t) {
    return t == LF_TYPE_REGISTER || t == LF_TYPE_SET || t == LF_TYPE_STACK || t == LF_TYPE_QUEUE ||
           t == LF_TYPE_PQUEUE;
}

static int cmp_u64(const void *a, const void *b) {
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* Large histories: well-formed, stamps exactly 1..2n, overlapping, unambiguous by default. */
static void test_large(void) {
    for (size_t k = 0; k < N_TYPES; k++) {
        lf_gen_options o;
        lf_gen_options_default(&o);
        o.type = ALL_TYPES[k];
        o.n_ops = 100000;
        o.seed = 7 + k;
        o.peek = 0.2;
        o.empty = 0.2;
        lf_history h;
        char err[512];
        CHECK(lf_gen_history(&o, &h, err, sizeof err));
        CHECKF(h.n == o.n_ops, "%s: %zu ops", lf_type_name(o.type), h.n);
        CHECKF(lf_history_validate(&h, err, sizeof err) == SIZE_MAX, "%s: %s", lf_type_name(o.type), err);
        uint64_t *stamps = malloc(2 * h.n * sizeof *stamps);
        size_t overlapping = 0;
        for (size_t i = 0; i < h.n; i++) {
            stamps[2 * i] = h.ops[i].call;
            stamps[2 * i + 1] = h.ops[i].ret;
            /* ops are in linearization order, so a neighbour overlapping op i is found among the next few */
            for (size_t j = i + 1; j < h.n && j < i + 8; j++)
                if (h.ops[j].call < h.ops[i].ret) {
                    overlapping++;
                    break;
                }
        }
        qsort(stamps, 2 * h.n, sizeof *stamps, cmp_u64);
        bool dense = true;
        for (size_t i = 0; i < 2 * h.n; i++) dense &= stamps[i] == i + 1;
        CHECKF(dense, "%s: stamps are not exactly 1..2n", lf_type_name(o.type));
        free(stamps);
        CHECKF(overlapping > h.n / 3, "%s: only %zu of %zu ops overlap a later op", lf_type_name(o.type), overlapping,
               h.n);
        if (is_monitor_type(o.type) || o.type == LF_TYPE_DEQUE)
            CHECKF(lf_history_unambiguous(&h), "%s: default values should be distinct", lf_type_name(o.type));
        /* observers and empty results are produced when asked for */
        size_t observers = 0, empties = 0;
        for (size_t i = 0; i < h.n; i++) {
            const lf_method_info *mi = lf_method_info_of(o.type, (lf_method)h.ops[i].method);
            observers += mi->role == LF_ROLE_OBSERVE;
            empties += h.ops[i].res_kind == LF_K_EMPTY;
        }
        CHECKF(observers > h.n / 10 && observers < h.n / 3, "%s: %zu observers", lf_type_name(o.type), observers);
        if (o.type == LF_TYPE_STACK || o.type == LF_TYPE_QUEUE || o.type == LF_TYPE_PQUEUE || o.type == LF_TYPE_DEQUE)
            CHECKF(empties > 0, "%s: no empty results with --empty 0.2", lf_type_name(o.type));
        lf_history_free(&h);
    }
    /* --values makes values repeat */
    lf_gen_options o;
    lf_gen_options_default(&o);
    o.type = LF_TYPE_STACK;
    o.n_ops = 1000;
    o.values = 5;
    lf_history h;
    char err[256];
    CHECK(lf_gen_history(&o, &h, err, sizeof err));
    CHECK(!lf_history_unambiguous(&h));
    lf_history_free(&h);
    /* out-of-range options are refused */
    o.peek = 1.5;
    CHECK(!lf_gen_history(&o, &h, err, sizeof err));
    lf_history_free(&h);
}

static void test_determinism(void) {
    lf_gen_options o;
    lf_gen_options_default(&o);
    o.type = LF_TYPE_DEQUE;
    o.n_ops = 5000;
    o.seed = 42;
    o.peek = 0.3;
    o.empty = 0.3;
    o.bad = 5;
    o.pending = 0.5;
    lf_history a, b, c;
    char err[256];
    CHECK(lf_gen_history(&o, &a, err, sizeof err));
    CHECK(lf_gen_history(&o, &b, err, sizeof err));
    o.seed = 43;
    CHECK(lf_gen_history(&o, &c, err, sizeof err));
    CHECK(a.n == b.n && memcmp(a.ops, b.ops, a.n * sizeof *a.ops) == 0);
    CHECK(a.n != c.n || memcmp(a.ops, c.ops, a.n * sizeof *a.ops) != 0);
    CHECKF(lf_history_validate(&a, err, sizeof err) == SIZE_MAX, "corrupted deque: %s", err);
    /* At most one corruption per op: more is refused with a message, not run (an unbounded count looped for
     * ever and numbered threads past 2^32). */
    lf_history d;
    o.n_ops = 10;
    o.bad = 10;
    CHECK(lf_gen_history(&o, &d, err, sizeof err));
    lf_history_free(&d);
    o.bad = 11;
    CHECKF(!lf_gen_history(&o, &d, err, sizeof err) && strstr(err, "at most one per op"), "11 corruptions of 10 ops");
    o.bad = SIZE_MAX;
    CHECK(!lf_gen_history(&o, &d, err, sizeof err));
    lf_history_free(&a);
    lf_history_free(&b);
    lf_history_free(&c);
}

/* Small constructed histories of every type are linearizable (brute force), with and without repeated
 * values, peeks, empty results and pending ops; corrupted ones are mostly violations. */
static void test_small(void) {
    lf_brute_options bo;
    lf_brute_options_default(&bo);
    for (size_t k = 0; k < N_TYPES; k++) {
        lf_type t = ALL_TYPES[k];
        size_t violations = 0, corrupted = 0, random_ok = 0;
        for (uint64_t seed = 0; seed < 600; seed++) {
            lf_gen_small_options so;
            lf_gen_small_options_default(&so, t, LF_GEN_CONSTRUCTED);
            so.values = seed % 3 == 0 ? 3 : 0;
            so.pending = seed % 4 == 0 ? 0.5 : 0;
            so.max_threads = 1 + seed % 4;
            lf_history h;
            CHECK(lf_gen_small(seed, &so, &h));
            char err[256];
            CHECKF(lf_history_validate(&h, err, sizeof err) == SIZE_MAX, "%s seed %llu: %s", lf_type_name(t),
                   (unsigned long long)seed, err);
            lf_result r;
            lf_result_init(&r);
            lf_brute_check(&h, &bo, &r);
            CHECKF(r.verdict == LF_LINEARIZABLE, "%s seed %llu: constructed history is %s: %s", lf_type_name(t),
                   (unsigned long long)seed, lf_verdict_name(r.verdict), r.reason);
            if (r.verdict != LF_LINEARIZABLE) print_history(&h);
            lf_result_free(&r);
            lf_history_free(&h);

            so.mode = LF_GEN_CORRUPTED;
            so.pending = 0;
            CHECK(lf_gen_small(seed, &so, &h));
            CHECKF(lf_history_validate(&h, err, sizeof err) == SIZE_MAX, "%s seed %llu corrupted: %s",
                   lf_type_name(t), (unsigned long long)seed, err);
            lf_result_init(&r);
            lf_brute_check(&h, &bo, &r);
            corrupted++;
            violations += r.verdict == LF_VIOLATION;
            lf_result_free(&r);
            lf_history_free(&h);

            so.mode = LF_GEN_RANDOM;
            so.pending = 0.3;
            CHECK(lf_gen_small(seed, &so, &h));
            random_ok += lf_history_validate(&h, err, sizeof err) == SIZE_MAX;
            lf_history_free(&h);
        }
        printf("%-12s corrupted small histories that are violations: %zu of %zu\n", lf_type_name(t), violations,
               corrupted);
        CHECKF(violations * 2 > corrupted, "%s: only %zu of %zu corrupted histories are violations", lf_type_name(t),
               violations, corrupted);
        CHECKF(random_ok == 600, "%s: %zu of 600 random histories well-formed", lf_type_name(t), random_ok);
    }
}

/* Not a pass/fail criterion (sanitizer builds are slower); printed for the record. */
static void report_speed(void) {
    lf_gen_options o;
    lf_gen_options_default(&o);
    o.type = LF_TYPE_PQUEUE;
    o.n_ops = 1000000;
    o.peek = 0.2;
    lf_history h;
    char err[256];
    double t0 = lf_now_s();
    CHECK(lf_gen_history(&o, &h, err, sizeof err));
    printf("generated 10^6 pqueue ops in %.3f s\n", lf_now_s() - t0);
    lf_history_free(&h);
}

int main(void) {
    test_large();
    test_determinism();
    test_small();
    report_speed();
    TEST_DONE();
}
