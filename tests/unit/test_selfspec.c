/* The self-spec (linfuzz/selfspec.h) against independent oracles: on thousands of random histories of every
 * built-in type (constructed, corrupted, random, with pending ops) its verdicts agree with the built-in specs,
 * its witnesses replay on them, its hitting depths are the built-in prover's, its levels are the brute force's
 * on the history without real time; the memo runs each prefix once and the fingerprint merges states; serial
 * nondeterminism is caught and never reported as a violation; nondeterministic and blocking methods; the
 * two-level report on the Line-Up catalogue's histories (K1, K3, K4) and the other committed entries. */
#include <dirent.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "findings/entry.h"
#include "linfuzz/check.h"
#include "linfuzz/format.h"
#include "linfuzz/generate.h"
#include "linfuzz/selfspec.h"
#include "model_oracle.h"
#include "test_util.h"
#include "witness_util.h"

#ifndef LINFUZZ_SOURCE_DIR
#define LINFUZZ_SOURCE_DIR LINFUZZ_TEST_DATA "/../.."
#endif

static lf_verdict check_builtin(const lf_history *h, lf_engine e, int depth, lf_result *r) {
    lf_check_options o;
    lf_check_options_default(&o);
    o.engine = e;
    o.max_depth = depth;
    o.want_witness = true;
    lf_result_init(r);
    lf_check(h, &o, r);
    return r->verdict;
}



static lf_verdict check_self(lf_selfspec *s, const lf_history *h, lf_engine e, int depth, lf_result *r) {
    lf_check_options o;
    lf_check_options_default(&o);
    o.engine = e;
    o.max_depth = depth;
    o.want_witness = true;
    o.self = s;
    lf_result_init(r);
    lf_check(h, &o, r);
    return r->verdict;
}

/* The level of a violation by the brute force on the history with every op concurrent. */
static lf_level brute_level(const lf_history *h) {
    lf_history relaxed;
    lf_history_copy(&relaxed, h);
    for (size_t i = 0; i < relaxed.n; i++) {
        relaxed.ops[i].thread = (uint32_t)i; /* brute force wants sequential threads */
        relaxed.ops[i].call = 1;
        if (!lf_op_pending(&relaxed.ops[i])) relaxed.ops[i].ret = 2;
    }
    lf_result r;
    lf_result_init(&r);
    lf_check_options o;
    lf_check_options_default(&o);
    o.engine = LF_ENGINE_BRUTE;
    lf_check(&relaxed, &o, &r);
    lf_level l = r.verdict == LF_LINEARIZABLE ? LF_LEVEL_REAL_TIME
                 : r.verdict == LF_VIOLATION  ? LF_LEVEL_NO_SERIAL_ORDER
                                              : LF_LEVEL_NONE;
    lf_result_free(&r);
    lf_history_free(&relaxed);
    return l;
}

/* ---- agreement with the built-in specs ---- */

