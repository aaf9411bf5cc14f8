/* Tests of the strong d-hitting family construction (engines/hitting/poset.c, family.c): the golden
 * families and both published-bug regressions of [Ozkan19] (R1: literal pseudocode
 * with a return-time order; R2: the artifact's case-2 comparison), and the property tests P1-P7, P10, P11
 * on random interval orders, every "strongly hits" checked against Definition 4.1 directly. A fifth of the
 * random histories have a pending op: the properties then hold over the completed ops (pending ops are in
 * no chain), and P12 checks that each pending op is placed as early as real-time order allows. */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "linfuzz/generate.h"
#include "hitting/family.h"
#include "hitting/poset.h"
#include "test_util.h"

#define MAXN 16

typedef struct {
    uint32_t tid;
    uint64_t call, ret; /* ret UINT64_MAX: pending */
} interval;

static void make_ops(const interval *v, size_t n, lf_op *ops) {
    memset(ops, 0, n * sizeof *ops);
    for (size_t i = 0; i < n; i++) {
        ops[i].thread = v[i].tid;
        ops[i].call = v[i].call;
        ops[i].ret = v[i].ret == UINT64_MAX ? v[i].call : v[i].ret;
        ops[i].method = LF_M_WRITE;
        ops[i].res_kind = v[i].ret == UINT64_MAX ? LF_K_PENDING : LF_K_NONE;
    }
}

/* ---- Definition 4.1, independently of family.c ---- */

static bool is_pending(const hit_poset *p, uint32_t op) { return p->ret[op] == UINT64_MAX; }

/* Over the completed ops: pending ops are outside the families' guarantee (the replay places them), so
 * they are skipped as elements y, and the tuples given here hold completed ops only. */
static bool strongly_hits(const hit_poset *p, const uint32_t *sch, const uint32_t *tup, size_t k) {
    size_t n = p->n, pos[MAXN];
    for (size_t q = 0; q < n; q++) pos[sch[q]] = q;
    for (size_t i = 0; i < k; i++)
        for (size_t q = pos[tup[i]]; q < n; q++) {
            uint32_t y = sch[q];
            if (is_pending(p, y)) continue;
            bool justified = false;
            for (size_t j = i; j < k && !justified; j++) justified = y == tup[j] || hit_before(p, tup[j], y);
            if (!justified) return false;
        }
    return true;
}

static bool is_linear_extension(const hit_poset *p, const uint32_t *sch) {
    bool seen[MAXN] = {false};
    for (size_t q = 0; q < p->n; q++) {
        if (sch[q] >= p->n || seen[sch[q]]) return false;
        seen[sch[q]] = true;
        for (size_t r = q + 1; r < p->n; r++)
            if (hit_before(p, sch[r], sch[q])) return false;
    }
    return true;
}

/* ---- families as sets of distinct schedules (exact comparison, no fingerprints) ---- */

typedef struct {
    size_t n, count, indices;
    uint32_t data[40000 * MAXN];
} family;

static family fam_a, fam_b;

static bool family_has(const family *f, const uint32_t *s) {
    for (size_t i = 0; i < f->count; i++)
        if (memcmp(f->data + i * f->n, s, f->n * sizeof *s) == 0) return true;
    return false;
}

static void family_add(family *f, const uint32_t *s) {
    if (family_has(f, s) || (f->count + 1) * f->n > sizeof f->data / sizeof *f->data) return;
    memcpy(f->data + f->count * f->n, s, f->n * sizeof *s);
    f->count++;
}

typedef struct {
    hit_builder *b;
    family *f;
    const uint32_t *topo;
} collect_ctx;

static bool collect(void *arg, uint32_t c, const uint32_t *X, size_t k) {
    collect_ctx *cc = arg;
    uint32_t sch[MAXN];
    lf_hit_build(cc->b, c, X, k, cc->topo, sch);
    cc->f->indices++;
    family_add(cc->f, sch);
    return true;
}

