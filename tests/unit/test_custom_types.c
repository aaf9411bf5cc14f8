/* Custom types end to end in the checking library: declarations (checks, equality, copies), the registry,
 * the text format's `method` lines and the .lfz declaration block (round trips, every malformed declaration
 * with its file and line), histories that own their declaration (copy, select, free under ASan), and checking
 * with a custom spec: auto, wgl and hitting against an independent brute force over orders on random
 * histories, the two levels of a violation, minimisation and reports. */
#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "history_test_util.h"
#include "linfuzz/check.h"
#include "linfuzz/format.h"
#include "linfuzz/generate.h"
#include "linfuzz/history.h"
#include "linfuzz/lfz.h"
#include "linfuzz/minimize.h"
#include "linfuzz/report.h"
#include "linfuzz/spec.h"
#include "minimize/initial_prefix.h"
#include "test_util.h"
#include "witness_util.h"

/* ---- a custom type: an account (deposit v; withdraw v -> ok|fail; balance -> v, an observer) ---- */

enum { DEPOSIT, WITHDRAW, BALANCE };

static bool acct_step(void *ctx, const void *state, const lf_op *op, void *next) {
    (void)ctx;
    int64_t b;
    memcpy(&b, state, sizeof b);
    bool pending = lf_op_pending(op);
    switch (op->method) {
    case DEPOSIT:
        b += op->arg[0];
        break;
    case WITHDRAW: {
        bool ok = b >= op->arg[0];
        if (!pending && (op->res_kind == LF_K_OK) != ok) return false;
        if (ok) b -= op->arg[0];
        break;
    }
    case BALANCE:
        if (!pending && op->res != b) return false;
        break;
    default: return false;
    }
    memcpy(next, &b, sizeof b);
    return true;
}

static void acct_init(void *ctx, void *state) {
    (void)ctx;
    memset(state, 0, sizeof(int64_t));
}

static bool acct_observer(const lf_op *op) { return op->method == BALANCE; }

static const lf_spec ACCT_SPEC = {
    .name = "acct", .state_size = sizeof(int64_t), .init = acct_init, .step = acct_step, .observer = acct_observer,
};

static const lf_method_decl ACCT_METHODS[] = {
    {"deposit", 1, LF_KBIT(LF_K_NONE), 0},
    {"withdraw", 1, LF_KBIT(LF_K_OK) | LF_KBIT(LF_K_FAIL), 0},
    {"balance", 0, LF_KBIT(LF_K_INT), LF_MF_OBSERVER},
};
static const lf_type_desc ACCT = {"acct", ACCT_METHODS, 3, &ACCT_SPEC};
/* The same declaration without a spec, and another type under the same name. */
static const lf_type_desc ACCT_NOSPEC = {"acct", ACCT_METHODS, 3, NULL};

#define DECL "type acct\nmethod deposit 1\nmethod withdraw 1 -> ok|fail\nmethod balance 0 -> int observer\n"

/* h alone as .lfz bytes (malloc'ed), in a section "history". */
static lf_status lfz_encode_history(const lf_history *h, uint8_t **bytes, size_t *len, char *err, size_t errlen) {
    lf_lfz_writer w;
    lf_lfz_writer_init(&w);
    lf_status s = lf_lfz_add_history(&w, "history", h, err, errlen);
    if (s == LF_OK) s = lf_lfz_encode(&w, 3, bytes, len, err, errlen);
    lf_lfz_writer_free(&w);
    return s;
}