static void test_agreement(void) {
    static const lf_gen_small_mode modes[] = {LF_GEN_CONSTRUCTED, LF_GEN_CORRUPTED, LF_GEN_RANDOM};
    size_t total = 0, lin = 0, vio = 0, levels[3] = {0, 0, 0}, merged_runs = 0;
    for (int t = 0; t < LF_TYPE_COUNT; t++) {
        for (int fp = 0; fp < 2; fp++) {
            model m;
            lf_oracle oracle = model_oracle(&m, (lf_type)t, fp);
            lf_selfspec *s = lf_selfspec_new(&oracle, NULL);
            CHECK(s != NULL);
            if (!s) return;
            for (uint64_t seed = 1; seed <= 210; seed++) {
                lf_gen_small_options go;
                lf_gen_small_options_default(&go, (lf_type)t, modes[seed % 3]);
                go.max_ops = 9;
                go.max_threads = 4;
                go.values = seed % 4 == 0 ? 3 : 0; /* repeated values sometimes */
                go.pending = seed % 5 == 0 ? 0.5 : 0;
                lf_history h;
                if (!lf_gen_small(seed * 7919 + (uint64_t)t * 104729 + (uint64_t)fp, &go, &h)) continue;
                lf_result want, got;
                check_builtin(&h, LF_ENGINE_AUTO, 0, &want);
                if (seed % 17 == 0) lf_selfspec_forget(s); /* now and then a fresh memo */
                check_self(s, &h, LF_ENGINE_AUTO, 0, &got);
                total++;
                CHECKF(got.verdict == want.verdict, "%s seed %" PRIu64 " fp %d: self %s (%s), built-in %s (%s)",
                       lf_type_name((lf_type)t), seed, fp, lf_verdict_name(got.verdict), got.reason,
                       lf_verdict_name(want.verdict), want.reason);
                CHECK(!got.serial_nondeterminism);
                if (got.verdict == LF_LINEARIZABLE) {
                    lin++;
                    CHECKF(witness_valid(&h, got.witness, got.witness_len), "%s seed %" PRIu64 ": witness",
                           lf_type_name((lf_type)t), seed);
                    CHECK(!strncmp(got.engine, "self-", 5));
                }
                if (got.verdict == LF_VIOLATION) {
                    vio++;
                    lf_level bl = brute_level(&h);
                    CHECKF(got.level == bl, "%s seed %" PRIu64 ": level %d, brute force %d (%s)",
                           lf_type_name((lf_type)t), seed, got.level, bl, got.reason);
                    levels[got.level]++;
                    CHECK(got.n_culprits > 0 && got.prefix_len < h.n);
                }
                lf_result_free(&want);
                lf_result_free(&got);
                lf_history_free(&h);
            }
            const lf_selfspec_stats *st = lf_selfspec_stats_of(s);
            if (fp) merged_runs += st->merged > 0;
            else CHECK(st->merged == 0);
            lf_selfspec_free(s);
        }
    }
    printf("agreement: %zu histories of the 9 types, %zu linearizable, %zu violations (%zu no serial order, %zu real "
           "time)\n",
           total, lin, vio, levels[1], levels[2]);
    CHECK(total >= 3700 && lin > 1000 && vio > 1000 && levels[1] > 100 && levels[2] > 100);
    CHECK(merged_runs == LF_TYPE_COUNT);
}

/* Longer histories: the self-spec agrees with the monitors and WGL on 40-120-op histories. */
static void test_agreement_longer(void) {
    size_t n = 0;
    for (int t = 0; t < LF_TYPE_COUNT; t++) {
        model m;
        lf_oracle oracle = model_oracle(&m, (lf_type)t, true);
        lf_selfspec *s = lf_selfspec_new(&oracle, NULL);
        for (uint64_t seed = 1; seed <= 12; seed++) {
            lf_gen_options go;
            lf_gen_options_default(&go);
            go.type = (lf_type)t;
            go.n_ops = 40 + 7 * seed;
            go.threads = 2 + seed % 4;
            go.seed = seed * 31 + (uint64_t)t;
            go.peek = 0.2;
            go.empty = 0.2;
            go.bad = seed % 2;
            go.pending = 0.1;
            lf_history h;
            char err[128];
            if (!lf_gen_history(&go, &h, err, sizeof err)) continue;
            lf_result want, got;
            check_builtin(&h, LF_ENGINE_AUTO, 0, &want);
            lf_selfspec_forget(s);
            check_self(s, &h, LF_ENGINE_AUTO, 0, &got);
            if (want.verdict != LF_UNKNOWN && got.verdict != LF_UNKNOWN) {
                n++;
                CHECKF(got.verdict == want.verdict, "%s seed %" PRIu64 ": self %s (%s), built-in %s",
                       lf_type_name((lf_type)t), seed, lf_verdict_name(got.verdict), got.reason,
                       lf_verdict_name(want.verdict));
                if (got.verdict == LF_LINEARIZABLE) CHECK(witness_valid(&h, got.witness, got.witness_len));
            }
            lf_result_free(&want);
            lf_result_free(&got);
            lf_history_free(&h);
        }
        lf_selfspec_free(s);
    }
    printf("longer histories: %zu decided by both, all agree\n", n);
    CHECK(n >= 90);
}

