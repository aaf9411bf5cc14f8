/* Tests of SURW's draw (runtime/sched/strategy.c, lf_surw_weight and lf_surw_pick) against combinatorics:
 *  - with exact counts of remaining events, a walk that picks each thread with the weight lf_surw_weight
 *    gives it samples every interleaving of the threads' events equally often: a chi-square test over all
 *    interleavings (90 of three threads of two events, 5 of threads of one and four events, 1,260 of threads
 *    of 4, 3 and 2 events, 924 of two threads of six), fixed seeds, 60 samples per interleaving;
 *  - the test has the power to tell: a walk that picks uniformly among the threads with events left (what
 *    WALK and most random schedulers do) fails it by far (it runs the threads one after another 2.5 times
 *    too often with three threads of two events, 14 times with two of six);
 *  - the weights' edges: never 0 for a runnable thread, the standing event counted once, a zero weight never
 *    picked, -1 when every weight is 0.
 * The scheduler's use of the draw (replays, preemptions, selectivity) is tested in test_sched.c. */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "sched/sched_internal.h"
#include "test_util.h"

#define MAX_EVENTS 12
#define MAX_THREADS 3

/* One interleaving of threads with n[t] events each, as the thread of each event in order: drawn with SURW's
 * weights (exact counts: one op of n[t] events, each thread standing at its next one), or uniformly among the
 * threads with events left. Returns its rank among all interleavings (a mixed-radix number: each event's
 * thread in base `threads`). */
static unsigned long draw_interleaving(const unsigned *n, unsigned threads, bool surw, uint64_t *rng) {
    unsigned made[MAX_THREADS] = {0}, total = 0;
    for (unsigned t = 0; t < threads; t++) total += n[t];
    unsigned long code = 0;
    for (unsigned e = 0; e < total; e++) {
        uint64_t weight[MAX_THREADS];
        for (unsigned t = 0; t < threads; t++) {
            bool left = made[t] < n[t];
            /* standing at its event made[t] + 1, counted among the op's events as the scheduler does */
            weight[t] = !left ? 0 : surw ? lf_surw_weight(1, 16ull * n[t], made[t] + 1, true) : 1;
        }
        int t = lf_surw_pick(weight, threads, rng);
        if (t < 0) return ~0ul;
        made[t]++;
        code = code * threads + (unsigned)t;
    }
    return code;
}

/* Whether code is an interleaving of n (each thread's count right). */
static bool valid(unsigned long code, const unsigned *n, unsigned threads, unsigned total) {
    unsigned seen[MAX_THREADS] = {0};
    for (unsigned e = 0; e < total; e++, code /= threads) seen[code % threads]++;
    for (unsigned t = 0; t < threads; t++)
        if (seen[t] != n[t]) return false;
    return true;
}

/* Chi-square statistic of `samples` draws against the uniform distribution over all interleavings of n;
 * *cells gets their number (the multinomial coefficient, counted). */
static double chi_square(const unsigned *n, unsigned threads, bool surw, unsigned samples, uint64_t seed,
                         unsigned *cells) {
    unsigned total = 0;
    unsigned long space = 1;
    for (unsigned t = 0; t < threads; t++) total += n[t];
    for (unsigned e = 0; e < total; e++) space *= threads;
    unsigned *count = calloc(space, sizeof *count);
    if (!count) return INFINITY;
    uint64_t rng = seed;
    for (unsigned i = 0; i < samples; i++) {
        unsigned long code = draw_interleaving(n, threads, surw, &rng);
        if (code >= space || !valid(code, n, threads, total)) {
            free(count);
            return INFINITY;
        }
        count[code]++;
    }
    *cells = 0;
    for (unsigned long c = 0; c < space; c++) *cells += valid(c, n, threads, total);
    double expected = (double)samples / *cells, chi = 0;
    for (unsigned long c = 0; c < space; c++)
        if (valid(c, n, threads, total)) chi += (count[c] - expected) * (count[c] - expected) / expected;
    free(count);
    return chi;
}

/* The chi-square value that a uniform sampler exceeds with chance about 1e-4, for `df` degrees of freedom
 * (Wilson-Hilferty: df (1 - 2/(9 df) + z sqrt(2/(9 df)))^3, z = 3.72). */
static double chi_limit(unsigned df) {
    double k = df, z = 3.72, a = 1 - 2 / (9 * k) + z * sqrt(2 / (9 * k));
    return k * a * a * a;
}

static void uniform_over_interleavings(void) {
    static const struct {
        unsigned threads, n[MAX_THREADS], cells;
    } shapes[] = {{3, {2, 2, 2}, 90}, {2, {1, 4}, 5}, {3, {4, 3, 2}, 1260}, {2, {6, 6}, 924}};
    for (unsigned i = 0; i < sizeof shapes / sizeof *shapes; i++) {
        unsigned cells = 0, samples = 60 * shapes[i].cells;
        uint64_t seed = 0x5eed0000u + i;
        double chi = chi_square(shapes[i].n, shapes[i].threads, true, samples, seed, &cells);
        CHECKF(cells == shapes[i].cells, "shape %u: %u interleavings, expected %u", i, cells, shapes[i].cells);
        double limit = chi_limit(cells - 1);
        CHECKF(chi < limit, "shape %u (seed %#llx): SURW's chi-square %.1f over %u interleavings, limit %.1f", i,
               (unsigned long long)seed, chi, cells, limit);
        /* the uniform choice among threads is far from uniform over interleavings */
        double walk = chi_square(shapes[i].n, shapes[i].threads, false, samples, seed, &cells);
        CHECKF(walk > 4 * limit, "shape %u (seed %#llx): the uniform thread choice's chi-square %.1f, expected "
               "over %.1f", i, (unsigned long long)seed, walk, 4 * limit);
    }
}

static void weights_at_the_edges(void) {
    CHECK(lf_surw_weight(0, 0, 0, false) == 1);            /* nothing seems left: still runnable */
    CHECK(lf_surw_weight(2, 16 * 3, 0, false) == 16 * 6);  /* two ops of three events to go */
    CHECK(lf_surw_weight(1, 16 * 3, 1, true) == 16 * 3);   /* standing at its first of three */
    CHECK(lf_surw_weight(1, 16 * 3, 3, true) == 16 * 1);   /* standing at its last */
    CHECK(lf_surw_weight(1, 16 * 3, 9, true) == 16 * 1);   /* more than estimated: the standing one */
    CHECK(lf_surw_weight(1, 16 * 3, 9, false) == 1);
    uint64_t w[4] = {0, 5, 0, 0}, rng = 42;
    for (unsigned i = 0; i < 100; i++) CHECK(lf_surw_pick(w, 4, &rng) == 1);
    uint64_t none[3] = {0, 0, 0};
    CHECK(lf_surw_pick(none, 3, &rng) == -1);
    /* shares: 1 : 3 over 40,000 draws */
    uint64_t share[2] = {16, 48};
    unsigned first = 0;
    for (unsigned i = 0; i < 40000; i++) first += lf_surw_pick(share, 2, &rng) == 0;
    CHECKF(first > 9600 && first < 10400, "weight 1 of 4 picked %u times in 40000", first);
}

int main(void) {
    uniform_over_interleavings();
    weights_at_the_edges();
    TEST_DONE();
}
