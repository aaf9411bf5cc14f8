/* Text history format: round trips of every type and result kind, the canonical writer, and every error
 * path of the reader (status and the line number in the message). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "format/text_reader.h"
#include "history_test_util.h"
#include "linfuzz/format.h"
#include "linfuzz/history.h"
#include "test_util.h"

#define NAME "t.hist"

static lf_status parse_n(const char *text, size_t len, lf_history *h, char *err, size_t errlen) {
    return lf_text_read_buffer(text, len, NAME, h, err, errlen);
}

static bool same_history(const lf_history *a, const lf_history *b) {
    if (a->type != b->type || a->has_init != b->has_init || a->n != b->n) return false;
    if (a->has_init && (a->init_kind != b->init_kind || (a->init_kind == LF_K_INT && a->init != b->init)))
        return false;
    return a->n == 0 || memcmp(a->ops, b->ops, a->n * sizeof *a->ops) == 0;
}

/* Parses text, checks it writes back exactly as canonical, and that the canonical text parses to the same
 * history. Returns the number of ops (or -1). */
static long round_trip(const char *text, const char *canonical, int line) {
    lf_history h, h2;
    char err[512];
    lf_status s = parse_n(text, strlen(text), &h, err, sizeof err);
    CHECKF(s == LF_OK, "line %d: %s", line, err);
    if (s) return -1;
    char *out = history_text(&h);
    CHECKF(out && strcmp(out, canonical) == 0, "line %d: canonical text differs:\n%s\nexpected:\n%s", line,
           out ? out : "(null)", canonical);
    s = parse_n(out, strlen(out), &h2, err, sizeof err);
    CHECKF(s == LF_OK, "line %d: re-reading the canonical text: %s", line, err);
    if (s == LF_OK) {
        CHECKF(same_history(&h, &h2), "line %d: history changed across a round trip", line);
        lf_history_free(&h2);
    }
    long n = (long)h.n;
    free(out);
    lf_history_free(&h);
    return n;
}

#define HDR "# linfuzz history 1\n"