/* The families on the real object: the same proofs at the same depths as the built-in prover. */
static void test_hitting_depths(void) {
    size_t proven = 0, by_depth[5] = {0};
    for (int t = 0; t < LF_TYPE_COUNT; t++) {
        model m;
        lf_oracle oracle = model_oracle(&m, (lf_type)t, false);
        lf_selfspec *s = lf_selfspec_new(&oracle, NULL);
        for (uint64_t seed = 1; seed <= 60; seed++) {
            lf_gen_small_options go;
            lf_gen_small_options_default(&go, (lf_type)t, LF_GEN_CONSTRUCTED);
            go.max_ops = 8;
            go.max_threads = 4;
            go.pending = seed % 4 == 0 ? 0.5 : 0;
            lf_history h;
            if (!lf_gen_small(seed * 13 + (uint64_t)t, &go, &h)) continue;
            lf_result want, got;
            check_builtin(&h, LF_ENGINE_HITTING, 4, &want); /* set and kv: both split by key, depths per part */
            check_self(s, &h, LF_ENGINE_HITTING, 4, &got);
            CHECKF(got.verdict == want.verdict && got.depth == want.depth,
                   "%s seed %" PRIu64 ": self %s d=%d, built-in %s d=%d", lf_type_name((lf_type)t), seed,
                   lf_verdict_name(got.verdict), got.depth, lf_verdict_name(want.verdict), want.depth);
            if (got.verdict == LF_LINEARIZABLE) {
                proven++;
                by_depth[got.depth < 4 ? got.depth : 4]++;
                CHECK(!strcmp(got.engine, "self-hitting") && witness_valid(&h, got.witness, got.witness_len));
            }
            lf_result_free(&want);
            lf_result_free(&got);
            lf_history_free(&h);
        }
        lf_selfspec_free(s);
    }
    printf("hitting on the real object: %zu proven, at depth 1/2/3/4: %zu/%zu/%zu/%zu\n", proven, by_depth[1],
           by_depth[2], by_depth[3], by_depth[4]);
    CHECK(proven > 300 && by_depth[1] > 0 && by_depth[2] > 0);
}

/* ---- the memo ---- */

static void test_memo(void) {
    model m;
    lf_oracle oracle = model_oracle(&m, LF_TYPE_QUEUE, false);
    lf_selfspec_options so;
    lf_selfspec_options_default(&so);
    so.probe_replays = 0;
    lf_selfspec *s = lf_selfspec_new(&oracle, &so);
    lf_gen_options go;
    lf_gen_options_default(&go);
    go.type = LF_TYPE_QUEUE;
    go.n_ops = 30;
    go.threads = 4;
    go.seed = 5;
    go.bad = 1;
    lf_history h;
    char err[128];
    CHECK(lf_gen_history(&go, &h, err, sizeof err));
    lf_result r;
    check_self(s, &h, LF_ENGINE_AUTO, 0, &r);
    lf_verdict first = r.verdict;
    lf_result_free(&r);
    const lf_selfspec_stats *st = lf_selfspec_stats_of(s);
    /* every new op made exactly one node (the methods are deterministic), the root aside */
    CHECKF(st->new_ops == st->nodes, "new ops %" PRIu64 ", nodes %" PRIu64, st->new_ops, st->nodes);
    CHECK(st->oracle_ops == st->new_ops + st->replayed_ops && m.applies == st->oracle_ops && m.resets == st->resets);
    uint64_t new_ops = st->new_ops, steps = st->steps;
    /* the same history again: every step is answered by the memo, nothing new runs */
    check_self(s, &h, LF_ENGINE_AUTO, 0, &r);
    CHECK(r.verdict == first && st->new_ops == new_ops && st->steps > steps && st->memo_hits > 0);
    lf_result_free(&r);
    /* a fingerprint merges states (enq a; deq and enq b; ... reach equal queues by different prefixes) */
    model m2;
    lf_oracle o2 = model_oracle(&m2, LF_TYPE_QUEUE, true);
    lf_selfspec *s2 = lf_selfspec_new(&o2, &so);
    check_self(s2, &h, LF_ENGINE_WGL, 0, &r);
    CHECK(r.verdict == first);
    lf_result_free(&r);
    const lf_selfspec_stats *st2 = lf_selfspec_stats_of(s2);
    printf("memo: without fingerprint %" PRIu64 " nodes, %" PRIu64 " oracle ops; with: %" PRIu64 " nodes (%" PRIu64
           " merged), %" PRIu64 " oracle ops\n",
           st->nodes, st->oracle_ops, st2->nodes, st2->merged, st2->oracle_ops);
    CHECK(st2->merged > 0);
    lf_selfspec_free(s2);
    lf_selfspec_free(s);
    lf_history_free(&h);
}

