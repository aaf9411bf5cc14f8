/* Tests of the hitting-family prover (engines/hitting/hitting.c, replay.c): the exact depth at which the
 * end-to-end examples of [Ozkan19] (E1-E4) are proven, pending ops (omitted or
 * taking effect), prefix sharing, budgets, and on random small histories of every type:
 *  P8 witness soundness — every witness is a linear extension of the completed ops plus some pending ops,
 *     and its replay reproduces every recorded result (witness_util.h);
 *  P9 depth completeness — the linearizability depth D, computed by brute force over all linear
 *     extensions, bounds the depth at which the prover finds a witness; and nothing is ever proven that the
 *     brute-force oracle calls a violation. */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "brute/brute.h"
#include "linfuzz/format.h"
#include "linfuzz/generate.h"
#include "hitting/hitting.h"
#include "linfuzz/spec.h"
#include "test_util.h"
#include "witness_util.h"

static bool parse(const char *text, lf_history *h) {
    char err[256];
    lf_status st = lf_text_read_buffer(text, strlen(text), "inline", h, err, sizeof err);
    if (st != LF_OK) fprintf(stderr, "parse error: %s\n", err);
    return st == LF_OK;
}

static void prove(const lf_history *h, int max_depth, lf_result *r, lf_hitting_stats *st) {
    lf_hitting_options o;
    lf_hitting_options_default(&o);
    o.max_depth = max_depth;
    o.want_witness = true;
    o.chains = HIT_CHAINS_THREADS; /* the convention of [Ozkan19] */
    lf_spec_env env;
    lf_spec_env_of_history(h, &env);
    lf_result_init(r);
    lf_hitting_check_spec(lf_spec_builtin(h->type), &env, &o, r, st);
}

/* ---- E1-E4 ([Ozkan19]'s examples), exact first depth ---- */

typedef struct {
    const char *name, *text;
    int first_depth; /* 0: never (not linearizable) */
} example;

static const example EXAMPLES[] = {
    /* E1: Figure 2 in miniature; the Java size()/isEmpty() observers are peeks that see the queue empty. */
    {"E1", "type queue\n0 0 10 enq 1\n1 1 2 deq -> empty\n2 3 4 peek -> empty\n3 5 6 peek -> empty\n"
           "1 11 12 peek -> 1\n", 1},
    {"E2", "type register\n0 0 10 read -> 0\n1 1 11 write 1\n2 2 12 read -> 1\n", 2},
    {"E3", "type register\n0 0 10 read -> 0\n1 1 11 write 1\n2 2 12 read -> 1\n3 3 13 write 2\n", 3},
    {"E3b", "type register\n0 0 10 read -> 0\n1 1 11 write 1\n2 2 12 read -> 1\n3 3 13 write 2\n"
            "4 4 14 read -> 2\n", 4},
    {"E4", "type register\n0 0 10 write 1\n1 1 2 read -> 1\n1 3 4 read -> 0\n", 0},
};

static void test_examples(void) {
    for (size_t e = 0; e < sizeof EXAMPLES / sizeof EXAMPLES[0]; e++) {
        const example *x = &EXAMPLES[e];
        lf_history h;
        if (!parse(x->text, &h)) {
            CHECK(false);
            continue;
        }
        lf_result r;
        lf_hitting_stats st;
        prove(&h, 5, &r, &st);
        if (x->first_depth) {
            CHECKF(r.verdict == LF_LINEARIZABLE && r.depth == x->first_depth, "%s: %s depth %d (%s)", x->name,
                   lf_verdict_name(r.verdict), r.depth, r.reason);
            CHECKF(witness_valid(&h, r.witness, r.witness_len), "%s: invalid witness", x->name);
            CHECK(strcmp(r.engine, "hitting") == 0);
            /* One depth less is not enough. */
            if (x->first_depth > 1) {
                lf_result r2;
                prove(&h, x->first_depth - 1, &r2, NULL);
                CHECKF(r2.verdict == LF_UNKNOWN, "%s at depth %d: %s", x->name, x->first_depth - 1,
                       lf_verdict_name(r2.verdict));
                lf_result_free(&r2);
            }
        } else {
            CHECKF(r.verdict == LF_UNKNOWN && r.depth == -1, "%s: %s", x->name, lf_verdict_name(r.verdict));
            CHECK(st.exhausted);
        }
        if (e == 0) { /* E1's only witness */
            uint32_t w[] = {1, 2, 3, 0, 4};
            CHECK(r.witness_len == 5 && memcmp(r.witness, w, sizeof w) == 0);
        }
        if (e == 3) /* E3b: family sizes 5 / 20 / 60 / 120, each containing the previous: the witness comes
                     * after the 60 distinct schedules of depth <= 3 */
            CHECKF(st.schedules > 60 && st.schedules <= 120, "E3b: %llu schedules",
                   (unsigned long long)st.schedules);
        lf_result_free(&r);
        lf_history_free(&h);
    }
}