static void test_round_trips(void) {
    /* Every type, every method, every result kind (none, int, nil, empty, true, false, ok, fail, pending). */
    round_trip("type register\n0 1 2 write 5\n1 3 4 read -> 5\n0 5 6 write nil\n1 7 8 read -> nil\n2 9 ? read\n",
               HDR "type register\n0 1 2 write 5\n1 3 4 read -> 5\n0 5 6 write nil\n1 7 8 read -> nil\n"
                   "2 9 ? read\n",
               __LINE__);
    round_trip("type cas-register\ninit 3\n0 1 2 cas 3 4 -> ok\n1 3 4 cas 3 5 -> fail\n0 5 6 cas nil nil -> fail\n"
               "1 7 8 read -> 4\n0 9 10 write -7\n",
               HDR "type cas-register\ninit 3\n0 1 2 cas 3 4 -> ok\n1 3 4 cas 3 5 -> fail\n"
                   "0 5 6 cas nil nil -> fail\n1 7 8 read -> 4\n0 9 10 write -7\n",
               __LINE__);
    round_trip("type set\n0 1 2 add 1 -> true\n0 3 4 add 1 -> false\n1 1 5 contains 1 -> true\n"
               "1 6 7 remove 1 -> true\n1 8 9 remove 1 -> false\n0 5 ? contains 2\n",
               HDR "type set\n0 1 2 add 1 -> true\n0 3 4 add 1 -> false\n1 1 5 contains 1 -> true\n"
                   "1 6 7 remove 1 -> true\n1 8 9 remove 1 -> false\n0 5 ? contains 2\n",
               __LINE__);
    round_trip("type stack\n0 1 2 push 1\n0 3 4 peek -> 1\n0 5 6 pop -> 1\n0 7 8 pop -> empty\n1 1 9 pop -> nil\n"
               "1 10 11 peek -> empty\n",
               HDR "type stack\n0 1 2 push 1\n0 3 4 peek -> 1\n0 5 6 pop -> 1\n0 7 8 pop -> empty\n"
                   "1 1 9 pop -> nil\n1 10 11 peek -> empty\n",
               __LINE__);
    round_trip("type queue\n0 1 2 enq 1\n1 3 4 peek -> 1\n1 5 6 deq -> 1\n1 7 8 deq -> empty\n0 3 ? enq 2\n",
               HDR "type queue\n0 1 2 enq 1\n1 3 4 peek -> 1\n1 5 6 deq -> 1\n1 7 8 deq -> empty\n0 3 ? enq 2\n",
               __LINE__);
    round_trip("type pqueue\n0 1 2 insert 5\n0 3 4 insert 2\n0 5 6 peek -> 2\n0 7 8 poll -> 2\n0 9 10 poll -> 5\n"
               "0 11 12 poll -> empty\n",
               HDR "type pqueue\n0 1 2 insert 5\n0 3 4 insert 2\n0 5 6 peek -> 2\n0 7 8 poll -> 2\n"
                   "0 9 10 poll -> 5\n0 11 12 poll -> empty\n",
               __LINE__);
    round_trip("type kv\n0 1 2 put 1 10\n0 3 4 get 1 -> 10\n0 5 6 delete 1 -> true\n0 7 8 get 1 -> nil\n"
               "0 9 10 delete 1 -> false\n0 11 12 put nil nil\n",
               HDR "type kv\n0 1 2 put 1 10\n0 3 4 get 1 -> 10\n0 5 6 delete 1 -> true\n0 7 8 get 1 -> nil\n"
                   "0 9 10 delete 1 -> false\n0 11 12 put nil nil\n",
               __LINE__);
    /* Leading zeros: only the value's range matters, at any width (a 21-digit zero-padded stamp was refused
     * while 007 was not). */
    round_trip("type register\n000 000000000000000000001 0000000000000000000000002 write 007\n"
               "1 3 00018446744073709551615 read -> -0007\n",
               HDR "type register\n0 1 2 write 7\n1 3 18446744073709551615 read -> -7\n", __LINE__);
    round_trip("type counter\n0 1 2 inc\n1 1 3 inc\n0 4 5 get -> 2\n1 4 ? get\n",
               HDR "type counter\n0 1 2 inc\n1 1 3 inc\n0 4 5 get -> 2\n1 4 ? get\n", __LINE__);
    round_trip("type deque\n0 1 2 push_front 1\n0 3 4 push_back 2\n0 5 6 peek_front -> 1\n0 7 8 peek_back -> 2\n"
               "0 9 10 pop_back -> 2\n0 11 12 pop_front -> 1\n0 13 14 pop_front -> empty\n"
               "0 15 16 pop_back -> empty\n0 17 18 peek_front -> empty\n0 19 20 peek_back -> nil\n",
               HDR "type deque\n0 1 2 push_front 1\n0 3 4 push_back 2\n0 5 6 peek_front -> 1\n"
                   "0 7 8 peek_back -> 2\n0 9 10 pop_back -> 2\n0 11 12 pop_front -> 1\n"
                   "0 13 14 pop_front -> empty\n0 15 16 pop_back -> empty\n0 17 18 peek_front -> empty\n"
                   "0 19 20 peek_back -> nil\n",
               __LINE__);
    /* init lines: integer, nil, extremes. */
    round_trip("type register\ninit nil\n0 1 2 read -> nil\n", HDR "type register\ninit nil\n0 1 2 read -> nil\n",
               __LINE__);
    round_trip("type register\ninit -9223372036854775808\n",
               HDR "type register\ninit -9223372036854775808\n", __LINE__);
    /* Extreme numbers: INT64_MIN/MAX values, UINT64_MAX stamps, UINT32_MAX threads, call == ret. */
    round_trip("type kv\n4294967295 0 18446744073709551615 put -9223372036854775808 9223372036854775807\n"
               "0 18446744073709551615 18446744073709551615 get 9223372036854775807 -> -9223372036854775808\n",
               HDR "type kv\n4294967295 0 18446744073709551615 put -9223372036854775808 9223372036854775807\n"
                   "0 18446744073709551615 18446744073709551615 get 9223372036854775807 -> "
                   "-9223372036854775808\n",
               __LINE__);
    /* Comments, tabs, CRLF, blank lines, spaces around, '#' glued to a token. */
    round_trip("# a comment\r\n\r\n  type\tqueue   # the type\r\n\t0\t1  2 enq\t7#glued\r\n   \n"
               "1 3 4 deq -> 7 # done\r\n# trailing comment without newline",
               HDR "type queue\n0 1 2 enq 7\n1 3 4 deq -> 7\n", __LINE__);
    /* No trailing newline on the last op; an empty history. */
    round_trip("type stack\n0 1 2 push 3", HDR "type stack\n0 1 2 push 3\n", __LINE__);
    round_trip("type set\n", HDR "type set\n", __LINE__);

    /* The parsed values themselves, not just their text. */
    lf_history h;
    char err[512];
    const char *t = "type cas-register\ninit nil\n7 18446744073709551615 18446744073709551615 cas nil "
                    "-9223372036854775808 -> ok\n3 5 ? read\n";
    CHECK(parse_n(t, strlen(t), &h, err, sizeof err) == LF_OK);
    CHECK(h.type == LF_TYPE_CAS_REGISTER && h.has_init && h.init_kind == LF_K_NIL && h.n == 2);
    if (h.n == 2) {
        CHECK(h.ops[0].thread == 7 && h.ops[0].call == UINT64_MAX && h.ops[0].ret == UINT64_MAX);
        CHECK(h.ops[0].method == LF_M_CAS && h.ops[0].arg_nil == 1 && h.ops[0].arg[1] == INT64_MIN);
        CHECK(h.ops[0].res_kind == LF_K_OK);
        CHECK(h.ops[1].thread == 3 && h.ops[1].call == 5 && lf_op_pending(&h.ops[1]) && h.ops[1].method == LF_M_READ);
    }
    lf_history_free(&h);
}