/* ---- serial nondeterminism ---- */

/* A counter whose get, once in a while, counts an increment twice: its serial runs differ. */
typedef struct flaky {
    model inner;
    uint64_t calls;
} flaky;

static bool flaky_reset(void *self) { return model_reset(&((flaky *)self)->inner); }
static lf_oracle_status flaky_apply(void *self, const lf_op *op, lf_kind *kind, int64_t *value) {
    flaky *f = self;
    lf_oracle_status st = model_apply(&f->inner, op, kind, value);
    if (op->method == LF_M_GET && ++f->calls % 5 == 0) *value += 1;
    return st;
}

/* Hidden state shared by every instance: fresh instances differ. */
static int64_t leaked;
static bool leaky_reset(void *self) { return model_reset(self); }
static lf_oracle_status leaky_apply(void *self, const lf_op *op, lf_kind *kind, int64_t *value) {
    lf_oracle_status st = model_apply(self, op, kind, value);
    if (op->method == LF_M_INC) leaked++;
    return st;
}
static uint64_t leaky_fp(void *self) { return model_fingerprint(self) ^ (uint64_t)leaked; }

static void test_nondeterminism(void) {
    size_t caught = 0;
    for (uint64_t seed = 1; seed <= 40; seed++) {
        flaky f;
        memset(&f, 0, sizeof f);
        f.inner.type = LF_TYPE_COUNTER;
        lf_oracle oracle = {&f, flaky_reset, flaky_apply, NULL};
        lf_selfspec *s = lf_selfspec_new(&oracle, NULL);
        lf_gen_options go;
        lf_gen_options_default(&go);
        go.type = LF_TYPE_COUNTER;
        go.n_ops = 12;
        go.threads = 3;
        go.seed = seed;
        go.peek = 0.5;
        lf_history h;
        char err[128];
        lf_gen_history(&go, &h, err, sizeof err);
        lf_result r;
        check_self(s, &h, LF_ENGINE_AUTO, 0, &r);
        CHECKF(r.verdict != LF_VIOLATION, "seed %" PRIu64 ": a nondeterministic adapter's history was called a "
               "violation: %s", seed, r.reason);
        if (r.serial_nondeterminism) {
            caught++;
            CHECK(r.verdict == LF_UNKNOWN && strstr(r.reason, "serial nondeterminism") && strstr(r.reason, "get"));
            lf_history ev;
            CHECK(lf_selfspec_nondeterminism(s, &h, &ev));
            CHECK(ev.n > 0 && ev.ops[ev.n - 1].method == LF_M_GET && lf_history_validate(&ev, err, sizeof err) == SIZE_MAX);
            lf_history_free(&ev);
        }
        lf_result_free(&r);
        lf_history_free(&h);
        lf_selfspec_free(s);
    }
    printf("nondeterministic counter: caught in %zu of 40 histories, never called a violation\n", caught);
    CHECK(caught >= 30);
    /* fresh instances that differ (state leaking between instances), seen by the fingerprint */
    model m;
    model_oracle(&m, LF_TYPE_COUNTER, true);
    lf_oracle oracle = {&m, leaky_reset, leaky_apply, leaky_fp};
    lf_selfspec *s = lf_selfspec_new(&oracle, NULL);
    const char *text = "type counter\n0 1 2 inc\n1 3 4 get -> 1\n";
    lf_history h;
    char err[128];
    lf_text_read_buffer(text, strlen(text), "l.hist", &h, err, sizeof err);
    lf_result r;
    check_self(s, &h, LF_ENGINE_AUTO, 0, &r);
    CHECKF(r.serial_nondeterminism && strstr(r.reason, "fresh instances"), "%s", r.reason);
    lf_result_free(&r);
    lf_history_free(&h);
    lf_selfspec_free(s);
}