static void test_declarations(void) {
    char err[256];
    CHECKF(lf_type_desc_check(&ACCT, err, sizeof err), "%s", err);
    static const lf_method_decl bad_name[] = {{"Deposit", 1, LF_KBIT(LF_K_NONE), 0}};
    static const lf_method_decl bad_args[] = {{"d", 5, LF_KBIT(LF_K_NONE), 0}};
    static const lf_method_decl bad_res[] = {{"d", 1, LF_KBIT(LF_K_NONE) | LF_KBIT(LF_K_INT), 0}};
    static const lf_method_decl pending_res[] = {{"d", 1, LF_KBIT(LF_K_PENDING), 0}};
    static const lf_method_decl bad_flags[] = {{"d", 1, LF_KBIT(LF_K_NONE), 64}};
    static const lf_method_decl twice[] = {{"d", 1, LF_KBIT(LF_K_NONE), 0}, {"d", 0, LF_KBIT(LF_K_INT), 0}};
    struct {
        lf_type_desc d;
        const char *msg;
    } cases[] = {
        {{"queue", ACCT_METHODS, 3, NULL}, "is a built-in type"},
        {{"Acct", ACCT_METHODS, 3, NULL}, "is not [a-z]"},
        {{"", ACCT_METHODS, 3, NULL}, "is not [a-z]"},
        {{"acct", ACCT_METHODS, 0, NULL}, "declares 0 methods"},
        {{"acct", bad_name, 1, NULL}, "method 0: name 'Deposit'"},
        {{"acct", bad_args, 1, NULL}, "5 arguments; at most 4"},
        {{"acct", bad_res, 1, NULL}, "results must be none alone"},
        {{"acct", pending_res, 1, NULL}, "results must be none alone"},
        {{"acct", bad_flags, 1, NULL}, "unknown flags 0x40"},
        {{"acct", twice, 2, NULL}, "method d is declared twice"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        err[0] = 0;
        CHECKF(!lf_type_desc_check(&cases[i].d, err, sizeof err) && strstr(err, cases[i].msg), "case %zu: '%s'", i,
               err);
    }
    lf_type_desc *copy = lf_type_desc_dup(&ACCT);
    CHECK(copy && lf_type_desc_equal(copy, &ACCT) && copy->spec == &ACCT_SPEC && copy->name != ACCT.name);
    lf_type_desc_free(copy);
    CHECK(lf_type_desc_equal(&ACCT, &ACCT_NOSPEC));
    lf_method_decl other[3];
    memcpy(other, ACCT_METHODS, sizeof other);
    other[2].flags = 0;
    lf_type_desc d2 = {"acct", other, 3, NULL};
    CHECK(!lf_type_desc_equal(&ACCT, &d2));
    char line[128];
    lf_method_decl_format(line, sizeof line, &ACCT_METHODS[1]);
    CHECKF(!strcmp(line, "method withdraw 1 -> ok|fail"), "'%s'", line);
    lf_method_decl_format(line, sizeof line, &ACCT_METHODS[2]);
    CHECKF(!strcmp(line, "method balance 0 -> int observer"), "'%s'", line);
    lf_method_decl all = {"x", 2, LF_KBIT(LF_K_INT) | LF_KBIT(LF_K_NIL) | LF_KBIT(LF_K_EMPTY), LF_MF_ALL};
    lf_method_decl_format(line, sizeof line, &all);
    CHECKF(!strcmp(line, "method x 2 -> int|nil|empty observer nondet blocks keyed"), "'%s'", line);
}

/* ---- formats ---- */

static const char *ACCT_TEXT = "# linfuzz history 1\n" DECL "0 1 4 deposit 5\n1 2 3 withdraw 3 -> fail\n"
                               "1 5 6 withdraw 3 -> ok\n0 7 8 balance -> 2\n2 1 ? withdraw nil\n";

static void test_text_and_lfz(void) {
    lf_history h, h2;
    char err[512];
    lf_status s = lf_text_read_buffer(ACCT_TEXT, strlen(ACCT_TEXT), "a.hist", &h, err, sizeof err);
    CHECKF(s == LF_OK, "%s", err);
    if (s) return;
    CHECK(h.type == LF_TYPE_CUSTOM && h.custom && h.custom_owned == h.custom && h.n == 5);
    CHECK(!strcmp(lf_history_type_name(&h), "acct") && h.ops[1].method == WITHDRAW && h.ops[1].res_kind == LF_K_FAIL);
    CHECK(h.ops[4].arg_nil == 1 && lf_op_pending(&h.ops[4]));
    char *out = history_text(&h);
    CHECKF(out && !strcmp(out, ACCT_TEXT), "canonical text:\n%s", out ? out : "(null)");
    free(out);
    char d[128];
    lf_history_describe_op(&h, &h.ops[2], d, sizeof d);
    CHECKF(!strcmp(d, "t1 [5,6] withdraw 3 -> ok"), "'%s'", d);
    CHECK(lf_history_validate(&h, err, sizeof err) == SIZE_MAX);

    /* .lfz round trip */
    uint8_t *bytes = NULL;
    size_t len = 0;
    s = lfz_encode_history(&h, &bytes, &len, err, sizeof err);
    CHECKF(s == LF_OK, "%s", err);
    lf_lfz_reader r;
    s = s ? s : lf_lfz_decode(&r, bytes, len, "a.lfz", err, sizeof err);
    CHECKF(s == LF_OK, "%s", err);
    if (s == LF_OK) {
        s = lf_lfz_get_history(&r, lf_lfz_history_section(&r, 0), &h2, err, sizeof err);
        CHECKF(s == LF_OK, "%s", err);
        if (s == LF_OK) {
            CHECK(h2.type == LF_TYPE_CUSTOM && lf_type_desc_equal(h2.custom, h.custom) && h2.n == h.n &&
                  !memcmp(h2.ops, h.ops, h.n * sizeof *h.ops));
            lf_history_free(&h2);
        }
        lf_lfz_reader_free(&r);
        /* every flipped byte is refused, never a crash (the checksums see to it) */
        for (size_t i = 0; i < len; i += 7) {
            bytes[i] ^= 0x20;
            if (lf_lfz_decode(&r, bytes, len, "x.lfz", err, sizeof err) == LF_OK) lf_lfz_reader_free(&r);
            bytes[i] ^= 0x20;
        }
    }
    free(bytes);

    /* the init byte 3 means a capacity after a built-in container's name and a declaration after a custom
     * type's (both extensions of version 1, from two lines of development): one file holds both kinds */
    {
        static const char BOUNDED[] = "type queue\ncapacity 2\n0 1 2 enq 5\n0 3 4 enq 6\n1 5 6 enq 7 -> full\n";
        lf_history q, q2, c2;
        CHECK(lf_text_read_buffer(BOUNDED, strlen(BOUNDED), "q.hist", &q, err, sizeof err) == LF_OK);
        lf_lfz_writer w2;
        lf_lfz_writer_init(&w2);
        uint8_t *b2 = NULL;
        size_t l2 = 0;
        s = lf_lfz_add_history(&w2, "bounded", &q, err, sizeof err);
        if (s == LF_OK) s = lf_lfz_add_history(&w2, "custom", &h, err, sizeof err);
        if (s == LF_OK) s = lf_lfz_encode(&w2, 3, &b2, &l2, err, sizeof err);
        lf_lfz_writer_free(&w2);
        CHECKF(s == LF_OK, "%s", err);
        lf_lfz_reader r2;
        if (s == LF_OK && (s = lf_lfz_decode(&r2, b2, l2, "both.lfz", err, sizeof err)) == LF_OK) {
            CHECKF(lf_lfz_get_history(&r2, lf_lfz_history_section(&r2, 0), &q2, err, sizeof err) == LF_OK, "%s", err);
            CHECKF(lf_lfz_get_history(&r2, lf_lfz_history_section(&r2, 1), &c2, err, sizeof err) == LF_OK, "%s", err);
            CHECK(q2.type == LF_TYPE_QUEUE && q2.capacity == 2 && q2.n == 3 && q2.ops[2].res_kind == LF_K_FULL);
            CHECK(c2.type == LF_TYPE_CUSTOM && c2.capacity == 0 && lf_type_desc_equal(c2.custom, h.custom));
            lf_history_free(&q2);
            lf_history_free(&c2);
            lf_lfz_reader_free(&r2);
        }
        CHECKF(s == LF_OK, "%s", err);
        free(b2);
        lf_history_free(&q);
    }

    /* copies and selections of a history that owns its declaration outlive it */
    lf_history c, sel;
    CHECK(lf_history_copy(&c, &h));
    bool keep[5] = {true, false, true, false, true};
    CHECK(lf_history_select(&sel, &h, keep));
    lf_history_free(&h);
    CHECK(c.custom_owned && !strcmp(lf_history_type_name(&c), "acct") && sel.n == 3 &&
          !strcmp(lf_history_method(&sel, sel.ops[1].method)->name, "withdraw"));
    lf_history e;
    lf_history_init(&e, LF_TYPE_QUEUE);
    CHECK(lf_history_set_type_of(&e, &sel) && e.custom_owned && e.custom_owned != sel.custom_owned);
    CHECK(lf_history_set_type_of(&e, &c) && lf_type_desc_equal(e.custom, c.custom));
    lf_history_free(&e);
    lf_history_free(&c);
    lf_history_free(&sel);
}

#define EXPECT_ERROR(text, line, fragment) expect_error(text, line, fragment, __LINE__)

static void expect_error(const char *text, int line, const char *fragment, int at) {
    lf_history h;
    char err[512], want[32];
    lf_status s = lf_text_read_buffer(text, strlen(text), "bad.hist", &h, err, sizeof err);
    snprintf(want, sizeof want, "bad.hist:%d: ", line);
    CHECKF(s == LF_ERR_FORMAT && !strncmp(err, want, strlen(want)) && strstr(err, fragment),
           "line %d: status %d, message '%s' (want '%s...%s')", at, s, err, want, fragment);
    if (s == LF_OK) lf_history_free(&h);
}

static void test_malformed_declarations(void) {
    EXPECT_ERROR("type acct\n", 1, "unknown type 'acct'");
    EXPECT_ERROR("type acct\n0 1 2 deposit 1\n", 1, "unknown type 'acct'");
    EXPECT_ERROR("method deposit 1\ntype acct\n", 1, "'method' before the 'type' line");
    EXPECT_ERROR("type queue\nmethod size 0 -> int\n", 2, "'method' lines declare custom types; queue is built in");
    EXPECT_ERROR(DECL "0 1 2 deposit 1\nmethod x 0\n", 6, "'method' after the first operation");
    EXPECT_ERROR("type acct\nmethod deposit\n", 2, "expected 'method <name> <arguments>");
    EXPECT_ERROR("type acct\nmethod deposit 5\n", 2, "the number of arguments '5' is not 0..4");
    EXPECT_ERROR("type acct\nmethod deposit x\n", 2, "the number of arguments 'x'");
    EXPECT_ERROR("type acct\nmethod deposit 1 ->\n", 2, "'->' without result kinds");
    EXPECT_ERROR("type acct\nmethod get 1 -> int|value\n", 2, "'value' is not a result kind");
    EXPECT_ERROR("type acct\nmethod get 1 -> int|\n", 2, "'' is not a result kind");
    EXPECT_ERROR("type acct\nmethod get 1 -> int|int\n", 2, "result kind int given twice");
    EXPECT_ERROR("type acct\nmethod get 1 -> pending\n", 2, "'pending' is not a result kind");
    EXPECT_ERROR("type acct\nmethod get 1 -> ? \n", 2, "'?' is not a result kind");
    EXPECT_ERROR("type acct\nmethod get 1 observe\n", 2, "'observe' is not a flag");
    EXPECT_ERROR("type acct\nmethod get 1 observer -> int\n", 2, "'->' comes right after the number of arguments");
    EXPECT_ERROR("type acct\nmethod get 1 blocks blocks\n", 2, "flag blocks given twice");
    EXPECT_ERROR("type acct\nmethod Get 1\n", 2, "name 'Get'");
    EXPECT_ERROR("type acct\nmethod get 1\nmethod get 0\n", 3, "method get is declared twice");
    EXPECT_ERROR("type acct\nmethod abcdefghijabcdefghijabcdefghijabc 1\n", 2, "method name of 33 characters");
    EXPECT_ERROR("type Acct\nmethod get 0\n", 1, "unknown type 'Acct'");
    EXPECT_ERROR("type abcdefghijabcdefghijabcdefghijabc\nmethod get 0\n", 1, "unknown type");
    EXPECT_ERROR(DECL "0 1 2 deposit\n", 5, "deposit takes 1 argument, got 0");
    EXPECT_ERROR(DECL "0 1 2 withdraw 1\n", 5, "missing result: withdraw needs");
    EXPECT_ERROR(DECL "0 1 2 withdraw 1 -> 5\n", 5, "withdraw cannot return an integer");
    EXPECT_ERROR(DECL "0 1 2 deposit 1 -> ok\n", 5, "deposit has no result");
    EXPECT_ERROR(DECL "0 1 2 size -> 1\n", 5, "unknown method 'size' for type acct");
    EXPECT_ERROR(DECL "init 0\n", 5, "'init' is only allowed for register types, not acct");
    EXPECT_ERROR(DECL "0 1 5 deposit 1\n0 4 6 balance -> 1\n", 6, "ops of thread 0 overlap");
    char many[2048] = "type acct\n";
    for (int i = 0; i < 17; i++) snprintf(many + strlen(many), sizeof many - strlen(many), "method m%d 0\n", i);
    EXPECT_ERROR(many, 18, "declares more than 16 methods");
}

/* ---- the registry ---- */

static void test_registry(void) {
    char err[256];
    CHECKF(lf_type_register(&ACCT, err, sizeof err), "%s", err);
    CHECK(lf_type_register(&ACCT_NOSPEC, err, sizeof err)); /* equal declaration: fine, keeps the spec */
    CHECK(lf_type_find("acct", 4) == &ACCT);
    lf_method_decl other[1] = {{"deposit", 2, LF_KBIT(LF_K_NONE), 0}};
    lf_type_desc clash = {"acct", other, 1, NULL};
    CHECK(!lf_type_register(&clash, err, sizeof err) && strstr(err, "registered already"));
    CHECK(lf_type_find("acc", 3) == NULL);
    /* a file declaring the registered type gets it (with its spec); another declaration gets its own */
    lf_history h;
    CHECK(lf_text_read_buffer(ACCT_TEXT, strlen(ACCT_TEXT), "a.hist", &h, err, sizeof err) == LF_OK);
    CHECK(h.custom == &ACCT && !h.custom_owned && lf_spec_of_history(&h) == &ACCT_SPEC);
    lf_history_free(&h);
    const char *other_text = "type acct\nmethod deposit 1\n0 1 2 deposit 4\n";
    CHECK(lf_text_read_buffer(other_text, strlen(other_text), "b.hist", &h, err, sizeof err) == LF_OK);
    CHECK(h.custom_owned && h.custom != &ACCT && !lf_spec_of_history(&h));
    lf_result r;
    lf_result_init(&r);
    lf_check_options o;
    lf_check_options_default(&o);
    lf_check(&h, &o, &r);
    CHECKF(r.verdict == LF_UNKNOWN && strstr(r.reason, "no specification for type acct"), "%s", r.reason);
    lf_result_free(&r);
    lf_history_free(&h);
}

/* ---- checking with a custom spec ---- */

/* Brute force: is there an order of the ops, respecting real time, with every completed op and any subset
 * of pending ops placed after their calls, that the spec accepts? (Recursive over the ops not yet placed.) */
static bool brute_search(const lf_history *h, bool *done, size_t left, int64_t balance) {
    if (left == 0) return true;
    bool any_completed_left = false;
    for (size_t i = 0; i < h->n; i++) any_completed_left |= !done[i] && !lf_op_pending(&h->ops[i]);
    if (!any_completed_left) return true; /* the pending ops left never take effect */
    for (size_t i = 0; i < h->n; i++) {
        if (done[i]) continue;
        bool minimal = true; /* no op left that must precede it */
        for (size_t j = 0; j < h->n && minimal; j++)
            if (!done[j] && j != i && lf_precedes(&h->ops[j], &h->ops[i])) minimal = false;
        if (!minimal) continue;
        int64_t next;
        if (!acct_step(NULL, &balance, &h->ops[i], &next)) continue;
        done[i] = true;
        bool ok = brute_search(h, done, left - 1, next);
        done[i] = false;
        if (ok) return true;
    }
    return false;
}

static bool brute_linearizable(const lf_history *h) {
    bool *done = calloc(h->n ? h->n : 1, 1);
    bool ok = brute_search(h, done, h->n, 0);
    free(done);
    return ok;
}

/* A random acct history of n ops on up to 3 threads: a serial run with results from the spec, intervals
 * stretched around it, then sometimes a result corrupted. */
static void random_acct(uint64_t seed, lf_history *h) {
    lf_rng rng;
    lf_rng_seed(&rng, seed);
    lf_history_init_custom(h, &ACCT);
    size_t n = 2 + lf_rng_below(&rng, 6);
    unsigned threads = 1 + (unsigned)lf_rng_below(&rng, 3);
    uint64_t free_at[3] = {0, 0, 0}, point = 0;
    int64_t balance = 0;
    for (size_t i = 0; i < n; i++) {
        lf_op op;
        memset(&op, 0, sizeof op);
        op.method = (uint8_t)lf_rng_below(&rng, 3);
        op.thread = (uint32_t)lf_rng_below(&rng, threads);
        /* linearization points increase; each op's interval holds its point, its thread stays sequential */
        point += 1 + lf_rng_below(&rng, 12);
        if (point <= free_at[op.thread]) point = free_at[op.thread] + 1;
        uint64_t back = lf_rng_below(&rng, 20);
        op.call = point > back ? point - back : 1;
        if (op.call <= free_at[op.thread]) op.call = free_at[op.thread] + 1;
        op.ret = point + lf_rng_below(&rng, 20);
        free_at[op.thread] = op.ret;
        op.arg[0] = 1 + (int64_t)lf_rng_below(&rng, 4);
        if (op.method == DEPOSIT) {
            balance += op.arg[0];
            op.res_kind = LF_K_NONE;
        } else if (op.method == WITHDRAW) {
            op.res_kind = balance >= op.arg[0] ? LF_K_OK : LF_K_FAIL;
            if (op.res_kind == LF_K_OK) balance -= op.arg[0];
        } else {
            op.arg[0] = 0;
            op.res_kind = LF_K_INT;
            op.res = balance;
        }
        if (lf_rng_below(&rng, 3) == 0) { /* corrupt */
            if (op.method == WITHDRAW) op.res_kind = op.res_kind == LF_K_OK ? LF_K_FAIL : LF_K_OK;
            if (op.method == BALANCE) op.res += lf_rng_below(&rng, 2) ? 1 : -1;
        }
        lf_history_push(h, &op);
    }
    if (lf_rng_below(&rng, 4) == 0) { /* the last op of some thread becomes pending */
        lf_op *last = &h->ops[h->n - 1];
        last->res_kind = LF_K_PENDING;
        last->res = 0;
        last->ret = 0;
    }
}

static void test_check_with_spec(void) {
    size_t lin = 0, vio = 0, level[3] = {0, 0, 0};
    for (uint64_t seed = 1; seed <= 1500; seed++) {
        lf_history h;
        random_acct(seed, &h);
        bool expect = brute_linearizable(&h);
        lin += expect;
        vio += !expect;
        static const lf_engine engines[] = {LF_ENGINE_AUTO, LF_ENGINE_WGL, LF_ENGINE_HITTING};
        for (size_t e = 0; e < 3; e++) {
            lf_check_options o;
            lf_check_options_default(&o);
            o.engine = engines[e];
            o.want_witness = true;
            o.max_depth = engines[e] == LF_ENGINE_HITTING ? 8 : 0;
            lf_result r;
            lf_result_init(&r);
            lf_check(&h, &o, &r);
            if (engines[e] == LF_ENGINE_HITTING) {
                CHECKF(r.verdict == (expect ? LF_LINEARIZABLE : LF_UNKNOWN), "seed %" PRIu64 ": hitting says %s",
                       seed, lf_verdict_name(r.verdict));
            } else {
                CHECKF(r.verdict == (expect ? LF_LINEARIZABLE : LF_VIOLATION), "seed %" PRIu64 " engine %s: %s %s",
                       seed, lf_engine_name(engines[e]), lf_verdict_name(r.verdict), r.reason);
            }
            if (r.verdict == LF_LINEARIZABLE)
                CHECKF(witness_valid(&h, r.witness, r.witness_len), "seed %" PRIu64 ": bad witness", seed);
            if (r.verdict == LF_VIOLATION) {
                /* the level agrees with the brute force on the history without real time */
                lf_history relaxed;
                lf_history_copy(&relaxed, &h);
                for (size_t i = 0; i < relaxed.n; i++) {
                    relaxed.ops[i].call = 1;
                    if (!lf_op_pending(&relaxed.ops[i])) relaxed.ops[i].ret = 2;
                }
                lf_level want = brute_linearizable(&relaxed) ? LF_LEVEL_REAL_TIME : LF_LEVEL_NO_SERIAL_ORDER;
                CHECKF(r.level == want, "seed %" PRIu64 ": level %d, want %d (%s)", seed, r.level, want, r.reason);
                CHECKF(!strncmp(r.reason, want == LF_LEVEL_REAL_TIME ? "only orders" : "no serial order", 10),
                       "seed %" PRIu64 ": %s", seed, r.reason);
                if (e == 0) level[r.level]++;
                lf_history_free(&relaxed);
            }
            lf_result_free(&r);
        }
        lf_history_free(&h);
    }
    printf("custom spec: %zu linearizable, %zu violations (%zu no serial order, %zu real time)\n", lin, vio, level[1],
           level[2]);
    CHECK(lin > 300 && vio > 300 && level[1] > 50 && level[2] > 50);
}

/* The monitors and brute force do not pretend to know custom types. */
static void test_other_engines(void) {
    lf_history h;
    char err[256];
    CHECK(lf_text_read_buffer(ACCT_TEXT, strlen(ACCT_TEXT), "a.hist", &h, err, sizeof err) == LF_OK);
    static const lf_engine engines[] = {LF_ENGINE_MONITOR, LF_ENGINE_BRUTE};
    for (size_t e = 0; e < 2; e++) {
        lf_check_options o;
        lf_check_options_default(&o);
        o.engine = engines[e];
        lf_result r;
        lf_result_init(&r);
        lf_check(&h, &o, &r);
        CHECKF(r.verdict == LF_UNKNOWN && strstr(r.reason, "acct"), "%s", r.reason);
        lf_result_free(&r);
    }
    lf_gen_options go;
    lf_gen_options_default(&go);
    go.type = LF_TYPE_CUSTOM;
    lf_history g;
    CHECK(!lf_gen_history(&go, &g, err, sizeof err));
    lf_history_free(&h);
}

/* Minimisation keeps a custom violation a violation with the reductions that hold for any spec (observers, the
 * cut, a prefix that returns to the initial state); the report renders with the declaration and the level as
 * its shape. */
static void test_minimize_and_report(void) {
    const char *text = DECL "0 1 2 deposit 5\n1 3 4 balance -> 5\n0 5 6 withdraw 5 -> ok\n1 7 8 balance -> 5\n"
                            "0 9 10 deposit 1\n1 11 12 balance -> 1\n";
    lf_history h, m;
    char err[256];
    CHECK(lf_text_read_buffer(text, strlen(text), "m.hist", &h, err, sizeof err) == LF_OK);
    lf_minimize_options mo;
    lf_minimize_options_default(&mo);
    lf_minimize_stats ms;
    CHECK(lf_minimize(&h, &mo, &m, &ms) == LF_VIOLATION);
    /* balance -> 5 after withdraw 5 -> ok is the impossible return: the cut (first, on the history as recorded)
     * keeps 4 ops and drops deposit 1 and balance -> 1, the other balance goes, and deposit 5; withdraw 5 -> ok
     * returns to the initial state in every order: what remains is balance -> 5, the first impossible return */
    CHECKF(m.n == 1 && ms.cut && ms.ops_cut == 2 && ms.suffix && ms.ops_before_suffix == 2 &&
               ms.observers_dropped == 1 && ms.first_bad && ms.first_bad_stamp == 8 && m.ops[0].ret == 8,
           "%zu ops, cut %d (%zu), suffix %d, %zu %zu", m.n, ms.cut, ms.ops_cut, ms.suffix, ms.ops_before_suffix,
           ms.observers_dropped);
    lf_check_options o;
    lf_check_options_default(&o);
    lf_result r;
    lf_result_init(&r);
    lf_check(&m, &o, &r);
    CHECK(r.verdict == LF_VIOLATION && r.level == LF_LEVEL_NO_SERIAL_ORDER);
    lf_report_input in = {.adapter = "acct_test", .history = &m, .why = &r, .n_why = 1};
    char *rep = lf_report_render(&in);
    CHECKF(rep && strstr(rep, "type=acct  shape=NO_SERIAL_ORDER") && strstr(rep, "method withdraw 1 -> ok|fail\n") &&
               strstr(rep, "balance -> 5"),
           "%s", rep ? rep : "(null)");
    free(rep);
    lf_result_free(&r);
    /* before the prefix drop (no forced prefix), the level is the real-time one */
    lf_history m2;
    mo.drop_forced_prefix = false;
    CHECK(lf_minimize(&h, &mo, &m2, &ms) == LF_VIOLATION && m2.n == 3);
    lf_result_init(&r);
    lf_check(&m2, &o, &r);
    CHECK(r.verdict == LF_VIOLATION && r.level == LF_LEVEL_REAL_TIME && strstr(r.reason, "withdraw 5 -> ok"));
    lf_violation_sig sig;
    lf_violation_signature(&m2, ms.cut, ms.cut_stamp, &sig);
    CHECKF(!strcmp(sig.type, "acct") && !strcmp(sig.shape, "CUSTOM_RESULT") &&
               !strcmp(sig.methods, "deposit*1,withdraw*1,balance*1") && !strcmp(sig.cut_method, "balance"),
           "%s %s %s %s", sig.type, sig.shape, sig.methods, sig.cut_method);
    lf_history_free(&m2);
    lf_result_free(&r);
    lf_history_free(&m);
    lf_history_free(&h);
}

/* Brute force over orders: does some complete order (respecting real time and the spec) end with balance != 0?
 * *complete: whether any order completes at all. */
static bool some_order_ends_elsewhere(const lf_history *h, bool *done, size_t left, int64_t balance, bool *complete) {
    if (left == 0) {
        *complete = true;
        return balance != 0;
    }
    for (size_t i = 0; i < h->n; i++) {
        if (done[i]) continue;
        bool minimal = true;
        for (size_t j = 0; j < h->n && minimal; j++)
            if (!done[j] && j != i && lf_precedes(&h->ops[j], &h->ops[i])) minimal = false;
        int64_t next;
        if (!minimal || !acct_step(NULL, &balance, &h->ops[i], &next)) continue;
        done[i] = true;
        bool r = some_order_ends_elsewhere(h, done, left - 1, next, complete);
        done[i] = false;
        if (r) return true;
    }
    return false;
}

/* The events of h up to stamp t (the returns at t left out when before_t): ops returned by then kept, ops
 * called by then made pending, later ops dropped. */
static void acct_prefix(const lf_history *h, uint64_t t, bool before_t, lf_history *out) {
    lf_history_init_custom(out, &ACCT);
    for (size_t i = 0; i < h->n; i++) {
        lf_op op = h->ops[i];
        if (op.call > t) continue;
        if (!lf_op_pending(&op) && (op.ret > t || (before_t && op.ret == t))) {
            op.res_kind = LF_K_PENDING;
            op.ret = op.res = 0;
        }
        lf_history_push(out, &op);
    }
}

/* The first impossible return of h by the brute force: the smallest return stamp whose prefix is a violation. */
static bool acct_first_bad(const lf_history *h, uint64_t *t) {
    bool found = false;
    for (size_t i = 0; i < h->n; i++) {
        if (lf_op_pending(&h->ops[i]) || (found && h->ops[i].ret >= *t)) continue;
        lf_history p;
        acct_prefix(h, h->ops[i].ret, false, &p);
        if (!brute_linearizable(&p)) *t = h->ops[i].ret, found = true;
        lf_history_free(&p);
    }
    return found;
}

/* The minimiser's generic forced state: every order of a prefix returns to the initial state. Against the brute
 * force on random completed histories; then minimisation of random violations stays a violation for it, and
 * keeps the first impossible return (found here by the brute force): the op that returned there stays, and
 * the minimized history is linearizable just before it. */
static void test_initial_prefix_and_minimize(void) {
    size_t forced = 0, not_forced = 0, suffix_used = 0, minimized = 0, first_bad_kept = 0;
    for (uint64_t seed = 1; seed <= 1500; seed++) {
        lf_history h;
        random_acct(seed, &h);
        /* prefixes have no pending op: the pending one becomes a completed deposit */
        for (size_t i = 0; i < h.n; i++)
            if (lf_op_pending(&h.ops[i])) {
                h.ops[i].res_kind = LF_K_NONE;
                h.ops[i].method = DEPOSIT;
                h.ops[i].ret = h.ops[i].call;
            }
        bool *done = calloc(h.n, 1), complete = false;
        bool elsewhere = some_order_ends_elsewhere(&h, done, h.n, 0, &complete);
        free(done);
        lf_spec_env env;
        lf_spec_env_of_history(&h, &env);
        int r = lf_prefix_returns_to_initial(&ACCT_SPEC, &env, 1000000);
        CHECKF(r == (elsewhere ? 0 : 1), "seed %" PRIu64 ": %d, brute force: some order ends elsewhere %d", seed, r,
               elsewhere);
        forced += r == 1 && complete;
        not_forced += r == 0;
        lf_history_free(&h);
    }
    for (uint64_t seed = 1; seed <= 1500; seed++) {
        lf_history h, m;
        random_acct(seed * 7 + 3, &h);
        if (brute_linearizable(&h)) {
            lf_history_free(&h);
            continue;
        }
        lf_minimize_options mo;
        lf_minimize_options_default(&mo);
        lf_minimize_stats ms;
        CHECK(lf_minimize(&h, &mo, &m, &ms) == LF_VIOLATION);
        CHECKF(!brute_linearizable(&m) && m.n <= h.n, "seed %" PRIu64 ": the minimized history is not a violation",
               seed);
        uint64_t t = 0;
        CHECK(acct_first_bad(&h, &t));
        CHECKF(ms.first_bad && ms.first_bad_stamp == t, "seed %" PRIu64 ": first impossible return %" PRIu64
               ", the minimizer says %" PRIu64, seed, t, ms.first_bad_stamp);
        bool kept = false;
        for (size_t i = 0; i < m.n; i++)
            for (size_t j = 0; j < h.n && !kept; j++)
                kept = !lf_op_pending(&m.ops[i]) && m.ops[i].ret == t && 
                       !memcmp(&m.ops[i], &h.ops[j], sizeof(lf_op));
        lf_history before;
        acct_prefix(&m, t, true, &before);
        CHECKF(kept && brute_linearizable(&before), "seed %" PRIu64 ": the first impossible return (%" PRIu64
               ") is %s", seed, t, kept ? "not the minimized history's first" : "gone");
        first_bad_kept += kept;
        lf_history_free(&before);
        suffix_used += ms.suffix;
        minimized++;
        lf_history_free(&m);
        lf_history_free(&h);
    }
    printf("initial prefixes: %zu forced, %zu not (as the brute force); %zu violations minimized, %zu of them after "
           "dropping a prefix, the first impossible return kept in %zu\n",
           forced, not_forced, minimized, suffix_used, first_bad_kept);
    CHECK(forced > 100 && not_forced > 100 && minimized > 500 && suffix_used > 20 && first_bad_kept == minimized);
}


/* ---- methods of three and four arguments: payments between three accounts ----
 * transfer FROM TO AMOUNT -> ok|fail (fail: FROM holds less than AMOUNT, or FROM == TO); balance ACCOUNT -> int;
 * split FROM TO1 TO2 AMOUNT -> ok|fail moves AMOUNT to each of TO1 and TO2. Every account starts with 10. */

enum { L_TRANSFER, L_BALANCE, L_SPLIT };

static bool ledger_step(void *ctx, const void *state, const lf_op *op, void *next) {
    (void)ctx;
    int64_t b[3];
    memcpy(b, state, sizeof b);
    bool pending = lf_op_pending(op);
    int nargs = op->method == L_TRANSFER ? 3 : op->method == L_SPLIT ? 4 : 1;
    for (int i = 0; i < nargs - (op->method != L_BALANCE); i++)
        if (op->arg[i] < 0 || op->arg[i] > 2) return false;
    if (op->method == L_BALANCE) {
        if (!pending && op->res != b[op->arg[0]]) return false;
    } else {
        int64_t from = op->arg[0], amount = op->arg[nargs - 1];
        int64_t need = op->method == L_SPLIT ? 2 * amount : amount;
        bool ok = amount >= 0 && b[from] >= need && from != op->arg[1] && (op->method == L_TRANSFER || from != op->arg[2]);
        if (!pending && (op->res_kind == LF_K_OK) != ok) return false;
        if (ok) {
            b[from] -= need;
            b[op->arg[1]] += amount;
            if (op->method == L_SPLIT) b[op->arg[2]] += amount;
        }
    }
    memcpy(next, b, sizeof b);
    return true;
}

static void ledger_init(void *ctx, void *state) {
    (void)ctx;
    int64_t b[3] = {10, 10, 10};
    memcpy(state, b, sizeof b);
}

static bool ledger_observer(const lf_op *op) { return op->method == L_BALANCE; }

static const lf_spec LEDGER_SPEC = {
    .name = "payments", .state_size = 3 * sizeof(int64_t), .init = ledger_init, .step = ledger_step,
    .observer = ledger_observer,
};
static const lf_method_decl LEDGER_METHODS[] = {
    {"transfer", 3, LF_KBIT(LF_K_OK) | LF_KBIT(LF_K_FAIL), 0},
    {"balance", 1, LF_KBIT(LF_K_INT), LF_MF_OBSERVER | LF_MF_KEYED},
    {"split", 4, LF_KBIT(LF_K_OK) | LF_KBIT(LF_K_FAIL), 0},
};
static const lf_type_desc LEDGER = {"payments", LEDGER_METHODS, 3, &LEDGER_SPEC};

#define LEDGER_DECL "type payments\nmethod transfer 3 -> ok|fail\nmethod balance 1 -> int observer keyed\n" \
                    "method split 4 -> ok|fail\n"

/* Brute force with a spec of at most 64 bytes of state: an order of the ops (real time respected, pending ops
 * optional) that the spec accepts. */
static bool spec_brute(const lf_history *h, const lf_spec *sp, bool *done, size_t left, const void *state) {
    bool any_completed_left = false;
    for (size_t i = 0; i < h->n; i++) any_completed_left |= !done[i] && !lf_op_pending(&h->ops[i]);
    if (!any_completed_left) return true;
    for (size_t i = 0; i < h->n; i++) {
        bool minimal = !done[i];
        for (size_t j = 0; j < h->n && minimal; j++)
            if (!done[j] && j != i && lf_precedes(&h->ops[j], &h->ops[i])) minimal = false;
        uint8_t next[64];
        if (!minimal || !sp->step(NULL, state, &h->ops[i], next)) continue;
        done[i] = true;
        bool ok = spec_brute(h, sp, done, left - 1, next);
        done[i] = false;
        if (ok) return true;
    }
    return false;
}

/* Three and four arguments go through both formats, the checkers and the description of an op unchanged; the
 * third and fourth decide verdicts (an amount, a second payee). */
static void test_four_arguments(void) {
    char err[512];
    CHECKF(lf_type_desc_check(&LEDGER, err, sizeof err), "%s", err);
    static const char TEXT[] = "# linfuzz history 1\n" LEDGER_DECL
                               "0 1 4 transfer 0 1 7 -> ok\n"
                               "1 2 3 split 1 0 2 -2 -> fail\n"
                               "1 5 6 split 1 0 nil 4 -> ok\n"
                               "0 7 ?" " transfer 2 0 -9223372036854775808\n";
    lf_history h, h2;
    lf_status s = lf_text_read_buffer(TEXT, strlen(TEXT), "l.hist", &h, err, sizeof err);
    CHECKF(s == LF_OK, "%s", err);
    if (s) return;
    CHECK(h.n == 4 && h.ops[0].arg[2] == 7 && h.ops[1].arg[3] == -2 && h.ops[2].arg_nil == 4 && h.ops[3].arg[2] == INT64_MIN);
    char *out = history_text(&h);
    CHECKF(out && !strcmp(out, TEXT), "canonical text:\n%s", out ? out : "(null)");
    free(out);
    char d[LF_TEXT_OP_MAX], line[LF_TEXT_OP_MAX];
    lf_history_describe_op(&h, &h.ops[1], d, sizeof d);
    CHECKF(!strcmp(d, "t1 [2,3] split 1 0 2 -2 -> fail"), "'%s'", d);
    /* the longest line there can be fits LF_TEXT_OP_MAX */
    lf_op big = {.call = UINT64_MAX - 1, .ret = UINT64_MAX, .thread = UINT32_MAX, .method = L_SPLIT,
                 .res_kind = LF_K_FAIL, .arg = {INT64_MIN, INT64_MIN, INT64_MIN, INT64_MIN}};
    size_t n = lf_text_format_history_op(line, &h, &big);
    CHECKF(n < LF_TEXT_OP_MAX, "%zu characters", n);
    /* .lfz round trip, and every ops's arguments back */
    uint8_t *bytes = NULL;
    size_t len = 0;
    s = lfz_encode_history(&h, &bytes, &len, err, sizeof err);
    CHECKF(s == LF_OK, "%s", err);
    lf_lfz_reader r;
    if (s == LF_OK && (s = lf_lfz_decode(&r, bytes, len, "l.lfz", err, sizeof err)) == LF_OK) {
        s = lf_lfz_get_history(&r, lf_lfz_history_section(&r, 0), &h2, err, sizeof err);
        CHECKF(s == LF_OK, "%s", err);
        if (s == LF_OK) {
            CHECK(h2.n == h.n && !memcmp(h2.ops, h.ops, h.n * sizeof *h.ops));
            lf_history_free(&h2);
        }
        lf_lfz_reader_free(&r);
    }
    CHECKF(s == LF_OK, "%s", err);
    free(bytes);
    lf_history_free(&h);

    /* verdicts that only the third or fourth argument decides: the brute force against the search engines (the
     * registered type gives the reader its spec) */
    CHECKF(lf_type_register(&LEDGER, err, sizeof err), "%s", err);
    static const struct {
        const char *ops;
        bool linearizable;
    } cases[] = {
        {"0 1 2 transfer 0 1 10 -> ok\n0 3 4 balance 1 -> 20\n", true},
        {"0 1 2 transfer 0 1 11 -> ok\n", false}, /* the amount is more than account 0 holds */
        {"0 1 2 split 0 1 2 5 -> ok\n0 3 4 balance 2 -> 15\n", true},
        {"0 1 2 split 0 1 2 6 -> ok\n", false},  /* 2 x 6 > 10 */
        {"0 1 2 split 0 1 1 3 -> ok\n0 3 4 balance 1 -> 16\n", true},
        {"0 1 2 split 0 1 2 3 -> ok\n0 3 4 balance 1 -> 16\n", false}, /* the second payee was 2 */
        {"0 1 4 transfer 0 2 6 -> ok\n1 2 3 transfer 0 1 6 -> fail\n2 5 6 balance 2 -> 10\n", false},
        {"0 1 4 transfer 0 2 6 -> ok\n1 2 3 transfer 0 1 6 -> fail\n2 5 6 balance 2 -> 16\n", true},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char text[512];
        snprintf(text, sizeof text, LEDGER_DECL "%s", cases[i].ops);
        lf_history c;
        s = lf_text_read_buffer(text, strlen(text), "case.hist", &c, err, sizeof err);
        CHECKF(s == LF_OK, "case %zu: %s", i, err);
        if (s) continue;
        CHECK(lf_spec_of_history(&c) == &LEDGER_SPEC); /* the registered type's spec */
        bool done[8] = {false};
        uint8_t init[64];
        LEDGER_SPEC.init(NULL, init);
        CHECKF(c.n <= 8 && spec_brute(&c, &LEDGER_SPEC, done, c.n, init) == cases[i].linearizable, "case %zu: brute force",
               i);
        static const lf_engine engines[] = {LF_ENGINE_AUTO, LF_ENGINE_WGL};
        for (size_t e = 0; e < 2; e++) {
            lf_check_options o;
            lf_check_options_default(&o);
            o.engine = engines[e];
            lf_result res;
            lf_result_init(&res);
            lf_check(&c, &o, &res);
            CHECKF(res.verdict == (cases[i].linearizable ? LF_LINEARIZABLE : LF_VIOLATION), "case %zu engine %s: %s %s",
                   i, lf_engine_name(engines[e]), lf_verdict_name(res.verdict), res.reason);
            lf_result_free(&res);
        }
        lf_history_free(&c);
    }
}

int main(void) {
    test_declarations();
    test_text_and_lfz();
    test_four_arguments();
    test_malformed_declarations();
    test_registry();
    test_check_with_spec();
    test_other_engines();
    test_minimize_and_report();
    test_initial_prefix_and_minimize();
    TEST_DONE();
}