/* Expects a format error whose message is "t.hist:LINE: ..." and contains fragment. */
static void expect_error_n(const char *text, size_t len, unsigned line, const char *fragment, int src_line) {
    lf_history h;
    char err[512];
    lf_status s = parse_n(text, len, &h, err, sizeof err);
    CHECKF(s == LF_ERR_FORMAT, "line %d: status %d, expected a format error", src_line, s);
    char prefix[64];
    snprintf(prefix, sizeof prefix, NAME ":%u: ", line);
    CHECKF(strncmp(err, prefix, strlen(prefix)) == 0, "line %d: message '%s' does not start with '%s'", src_line, err,
           prefix);
    CHECKF(strstr(err, fragment) != NULL, "line %d: message '%s' lacks '%s'", src_line, err, fragment);
    if (s == LF_OK) lf_history_free(&h);
    CHECKF(s != LF_ERR_FORMAT || (h.ops == NULL && h.n == 0), "line %d: history not freed on error", src_line);
}

#define EXPECT_ERROR(text, line, fragment) expect_error_n(text, strlen(text), line, fragment, __LINE__)

static void test_errors(void) {
    EXPECT_ERROR("type heap\n", 1, "unknown type 'heap'");
    EXPECT_ERROR("type\n", 1, "expected 'type <name>'");
    EXPECT_ERROR("type queue extra\n", 1, "expected 'type <name>'");
    EXPECT_ERROR("# only a comment\n\n", 2, "missing 'type' line");
    EXPECT_ERROR("", 1, "missing 'type' line");
    EXPECT_ERROR("0 1 2 enq 1\ntype queue\n", 1, "operation before the 'type' line");
    EXPECT_ERROR("type queue\n0 1 2 enq 1\ntype queue\n", 3, "a second 'type' line");
    EXPECT_ERROR("type queue\n0 1 2 push 5\n", 2, "unknown method 'push' for type queue");
    EXPECT_ERROR("type counter\n0 1 2 inc\n0 3 4 dec\n", 3, "unknown method 'dec' for type counter");
    EXPECT_ERROR("type queue\n\n0 1 2 deq\n", 3, "missing result: deq needs '-> <result>'");
    EXPECT_ERROR("type queue\n0 1 2 deq ->\n", 2, "deq returns one result, got 0");
    EXPECT_ERROR("type queue\n0 1 2 deq -> 1 2\n", 2, "deq returns one result, got 2");
    EXPECT_ERROR("type queue\n0 1 2 deq -> true\n", 2, "deq cannot return true");
    EXPECT_ERROR("type set\n0 1 2 add 1 -> 5\n", 2, "add cannot return an integer");
    EXPECT_ERROR("type counter\n0 1 2 get -> empty\n", 2, "get cannot return empty");
    EXPECT_ERROR("type cas-register\n0 1 2 cas 1 2 -> true\n", 2, "cas cannot return true");
    EXPECT_ERROR("type queue\n0 1 2 deq -> maybe\n", 2, "result 'maybe' is not an integer, nil, empty");
    EXPECT_ERROR("type queue\n0 1 2 enq 1 -> 1\n", 2, "enq cannot return an integer"); /* only 'full' */
    EXPECT_ERROR("type kv\n0 1 2 put 1 2 -> 1\n", 2, "put has no result, but '->' was given");
    EXPECT_ERROR("type queue\n0 1 2 enq\n", 2, "enq takes 1 argument, got 0");
    EXPECT_ERROR("type queue\n0 1 2 enq 1 2\n", 2, "enq takes 1 argument, got 2");
    EXPECT_ERROR("type kv\n0 1 2 put 1\n", 2, "put takes 2 arguments, got 1");
    EXPECT_ERROR("type counter\n0 1 2 inc 1\n", 2, "inc takes 0 arguments, got 1");
    EXPECT_ERROR("type queue\n0 1 ? deq -> 5\n", 2, "a pending op ('?' return) has no '->' result");
    EXPECT_ERROR("type queue\n0 1 5 enq 1\n0 3 6 enq 2\n", 3, "ops of thread 0 overlap");
    EXPECT_ERROR("type queue\n0 1 5 enq 1\n0 5 6 enq 2\n", 3, "ops of thread 0 overlap"); /* equal stamps */
    /* Out of file order: the later op in time is named, wherever it sits in the file. */
    EXPECT_ERROR("type queue\n0 10 12 enq 1\n1 1 2 enq 3\n0 1 11 enq 2\n", 2, "ops of thread 0 overlap");
    /* A thread id beyond the streaming check's table still gets the same check and message. */
    EXPECT_ERROR("type queue\n4000000000 1 5 enq 1\n4000000000 2 6 enq 2\n", 3, "ops of thread 4000000000 overlap");
    EXPECT_ERROR("type queue\n0 1 ? deq\n0 5 6 enq 1\n", 3, "after its pending op");
    EXPECT_ERROR("type queue\n0 5 ? deq\n0 0 0 enq 1\n0 9 9 enq 2\n", 4, "has op 2 (t0 [9,9] enq 2) after its pending op 0");
    EXPECT_ERROR("type queue\n0 5 4 enq 1\n", 2, "return stamp 4 is before call stamp 5");
    EXPECT_ERROR("type queue\n4294967296 1 2 enq 1\n", 2, "thread '4294967296' is not an integer");
    EXPECT_ERROR("type queue\n-1 1 2 enq 1\n", 2, "thread '-1' is not an integer");
    EXPECT_ERROR("type queue\n0 18446744073709551616 2 enq 1\n", 2, "call stamp '18446744073709551616'");
    EXPECT_ERROR("type queue\n0 x 2 enq 1\n", 2, "call stamp 'x' is not an unsigned 64-bit integer");
    EXPECT_ERROR("type queue\n0 1 99999999999999999999 enq 1\n", 2, "return stamp '99999999999999999999'");
    EXPECT_ERROR("type queue\n0 1 00018446744073709551616 enq 1\n", 2, "return stamp '00018446744073709551616'");
    EXPECT_ERROR("type queue\n0 1 2 enq 9223372036854775808\n", 2, "argument '9223372036854775808' is not");
    EXPECT_ERROR("type queue\n0 1 2 enq -9223372036854775809\n", 2, "argument '-9223372036854775809' is not");
    EXPECT_ERROR("type queue\n0 1 2 enq 1e3\n", 2, "argument '1e3' is not");
    EXPECT_ERROR("type queue\n0 1 2 enq -\n", 2, "argument '-' is not");
    EXPECT_ERROR("type queue\n0 1 2 deq -> 9223372036854775808\n", 2, "result '9223372036854775808' is not");
    EXPECT_ERROR("type register\ninit 9223372036854775808\n", 2, "initial value '9223372036854775808'");
    EXPECT_ERROR("type queue\n0 1 2\n", 2, "truncated operation");
    EXPECT_ERROR("type queue\n0 1 2 enq 1\n0 5", 3, "truncated operation");
    EXPECT_ERROR("type queue\n0 1 2 enq 1 2 3 4 5 6 7 8 9 10 11 12\n", 2, "too many tokens on one line");
    EXPECT_ERROR("type queue\ninit 0\n", 2, "'init' is only allowed for register types, not queue");
    EXPECT_ERROR("init 0\ntype register\n", 1, "'init' before the 'type' line");
    EXPECT_ERROR("type register\ninit 0\ninit 1\n", 3, "a second 'init' line");
    EXPECT_ERROR("type register\n0 1 2 write 1\ninit 1\n", 3, "'init' after the first operation");
    EXPECT_ERROR("type register\ninit\n", 2, "expected 'init <value>'");
    /* NUL bytes, also inside a comment; the message names the line holding the NUL. */
    static const char nul1[] = "type queue\n0 1 2 enq 1\n0 3 4 e\0q 1\n";
    expect_error_n(nul1, sizeof nul1 - 1, 3, "NUL byte", __LINE__);
    static const char nul2[] = "type queue # \0\n";
    expect_error_n(nul2, sizeof nul2 - 1, 1, "NUL byte", __LINE__);
}