/* ---- declared nondeterminism and blocking: custom types ---- */

/* A bag: put v; take -> v|empty (any element: LF_MF_NONDET). The oracle cycles through the elements on
 * successive takes, so every possible result comes up within as many tries as there are elements. */
typedef struct bag {
    int64_t items[16];
    size_t n;
    uint64_t turn, resets;
    bool by_reset; /* take the element chosen by the number of fresh instances so far (differs per replay) */
} bag;

static bool bag_reset(void *self) {
    ((bag *)self)->n = 0;
    ((bag *)self)->resets++;
    return true;
}
static lf_oracle_status bag_apply(void *self, const lf_op *op, lf_kind *kind, int64_t *value) {
    bag *b = self;
    if (op->method == 0) {
        if (b->n < 16) b->items[b->n++] = op->arg[0];
        *kind = LF_K_NONE;
        return LF_ORACLE_OK;
    }
    if (b->n == 0) {
        *kind = LF_K_EMPTY;
        return LF_ORACLE_OK;
    }
    size_t i = (size_t)((b->by_reset ? b->resets : b->turn++) % b->n);
    *value = b->items[i];
    *kind = LF_K_INT;
    b->items[i] = b->items[--b->n];
    return LF_ORACLE_OK;
}

static const lf_method_decl BAG_METHODS[] = {
    {"put", 1, LF_KBIT(LF_K_NONE), 0},
    {"take", 0, LF_KBIT(LF_K_INT) | LF_KBIT(LF_K_EMPTY), LF_MF_NONDET},
};
static const lf_type_desc BAG = {"bag", BAG_METHODS, 2, NULL};

/* A semaphore: release; acquire, which blocks at 0 (LF_MF_BLOCKS). */
static bool sem_reset(void *self) {
    *(int64_t *)self = 0;
    return true;
}
static lf_oracle_status sem_apply(void *self, const lf_op *op, lf_kind *kind, int64_t *value) {
    int64_t *count = self;
    *kind = LF_K_NONE;
    if (op->method == 1) {
        (*count)++;
        return LF_ORACLE_OK;
    }
    if (*count == 0) return LF_ORACLE_BLOCKED;
    (*count)--;
    return LF_ORACLE_OK;
}
/* A counter over the same word: method 0 inc, 1 get; its fingerprint is the count. */
static lf_oracle_status counter_apply(void *self, const lf_op *op, lf_kind *kind, int64_t *value) {
    int64_t *count = self;
    *kind = LF_K_NONE;
    if (op->method == 0)
        (*count)++;
    else
        *kind = LF_K_INT, *value = *count;
    return LF_ORACLE_OK;
}
static uint64_t counter_fp(void *self) { return (uint64_t) * (int64_t *)self * 0x9e3779b97f4a7c15ull + 1; }