/* ---- pending ops ---- */

static void test_pending(void) {
    struct {
        const char *text;
        bool pending_in_witness;
        int depth;
    } cases[] = {
        /* The pending write must never take effect. */
        {"type register\n0 0 ? write 1\n1 1 2 read -> 0\n1 3 4 read -> 0\n", false, 1},
        /* It must take effect, before the read. */
        {"type register\n0 0 ? write 1\n1 5 6 read -> 1\n", true, 1},
        /* Between the two reads, although called before both: the schedule places the write first, and
         * the replay lets it take effect later, so depth 1 (as a plain op it would need <write, read>). */
        {"type register\n0 0 ? write 1\n1 1 2 read -> 0\n1 3 4 read -> 1\n", true, 1},
        /* Two pending writes taking effect in the opposite order of their calls, between reads. */
        {"type register\n0 0 ? write 1\n1 1 ? write 2\n2 2 3 read -> 0\n2 4 5 read -> 2\n2 6 7 read -> 1\n",
         true, 1},
        /* A pending deq removes 1 (a later deq sees 2), a pending enq never happens. */
        {"type queue\n0 0 1 enq 1\n0 2 3 enq 2\n1 4 ? deq\n2 5 ? enq 9\n3 6 7 deq -> 2\n3 8 9 deq -> empty\n", true, 1},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        lf_history h;
        if (!parse(cases[c].text, &h)) {
            CHECK(false);
            continue;
        }
        lf_result r;
        prove(&h, 4, &r, NULL);
        CHECKF(r.verdict == LF_LINEARIZABLE && r.depth == cases[c].depth, "pending case %zu: %s at %d (%s)", c,
               lf_verdict_name(r.verdict), r.depth, r.reason);
        CHECKF(witness_valid(&h, r.witness, r.witness_len), "pending case %zu: invalid witness", c);
        bool has_pending = false;
        for (size_t i = 0; i < r.witness_len; i++) has_pending |= lf_op_pending(&h.ops[r.witness[i]]);
        CHECKF(has_pending == cases[c].pending_in_witness, "pending case %zu", c);
        lf_result_free(&r);
        lf_history_free(&h);
    }
    /* Not linearizable whatever the pending op does: never proven. */
    lf_history h;
    CHECK(parse("type register\n0 0 ? write 1\n1 1 2 read -> 1\n1 3 4 read -> 0\n", &h));
    lf_result r;
    prove(&h, 4, &r, NULL);
    CHECK(r.verdict == LF_UNKNOWN);
    lf_result_free(&r);
    lf_history_free(&h);
}