/* f := the depth-d family (all indices, no reduction); f is not cleared when `accumulate`. */
static void build_family(const hit_poset *p, size_t d, const uint32_t *topo, const uint8_t *x_allowed,
                         const uint8_t *chain_allowed, family *f, bool accumulate) {
    if (!accumulate) {
        f->count = f->indices = 0;
        f->n = p->n;
    }
    hit_builder b;
    CHECK(lf_hit_builder_init(&b, p));
    collect_ctx cc = {&b, f, topo};
    lf_hit_enum_indices(p, d - 1, x_allowed, chain_allowed, collect, &cc);
    lf_hit_builder_free(&b);
}

/* The cumulative family d = 1..D with the prover's reductions from d = 2 on. */
static void build_cumulative(const hit_poset *p, size_t D, family *f) {
    uint8_t x_allowed[MAXN], chain_allowed[MAXN];
    size_t candidates = lf_hit_reduction_filters(p, x_allowed, chain_allowed);
    build_family(p, 1, NULL, NULL, NULL, f, false);
    for (size_t d = 2; d <= D && d - 1 <= candidates; d++) build_family(p, d, NULL, x_allowed, chain_allowed, f, true);
}

static bool family_is(const family *f, const uint32_t *expected, size_t count) {
    if (f->count != count) return false;
    for (size_t i = 0; i < count; i++)
        if (!family_has(f, expected + i * f->n)) return false;
    return true;
}

static bool index_gives(const hit_poset *p, uint32_t c, const uint32_t *X, size_t k, const uint32_t *topo,
                        const uint32_t *expected) {
    hit_builder b;
    uint32_t sch[MAXN];
    CHECK(lf_hit_builder_init(&b, p));
    lf_hit_build(&b, c, X, k, topo, sch);
    lf_hit_builder_free(&b);
    return memcmp(sch, expected, p->n * sizeof *sch) == 0;
}

static hit_poset poset_of(const interval *v, size_t n, hit_chain_mode mode) {
    lf_op ops[MAXN];
    make_ops(v, n, ops);
    hit_poset p;
    CHECK(lf_hit_poset_init(&p, ops, n, mode, NULL));
    return p;
}

/* ---- golden examples ([Ozkan19]; chains = threads, ids in call order) ---- */