static const lf_method_decl SEM_METHODS[] = {
    {"acquire", 0, LF_KBIT(LF_K_NONE), LF_MF_BLOCKS},
    {"release", 0, LF_KBIT(LF_K_NONE), 0},
};
static const lf_type_desc SEM = {"semaphore", SEM_METHODS, 2, NULL};
static const lf_method_decl SEM_UNDECLARED[] = {
    {"acquire", 0, LF_KBIT(LF_K_NONE), 0},
    {"release", 0, LF_KBIT(LF_K_NONE), 0},
};
static const lf_type_desc SEM_NOFLAG = {"semaphore2", SEM_UNDECLARED, 2, NULL};

static lf_verdict check_text(const lf_oracle *oracle, const lf_type_desc *d, const char *ops, lf_result *r) {
    char text[1024], err[256];
    snprintf(text, sizeof text, "type %s\n", d->name);
    for (size_t i = 0; i < d->n_methods; i++) {
        size_t w = strlen(text);
        lf_method_decl_format(text + w, sizeof text - w, &d->methods[i]);
        strcat(text, "\n");
    }
    strcat(text, ops);
    lf_history h;
    lf_status st = lf_text_read_buffer(text, strlen(text), "c.hist", &h, err, sizeof err);
    CHECKF(st == LF_OK, "%s", err);
    lf_selfspec *s = lf_selfspec_new(oracle, NULL);
    lf_verdict v = check_self(s, &h, LF_ENGINE_AUTO, 0, r);
    lf_selfspec_free(s);
    lf_history_free(&h);
    return v;
}

static void test_declared_flags(void) {
    bag b;
    memset(&b, 0, sizeof b);
    lf_oracle bo = {&b, bag_reset, bag_apply, NULL};
    lf_result r;
    /* any element may come out first: both orders are serial behaviours */
    CHECK(check_text(&bo, &BAG, "0 1 2 put 1\n0 3 4 put 2\n0 5 6 put 3\n1 7 8 take -> 3\n1 9 10 take -> 1\n"
                                "1 11 12 take -> 2\n1 13 14 take -> empty\n", &r) == LF_LINEARIZABLE);
    CHECK(!r.serial_nondeterminism);
    lf_result_free(&r);
    CHECK(check_text(&bo, &BAG, "0 1 2 put 1\n0 3 4 put 2\n1 5 6 take -> 2\n1 7 8 take -> 2\n", &r) == LF_UNKNOWN);
    CHECKF(!r.serial_nondeterminism && strstr(r.reason, "nondeterministic method"), "%s", r.reason);
    lf_result_free(&r);
    /* the same oracle under a declaration without the flag: its replays differ, which is nondeterminism */
    static const lf_method_decl strict[] = {{"put", 1, LF_KBIT(LF_K_NONE), 0},
                                            {"take", 0, LF_KBIT(LF_K_INT) | LF_KBIT(LF_K_EMPTY), 0}};
    lf_type_desc strict_bag = {"sbag", strict, 2, NULL};
    memset(&b, 0, sizeof b);
    b.by_reset = true;
    check_text(&bo, &strict_bag, "0 1 2 put 1\n0 3 4 put 2\n1 5 6 take -> 1\n1 7 8 take -> 2\n", &r);
    CHECKF(r.verdict == LF_UNKNOWN && r.serial_nondeterminism, "%s: %s", lf_verdict_name(r.verdict), r.reason);
    lf_result_free(&r);

    int64_t count;
    lf_oracle so = {&count, sem_reset, sem_apply, NULL};
    /* an acquire that completed before any release: it would have blocked in every serial order */
    CHECK(check_text(&so, &SEM, "0 1 2 acquire\n1 3 4 release\n", &r) == LF_VIOLATION);
    CHECKF(r.level == LF_LEVEL_REAL_TIME && strstr(r.reason, "acquire"), "%s", r.reason);
    lf_result_free(&r);
    CHECK(check_text(&so, &SEM, "0 1 5 acquire\n1 2 3 release\n", &r) == LF_LINEARIZABLE);
    lf_result_free(&r);
    CHECK(check_text(&so, &SEM, "0 1 ? acquire\n1 2 3 release\n1 4 5 acquire\n", &r) == LF_LINEARIZABLE);
    lf_result_free(&r);
    CHECK(check_text(&so, &SEM, "0 1 ? acquire\n1 2 3 acquire\n", &r) == LF_VIOLATION);
    CHECK(r.level == LF_LEVEL_NO_SERIAL_ORDER);
    lf_result_free(&r);
    /* blocking without the flag is an error of the declaration, not a verdict */
    CHECK(check_text(&so, &SEM_NOFLAG, "0 1 2 acquire\n", &r) == LF_UNKNOWN);
    CHECKF(strstr(r.reason, "not declared to block"), "%s", r.reason);
    lf_result_free(&r);

    /* an observer that is not one: caught by the fingerprint (a counter: method 0 inc, 1 get) */
    static const lf_method_decl liar[] = {{"inc", 0, LF_KBIT(LF_K_NONE), LF_MF_OBSERVER},
                                          {"get", 0, LF_KBIT(LF_K_INT), LF_MF_OBSERVER}};
    lf_type_desc liar_counter = {"lcounter", liar, 2, NULL};
    lf_oracle mo = {&count, sem_reset, counter_apply, counter_fp};
    CHECK(check_text(&mo, &liar_counter, "0 1 2 inc\n0 3 4 get -> 1\n", &r) == LF_UNKNOWN);
    CHECKF(strstr(r.reason, "declared an observer"), "%s", r.reason);
    lf_result_free(&r);
}

