/* The block states of queues and stacks (engines/spec/spec_blocks.c) against a reference model that keeps
 * the set of plain sequences a block state stands for: inserts since the last seal (or remove, or peek) may
 * be in any order; a remove or peek of v keeps the sequences with v at the front (queue) or top (stack).
 * On random runs with values 1..3 (many repeats), after every op that closes a block, the sequences the
 * block state stands for must be exactly the model's set; a step must be accepted iff some sequence allows
 * it; covers must agree with set inclusion, and equal contents must give equal content hashes. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "linfuzz/generate.h"
#include "linfuzz/spec.h"
#include "spec/spec_blocks.h"
#include "spec/spec_builtin.h"
#include "test_util.h"

#define MAXLEN 7
#define MAXSEQ 6000

typedef struct seqset {
    int n;
    unsigned char len[MAXSEQ];
    unsigned char v[MAXSEQ][MAXLEN];
} seqset;

static bool seq_eq(const seqset *s, int i, const unsigned char *v, int len) {
    return s->len[i] == len && memcmp(s->v[i], v, (size_t)len) == 0;
}

static void add(seqset *s, const unsigned char *v, int len) {
    for (int i = 0; i < s->n; i++)
        if (seq_eq(s, i, v, len)) return;
    if (s->n == MAXSEQ) return;
    s->len[s->n] = (unsigned char)len;
    memcpy(s->v[s->n], v, (size_t)len);
    s->n++;
}

static bool same_set(const seqset *a, const seqset *b) {
    if (a->n != b->n) return false;
    for (int i = 0; i < a->n; i++) {
        bool found = false;
        for (int j = 0; j < b->n && !found; j++) found = seq_eq(b, j, a->v[i], a->len[i]);
        if (!found) return false;
    }
    return true;
}

static bool subset(const seqset *a, const seqset *b) { /* a within b */
    for (int i = 0; i < a->n; i++) {
        bool found = false;
        for (int j = 0; j < b->n && !found; j++) found = seq_eq(b, j, a->v[i], a->len[i]);
        if (!found) return false;
    }
    return true;
}

/* All orders of run[0..k) appended to base into out. */
static void perms(const unsigned char *base, int blen, unsigned char *run, int k, int at, seqset *out) {
    if (at == k) {
        unsigned char v[MAXLEN];
        memcpy(v, base, (size_t)blen);
        memcpy(v + blen, run, (size_t)k);
        add(out, v, blen + k);
        return;
    }
    for (int i = at; i < k; i++) {
        unsigned char t = run[at];
        run[at] = run[i];
        run[i] = t;
        perms(base, blen, run, k, at + 1, out);
        t = run[at];
        run[at] = run[i];
        run[i] = t;
    }
}

/* The model: the set, and the run of inserts not closed yet. */
typedef struct model {
    seqset set;
    unsigned char run[MAXLEN];
    int k;
} model;

static void close_run(model *m) {
    if (!m->k) return;
    static seqset next;
    next.n = 0;
    for (int i = 0; i < m->set.n; i++) perms(m->set.v[i], m->set.len[i], m->run, m->k, 0, &next);
    m->set = next;
    m->k = 0;
}

/* Expands a block state through its description "[1 {2 3} 4]" (value names are the values). */
static void expand(const char *d, seqset *out) {
    out->n = 0;
    unsigned char base[MAXLEN] = {0};
    static seqset cur, nxt;
    cur.n = 0;
    add(&cur, base, 0);
    const char *p = d + 1;
    while (*p && *p != ']') {
        if (*p == ' ') {
            p++;
            continue;
        }
        unsigned char blk[MAXLEN];
        int k = 0;
        if (*p == '{') {
            p++;
            while (*p != '}') {
                if (*p != ' ') blk[k++] = (unsigned char)(*p - '0');
                p++;
            }
            p++;
        } else {
            blk[k++] = (unsigned char)(*p - '0');
            p++;
        }
        nxt.n = 0;
        for (int i = 0; i < cur.n; i++) perms(cur.v[i], cur.len[i], blk, k, 0, &nxt);
        cur = nxt;
    }
    *out = cur;
}

static lf_op mk(lf_method m, int64_t v, lf_kind kind) {
    lf_op op;
    memset(&op, 0, sizeof op);
    op.method = (uint8_t)m;
    op.arg[0] = v;
    op.res_kind = (uint8_t)kind;
    op.res = v;
    return op;
}