/* The stream reader: a long line is refused with its line number; reading across chunk boundaries gives
 * the same history as reading from memory. */
static void test_stream(void) {
    enum { LONG = (1 << 20) + 10 };
    FILE *f = tmpfile();
    CHECK(f != NULL);
    if (!f) return;
    fputs("type queue\n0 1 2 enq 1\n# ", f);
    for (int i = 0; i < LONG; i++) fputc('x', f);
    fputs("\n0 3 4 enq 2\n", f);
    rewind(f);
    lf_history h;
    char err[512];
    CHECK(lf_text_read_stream(f, "long.hist", &h, err, sizeof err) == LF_ERR_FORMAT);
    CHECKF(strncmp(err, "long.hist:3: line longer than", 29) == 0, "%s", err);
    fclose(f);

    /* ~3 MB of ops with comments and CRLF crossing the 1 MiB chunk edges. */
    size_t cap = 4 << 20, len = 0;
    char *text = malloc(cap);
    CHECK(text != NULL);
    if (!text) return;
    len += (size_t)snprintf(text + len, cap - len, "type kv\n");
    uint64_t stamp = 1;
    for (int i = 0; len + 200 < cap && i < 100000; i++) {
        uint64_t c = stamp, r = stamp + (uint64_t)(i % 5);
        stamp = r + 1;
        if (i % 3 == 0)
            len += (size_t)snprintf(text + len, cap - len, "%d %" PRIu64 " %" PRIu64 " put %d %d # c\r\n", i % 7, c, r,
                                    i, -i);
        else
            len += (size_t)snprintf(text + len, cap - len, "%d %" PRIu64 " %" PRIu64 " get %d -> nil\n", i % 7, c, r, i);
    }
    f = tmpfile();
    CHECK(f && fwrite(text, 1, len, f) == len);
    if (f) {
        rewind(f);
        lf_history a, b;
        CHECK(lf_text_read_stream(f, "big.hist", &a, err, sizeof err) == LF_OK);
        CHECK(parse_n(text, len, &b, err, sizeof err) == LF_OK);
        CHECK(a.n == 100000 && same_history(&a, &b));
        CHECK(a.n == 100000 && a.ops[99999].call == stamp - 1 - 99999 % 5 && a.ops[3].arg[1] == -3);
        lf_history_free(&a);
        lf_history_free(&b);
        fclose(f);
    }
    free(text);
}