static void test_budgets(void) {
    lf_history h;
    CHECK(parse(EXAMPLES[3].text, &h)); /* E3b: depth 4 */
    lf_spec_env env;
    lf_spec_env_of_history(&h, &env);
    lf_hitting_options o;
    lf_hitting_options_default(&o);
    o.max_depth = 6;
    o.max_schedules = 10;
    lf_result r;
    lf_hitting_stats st;
    lf_result_init(&r);
    lf_hitting_check_spec(lf_spec_builtin(h.type), &env, &o, &r, &st);
    CHECKF(r.verdict == LF_UNKNOWN && st.schedules == 10 && strstr(r.reason, "budget"), "%s", r.reason);
    lf_result_free(&r);
    o.max_schedules = 0;
    o.max_work = 50;
    lf_result_init(&r);
    lf_hitting_check_spec(lf_spec_builtin(h.type), &env, &o, &r, &st);
    CHECKF(r.verdict == LF_UNKNOWN && strstr(r.reason, "work budget"), "%s", r.reason);
    lf_result_free(&r);
    lf_history_free(&h);
    /* Empty and sequential histories. */
    CHECK(parse("type stack\n", &h));
    prove(&h, 3, &r, NULL);
    CHECK(r.verdict == LF_LINEARIZABLE && r.witness_len == 0);
    lf_result_free(&r);
    lf_history_free(&h);
    CHECK(parse("type stack\n0 1 2 push 1\n1 3 4 push 2\n0 5 6 pop -> 2\n", &h));
    prove(&h, 3, &r, &st);
    CHECK(r.verdict == LF_LINEARIZABLE && r.depth == 1 && st.schedules == 1);
    lf_result_free(&r);
    lf_history_free(&h);
    CHECK(parse("type stack\n0 1 2 push 1\n1 3 4 push 2\n0 5 6 pop -> 1\n", &h));
    prove(&h, 3, &r, &st);
    CHECK(r.verdict == LF_UNKNOWN && st.schedules == 1 && st.exhausted);
    lf_result_free(&r);
    lf_history_free(&h);
}

/* ---- P9: brute-force linearizability depth ---- */

#define P9_MAXN 7

typedef struct {
    const lf_history *h;
    size_t n;
    uint32_t (*ext)[P9_MAXN]; /* every linear extension */
    bool *witness;            /* per extension */
    size_t n_ext, cap;
} extensions;

static bool replay_matches(const lf_history *h, const uint32_t *order, size_t n) {
    return witness_valid(h, order, n);
}

static void enum_ext(extensions *e, uint32_t *cur, size_t len, bool *used) {
    if (len == e->n) {
        if (e->n_ext < e->cap) {
            memcpy(e->ext[e->n_ext], cur, e->n * sizeof *cur);
            e->witness[e->n_ext] = replay_matches(e->h, cur, e->n);
            e->n_ext++;
        }
        return;
    }
    for (uint32_t o = 0; o < e->n; o++) {
        if (used[o]) continue;
        bool ready = true;
        for (uint32_t q = 0; q < e->n && ready; q++) ready = used[q] || !lf_precedes(&e->h->ops[q], &e->h->ops[o]);
        if (!ready) continue;
        used[o] = true;
        cur[len] = o;
        enum_ext(e, cur, len + 1, used);
        used[o] = false;
    }
}

static bool hits(const lf_history *h, const uint32_t *sch, size_t n, const uint32_t *tup, size_t k) {
    size_t pos[P9_MAXN];
    for (size_t q = 0; q < n; q++) pos[sch[q]] = q;
    for (size_t i = 0; i < k; i++)
        for (size_t q = pos[tup[i]]; q < n; q++) {
            bool ok = false;
            for (size_t j = i; j < k && !ok; j++) ok = sch[q] == tup[j] || lf_precedes(&h->ops[tup[j]], &h->ops[sch[q]]);
            if (!ok) return false;
        }
    return true;
}

/* Is there a d-tuple all of whose strongly hitting extensions are witnesses? */
static bool depth_at_most(const extensions *e, size_t d, uint32_t *tup, size_t depth) {
    if (depth == d) {
        bool any = false;
        for (size_t x = 0; x < e->n_ext; x++)
            if (hits(e->h, e->ext[x], e->n, tup, d)) {
                if (!e->witness[x]) return false;
                any = true;
            }
        return any;
    }
    for (uint32_t o = 0; o < e->n; o++) {
        bool used = false;
        for (size_t a = 0; a < depth; a++) used |= tup[a] == o;
        if (used) continue;
        tup[depth] = o;
        if (depth_at_most(e, d, tup, depth + 1)) return true;
    }
    return false;
}