static void run(bool stack, uint64_t seed) {
    lf_rng rng;
    lf_rng_seed(&rng, seed);
    lf_method ins = stack ? LF_M_PUSH : LF_M_ENQ, rem = stack ? LF_M_POP : LF_M_DEQ;
    lf_op all[3];
    for (int v = 1; v <= 3; v++) all[v - 1] = mk(ins, v, LF_K_NONE);
    lf_spec_env env = {all, 3, LF_K_INT, 0, NULL, 0, NULL};
    const lf_spec *spec = lf_spec_blocks_variant(stack ? &lf_spec_stack : &lf_spec_queue, &env);
    CHECK(spec != NULL && lf_spec_is_blocks(spec) && lf_spec_blocks_is_stack(spec) == stack);
    lf_spec_inst in;
    CHECK(lf_spec_open(spec, &env, &in));
    unsigned char st[64], nx[64], prev[64];
    lf_spec_init(&in, st);
    static model m;
    memset(&m, 0, sizeof m);
    add(&m.set, m.run, 0);
    for (int step = 0; step < 40; step++) {
        int len = m.set.n ? m.set.len[0] + m.k : 0;
        uint64_t r = lf_rng_below(&rng, 10);
        int v = 1 + (int)lf_rng_below(&rng, 3);
        memcpy(prev, st, in.state_size);
        if (r < 4 && len < MAXLEN) { /* insert */
            lf_op op = mk(ins, v, LF_K_NONE);
            CHECK(lf_spec_step(&in, st, &op, nx));
            memcpy(st, nx, in.state_size);
            m.run[m.k++] = (unsigned char)v;
            continue;
        }
        if (r < 6) { /* seal: the end of a step of the sweep */
            lf_spec_blocks_seal(in.ctx, st);
            close_run(&m);
        } else { /* remove or peek v: allowed iff some sequence has v at the front / top */
            static model before_op;
            before_op = m; /* a rejected op leaves the state, its open block included, as it was */
            close_run(&m);
            bool peek = r == 9;
            lf_op op = mk(peek ? LF_M_PEEK : rem, v, LF_K_INT);
            static seqset next;
            next.n = 0;
            for (int i = 0; i < m.set.n; i++) {
                int l = m.set.len[i];
                if (!l) continue;
                unsigned char *q = m.set.v[i];
                if ((stack ? q[l - 1] : q[0]) != v) continue;
                unsigned char w[MAXLEN];
                if (peek)
                    add(&next, q, l);
                else if (stack)
                    add(&next, q, l - 1);
                else {
                    memcpy(w, q + 1, (size_t)(l - 1));
                    add(&next, w, l - 1);
                }
            }
            bool ok = lf_spec_step(&in, st, &op, nx);
            CHECKF(ok == (next.n > 0), "%s seed %llu step %d: %s %d accepted=%d, model %d sequences",
                   stack ? "stack" : "queue", (unsigned long long)seed, step, peek ? "peek" : "remove", v, ok,
                   next.n);
            if (!ok || !next.n) {
                m = before_op;
                continue;
            }
            memcpy(st, nx, in.state_size);
            m.set = next;
        }
        char d[256];
        lf_spec_describe_state(&in, st, d, sizeof d);
        static seqset got;
        expand(d, &got);
        CHECKF(same_set(&got, &m.set), "%s seed %llu step %d: state %s stands for %d sequences, model %d",
               stack ? "stack" : "queue", (unsigned long long)seed, step, d, got.n, m.set.n);
        /* covers agrees with inclusion against the previous sealed state */
        char dp[256];
        lf_spec_blocks_seal(in.ctx, prev);
        lf_spec_describe_state(&in, prev, dp, sizeof dp);
        static seqset before;
        expand(dp, &before);
        bool inc = subset(&got, &before) && got.n && before.n && got.len[0] == before.len[0];
        CHECKF(lf_spec_blocks_covers(in.ctx, prev, st) == inc, "covers(%s, %s) = %d, inclusion %d", dp, d,
               lf_spec_blocks_covers(in.ctx, prev, st), inc);
        CHECK(lf_spec_blocks_covers(in.ctx, st, st));
    }
    lf_spec_close(&in);
}

/* A hand-made case: inserts 1 2 in one step, then 3: "[{1 2} 3]" covers "[1 2 3]" and "[2 1 3]", not
 * "[1 3 2]"; contents hash equally. */