static uint64_t rng_state = 0x9e3779b97f4a7c15ULL;
static uint64_t rnd(void) {
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}

/* The reader's streaming sequentiality check must agree with lf_history_validate on every history,
 * including out-of-order, overlapping and pending ones, and name the same op's line. */
static void test_sequentiality_agrees_with_validate(void) {
    int accepted = 0, refused = 0;
    for (int iter = 0; iter < 3000; iter++) {
        lf_history h;
        lf_history_init(&h, LF_TYPE_QUEUE);
        int n = 1 + (int)(rnd() % 12);
        for (int i = 0; i < n; i++) {
            lf_op op;
            memset(&op, 0, sizeof op);
            op.thread = (uint32_t)(rnd() % 3) + (rnd() % 20 == 0 ? 100000u : 0u);
            op.call = rnd() % 30;
            op.ret = op.call + rnd() % 6;
            op.method = LF_M_ENQ;
            op.arg[0] = i;
            op.res_kind = rnd() % 10 == 0 ? LF_K_PENDING : LF_K_NONE;
            if (op.res_kind == LF_K_PENDING) op.ret = 0;
            lf_history_push(&h, &op);
        }
        char verr[400], err[512];
        size_t bad = lf_history_validate(&h, verr, sizeof verr);
        char *text = history_text(&h);
        lf_history back;
        lf_status s = parse_n(text, strlen(text), &back, err, sizeof err);
        if (bad == SIZE_MAX) {
            accepted++;
            CHECKF(s == LF_OK && same_history(&h, &back), "iteration %d: valid history refused: %s", iter, err);
            if (s == LF_OK) lf_history_free(&back);
        } else {
            refused++;
            char expect[600];
            snprintf(expect, sizeof expect, NAME ":%zu: %s", bad + 3, verr); /* two header lines */
            CHECKF(s == LF_ERR_FORMAT && strcmp(err, expect) == 0, "iteration %d: got '%s', expected '%s'", iter, err,
                   expect);
        }
        free(text);
        lf_history_free(&h);
    }
    CHECKF(accepted > 300 && refused > 300, "accepted %d, refused %d: the generator misses a side", accepted,
           refused);
}