static void test_depth_completeness(void) {
    static uint32_t ext_buf[5040][P9_MAXN];
    static bool wit_buf[5040];
    const lf_type types[] = {LF_TYPE_REGISTER, LF_TYPE_CAS_REGISTER, LF_TYPE_SET, LF_TYPE_STACK, LF_TYPE_QUEUE,
                             LF_TYPE_PQUEUE, LF_TYPE_KV, LF_TYPE_COUNTER, LF_TYPE_DEQUE};
    size_t checked = 0, lin = 0, by_depth[8] = {0}, deeper = 0, failures = 0, unsound = 0;
    for (uint64_t seed = 1; seed <= 1800; seed++) {
        lf_type type = types[seed % 9];
        lf_gen_small_options go;
        lf_gen_small_options_default(&go, type, seed % 3 == 0 ? LF_GEN_CORRUPTED : LF_GEN_CONSTRUCTED);
        go.min_ops = 3;
        go.max_ops = seed % 4 == 0 ? 7 : 6;
        go.max_threads = 4;
        go.values = 2; /* repeated values: ambiguous histories */
        lf_history h;
        if (!lf_gen_small(seed, &go, &h)) continue;
        extensions e = {&h, h.n, ext_buf, wit_buf, 0, 5040};
        uint32_t cur[P9_MAXN];
        bool used[P9_MAXN] = {false};
        enum_ext(&e, cur, 0, used);
        bool linearizable = false;
        for (size_t x = 0; x < e.n_ext; x++) linearizable |= e.witness[x];
        /* The oracle agrees with the enumeration (both are exhaustive). */
        lf_brute_options bo;
        lf_brute_options_default(&bo);
        lf_result br;
        lf_result_init(&br);
        lf_brute_check(&h, &bo, &br);
        CHECK(br.verdict == (linearizable ? LF_LINEARIZABLE : LF_VIOLATION));
        lf_result_free(&br);
        lf_result r;
        lf_hitting_stats st;
        checked++;
        if (!linearizable) {
            prove(&h, (int)h.n, &r, &st);
            unsound += r.verdict != LF_UNKNOWN;
            lf_result_free(&r);
            lf_history_free(&h);
            continue;
        }
        lin++;
        size_t D = 0;
        uint32_t tup[P9_MAXN];
        for (size_t d = 1; d <= h.n && !D; d++)
            if (depth_at_most(&e, d, tup, 0)) D = d;
        CHECK(D >= 1);
        if (D <= 7) by_depth[D]++;
        /* Both chain partitions: the family is complete for depth D either way. */
        for (int mode = 0; mode < 2; mode++) {
            lf_hitting_options o;
            lf_hitting_options_default(&o);
            o.max_depth = (int)D;
            o.want_witness = true;
            o.chains = mode ? HIT_CHAINS_MIN : HIT_CHAINS_THREADS;
            lf_spec_env env;
            lf_spec_env_of_history(&h, &env);
            lf_result_init(&r);
            lf_hitting_check_spec(lf_spec_builtin(h.type), &env, &o, &r, &st);
            bool ok = r.verdict == LF_LINEARIZABLE && r.depth >= 1 && (size_t)r.depth <= D &&
                      witness_valid(&h, r.witness, r.witness_len);
            if (!ok) {
                failures++;
                fprintf(stderr, "P9: seed %llu (%s, %zu ops): depth %zu, prover %s at %d\n",
                        (unsigned long long)seed, lf_type_name(type), h.n, D, lf_verdict_name(r.verdict), r.depth);
            }
            if (r.verdict == LF_LINEARIZABLE && (size_t)r.depth < D) deeper++;
            lf_result_free(&r);
        }
        lf_history_free(&h);
    }
    CHECKF(failures == 0, "P9: %zu histories not proven within their depth", failures);
    CHECKF(unsound == 0, "P9: %zu violations proven linearizable", unsound);
    CHECK(lin > 500 && checked - lin > 100);
    printf("P9: %zu histories, %zu linearizable; depth 1..5: %zu %zu %zu %zu %zu; found below the depth "
           "(footnote 1): %zu\n",
           checked, lin, by_depth[1], by_depth[2], by_depth[3], by_depth[4], by_depth[5], deeper);
}