/* Other engines, an initial value, malformed input. */
static void test_refusals(void) {
    model m;
    lf_oracle oracle = model_oracle(&m, LF_TYPE_REGISTER, false);
    lf_selfspec *s = lf_selfspec_new(&oracle, NULL);
    const char *text = "type register\ninit 5\n0 1 2 read -> 5\n";
    lf_history h;
    char err[128];
    lf_text_read_buffer(text, strlen(text), "i.hist", &h, err, sizeof err);
    lf_result r;
    CHECK(check_self(s, &h, LF_ENGINE_AUTO, 0, &r) == LF_UNKNOWN && strstr(r.reason, "initial value"));
    lf_result_free(&r);
    h.has_init = false;
    CHECK(check_self(s, &h, LF_ENGINE_MONITOR, 0, &r) == LF_UNKNOWN && strstr(r.reason, "monitor"));
    lf_result_free(&r);
    CHECK(check_self(s, &h, LF_ENGINE_BRUTE, 0, &r) == LF_UNKNOWN);
    lf_result_free(&r);
    CHECK(check_self(s, &h, LF_ENGINE_WGL, 0, &r) == LF_VIOLATION && !strcmp(r.engine, "self-wgl"));
    lf_result_free(&r);
    h.ops[0].ret = 0; /* ret < call */
    CHECK(check_self(s, &h, LF_ENGINE_AUTO, 0, &r) == LF_UNKNOWN && strstr(r.reason, "malformed"));
    lf_result_free(&r);
    lf_history_free(&h);
    lf_selfspec_free(s);
}

/* ---- the two levels on the committed violations (the Line-Up catalogue K1, K3, K4, and the others) ---- */

/* Whether h is a violation only because of its capacity (its full answers, or more values than fit): the models
 * of model_oracle.h are unbounded, so they stand for the spec of such a history only without it. */
static bool needs_capacity(const lf_history *h) {
    if (!h->capacity) return false;
    for (size_t i = 0; i < h->n; i++)
        if (h->ops[i].res_kind == LF_K_FULL) return true;
    lf_history unbounded;
    lf_history_copy(&unbounded, h);
    unbounded.capacity = 0;
    lf_result r;
    lf_result_init(&r);
    lf_check_options o;
    lf_check_options_default(&o);
    lf_check(&unbounded, &o, &r);
    bool needs = r.verdict == LF_LINEARIZABLE;
    lf_result_free(&r);
    lf_history_free(&unbounded);
    return needs;
}