/* Appends one random token for test_fast_path_agrees: mostly what an op line has, sometimes near misses. */
static size_t random_token(char *o, int slot) {
    static const char *const words[] = {
        "enq", "deq", "peek", "push", "pop", "insert", "poll", "add", "remove", "contains", "write", "read",
        "cas", "put", "get", "delete", "inc", "push_front", "push_back", "pop_front", "pop_back", "peek_front",
        "peek_back", "pushx", "pus", "deq->", "->", "->", "->", "-", ">", "nil", "empty", "true", "false", "ok",
        "fail", "full", "emptyx", "tru", "?", "#", "# c", "7#x", "\r", "1e3", "+1", "0x10", "", "type", "init"};
    uint64_t r = rnd();
    if (slot < 3 && r % 8 != 0) slot = -1; /* thread, call, ret: mostly numbers */
    switch (slot < 0 ? 0 : (int)(r % 3)) {
    case 0: { /* a number: 1..21 digits, sometimes negative or with leading zeros */
        static const char *const big[] = {"4294967295", "4294967296", "999999999999999999", "1000000000000000000",
                                          "9223372036854775807", "9223372036854775808", "18446744073709551615",
                                          "18446744073709551616", "00000000000000000000001", "0"};
        if (r % 11 == 0) return (size_t)sprintf(o, "%s%s", (r >> 8) % 3 == 0 ? "-" : "", big[(r >> 12) % 10]);
        return (size_t)sprintf(o, "%s%" PRIu64, (r >> 8) % 9 == 0 ? "-" : "", (r >> 16) % ((r >> 4) % 4 == 0 ? (uint64_t)1000000000000 : 40));
    }
    default: {
        const char *w = words[(r >> 8) % (sizeof words / sizeof words[0])];
        return (size_t)sprintf(o, "%s", w);
    }
    }
}