static void test_golden(void) {
    {   /* G-seq: one schedule at every depth */
        interval v[] = {{0, 0, 1}, {0, 2, 3}, {0, 4, 5}};
        hit_poset p = poset_of(v, 3, HIT_CHAINS_THREADS);
        uint32_t e[] = {0, 1, 2};
        for (size_t d = 1; d <= 3; d++) {
            build_family(&p, d, NULL, NULL, NULL, &fam_a, false);
            CHECKF(family_is(&fam_a, e, 1), "G-seq d=%zu: %zu schedules", d, fam_a.count);
        }
        CHECK(p.n_isolated == 3);
        lf_hit_poset_free(&p);
    }
    {   /* G-2thr */
        interval v[] = {{0, 0, 3}, {1, 1, 7}, {0, 6, 9}};
        hit_poset p = poset_of(v, 3, HIT_CHAINS_THREADS);
        CHECK(index_gives(&p, 0, NULL, 0, NULL, (uint32_t[]){1, 0, 2}));
        CHECK(index_gives(&p, 1, NULL, 0, NULL, (uint32_t[]){0, 2, 1}));
        build_family(&p, 2, NULL, NULL, NULL, &fam_a, false);
        CHECK(fam_a.indices == 6);
        CHECK(family_is(&fam_a, (uint32_t[]){1, 0, 2, 0, 2, 1, 0, 1, 2}, 3));
        lf_hit_poset_free(&p);
    }
    {   /* G-anti3 */
        interval v[] = {{0, 0, 10}, {1, 1, 11}, {2, 2, 12}};
        hit_poset p = poset_of(v, 3, HIT_CHAINS_THREADS);
        CHECK(index_gives(&p, 0, NULL, 0, NULL, (uint32_t[]){2, 1, 0}));
        CHECK(index_gives(&p, 1, NULL, 0, NULL, (uint32_t[]){2, 0, 1}));
        CHECK(index_gives(&p, 2, NULL, 0, NULL, (uint32_t[]){1, 0, 2}));
        build_family(&p, 2, NULL, NULL, NULL, &fam_a, false);
        CHECK(fam_a.indices == 9 && fam_a.count == 6);
        lf_hit_poset_free(&p);
    }
    {   /* G-anti4: 4!/(4-d)! distinct schedules */
        interval v[] = {{0, 0, 10}, {1, 1, 11}, {2, 2, 12}, {3, 3, 13}};
        hit_poset p = poset_of(v, 4, HIT_CHAINS_THREADS);
        size_t sizes[] = {4, 12, 24, 24};
        for (size_t d = 1; d <= 4; d++) {
            build_family(&p, d, NULL, NULL, NULL, &fam_a, false);
            CHECKF(fam_a.count == sizes[d - 1], "G-anti4 d=%zu: %zu", d, fam_a.count);
            if (d == 1)
                CHECK(family_is(&fam_a, (uint32_t[]){3, 2, 1, 0, 3, 2, 0, 1, 3, 1, 0, 2, 2, 1, 0, 3}, 4));
        }
        lf_hit_poset_free(&p);
    }
    {   /* G-2x2 */
        interval v[] = {{0, 0, 3}, {1, 1, 5}, {0, 4, 8}, {1, 6, 9}};
        hit_poset p = poset_of(v, 4, HIT_CHAINS_THREADS);
        CHECK(index_gives(&p, 0, NULL, 0, NULL, (uint32_t[]){1, 0, 3, 2}));
        CHECK(index_gives(&p, 1, NULL, 0, NULL, (uint32_t[]){0, 2, 1, 3}));
        size_t sizes[] = {2, 4, 5, 5};
        for (size_t d = 1; d <= 4; d++) {
            build_family(&p, d, NULL, NULL, NULL, &fam_a, false);
            CHECKF(fam_a.count == sizes[d - 1], "G-2x2 d=%zu: %zu", d, fam_a.count);
            if (d == 2)
                CHECK(family_is(&fam_a, (uint32_t[]){1, 0, 3, 2, 0, 2, 1, 3, 1, 0, 2, 3, 0, 1, 3, 2}, 4));
        }
        lf_hit_poset_free(&p);
    }
    {   /* Ties: a.ret == b.call is concurrent, so both orders are in the d=1 family of two threads. */
        interval v[] = {{0, 0, 5}, {1, 5, 9}};
        hit_poset p = poset_of(v, 2, HIT_CHAINS_THREADS);
        CHECK(!hit_before(&p, 0, 1) && p.n_isolated == 0);
        build_family(&p, 1, NULL, NULL, NULL, &fam_a, false);
        CHECK(family_is(&fam_a, (uint32_t[]){1, 0, 0, 1}, 2));
        lf_hit_poset_free(&p);
    }
    {   /* A long op overlapping 13 short ones on 6 other threads: <= 7 schedules at d=1, "long op last" among
         * them (Figure 2 of the paper in miniature). */
        interval v[14];
        v[0] = (interval){0, 0, 1000};
        for (uint32_t i = 1; i < 14; i++) v[i] = (interval){1 + (i - 1) % 6, 10 * i, 10 * i + 5};
        hit_poset p = poset_of(v, 14, HIT_CHAINS_THREADS);
        build_family(&p, 1, NULL, NULL, NULL, &fam_a, false);
        CHECK(fam_a.count <= 7);
        bool long_last = false;
        for (size_t i = 0; i < fam_a.count; i++) long_last |= fam_a.data[i * 14 + 13] == 0;
        CHECK(long_last);
        lf_hit_poset_free(&p);
    }
}

