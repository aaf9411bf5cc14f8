/* Bulk and burst ops of queue and stack (history.h, docs/contracts.md): the text syntax and its errors, hand cases
 * with their verdicts under every engine and witnesses replayed by an independent model, and a randomized
 * differential test of lf_check (auto and wgl) against the brute-force oracle, exact and under the full/empty
 * modes, with a fixed number of cases (fewer under the sanitizers) and the seed of a failure printed. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "brute/brute.h"
#include "linfuzz/check.h"
#include "linfuzz/format.h"
#include "test_util.h"

static bool read_text(const char *text, lf_history *h, char *err, size_t errlen) {
    return lf_text_read_buffer(text, strlen(text), "case", h, err, errlen) == LF_OK;
}

static void print_history(const lf_history *h) {
    char line[LF_TEXT_OP_MAX];
    fprintf(stderr, "  type %s capacity %llu\n", lf_history_type_name(h), (unsigned long long)h->capacity);
    for (size_t i = 0; i < h->n; i++) {
        line[lf_text_format_history_op(line, h, &h->ops[i])] = '\0';
        fprintf(stderr, "  %zu: %s\n", i, line);
    }
}

/* ---- an independent sequential model: a plain array, front (queue) or bottom (stack) first ---- */

typedef struct {
    int64_t v[256];
    size_t len;
    uint64_t capacity;
    bool stack;
} model;

/* Applies op as docs/contracts.md defines it; returns whether its recorded result is the model's (a pending op
 * takes effect, its result unchecked). Single-value enq, deq, push, pop too. */
static bool model_apply(model *m, const lf_op *op) {
    bool pending = lf_op_pending(op);
    bool single = !lf_method_is_bulk(op->method);
    bool insert = single ? (op->method == LF_M_ENQ || op->method == LF_M_PUSH) : lf_method_is_bulk_insert(op->method);
    bool burst = !single && lf_method_is_burst(op->method);
    size_t n = single ? 1 : op->count;
    if (insert) {
        size_t room = m->capacity ? (size_t)m->capacity - m->len : n;
        size_t k = room >= n ? n : burst ? room : 0;
        for (size_t i = 0; i < k; i++) m->v[m->len++] = op->arg[i];
        if (pending) return true;
        if (burst) return op->res_kind == LF_K_INT && op->res == (int64_t)k;
        return op->res_kind == (k ? LF_K_NONE : LF_K_FULL);
    }
    size_t k = m->len >= n ? n : burst ? m->len : 0;
    int64_t took[8];
    for (size_t i = 0; i < k; i++) {
        if (m->stack) {
            took[i] = m->v[--m->len];
        } else {
            took[i] = m->v[0];
            memmove(m->v, m->v + 1, (--m->len) * sizeof *m->v);
        }
    }
    if (pending) return true;
    if (!k) return op->res_kind == LF_K_EMPTY;
    if (single) return op->res_kind == LF_K_INT && op->res == took[0];
    if (op->res_kind != LF_K_INT || op->res != (int64_t)k) return false;
    for (size_t i = 0; i < k; i++)
        if (op->arg[i] != took[i]) return false;
    return true;
}

/* Whether w is a legal sequential run of ops of h: each op at most once, real-time order kept, each result the
 * model's; complete: a linearization (every completed op in it). */
static bool run_ok(const lf_history *h, const uint32_t *w, size_t len, bool complete) {
    model m = {.capacity = h->capacity, .stack = h->type == LF_TYPE_STACK};
    bool *seen = calloc(h->n + 1, 1);
    bool ok = seen != NULL;
    for (size_t p = 0; ok && p < len; p++) {
        if (w[p] >= h->n || seen[w[p]]) ok = false;
        for (size_t q = 0; ok && q < h->n; q++) /* whatever returned before its call ran before it */
            if (lf_precedes(&h->ops[q], &h->ops[w[p]]) && !seen[q]) ok = false;
        if (ok) seen[w[p]] = true;
        ok = ok && model_apply(&m, &h->ops[w[p]]);
    }
    for (size_t i = 0; ok && complete && i < h->n; i++)
        if (!lf_op_pending(&h->ops[i]) && !seen[i]) ok = false;
    free(seen);
    return ok;
}

/* r := lf_check of h with engine e, a witness wanted (r is initialised here). */
static void check_with(const lf_history *h, lf_engine e, lf_result *r) {
    lf_check_options o;
    lf_check_options_default(&o);
    o.engine = e;
    o.want_witness = true;
    lf_result_init(r);
    lf_check(h, &o, r);
}