/* One valid op line of a type (without the numbers): method, arguments, result. */
static const char *op_template(int type) {
    static const char *const t[9][6] = {
        {"enq V", "deq -> V", "deq -> empty", "peek -> V", "peek -> empty", "deq -> nil"},
        {"push V", "pop -> V", "pop -> empty", "peek -> V", "peek -> empty", "push nil"},
        {"insert V", "poll -> V", "poll -> empty", "peek -> V", "peek -> empty", "insert V"},
        {"add V -> true", "add V -> false", "remove V -> true", "remove V -> false", "contains V -> true",
         "contains V -> false"},
        {"write V", "read -> V", "read -> nil", "write V", "read -> V", "write nil"},
        {"write V", "read -> V", "cas V V -> ok", "cas V V -> fail", "read -> nil", "cas V nil -> ok"},
        {"put V V", "get V -> V", "get V -> nil", "delete V -> true", "delete V -> false", "put V V"},
        {"inc", "get -> V", "inc", "get -> V", "inc", "get -> V"},
        {"push_front V", "push_back V", "pop_front -> V", "pop_back -> empty", "peek_front -> V",
         "peek_back -> V"}};
    return t[type][rnd() % 6];
}

/* The fast path of the reader (engines/format/text_fast.c) must only ever take lines the general parser
 * takes, and read them the same way: on random texts of valid op lines, some of them mutated, both must give
 * the same status, message and history. */