/* P8 on the random corpus with pending ops: every witness is valid, and nothing the oracle refutes is proven. */
static void test_pending_random(void) {
    const lf_type types[] = {LF_TYPE_REGISTER, LF_TYPE_CAS_REGISTER, LF_TYPE_SET, LF_TYPE_STACK, LF_TYPE_QUEUE,
                             LF_TYPE_PQUEUE, LF_TYPE_KV, LF_TYPE_COUNTER, LF_TYPE_DEQUE};
    size_t proven = 0, lin = 0, bad = 0;
    for (uint64_t seed = 1; seed <= 3000; seed++) {
        lf_gen_small_options go;
        lf_gen_small_options_default(&go, types[seed % 9], seed % 4 == 0 ? LF_GEN_CORRUPTED : LF_GEN_CONSTRUCTED);
        go.max_ops = 12;
        go.max_threads = 4;
        go.values = 3;
        go.pending = 0.5;
        lf_history h;
        if (!lf_gen_small(seed, &go, &h)) continue;
        lf_brute_options bo;
        lf_brute_options_default(&bo);
        lf_result br, r;
        lf_result_init(&br);
        lf_brute_check(&h, &bo, &br);
        prove(&h, 3, &r, NULL);
        if (br.verdict == LF_LINEARIZABLE) lin++;
        if (r.verdict == LF_LINEARIZABLE) {
            proven++;
            if (br.verdict != LF_LINEARIZABLE || !witness_valid(&h, r.witness, r.witness_len)) {
                bad++;
                fprintf(stderr, "P8: seed %llu: proven with an invalid witness or against the oracle\n",
                        (unsigned long long)seed);
            }
        } else {
            CHECK(r.verdict == LF_UNKNOWN);
        }
        lf_result_free(&br);
        lf_result_free(&r);
        lf_history_free(&h);
    }
    CHECKF(bad == 0, "P8: %zu bad proofs", bad);
    CHECK(proven > lin * 9 / 10);
    printf("pending: %zu linearizable by brute force, %zu proven at depth <= 3\n", lin, proven);
}

/* The etcd histories (tests/data/etcd): many pending ops (timed-out writes and CASes). Every proof is of a
 * history that porcupine's test suite calls linearizable, and most of those are proven at a small depth. */
static void test_etcd(void) {
    char path[4096];
    snprintf(path, sizeof path, "%s/etcd/verdicts.txt", LINFUZZ_TEST_DATA);
    FILE *f = fopen(path, "r");
    CHECKF(f != NULL, "cannot open %s", path);
    if (!f) return;
    char name[256], verdict[64];
    size_t files = 0, lin = 0, proven[4] = {0}, wrong = 0;
    while (fscanf(f, "%255s %63s", name, verdict) == 2) {
        snprintf(path, sizeof path, "%s/etcd/%s", LINFUZZ_TEST_DATA, name);
        lf_history h;
        char err[300];
        if (lf_history_read(path, &h, err, sizeof err) != LF_OK) {
            CHECKF(false, "%s", err);
            continue;
        }
        files++;
        bool is_lin = strcmp(verdict, "linearizable") == 0;
        lin += is_lin;
        lf_hitting_options o; /* the production defaults: min-chain partition */
        lf_hitting_options_default(&o);
        o.max_depth = 3;
        o.want_witness = true;
        lf_spec_env env;
        lf_spec_env_of_history(&h, &env);
        lf_result r;
        lf_result_init(&r);
        lf_hitting_check_spec(lf_spec_builtin(h.type), &env, &o, &r, NULL);
        if (r.verdict == LF_LINEARIZABLE) {
            proven[r.depth]++;
            if (!is_lin || !witness_valid(&h, r.witness, r.witness_len)) {
                wrong++;
                fprintf(stderr, "etcd: %s proven at depth %d (expected %s)\n", name, r.depth, verdict);
            }
        }
        lf_result_free(&r);
        lf_history_free(&h);
    }
    fclose(f);
    CHECK(files == 102 && lin == 23);
    CHECKF(wrong == 0, "%zu wrong proofs", wrong);
    /* Measured: 7 / 14 / 19 of the 23 at depth <= 1 / 2 / 3 (22 at 4, all 23 at 5). */
    CHECKF(proven[1] >= 7 && proven[1] + proven[2] >= 14 && proven[1] + proven[2] + proven[3] >= 19,
           "etcd proofs at depth 1/2/3: %zu %zu %zu", proven[1], proven[2], proven[3]);
    printf("etcd: %zu of %zu linearizable proven at depth 1 / 2 / 3: %zu %zu %zu\n",
           proven[1] + proven[2] + proven[3], lin, proven[1], proven[2], proven[3]);
}

int main(void) {
    test_examples();
    test_pending();
    test_budgets();
    test_depth_completeness();
    test_pending_random();
    test_etcd();
    TEST_DONE();
}