/* ---- the text syntax ---- */

static void test_syntax(void) {
    static const char *const text =
        "type queue\ncapacity 4\n"
        "0 1 2 enq_bulk 1 2 3\n"
        "1 3 4 enq_burst 4 5 6 -> 1\n"
        "0 5 6 deq_burst 3 -> 1 2 3\n"
        "1 7 8 deq_bulk 2 -> empty\n"
        "0 9 10 enq_bulk 7 8 9 10 -> full\n"
        "1 11 ? deq_bulk 4\n";
    lf_history h;
    char err[512];
    CHECKF(read_text(text, &h, err, sizeof err), "%s", err);
    if (h.n != 6) return;
    CHECK(h.ops[0].method == LF_M_ENQ_BULK && h.ops[0].count == 3 && h.ops[0].res_kind == LF_K_NONE &&
          h.ops[0].arg[2] == 3 && h.ops[0].arg[3] == 0);
    CHECK(h.ops[1].method == LF_M_ENQ_BURST && h.ops[1].count == 3 && h.ops[1].res_kind == LF_K_INT && h.ops[1].res == 1);
    CHECK(h.ops[2].method == LF_M_DEQ_BURST && h.ops[2].count == 3 && h.ops[2].res == 3 && h.ops[2].arg[0] == 1 &&
          h.ops[2].arg[2] == 3);
    CHECK(h.ops[3].res_kind == LF_K_EMPTY && h.ops[3].count == 2 && h.ops[3].arg[0] == 0);
    CHECK(h.ops[4].res_kind == LF_K_FULL && h.ops[4].count == 4);
    CHECK(lf_op_pending(&h.ops[5]) && h.ops[5].count == 4);
    /* made pending (a cut, a snapshot), a bulk remove keeps n and none of its outputs; an insert its values */
    lf_op cut = h.ops[2];
    lf_op_make_pending(&cut);
    CHECK(lf_op_pending(&cut) && cut.count == 3 && cut.arg[0] == 0 && cut.arg[2] == 0 && cut.res == 0);
    cut = h.ops[0];
    lf_op_make_pending(&cut);
    CHECK(lf_op_pending(&cut) && cut.count == 3 && cut.arg[0] == 1 && cut.arg[2] == 3);
    /* every line writes back as it was read */
    const char *line = strstr(text, "0 1 2");
    for (size_t i = 0; i < h.n; i++) {
        char out[LF_TEXT_OP_MAX];
        size_t len = lf_text_format_history_op(out, &h, &h.ops[i]);
        const char *end = strchr(line, '\n');
        CHECKF(len == (size_t)(end - line) && !memcmp(out, line, len), "op %zu writes as '%.*s'", i, (int)len, out);
        line = end + 1;
    }
    lf_history_free(&h);

    static const struct {
        const char *text, *error;
    } bad[] = {
        {"type queue\n0 1 2 enq_bulk 1 2 3 4 5\n", "case:2: enq_bulk takes at most 4 values, got 5"},
        {"type queue\n0 1 2 enq_bulk\n", "case:2: enq_bulk takes 1 to 4 values, got none"},
        {"type queue\n0 1 2 enq_bulk 1 nil\n", "case:2: enq_bulk value 'nil' is not a signed 64-bit integer"},
        {"type queue\n0 1 2 enq_bulk 1 2 -> 2\n", "case:2: enq_bulk answers nothing or '-> full'"},
        {"type queue\n0 1 2 enq_burst 1 2 -> 1\n", "case:2: enq_burst -> 1 (fewer than offered) needs a 'capacity N'"},
        {"type queue\ncapacity 2\n0 1 2 enq_burst 1 2 -> 3\n", "case:3: enq_burst answers '-> K', the number of values "
                                                              "it inserted (0 to 2)"},
        {"type queue\n0 1 2 deq_bulk 5 -> empty\n", "case:2: deq_bulk takes one argument, the number of values asked "
                                                    "for (1 to 4)"},
        {"type queue\n0 1 2 deq_bulk 3 -> 1 2\n", "case:2: deq_bulk 3 returns all n values or empty, got 2 values"},
        {"type queue\n0 1 2 deq_burst 2 -> 1 2 3\n", "case:2: deq_burst 2 returns 1 to n values or empty, got 3 values"},
        {"type queue\n0 1 2 deq_burst 2\n", "case:2: missing result: deq_burst needs '-> <values>' or '-> empty'"},
        {"type stack\n0 1 ? pop_bulk 2 -> 1 2\n", "case:2: a pending op ('?' return) has no '->' result"},
        {"type deque\n0 1 2 enq_bulk 1\n", "case:2: unknown method 'enq_bulk' for type deque"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        lf_history b;
        bool read = read_text(bad[i].text, &b, err, sizeof err);
        CHECKF(!read && strstr(err, bad[i].error), "case %zu: expected '%s', got '%s'", i, bad[i].error,
               read ? "(read)" : err);
        if (read) lf_history_free(&b);
    }
}

/* ---- hand cases ---- */

static const struct hand_case {
    const char *name, *text;
    lf_verdict verdict;
} HAND[] = {
    {"bulk enq then burst deq in order", "type queue\n0 1 2 enq_bulk 1 2 3\n1 3 4 deq_burst 4 -> 1 2 3\n",
     LF_LINEARIZABLE},
    {"a bulk deq returns the front first", "type queue\n0 1 2 enq_bulk 1 2 3\n1 3 4 deq_bulk 2 -> 2 1\n",
     LF_VIOLATION},
    {"a bulk pop returns the top first", "type stack\n0 1 2 push_bulk 1 2 3\n1 3 4 pop_bulk 2 -> 3 2\n",
     LF_LINEARIZABLE},
    {"a pop sees a bulk push whole or not at all",
     "type stack\n0 1 10 push_bulk 1 2\n1 2 3 pop -> 1\n", LF_VIOLATION},
    {"a deq never sees half a bulk enq",
     "type queue\n0 1 10 enq_bulk 1 2\n1 2 3 deq -> 1\n1 4 5 deq -> empty\n", LF_VIOLATION},
    {"interleaved bulk enqs stay contiguous",
     "type queue\n0 1 10 enq_bulk 1 2\n1 1 10 enq_bulk 3 4\n2 11 12 deq_bulk 4 -> 1 3 2 4\n", LF_VIOLATION},
    {"concurrent bulk enqs in either order",
     "type queue\n0 1 10 enq_bulk 1 2\n1 1 10 enq_bulk 3 4\n2 11 12 deq_bulk 4 -> 3 4 1 2\n", LF_LINEARIZABLE},
    {"bulk deq with fewer inside answers empty", "type queue\n0 1 2 enq 1\n1 3 4 deq_bulk 2 -> empty\n2 5 6 deq -> 1\n",
     LF_LINEARIZABLE},
    {"bulk deq empty though enough inside", "type queue\n0 1 2 enq_bulk 1 2\n1 3 4 deq_bulk 2 -> empty\n",
     LF_VIOLATION},
    {"burst deq takes what there is", "type queue\n0 1 2 enq 1\n1 3 4 deq_burst 3 -> 1\n", LF_LINEARIZABLE},
    {"burst deq takes too few", "type queue\n0 1 2 enq_bulk 1 2\n1 3 4 deq_burst 3 -> 1\n", LF_VIOLATION},
    {"burst enq fills the room", "type queue\ncapacity 3\n0 1 2 enq 1\n1 3 4 enq_burst 2 3 4 -> 2\n"
                                 "0 5 6 deq_bulk 3 -> 1 2 3\n", LF_LINEARIZABLE},
    {"burst enq inserts fewer than the room", "type queue\ncapacity 3\n0 1 2 enq 1\n1 3 4 enq_burst 2 3 4 -> 1\n",
     LF_VIOLATION},
    {"bulk enq full without room for all", "type queue\ncapacity 3\n0 1 2 enq_bulk 1 2\n1 3 4 enq_bulk 3 4 -> full\n",
     LF_LINEARIZABLE},
    {"bulk enq full with room", "type queue\ncapacity 4\n0 1 2 enq_bulk 1 2\n1 3 4 enq_bulk 3 4 -> full\n",
     LF_VIOLATION},
    {"a pending bulk deq may have taken the values",
     "type queue\n0 1 2 enq_bulk 1 2\n1 3 ? deq_bulk 2\n0 4 5 deq -> empty\n", LF_LINEARIZABLE},
    /* a nil pushed by a single push: a bulk remove cannot return it (its values are integers), nor skip it
     * (regression: the oracle read nil as INT64_MIN) */
    {"a burst pop never returns a nil",
     "type stack\n0 1 2 push nil\n1 3 4 pop_burst 2 -> -9223372036854775808\n", LF_VIOLATION},
    {"a pending bulk deq takes all or none",
     "type queue\n0 1 2 enq_bulk 1 2\n1 3 ? deq_bulk 2\n0 4 5 deq -> 2\n", LF_VIOLATION},
    /* full/empty modes: the same relaxation for a bulk answer */
    {"lagging: a bulk enq full while a deq is in flight",
     "type queue\ncapacity 2\ncontract lagging-full-empty\n0 1 2 enq_bulk 1 2\n1 3 10 deq -> 1\n"
     "2 4 5 enq_bulk 3 -> full\n", LF_LINEARIZABLE},
    {"exact: a bulk enq full with room after a deq",
     "type queue\ncapacity 2\n0 1 2 enq_bulk 1 2\n1 3 10 deq -> 1\n2 11 12 enq_bulk 3 -> full\n",
     LF_VIOLATION},
    {"exact: a bulk enq full without room for both after a deq",
     "type queue\ncapacity 2\n0 1 2 enq_bulk 1 2\n1 3 10 deq -> 1\n2 11 12 enq_bulk 3 4 -> full\n",
     LF_LINEARIZABLE},
    /* an insert counts for removes once it returned: a burst during it may come short, like a single empty */
    {"lagging: a burst deq short while an enq is in flight",
     "type queue\ncontract lagging-full-empty\n0 1 10 enq_bulk 1 2\n1 2 3 deq_burst 2 -> 1\n2 11 12 deq -> 2\n",
     LF_LINEARIZABLE},
    {"exact: the same burst deq short is a violation",
     "type queue\n0 1 10 enq_bulk 1 2\n1 2 3 deq_burst 2 -> 1\n2 11 12 deq -> 2\n", LF_VIOLATION},
    {"lagging: a burst deq short of values returned before its call",
     "type queue\ncontract lagging-full-empty\n0 1 2 enq_bulk 1 2\n1 3 4 deq_burst 2 -> 1\n", LF_VIOLATION},
    {"lagging: a burst enq short while a deq has not freed its slot",
     "type queue\ncapacity 2\ncontract lagging-full-empty\n0 1 2 enq_bulk 1 2\n1 3 10 deq -> 1\n"
     "2 4 5 enq_burst 3 4 -> 0\n2 11 12 enq_burst 5 6 -> 1\n", LF_LINEARIZABLE},
};

static void test_hand_cases(void) {
    static const lf_engine engines[] = {LF_ENGINE_AUTO, LF_ENGINE_WGL, LF_ENGINE_BRUTE};
    for (size_t i = 0; i < sizeof HAND / sizeof *HAND; i++) {
        lf_history h;
        char err[512];
        if (!read_text(HAND[i].text, &h, err, sizeof err)) {
            CHECKF(false, "%s: %s", HAND[i].name, err);
            continue;
        }
        for (size_t e = 0; e < sizeof engines / sizeof *engines; e++) {
            lf_result r;
            check_with(&h, engines[e], &r);
            CHECKF(r.verdict == HAND[i].verdict, "%s [%s]: %s (%s)", HAND[i].name, lf_engine_name(engines[e]),
                   lf_verdict_name(r.verdict), r.reason);
            if (r.verdict == LF_LINEARIZABLE && lf_contract_is_default(&h.contract))
                CHECKF(r.witness && run_ok(&h, r.witness, r.witness_len, true), "%s [%s]: no valid witness",
                       HAND[i].name, lf_engine_name(engines[e]));
            if (r.verdict == LF_VIOLATION && lf_contract_is_default(&h.contract))
                CHECKF(r.prefix_len == 0 || run_ok(&h, r.prefix, r.prefix_len, false), "%s [%s]: bad prefix",
                       HAND[i].name, lf_engine_name(engines[e]));
            lf_result_free(&r);
        }
        lf_history_free(&h);
    }
}

/* ---- randomized differential test against the brute-force oracle ---- */

static uint64_t rng;
static uint64_t rnd(void) {
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

/* A random history of bulk, burst and single ops of a queue or stack, whose results come from running it at random
 * moments of the ops' intervals on the model (linearizable), then, in half the cases, one result changed. */
static void random_history(uint64_t seed, lf_history *h) {
    rng = seed * 0x9E3779B97F4A7C15ULL + 1;
    lf_type type = seed % 2 ? LF_TYPE_QUEUE : LF_TYPE_STACK;
    lf_history_init(h, type);
    h->capacity = seed % 3 == 0 ? 0 : 2 + rnd() % 4;
    static const uint8_t modes[] = {LF_FULL_EMPTY_EXACT, LF_FULL_EMPTY_LAGGING, LF_FULL_EMPTY_QUIESCENT,
                                    LF_FULL_EMPTY_WEAK, LF_FULL_EMPTY_UNCHECKED};
    h->contract.full_empty = seed % 4 ? LF_FULL_EMPTY_EXACT : modes[(seed / 4) % 5];
    bool queue = type == LF_TYPE_QUEUE;
    const unsigned methods[] = {queue ? LF_M_ENQ : LF_M_PUSH,           queue ? LF_M_DEQ : LF_M_POP,
                                queue ? LF_M_ENQ_BULK : LF_M_PUSH_BULK, queue ? LF_M_ENQ_BURST : LF_M_PUSH_BURST,
                                queue ? LF_M_DEQ_BULK : LF_M_POP_BULK,  queue ? LF_M_DEQ_BURST : LF_M_POP_BURST};
    size_t n = 5 + rnd() % 6, threads = 2 + rnd() % 2;
    uint64_t free_at[3] = {0, 0, 0}, lp[16];
    bool ended[3] = {false, false, false}, takes_effect[16];
    int64_t next_value = 1;
    for (size_t i = 0; i < n; i++) {
        size_t t = rnd() % threads;
        if (ended[t]) continue;
        lf_op op;
        memset(&op, 0, sizeof op);
        op.thread = (uint32_t)t;
        op.method = (uint8_t)methods[rnd() % 6];
        op.call = free_at[t] + 1 + rnd() % 6;
        op.ret = op.call + 1 + rnd() % 12;
        free_at[t] = op.ret;
        bool bulk = lf_method_is_bulk(op.method);
        if (bulk) op.count = (uint8_t)(1 + rnd() % 3);
        bool insert = bulk ? lf_method_is_bulk_insert(op.method) : op.method == LF_M_ENQ || op.method == LF_M_PUSH;
        if (insert)
            for (int a = 0; a < (bulk ? op.count : 1); a++) op.arg[a] = seed % 7 == 0 ? 1 + (int64_t)(rnd() % 3) : next_value++;
        if (rnd() % 10 == 0) {
            op.res_kind = LF_K_PENDING;
            ended[t] = true;
        }
        lp[h->n] = 4 * (op.call + rnd() % (op.ret - op.call + 1)) + rnd() % 4; /* distinct enough, inside */
        takes_effect[h->n] = !lf_op_pending(&op) || rnd() % 2;
        lf_history_push(h, &op);
    }
    /* the results: the ops that take effect, in linearization point order, on the model */
    size_t order[16], k = 0;
    for (size_t i = 0; i < h->n; i++)
        if (takes_effect[i]) order[k++] = i;
    for (size_t a = 1; a < k; a++)
        for (size_t b = a; b > 0 && lp[order[b]] < lp[order[b - 1]]; b--) {
            size_t x = order[b];
            order[b] = order[b - 1];
            order[b - 1] = x;
        }
    model m = {.capacity = h->capacity, .stack = !queue};
    for (size_t p = 0; p < k; p++) {
        lf_op *op = &h->ops[order[p]];
        bool pending = lf_op_pending(op);
        /* run it with a probe result, then write the model's answer */
        model before = m;
        lf_op probe = *op;
        probe.res_kind = LF_K_PENDING;
        model_apply(&m, &probe);
        if (pending) continue;
        bool bulk = lf_method_is_bulk(op->method);
        bool insert = bulk ? lf_method_is_bulk_insert(op->method) : op->method == LF_M_ENQ || op->method == LF_M_PUSH;
        size_t moved = insert ? m.len - before.len : before.len - m.len;
        if (insert && !bulk) op->res_kind = moved ? LF_K_NONE : LF_K_FULL;
        else if (insert && lf_method_is_burst(op->method)) op->res_kind = LF_K_INT, op->res = (int64_t)moved;
        else if (insert) op->res_kind = moved ? LF_K_NONE : LF_K_FULL;
        else if (!moved) op->res_kind = LF_K_EMPTY;
        else {
            op->res_kind = LF_K_INT;
            for (size_t v = 0; v < moved; v++)
                op->arg[v] = queue ? before.v[v] : before.v[before.len - 1 - v];
            op->res = bulk ? (int64_t)moved : op->arg[0];
            if (!bulk) op->arg[0] = 0;
        }
    }
    if (seed % 2 == 0 || !h->n) return;
    /* one result changed, within what the syntax allows */
    lf_op *op = &h->ops[rnd() % h->n];
    if (lf_op_pending(op)) return;
    switch (op->res_kind) {
    case LF_K_NONE:
        if (h->capacity) op->res_kind = LF_K_FULL;
        break;
    case LF_K_FULL: op->res_kind = LF_K_NONE; break;
    case LF_K_EMPTY:
        if (lf_method_is_bulk(op->method)) {
            op->res_kind = LF_K_INT;
            op->res = lf_method_is_burst(op->method) ? 1 : op->count;
            for (int a = 0; a < op->res; a++) op->arg[a] = 1 + (int64_t)(rnd() % (uint64_t)next_value);
        } else {
            op->res_kind = LF_K_INT;
            op->res = 1 + (int64_t)(rnd() % (uint64_t)next_value);
        }
        break;
    case LF_K_INT:
        if (lf_method_is_bulk_insert(op->method)) {
            if (h->capacity) op->res = (op->res + 1) % (op->count + 1);
        } else if (lf_method_is_bulk(op->method) && op->res > 1 && rnd() % 2) { /* two values swapped */
            int64_t x = op->arg[0];
            op->arg[0] = op->arg[1];
            op->arg[1] = x;
        } else if (lf_method_is_bulk(op->method)) {
            op->arg[rnd() % (uint64_t)op->res] += 1;
        } else {
            op->res += 1;
        }
        break;
    default: break;
    }
}

static void test_differential(void) {
    const uint64_t cases = LF_TEST_SANITIZED ? 150 : 1500;
    size_t verdicts[3] = {0, 0, 0};
    for (uint64_t seed = 1; seed <= cases; seed++) {
        lf_history h;
        random_history(seed, &h);
        char err[512];
        if (lf_history_validate(&h, err, sizeof err) != SIZE_MAX) {
            CHECKF(false, "seed %llu: generated a malformed history: %s", (unsigned long long)seed, err);
            print_history(&h);
            lf_history_free(&h);
            continue;
        }
        lf_brute_options bo;
        lf_brute_options_default(&bo);
        lf_result oracle;
        lf_result_init(&oracle);
        lf_brute_check(&h, &bo, &oracle);
        CHECKF(oracle.verdict != LF_UNKNOWN, "seed %llu: brute: %s", (unsigned long long)seed, oracle.reason);
        verdicts[oracle.verdict == LF_LINEARIZABLE ? 0 : oracle.verdict == LF_VIOLATION ? 1 : 2]++;
        static const lf_engine engines[] = {LF_ENGINE_AUTO, LF_ENGINE_WGL};
        for (size_t e = 0; e < 2; e++) {
            lf_result r;
            check_with(&h, engines[e], &r);
            bool same = r.verdict == oracle.verdict;
            CHECKF(same, "seed %llu [%s]: %s (%s), brute: %s (%s)", (unsigned long long)seed,
                   lf_engine_name(engines[e]), lf_verdict_name(r.verdict), r.reason, lf_verdict_name(oracle.verdict),
                   oracle.reason);
            if (r.verdict == LF_LINEARIZABLE && lf_contract_is_default(&h.contract)) {
                bool ok = r.witness && run_ok(&h, r.witness, r.witness_len, true);
                CHECKF(ok, "seed %llu [%s]: invalid witness", (unsigned long long)seed, lf_engine_name(engines[e]));
                same = same && ok;
            }
            if (!same) print_history(&h);
            lf_result_free(&r);
        }
        lf_result_free(&oracle);
        lf_history_free(&h);
    }
    /* the generator reaches both verdicts */
    CHECKF(verdicts[0] > cases / 5 && verdicts[1] > cases / 10, "%zu linearizable, %zu violations of %llu",
           verdicts[0], verdicts[1], (unsigned long long)cases);
    printf("differential: %llu histories, %zu linearizable, %zu violations\n", (unsigned long long)cases, verdicts[0],
           verdicts[1]);
}

int main(void) {
    test_syntax();
    test_hand_cases();
    test_differential();
    TEST_DONE();
}