static void test_fast_path_agrees(void) {
    static const char *const types[] = {"queue", "stack", "pqueue", "set", "register", "cas-register", "kv",
                                        "counter", "deque"};
    static const char *const seps[] = {" ", " ", " ", " ", "  ", "\t", " \t"};
    char *text = malloc(1 << 16);
    int accepted = 0, refused = 0;
    for (int iter = 0; iter < 20000 && text; iter++) {
        int type = (int)(rnd() % 9);
        size_t len = (size_t)sprintf(text, "type %s\n", types[type]);
        int lines = 1 + (int)(rnd() % 8);
        uint64_t stamp = rnd() % 3 == 0 ? rnd() % 10000000000000000000ull : rnd() % 5;
        for (int l = 0; l < lines; l++) {
            /* Tokens of a valid line, then maybe a mutation of one of them. */
            char toks[12][48];
            int n = 0;
            sprintf(toks[n++], "%d", rnd() % 7 == 0 ? (int)(rnd() % 3) : l);
            sprintf(toks[n++], "%" PRIu64, stamp);
            stamp += rnd() % 3;
            sprintf(toks[n++], "%" PRIu64, stamp);
            stamp += 1 + rnd() % 2;
            char tmpl[64];
            snprintf(tmpl, sizeof tmpl, "%s", op_template(type));
            for (char *w = strtok(tmpl, " "); w && n < 12; w = strtok(NULL, " ")) {
                if (strcmp(w, "V") == 0)
                    sprintf(toks[n++], "%" PRId64, (int64_t)(rnd() % 2000) - 1000);
                else
                    sprintf(toks[n++], "%s", w);
            }
            int mutations = rnd() % 3 == 0 ? 1 + (int)(rnd() % 2) : 0;
            for (int m = 0; m < mutations; m++) {
                int k = (int)(rnd() % (uint64_t)n);
                if (rnd() % 4 == 0 && n < 12) { /* insert a token */
                    for (int j = n; j > k; j--) memcpy(toks[j], toks[j - 1], sizeof toks[j]);
                    n++;
                }
                random_token(toks[k], k);
            }
            for (int k = 0; k < n; k++) {
                if (k) len += (size_t)sprintf(text + len, "%s", seps[rnd() % 7]);
                len += (size_t)sprintf(text + len, "%s", toks[k]);
            }
            if (rnd() % 20 == 0) len += (size_t)sprintf(text + len, "%s", rnd() % 2 ? " # comment" : "\r");
            if (rnd() % 8 || l + 1 < lines) text[len++] = '\n';
        }
        if (rnd() % 50 == 0) text[rnd() % len] = '\0';
        lf_history a, b;
        char ea[512], eb[512];
        lf_status sa = lf_text_read_buffer_with(text, len, NAME, &a, ea, sizeof ea, true, false);
        lf_status sb = lf_text_read_buffer_with(text, len, NAME, &b, eb, sizeof eb, false, false);
        CHECKF(sa == sb, "iteration %d: fast path %d, general parser %d on:\n%.*s", iter, sa, sb, (int)len, text);
        if (sa == LF_OK && sb == LF_OK) {
            accepted++;
            CHECKF(same_history(&a, &b), "iteration %d: the paths read different histories from:\n%.*s", iter,
                   (int)len, text);
        } else if (sa == sb) {
            refused++;
            CHECKF(strcmp(ea, eb) == 0, "iteration %d: '%s' vs '%s' on:\n%.*s", iter, ea, eb, (int)len, text);
        }
        if (sa == LF_OK) lf_history_free(&a);
        if (sb == LF_OK) lf_history_free(&b);
    }
    free(text);
    CHECKF(accepted > 2000 && refused > 2000, "accepted %d, refused %d: the generator misses a side", accepted,
           refused);
}

static void test_shared_data(void) {
    /* Every real etcd history parses, and its canonical text re-parses to the same history. */
    char path[512], err[512];
    int files = 0;
    for (int i = 0; i < 200; i++) {
        snprintf(path, sizeof path, "%s/etcd/etcd_%03d.hist", LINFUZZ_TEST_DATA, i);
        FILE *probe = fopen(path, "rb");
        if (!probe) continue;
        fclose(probe);
        lf_history h, h2;
        CHECKF(lf_history_read(path, &h, err, sizeof err) == LF_OK, "%s", err);
        char *text = history_text(&h);
        CHECK(text && parse_n(text, strlen(text), &h2, err, sizeof err) == LF_OK && same_history(&h, &h2));
        lf_history_free(&h2);
        free(text);
        lf_history_free(&h);
        files++;
    }
    CHECKF(files >= 100, "only %d etcd histories found", files);
    CHECK(lf_history_read("/nonexistent/x.hist", &(lf_history){0}, err, sizeof err) == LF_ERR_IO);
    CHECKF(strstr(err, "/nonexistent/x.hist: cannot open") == err, "%s", err);
}

int main(void) {
    test_round_trips();
    test_fast_path_agrees();
    test_errors();
    test_stream();
    test_sequentiality_agrees_with_validate();
    test_shared_data();
    TEST_DONE();
}