static void test_catalogue_levels(void) {
    const char *root = LINFUZZ_SOURCE_DIR "/corpus";
    DIR *d = opendir(root);
    CHECK(d != NULL);
    if (!d) return;
    size_t checked = 0, catalogue = 0;
    struct dirent *de;
    while ((de = readdir(d))) {
        if (de->d_name[0] == '.') continue;
        char dir[512];
        snprintf(dir, sizeof dir, "%s/%s/violations", root, de->d_name);
        DIR *v = opendir(dir);
        if (!v) continue;
        bool in_catalogue = false;
        struct dirent *ve;
        while ((ve = readdir(v))) {
            if (!strstr(ve->d_name, ".lfz")) continue;
            char path[1024], err[512];
            snprintf(path, sizeof path, "%s/%s", dir, ve->d_name);
            lf_violation_entry e;
            if (lf_entry_load(path, &e, err, sizeof err) != LF_OK) continue;
            const lf_history *h = &e.minimized;
            const char *finding = lf_entry_meta(&e, "finding");
            /* a STUCK entry (about progress) or a CRASH entry (a memory error): no violation */
            bool stuck = finding && (!strcmp(finding, "stuck") || !strcmp(finding, "crash"));
            /* (the model knows neither contracts nor bulk ops: those entries are the built-in specs') */
            if (h->type != LF_TYPE_CUSTOM && !stuck && !needs_capacity(h) && lf_contract_is_default(&h->contract) &&
                !lf_history_has_bulk(h)) {
                model m;
                lf_oracle oracle = model_oracle(&m, h->type, true);
                lf_selfspec *s = lf_selfspec_new(&oracle, NULL);
                lf_result r;
                check_self(s, h, LF_ENGINE_AUTO, 0, &r);
                lf_level want = brute_level(h);
                if (want == LF_LEVEL_NONE) { /* too large for brute force (a one-key set run keeps what overlaps) */
                    CHECKF(r.verdict == LF_VIOLATION, "%s: %s: %s", path, lf_verdict_name(r.verdict), r.reason);
                    lf_result_free(&r);
                    lf_selfspec_free(s);
                    lf_entry_free(&e);
                    continue;
                }
                CHECKF(r.verdict == LF_VIOLATION && r.level == want && want != LF_LEVEL_NONE,
                       "%s: %s level %d (brute force %d): %s", path, lf_verdict_name(r.verdict), r.level, want,
                       r.reason);
                /* the report names ops: "op N (...)" */
                CHECKF(strstr(r.reason, "op ") && strstr(r.reason, want == LF_LEVEL_REAL_TIME ? "only orders that real "
                                                                                                   "time rules out"
                                                                                                 : "no serial order"),
                       "%s: %s", path, r.reason);
                bool k = !strncmp(de->d_name, "k1_", 3) || !strncmp(de->d_name, "k3_", 3) ||
                         !strncmp(de->d_name, "k4_", 3);
                catalogue += k && !in_catalogue; /* adapters, not entries: each has a free and a controlled one */
                in_catalogue |= k;
                if (k) printf("  %s [%s]: %s\n", de->d_name, lf_level_name(r.level), r.reason);
                checked++;
                lf_result_free(&r);
                lf_selfspec_free(s);
            }
            lf_entry_free(&e);
        }
        closedir(v);
    }
    closedir(d);
    printf("levels of the committed violations: %zu entries, %zu of the Line-Up catalogue\n", checked, catalogue);
    CHECK(checked >= 12 && catalogue == 3);
}

int main(void) {
    test_agreement();
    test_agreement_longer();
    test_hitting_depths();
    test_memo();
    test_nondeterminism();
    test_declared_flags();
    test_refusals();
    test_catalogue_levels();
    TEST_DONE();
}