/* ---- the two published bugs ---- */

static void test_regressions(void) {
    {   /* R1: infeasible X = (op3, op1) (op1 < op3) processed in return-time order. The literal "insert
         * before op_{i_j}" gives (2,1,0,3,4,5); the only strongly hitting extension is (2,0,1,3,4,5). */
        interval v[] = {{2, 0, 7}, {0, 1, 3}, {1, 2, 5}, {0, 4, 6}, {2, 8, 9}, {2, 10, 11}};
        hit_poset p = poset_of(v, 6, HIT_CHAINS_THREADS);
        uint32_t X[] = {3, 1}, tup[] = {0, 3, 1};
        uint32_t by_return[] = {1, 2, 3, 0, 4, 5}, good[] = {2, 0, 1, 3, 4, 5}, literal[] = {2, 1, 0, 3, 4, 5};
        CHECK(!lf_hit_tuple_feasible(&p, X, 2));
        CHECK(index_gives(&p, 2, X, 2, by_return, good));
        CHECK(index_gives(&p, 2, X, 2, NULL, good));
        CHECK(strongly_hits(&p, good, tup, 3));
        CHECK(!strongly_hits(&p, literal, tup, 3));
        lf_hit_poset_free(&p);
    }
    {   /* R2: feasible X = (op2, op0) on chain T0. check-lin compares with the last *inserted* hit op and
         * yields (1,2,0,4,3), which is not strongly hitting; correct is (1,2,3,0,4). */
        interval v[] = {{3, 0, 6}, {0, 1, 3}, {2, 2, 4}, {0, 5, 9}, {3, 7, 8}};
        hit_poset p = poset_of(v, 5, HIT_CHAINS_THREADS);
        uint32_t X[] = {2, 0}, tup[] = {1, 2, 0}, good[] = {1, 2, 3, 0, 4}, artifact[] = {1, 2, 0, 4, 3};
        CHECK(lf_hit_tuple_feasible(&p, X, 2));
        CHECK(index_gives(&p, 0, X, 2, NULL, good)); /* thread 0 is chain 0 */
        CHECK(strongly_hits(&p, good, tup, 3));
        CHECK(is_linear_extension(&p, artifact) && !strongly_hits(&p, artifact, tup, 3));
        lf_hit_poset_free(&p);
    }
}

/* ---- random interval orders: per-thread sequential intervals, all 2n endpoints distinct ---- */

static size_t random_history(lf_rng *rng, interval *v, size_t max_n, uint32_t max_threads, bool pending) {
    size_t n = 1 + lf_rng_below(rng, max_n);
    uint32_t m = 1 + (uint32_t)lf_rng_below(rng, max_threads);
    double t_now[8] = {0};
    double ends[2 * MAXN];
    for (size_t i = 0; i < n; i++) {
        uint32_t t = (uint32_t)lf_rng_below(rng, m);
        double call = t_now[t] + 0.1 + 3 * lf_rng_unit(rng);
        double ret = call + 0.1 + 6 * lf_rng_unit(rng);
        t_now[t] = ret;
        ends[2 * i] = call;
        ends[2 * i + 1] = ret;
        v[i].tid = t;
    }
    /* Rank the endpoints: distinct integer stamps with the same order. */
    for (size_t e = 0; e < 2 * n; e++) {
        uint64_t rank = 1;
        for (size_t f = 0; f < 2 * n; f++) rank += ends[f] < ends[e] || (ends[f] == ends[e] && f < e);
        if (e % 2 == 0)
            v[e / 2].call = rank;
        else
            v[e / 2].ret = rank;
    }
    if (pending) /* the last op of some thread never returns */
        for (size_t i = n; i-- > 0;)
            if (v[i].tid == 0) {
                bool last = true;
                for (size_t j = i + 1; j < n; j++) last &= v[j].tid != 0;
                if (last) v[i].ret = UINT64_MAX;
                break;
            }
    /* Ids in call order, as the convention of §7 (the poset renumbers anyway; this keeps the
     * expectations readable). */
    for (size_t i = 1; i < n; i++)
        for (size_t j = i; j > 0 && v[j - 1].call > v[j].call; j--) {
            interval t = v[j];
            v[j] = v[j - 1];
            v[j - 1] = t;
        }
    return n;
}

