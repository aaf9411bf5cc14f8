/* Randomized differential test of lf_rc_pairs_forbid (rootcause/cycles.c), the ranking of root-cause candidates
 * by the passing runs they would forbid, against its definition checked by brute force: for every instance of
 * a pair (an access at begin_pc, then the same op's next access at end_pc), every access u of another thread
 * inside it and every later v of that thread, u conflicting (overlapping bytes, not both reads) with an access
 * of the instance before u and v with one after v. The library answers with one table lookup per word where
 * the definition scans (218 s against 2.9 s on one root causing of a 712-call set workload); the answers must
 * agree on every case: random traces of 2 to 5 threads over a few words, accesses of 1 to 16 bytes at any
 * offset (so that bytes of one word overlap or not), reads, writes and read-modify-writes. A fixed number of
 * cases (fewer under the sanitizers); a failure prints its seed. */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "cycles.h" /* (rootcause/, a private header: tests see them) */
#include "test_util.h"
#include "util/prng.h"

static bool overlap_conflict(const lf_rc_event *a, const lf_rc_event *b) {
    if (a->thread == b->thread) return false;
    if (a->kind == LF_RC_READ && b->kind == LF_RC_READ) return false;
    return a->addr < b->addr + b->size && b->addr < a->addr + a->size;
}

/* The definition, for the instance [s .. e] of thread t->ev[s].thread. */
static bool brute_interrupted(const lf_rc_trace *t, size_t s, size_t e) {
    uint32_t ti = t->ev[s].thread;
    for (size_t k = s + 1; k < e; k++) { /* u */
        const lf_rc_event *u = &t->ev[k];
        if (u->thread == ti) continue;
        bool before = false;
        for (size_t x = s; x < k && !before; x++) before = t->ev[x].thread == ti && overlap_conflict(&t->ev[x], u);
        if (!before) continue;
        for (size_t m = k; m < e; m++) { /* v, at or after u, of u's thread */
            const lf_rc_event *v = &t->ev[m];
            if (v->thread != u->thread) continue;
            for (size_t y = m + 1; y <= e; y++)
                if (t->ev[y].thread == ti && overlap_conflict(v, &t->ev[y])) return true;
        }
    }
    return false;
}

static bool brute_forbid(const lf_rc_trace *t, const uintptr_t *begin_pc, const uintptr_t *end_pc, size_t n) {
    for (size_t k = 0; k < n; k++) {
        size_t open[LF_FC_MAX_THREADS];
        for (unsigned i = 0; i < LF_FC_MAX_THREADS; i++) open[i] = SIZE_MAX;
        for (size_t i = 0; i < t->n; i++) {
            const lf_rc_event *e = &t->ev[i];
            size_t *o = &open[e->thread];
            if (*o != SIZE_MAX && t->ev[*o].op != e->op) *o = SIZE_MAX;
            if (*o != SIZE_MAX && e->pc == end_pc[k]) {
                if (brute_interrupted(t, *o, i)) return true;
                *o = SIZE_MAX;
            } else if (*o == SIZE_MAX && e->pc == begin_pc[k]) {
                *o = i;
            }
        }
    }
    return false;
}

/* A random trace of up to 60 accesses: threads take turns at random, each op a few accesses, six access sites
 * (pcs 1..6), addresses in four words from 0x1000, sizes 1, 2, 4, 8 or 16 at any byte offset. */
static void random_trace(lf_rc_trace *t, lf_rc_event *ev, uint64_t *rng) {
    t->ev = ev;
    t->threads = 2 + (unsigned)lf_rand_below(rng, 4);
    t->n = 1 + lf_rand_below(rng, 60);
    uint32_t op[LF_FC_MAX_THREADS] = {0};
    static const uint8_t sizes[] = {1, 2, 4, 8, 16};
    for (size_t i = 0; i < t->n; i++) {
        lf_rc_event *e = &ev[i];
        memset(e, 0, sizeof *e);
        e->thread = (uint32_t)lf_rand_below(rng, t->threads);
        if (lf_rand_below(rng, 5) == 0) op[e->thread]++;
        e->op = op[e->thread];
        e->kind = (uint8_t)lf_rand_below(rng, 3);
        e->size = sizes[lf_rand_below(rng, 5)];
        e->addr = 0x1000 + (uintptr_t)lf_rand_below(rng, 32);
        e->pc = 1 + (uintptr_t)lf_rand_below(rng, 6);
    }
}

int main(void) {
    const unsigned cases = LF_TEST_SANITIZED ? 4000 : 40000;
    static lf_rc_event ev[64];
    unsigned forbidden = 0, failures = 0;
    for (unsigned c = 0; c < cases && failures < 5; c++) {
        uint64_t seed = 0x7e57f0bbull + c, rng = seed;
        lf_rc_trace t = {0};
        random_trace(&t, ev, &rng);
        uintptr_t begin_pc[3], end_pc[3];
        size_t n = 1 + lf_rand_below(&rng, 3);
        for (size_t k = 0; k < n; k++) {
            begin_pc[k] = 1 + (uintptr_t)lf_rand_below(&rng, 6);
            end_pc[k] = 1 + (uintptr_t)lf_rand_below(&rng, 6);
        }
        bool want = brute_forbid(&t, begin_pc, end_pc, n), got = lf_rc_pairs_forbid(&t, begin_pc, end_pc, n);
        forbidden += want;
        if (want != got) failures++;
        CHECKF(want == got, "case seed %#llx: the definition says %s, lf_rc_pairs_forbid %s",
               (unsigned long long)seed, want ? "forbidden" : "not forbidden", got ? "forbidden" : "not forbidden");
    }
    printf("%u of %u cases forbidden\n", forbidden, cases);
    /* both answers drawn often enough for the comparison to mean something */
    CHECKF(forbidden > cases / 20 && forbidden < cases - cases / 20, "%u of %u cases forbidden", forbidden, cases);
    /* a hand-made instance: t0's pair 1 -> 2 on word A, t1 writes A inside it (after the read at 1 and before
     * the read at 2): forbidden; the same with t1 writing the other half of the word only: not forbidden */
    lf_rc_event hand[3] = {{.thread = 0, .op = 0, .kind = LF_RC_READ, .size = 4, .addr = 0x2000, .pc = 1},
                           {.thread = 1, .op = 0, .kind = LF_RC_WRITE, .size = 4, .addr = 0x2000, .pc = 9},
                           {.thread = 0, .op = 0, .kind = LF_RC_READ, .size = 4, .addr = 0x2000, .pc = 2}};
    lf_rc_trace t = {.ev = hand, .n = 3, .threads = 2};
    uintptr_t b = 1, e = 2;
    CHECK(lf_rc_pairs_forbid(&t, &b, &e, 1));
    hand[1].addr = 0x2004;
    CHECK(!lf_rc_pairs_forbid(&t, &b, &e, 1));
    TEST_DONE();
}