static void covers_case(void) {
    lf_op all[3] = {mk(LF_M_ENQ, 1, LF_K_NONE), mk(LF_M_ENQ, 2, LF_K_NONE), mk(LF_M_ENQ, 3, LF_K_NONE)};
    lf_spec_env env = {all, 3, LF_K_INT, 0, NULL, 0, NULL};
    const lf_spec *spec = lf_spec_blocks_variant(&lf_spec_queue, &env);
    lf_spec_inst in;
    CHECK(lf_spec_open(spec, &env, &in));
    unsigned char a[64], b[64], c[64], t[64];
    lf_spec_init(&in, a);
    lf_spec_step(&in, a, &all[0], t), lf_spec_step(&in, t, &all[1], a), lf_spec_blocks_seal(in.ctx, a);
    lf_spec_step(&in, a, &all[2], t), memcpy(a, t, in.state_size), lf_spec_blocks_seal(in.ctx, a);
    lf_spec_init(&in, b);
    lf_spec_step(&in, b, &all[1], t), memcpy(b, t, in.state_size), lf_spec_blocks_seal(in.ctx, b);
    lf_spec_step(&in, b, &all[0], t), memcpy(b, t, in.state_size), lf_spec_blocks_seal(in.ctx, b);
    lf_spec_step(&in, b, &all[2], t), memcpy(b, t, in.state_size), lf_spec_blocks_seal(in.ctx, b);
    lf_spec_init(&in, c);
    lf_spec_step(&in, c, &all[0], t), memcpy(c, t, in.state_size), lf_spec_blocks_seal(in.ctx, c);
    lf_spec_step(&in, c, &all[2], t), memcpy(c, t, in.state_size), lf_spec_blocks_seal(in.ctx, c);
    lf_spec_step(&in, c, &all[1], t), memcpy(c, t, in.state_size), lf_spec_blocks_seal(in.ctx, c);
    char d[64];
    lf_spec_describe_state(&in, a, d, sizeof d);
    CHECKF(strcmp(d, "[{1 2} 3]") == 0, "%s", d);
    CHECK(lf_spec_blocks_covers(in.ctx, a, b) && !lf_spec_blocks_covers(in.ctx, b, a));
    CHECK(!lf_spec_blocks_covers(in.ctx, a, c));
    CHECK(lf_spec_blocks_content(in.ctx, a) == lf_spec_blocks_content(in.ctx, b));
    CHECK(lf_spec_blocks_content(in.ctx, a) == lf_spec_blocks_content(in.ctx, c));
    lf_spec_close(&in);
    /* A pending remove rules the block states out (which value it took would not be one state). */
    lf_op pend[2] = {mk(LF_M_ENQ, 1, LF_K_NONE), mk(LF_M_DEQ, 0, LF_K_PENDING)};
    lf_spec_env penv = {pend, 2, LF_K_INT, 0, NULL, 0, NULL};
    CHECK(lf_spec_blocks_variant(&lf_spec_queue, &penv) == NULL);
    CHECK(lf_spec_blocks_variant(&lf_spec_register, &env) == NULL);
}

/* Bounded containers are not for blocks (they know no capacity: a full answer would count as an insert): a
 * regression, the frontier sweep found a correct bounded queue's history a violation that way. */
static void bounded_has_no_blocks(void) {
    lf_op all[2] = {mk(LF_M_ENQ, 1, LF_K_NONE), mk(LF_M_ENQ, 2, LF_K_FULL)};
    for (int stack = 0; stack < 2; stack++) {
        lf_spec_env env = {all, 2, LF_K_INT, 0, NULL, 1, NULL};
        all[0].method = all[1].method = stack ? LF_M_PUSH : LF_M_ENQ;
        CHECK(lf_spec_blocks_variant(stack ? &lf_spec_stack : &lf_spec_queue, &env) == NULL);
        env.capacity = 0;
        all[1].res_kind = LF_K_NONE;
        CHECK(lf_spec_blocks_variant(stack ? &lf_spec_stack : &lf_spec_queue, &env) != NULL);
        all[1].res_kind = LF_K_FULL;
    }
}

int main(void) {
    covers_case();
    bounded_has_no_blocks();
    for (uint64_t seed = 1; seed <= 400; seed++) {
        run(false, seed);
        run(true, seed);
    }
    TEST_DONE();
}