static void random_topo(lf_rng *rng, const hit_poset *p, uint32_t *topo) {
    /* Repeatedly pick a random op all of whose predecessors are placed. */
    bool placed[MAXN] = {false};
    for (size_t k = 0; k < p->n; k++) {
        uint32_t ready[MAXN];
        size_t nr = 0;
        for (uint32_t o = 0; o < p->n; o++) {
            if (placed[o]) continue;
            bool ok = true;
            for (uint32_t q = 0; q < p->n && ok; q++) ok = placed[q] || !hit_before(p, q, o);
            if (ok) ready[nr++] = o;
        }
        topo[k] = ready[lf_rng_below(rng, nr)];
        placed[topo[k]] = true;
    }
}

/* Calls fn on every ordered k-tuple of distinct completed ops. */
typedef bool (*tuple_fn)(void *arg, const uint32_t *t, size_t k);
static const hit_poset *tuple_poset;
static bool each_tuple(size_t n, size_t k, uint32_t *t, size_t depth, tuple_fn fn, void *arg) {
    if (depth == k) return fn(arg, t, k);
    for (uint32_t x = 0; x < n; x++) {
        bool used = is_pending(tuple_poset, x);
        for (size_t a = 0; a < depth; a++) used |= t[a] == x;
        if (used) continue;
        t[depth] = x;
        if (!each_tuple(n, k, t, depth + 1, fn, arg)) return false;
    }
    return true;
}

/* P12: a pending op (outside X) sits right after its last real-time predecessor, or before every completed
 * op when it has none: only pending ops in between. */
static bool pending_placed_early(const hit_poset *p, const uint32_t *sch) {
    for (size_t q = 0; q < p->n; q++) {
        if (!is_pending(p, sch[q])) continue;
        for (size_t r = q; r-- > 0;) {
            if (hit_before(p, sch[r], sch[q])) break;
            if (!is_pending(p, sch[r])) return false;
        }
    }
    return true;
}

typedef struct {
    const hit_poset *p;
    const uint32_t *topo;
    size_t failures;
} p2_ctx;

/* P1, P2, P4 for one tuple: the index <chain(t0), t[1..]> strongly hits t. */
static bool p2_tuple(void *arg, const uint32_t *t, size_t k) {
    p2_ctx *c = arg;
    if (!lf_hit_tuple_feasible(c->p, t + 1, k - 1)) return true;
    hit_builder b;
    uint32_t sch[MAXN];
    CHECK(lf_hit_builder_init(&b, c->p));
    lf_hit_build(&b, c->p->chain[t[0]], t + 1, k - 1, c->topo, sch);
    lf_hit_builder_free(&b);
    bool ok = is_linear_extension(c->p, sch) && strongly_hits(c->p, sch, t, k) && pending_placed_early(c->p, sch);
    if (ok && lf_hit_tuple_feasible(c->p, t, k)) { /* P4: in tuple order */
        size_t pos[MAXN];
        for (size_t q = 0; q < c->p->n; q++) pos[sch[q]] = q;
        for (size_t a = 0; a + 1 < k; a++) ok &= pos[t[a]] < pos[t[a + 1]];
    }
    if (!ok) c->failures++;
    return true;
}

typedef struct {
    const hit_poset *p;
    const family *f;
    size_t failures;
} p3_ctx;

static bool p3_tuple(void *arg, const uint32_t *t, size_t k) {
    p3_ctx *c = arg;
    for (size_t i = 0; i < c->f->count; i++)
        if (strongly_hits(c->p, c->f->data + i * c->f->n, t, k)) return true;
    c->failures++;
    return true;
}

static size_t brute_width(const hit_poset *p) {
    size_t w = 0;
    for (size_t i = 0; i < p->n; i++) { /* over the completed ops: pending ops are in no chain */
        size_t live = 0;
        if (is_pending(p, (uint32_t)i)) continue;
        for (size_t j = 0; j < p->n; j++)
            live += !is_pending(p, (uint32_t)j) && p->call[j] <= p->call[i] && p->call[i] <= p->ret[j];
        if (live > w) w = live;
    }
    return w;
}

static uint64_t falling(size_t n, size_t k) {
    uint64_t r = 1;
    for (size_t i = 0; i < k; i++) r *= n - i;
    return r;
}

static void test_random_properties(void) {
    lf_rng rng;
    lf_rng_seed(&rng, 2024);
    size_t p2_fail = 0, p6_fail = 0, p3_fail = 0, p10_fail = 0, p5_fail = 0, p7_fail = 0, single_d_fail = 0;
    size_t pending_fail = 0, histories = 1000;
    for (size_t h = 0; h < histories; h++) {
        interval v[MAXN];
        bool pending = h % 5 == 4;
        size_t n = random_history(&rng, v, 8, 5, pending);
        for (int mode = 0; mode < 2; mode++) {
            hit_poset p = poset_of(v, n, mode == 0 ? HIT_CHAINS_THREADS : HIT_CHAINS_MIN);
            tuple_poset = &p;
            size_t completed = n - p.n_pending;
            if (mode == 1) { /* P10: width-many chains, each totally ordered; pending ops in none */
                bool ok = p.n_chains == brute_width(&p);
                for (uint32_t a = 0; a < n; a++) {
                    ok &= is_pending(&p, a) == (p.chain[a] == HIT_NO_CHAIN);
                    for (uint32_t b = a + 1; b < n; b++)
                        if (p.chain[a] == p.chain[b] && !is_pending(&p, a))
                            ok &= hit_before(&p, a, b) || hit_before(&p, b, a);
                }
                p10_fail += !ok;
            }
            uint32_t by_return[MAXN], random_order[MAXN], t[MAXN];
            for (uint32_t i = 0; i < n; i++) by_return[i] = i;
            for (size_t i = 1; i < n; i++)
                for (size_t j = i; j > 0 && p.ret[by_return[j - 1]] > p.ret[by_return[j]]; j--) {
                    uint32_t x = by_return[j];
                    by_return[j] = by_return[j - 1];
                    by_return[j - 1] = x;
                }
            random_topo(&rng, &p, random_order);
            for (size_t d = 1; d <= 4 && d <= completed; d++) {
                p2_ctx c = {&p, NULL, 0};
                each_tuple(n, d, t, 0, p2_tuple, &c); /* P1, P2, P4 with call-time order */
                (pending ? &pending_fail : mode ? &p10_fail : &p2_fail)[0] += c.failures;
                p2_ctx c_ret = {&p, by_return, 0}, c_rnd = {&p, random_order, 0}; /* P6 */
                each_tuple(n, d, t, 0, p2_tuple, &c_ret);
                each_tuple(n, d, t, 0, p2_tuple, &c_rnd);
                p6_fail += c_ret.failures + c_rnd.failures;
                /* P5: distinct <= indices <= m * n!/(n-d+1)! */
                build_family(&p, d, NULL, NULL, NULL, &fam_a, false);
                uint64_t m = p.n_chains ? p.n_chains : 1; /* only pending ops: one index */
                p5_fail += !(fam_a.count <= fam_a.indices && fam_a.indices <= m * falling(n, d - 1));
                /* P7: the same input gives the same enumeration */
                build_family(&p, d, NULL, NULL, NULL, &fam_b, false);
                p7_fail += fam_a.count != fam_b.count ||
                           memcmp(fam_a.data, fam_b.data, fam_a.count * n * sizeof *fam_a.data) != 0;
            }
            /* P3 + P11: the cumulative family with the prover's reductions strongly hits every k-tuple,
             * k <= D, feasible or not. */
            for (size_t D = 1; D <= 3 && D <= completed; D++) {
                build_cumulative(&p, D, &fam_a);
                for (size_t k = 1; k <= D; k++) {
                    p3_ctx c = {&p, &fam_a, 0};
                    each_tuple(n, k, t, 0, p3_tuple, &c);
                    p3_fail += c.failures;
                }
            }
            /* P11 negative: the same reduction at a single depth d (without the smaller families) misses
             * tuples of length <= d. (On these histories the misses are those with fewer than d-1
             * non-isolated ops, whose reduced family is empty; the cumulative use covers them at smaller d.) */
            for (size_t d = 2; d <= 4 && d <= completed; d++) {
                uint8_t x_allowed[MAXN], chain_allowed[MAXN];
                lf_hit_reduction_filters(&p, x_allowed, chain_allowed);
                build_family(&p, d, NULL, x_allowed, chain_allowed, &fam_a, false);
                size_t missed = 0;
                for (size_t k = 1; k <= d; k++) {
                    p3_ctx c = {&p, &fam_a, 0};
                    each_tuple(n, k, t, 0, p3_tuple, &c);
                    missed += c.failures;
                }
                single_d_fail += missed > 0;
            }
            lf_hit_poset_free(&p);
        }
    }
    CHECKF(p2_fail == 0, "P1/P2/P4 (threads, call order): %zu failures", p2_fail);
    CHECKF(pending_fail == 0, "P1/P2/P4 with a pending op: %zu failures", pending_fail);
    CHECKF(p6_fail == 0, "P6 (return-time and random topological orders): %zu failures", p6_fail);
    CHECKF(p3_fail == 0, "P3/P11 (cumulative family with reductions): %zu failures", p3_fail);
    CHECKF(p5_fail == 0, "P5 (size bound): %zu failures", p5_fail);
    CHECKF(p7_fail == 0, "P7 (determinism): %zu failures", p7_fail);
    CHECKF(p10_fail == 0, "P10 (min chains): %zu failures", p10_fail);
    CHECKF(single_d_fail > 0, "P11 negative: the single-depth reduction never failed (it must on some history)");
    printf("random properties: %zu histories x 2 chain modes; single-depth reduction missed tuples on %zu\n",
           histories, single_d_fail);
}

static void test_sizes(void) {
    /* P5: an antichain of n ops on n threads gives exactly n!/(n-d)! schedules; a sequential history 1. */
    for (size_t n = 2; n <= 6; n++) {
        interval anti[MAXN], seq[MAXN];
        for (size_t i = 0; i < n; i++) {
            anti[i] = (interval){(uint32_t)i, i, 100 + i};
            seq[i] = (interval){(uint32_t)(i % 3), 10 * i, 10 * i + 5};
        }
        hit_poset pa = poset_of(anti, n, HIT_CHAINS_MIN), ps = poset_of(seq, n, HIT_CHAINS_THREADS);
        CHECK(pa.n_chains == n && ps.n_chains == (n < 3 ? n : 3));
        for (size_t d = 1; d <= n; d++) {
            build_family(&pa, d, NULL, NULL, NULL, &fam_a, false);
            CHECKF(fam_a.count == falling(n, d), "antichain n=%zu d=%zu: %zu", n, d, fam_a.count);
            build_family(&ps, d, NULL, NULL, NULL, &fam_a, false);
            CHECK(fam_a.count == 1);
        }
        lf_hit_poset_free(&pa);
        lf_hit_poset_free(&ps);
    }
}

int main(void) {
    test_golden();
    test_regressions();
    test_sizes();
    test_random_properties();
    TEST_DONE();
}
