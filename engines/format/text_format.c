/* Text history format reader and writer (see linfuzz/format.h and docs/formats.md).
 *
 * The reader is the general parser of every line (tokens, then the grammar; every error message is written
 * here) with a fast path in front of it: runs of plain op lines are parsed by text_fast.c, which hands every
 * line it is not certain about back to the general parser. */
#include "linfuzz/format.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "format/text_fast.h"
#include "format/text_reader.h"
#include "format/type_decl.h"
#include "history/seq_check.h"
#include "util/big_alloc.h"
#include "util/grow.h"

#define CHUNK (1u << 20)       /* read size; also the longest accepted line */
#define MAX_LINE (CHUNK - 1)

/* The methods of the history's type, so an op's method is found without scanning the global table. */
typedef struct {
    const char *name;
    size_t len;
    unsigned index; /* lf_op.method */
    const lf_method_decl *md;
} method_entry;

typedef struct parser {
    const char *name;
    lf_history *h;
    uint64_t line;
    bool have_type;
    bool have_init;
    bool have_capacity;
    bool have_contract;
    bool seen_op;
    /* Line of each op, for validation messages, as runs: op i >= runs[k].op (the last such run) is on line
     * runs[k].line + (i - runs[k].op). Consecutive op lines share one run. */
    struct line_run {
        size_t op;
        uint64_t line;
    } *runs;
    size_t n_runs, runs_cap;
    method_entry methods[LF_M_COUNT > LF_CUSTOM_MAX_METHODS ? LF_M_COUNT : LF_CUSTOM_MAX_METHODS];
    int n_methods;
    lf_text_fast fast; /* the same methods for the fast path; empty while the fast path is off */
    bool use_fast;
    bool line_limit;   /* lines longer than MAX_LINE are an error (what the stream reader always does) */
    /* A custom type: its `method` lines are collected until the first line that is not one. */
    bool declaring;
    uint64_t type_line;
    lf_decl_builder decl;
    /* Per-thread sequentiality, checked while reading; the full lf_history_validate runs only when this
     * cannot vouch for the history (see seq_check.h). The parser checks everything else per line. */
    lf_seq_check seq;
    char *err;
    size_t errlen;
} parser;

__attribute__((format(printf, 2, 3))) static lf_status fail(parser *p, const char *fmt, ...) {
    int w = snprintf(p->err, p->errlen, "%s:%" PRIu64 ": ", p->name, p->line);
    if (w < 0) w = 0;
    if ((size_t)w < p->errlen) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(p->err + w, p->errlen - (size_t)w, fmt, ap);
        va_end(ap);
    }
    return LF_ERR_FORMAT;
}

typedef struct {
    const char *s;
    size_t n;
} token;

static inline bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r'; }

/* Characters that end a token: the separators and the comment sign (one table load per character). */
static const bool ENDS_TOKEN[256] = {[' '] = true, ['\t'] = true, ['\r'] = true, ['#'] = true};

/* Splits the line into at most max tokens, stopping at a '#' comment; returns the count, or max+1 if
 * there are more. */
static int tokenize(const char *s, size_t len, token *t, int max) {
    int n = 0;
    size_t i = 0;
    while (i < len) {
        while (i < len && is_space(s[i])) i++;
        if (i >= len || s[i] == '#') break;
        size_t start = i;
        while (i < len && !ENDS_TOKEN[(unsigned char)s[i]]) i++;
        if (n == max) return max + 1;
        t[n].s = s + start;
        t[n].n = i - start;
        n++;
    }
    return n;
}

static bool tok_is(token t, const char *lit) { return strlen(lit) == t.n && memcmp(t.s, lit, t.n) == 0; }

/* Unsigned decimal; false on empty, non-digit or overflow. Leading zeros are fine (007, or a stamp padded to
 * any width): only the value's range matters. */
static bool parse_u64(token t, uint64_t *out) {
    while (t.n > 1 && t.s[0] == '0') t.s++, t.n--;
    if (t.n == 0 || t.n > 20) return false;
    uint64_t v = 0;
    /* Up to 19 digits cannot overflow, so only the 20th digit needs the (slower) overflow test. */
    size_t safe = t.n < 19 ? t.n : 19;
    for (size_t i = 0; i < safe; i++) {
        unsigned d = (unsigned)(t.s[i] - '0');
        if (d > 9) return false;
        v = v * 10 + d;
    }
    if (t.n == 20) {
        unsigned d = (unsigned)(t.s[19] - '0');
        if (d > 9 || v > (UINT64_MAX - d) / 10) return false;
        v = v * 10 + d;
    }
    *out = v;
    return true;
}

static bool parse_i64(token t, int64_t *out) {
    bool neg = t.n > 0 && t.s[0] == '-';
    token d = {t.s + neg, t.n - neg};
    uint64_t u;
    if (!parse_u64(d, &u)) return false;
    if (neg) {
        if (u > (uint64_t)INT64_MAX + 1) return false;
        *out = (int64_t)(0 - u);
    } else {
        if (u > (uint64_t)INT64_MAX) return false;
        *out = (int64_t)u;
    }
    return true;
}

static lf_status parse_value(parser *p, token t, const char *what, int64_t *v, bool *is_nil) {
    if (tok_is(t, "nil")) {
        *is_nil = true;
        *v = 0;
        return LF_OK;
    }
    *is_nil = false;
    if (!parse_i64(t, v))
        return fail(p, "%s '%.*s' is not a signed 64-bit integer or nil", what, (int)(t.n > 40 ? 40 : t.n), t.s);
    return LF_OK;
}

static lf_status parse_result(parser *p, token t, const lf_method_decl *mi, lf_op *op) {
    static const struct {
        const char *name;
        lf_kind kind;
    } words[] = {{"nil", LF_K_NIL},   {"empty", LF_K_EMPTY}, {"true", LF_K_TRUE},
                 {"false", LF_K_FALSE}, {"ok", LF_K_OK},       {"fail", LF_K_FAIL},
                 {"full", LF_K_FULL}};
    lf_kind kind = LF_K_NONE;
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
        if (tok_is(t, words[i].name)) kind = words[i].kind;
    if (kind == LF_K_NONE) {
        if (!parse_i64(t, &op->res))
            return fail(p, "result '%.*s' is not an integer, nil, empty, true, false, ok, fail or full",
                        (int)(t.n > 40 ? 40 : t.n), t.s);
        kind = LF_K_INT;
    }
    if (!(mi->results & LF_KBIT(kind)))
        return fail(p, "%s cannot return %s", mi->name, kind == LF_K_INT ? "an integer" : lf_kind_name(kind));
    if (kind == LF_K_FULL && !p->have_capacity)
        return fail(p, "%s -> full needs a 'capacity N' line before the first operation (an unbounded %s is never "
                       "full)", mi->name, lf_type_name(p->h->type));
    op->res_kind = (uint8_t)kind;
    return LF_OK;
}

/* Records that op idx is on the given line (a new run only when it does not continue the last one). */
static bool note_op_line(parser *p, size_t idx, uint64_t line) {
    if (p->n_runs) {
        const struct line_run *last = &p->runs[p->n_runs - 1];
        if (last->line + (idx - last->op) == line) return true;
    }
    if (!LF_GROW(p->runs, p->runs_cap, p->n_runs + 1, 16)) return false;
    p->runs[p->n_runs++] = (struct line_run){idx, line};
    return true;
}

static uint64_t op_line(const parser *p, size_t idx) {
    size_t lo = 0, hi = p->n_runs; /* the last run starting at or before idx */
    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        if (p->runs[mid].op <= idx)
            lo = mid;
        else
            hi = mid;
    }
    return p->n_runs ? p->runs[lo].line + (idx - p->runs[lo].op) : 0;
}

/* The values of a bulk op, t[0..n): 1..LF_BULK_MAX integers into op->arg. */
static lf_status parse_bulk_values(parser *p, const token *t, int n, const char *method, const char *what,
                                   lf_op *op) {
    if (n > LF_BULK_MAX) return fail(p, "%s %s at most %d values, got %d", method, what, LF_BULK_MAX, n);
    for (int i = 0; i < n; i++)
        if (!parse_i64(t[i], &op->arg[i]))
            return fail(p, "%s value '%.*s' is not a signed 64-bit integer", method, (int)(t[i].n > 40 ? 40 : t[i].n),
                        t[i].s);
    return LF_OK;
}

/* The rest of a bulk or burst op line (docs/formats.md): "enq_bulk V... [-> full]", "enq_burst V... -> K",
 * "deq_bulk N -> V... | empty", "deq_burst N -> V... | empty"; t[4..arrow) the arguments. */
static lf_status parse_bulk(parser *p, token *t, int n, int arrow, bool pending, const lf_method_decl *mi, lf_op *op) {
    bool insert = lf_method_is_bulk_insert(op->method), burst = lf_method_is_burst(op->method);
    int nargs = (arrow < 0 ? n : arrow) - 4, nres = arrow < 0 ? 0 : n - arrow - 1;
    if (pending && arrow >= 0) return fail(p, "a pending op ('?' return) has no '->' result");
    if (insert) {
        if (nargs < 1) return fail(p, "%s takes 1 to %d values, got none", mi->name, LF_BULK_MAX);
        lf_status s = parse_bulk_values(p, t + 4, nargs, mi->name, "takes", op);
        if (s) return s;
        op->count = (uint8_t)nargs;
    } else {
        uint64_t want;
        if (nargs != 1 || !parse_u64(t[4], &want) || want < 1 || want > LF_BULK_MAX)
            return fail(p, "%s takes one argument, the number of values asked for (1 to %d)", mi->name, LF_BULK_MAX);
        op->count = (uint8_t)want;
    }
    if (pending) {
        op->res_kind = LF_K_PENDING;
        return LF_OK;
    }
    if (insert && !burst) { /* nothing (all inserted) or full (none) */
        if (arrow < 0) return LF_OK;
        if (nres != 1 || !tok_is(t[arrow + 1], "full")) return fail(p, "%s answers nothing or '-> full'", mi->name);
        return parse_result(p, t[arrow + 1], mi, op);
    }
    if (insert) { /* the number inserted, 0..n */
        if (nres != 1 || !parse_i64(t[arrow + 1], &op->res) || op->res < 0 || op->res > op->count)
            return fail(p, "%s answers '-> K', the number of values it inserted (0 to %u)", mi->name,
                        (unsigned)op->count);
        if (op->res < op->count && !p->have_capacity)
            return fail(p, "%s -> %" PRId64 " (fewer than offered) needs a 'capacity N' line before the first "
                        "operation (an unbounded %s is never full)", mi->name, op->res, lf_type_name(p->h->type));
        op->res_kind = LF_K_INT;
        return LF_OK;
    }
    if (arrow < 0) return fail(p, "missing result: %s needs '-> <values>' or '-> empty'", mi->name);
    if (nres == 1 && tok_is(t[arrow + 1], "empty")) return parse_result(p, t[arrow + 1], mi, op);
    if (nres < 1 || nres > op->count || (!burst && nres != op->count))
        return fail(p, "%s %u returns %s, got %d value%s", mi->name, (unsigned)op->count,
                    burst ? "1 to n values or empty" : "all n values or empty", nres, nres == 1 ? "" : "s");
    lf_status s = parse_bulk_values(p, t + arrow + 1, nres, mi->name, "returns", op);
    if (s) return s;
    op->res_kind = LF_K_INT;
    op->res = nres;
    return LF_OK;
}

static lf_status parse_op(parser *p, token *t, int n) {
    lf_history *h = p->h;
    if (!p->have_type) return fail(p, "operation before the 'type' line");
    if (n < 4) return fail(p, "truncated operation: expected '<thread> <call> <ret> <method> [args] [-> result]'");
    lf_op op;
    memset(&op, 0, sizeof op);
    uint64_t thread;
    if (!parse_u64(t[0], &thread) || thread > UINT32_MAX)
        return fail(p, "thread '%.*s' is not an integer in 0..4294967295", (int)(t[0].n > 40 ? 40 : t[0].n),
                    t[0].s);
    op.thread = (uint32_t)thread;
    if (!parse_u64(t[1], &op.call))
        return fail(p, "call stamp '%.*s' is not an unsigned 64-bit integer", (int)(t[1].n > 40 ? 40 : t[1].n),
                    t[1].s);
    bool pending = tok_is(t[2], "?");
    if (!pending) {
        if (!parse_u64(t[2], &op.ret))
            return fail(p, "return stamp '%.*s' is not an unsigned 64-bit integer or '?'",
                        (int)(t[2].n > 40 ? 40 : t[2].n), t[2].s);
        if (op.ret < op.call)
            return fail(p, "return stamp %" PRIu64 " is before call stamp %" PRIu64, op.ret, op.call);
    }
    const lf_method_decl *mi = NULL;
    for (int i = 0; i < p->n_methods; i++)
        if (p->methods[i].len == t[3].n && memcmp(p->methods[i].name, t[3].s, t[3].n) == 0) {
            mi = p->methods[i].md;
            op.method = (uint8_t)p->methods[i].index;
            break;
        }
    if (!mi)
        return fail(p, "unknown method '%.*s' for type %s", (int)(t[3].n > 40 ? 40 : t[3].n), t[3].s,
                    lf_history_type_name(h));
    int arrow = -1;
    for (int i = 4; i < n; i++)
        if (tok_is(t[i], "->")) {
            arrow = i;
            break;
        }
    if (h->type != LF_TYPE_CUSTOM && lf_method_is_bulk(op.method)) {
        lf_status s = parse_bulk(p, t, n, arrow, pending, mi, &op);
        if (s) return s;
        goto parsed;
    }
    int nargs = (arrow < 0 ? n : arrow) - 4;
    if (nargs != mi->nargs)
        return fail(p, "%s takes %d argument%s, got %d", mi->name, mi->nargs, mi->nargs == 1 ? "" : "s", nargs);
    for (int i = 0; i < nargs; i++) {
        bool nil;
        lf_status s = parse_value(p, t[4 + i], "argument", &op.arg[i], &nil);
        if (s) return s;
        if (nil) op.arg_nil |= (uint8_t)(1u << i);
    }
    /* Methods without a result may still answer "full" (bounded containers' inserts). */
    bool may_omit = mi->results & LF_KBIT(LF_K_NONE), may_give = mi->results & ~LF_KBIT(LF_K_NONE);
    if (pending) {
        if (arrow >= 0) return fail(p, "a pending op ('?' return) has no '->' result");
        op.res_kind = LF_K_PENDING;
    } else if (arrow < 0) {
        if (!may_omit) return fail(p, "missing result: %s needs '-> <result>'", mi->name);
        op.res_kind = LF_K_NONE;
    } else {
        if (!may_give) return fail(p, "%s has no result, but '->' was given", mi->name);
        int nres = n - arrow - 1;
        if (nres != 1) return fail(p, "%s returns one result, got %d", mi->name, nres);
        lf_status s = parse_result(p, t[arrow + 1], mi, &op);
        if (s) return s;
    }
parsed:
    if (!note_op_line(p, h->n, p->line) || !lf_history_push(h, &op)) return LF_ERR_NOMEM;
    p->seen_op = true;
    return lf_seq_check_add(&p->seq, h, h->n - 1) ? LF_OK : LF_ERR_NOMEM;
}

/* The fast path's copy of the method table (built whenever the table is). */
static void index_fast(parser *p) {
    lf_text_fast_clear(&p->fast);
    if (!p->use_fast) return;
    for (int i = 0; i < p->n_methods; i++) {
        const method_entry *e = &p->methods[i];
        if (p->h->type != LF_TYPE_CUSTOM && lf_method_is_bulk(e->index)) continue; /* the general parser's */
        lf_text_fast_add(&p->fast, e->name, e->index, e->md->nargs, e->md->results);
    }
}

/* The method table of the parser from the history's type (built-in, or the custom type just declared), and the
 * fast path's copy of it. */
static void index_methods(parser *p) {
    unsigned count = lf_history_method_count(p->h);
    p->n_methods = 0;
    for (unsigned m = 0; m < count; m++) {
        const lf_method_decl *d = lf_history_method(p->h, m);
        if (d) p->methods[p->n_methods++] = (method_entry){d->name, strlen(d->name), m, d};
    }
    index_fast(p);
}

#define UNKNOWN_TYPE_HINT                                                                                          \
    " (built in: register, cas-register, set, stack, queue, pqueue, kv, counter, deque; a custom type declares " \
    "its methods on 'method' lines after the 'type' line)"

/* The custom type's declaration ends at the first line that is not a `method` line (or at the end). */
static lf_status end_declaration(parser *p) {
    if (!p->declaring) return LF_OK;
    p->declaring = false;
    uint64_t line = p->line;
    p->line = p->type_line;
    char why[256];
    if (p->decl.n == 0) return fail(p, "unknown type '%s'" UNKNOWN_TYPE_HINT, p->decl.name);
    if (!lf_decl_attach(&p->decl, p->h, why, sizeof why)) return fail(p, "%s", why);
    p->line = line;
    index_methods(p);
    return LF_OK;
}

/* "method NAME NARGS [-> KINDS] [FLAGS]" (docs/formats.md, custom types). */
static lf_status parse_method_line(parser *p, token *t, int n) {
    if (!p->have_type) return fail(p, "'method' before the 'type' line");
    if (!p->declaring) {
        if (p->h->type != LF_TYPE_CUSTOM)
            return fail(p, "'method' lines declare custom types; %s is built in", lf_type_name(p->h->type));
        return fail(p, "'method' after the first operation or 'init'");
    }
    const char *words[16];
    size_t lens[16];
    for (int i = 1; i < n; i++) words[i - 1] = t[i].s, lens[i - 1] = t[i].n;
    char why[256];
    if (!lf_decl_parse_words(&p->decl, words, lens, n - 1, why, sizeof why)) return fail(p, "%s", why);
    return LF_OK;
}

static lf_status parse_line(parser *p, const char *s, size_t len) {
    token t[16];
    int n = tokenize(s, len, t, 15);
    if (n == 0) return LF_OK;
    if (n > 15) return fail(p, "too many tokens on one line");
    if (tok_is(t[0], "method")) return parse_method_line(p, t, n);
    lf_status ds = end_declaration(p);
    if (ds) return ds;
    if (tok_is(t[0], "type")) {
        if (n != 2) return fail(p, "expected 'type <name>'");
        if (p->have_type) return fail(p, "a second 'type' line");
        lf_type ty;
        p->have_type = true;
        if (!lf_type_from_name(t[1].s, t[1].n, &ty)) {
            char why[256];
            if (!lf_decl_begin(&p->decl, t[1].s, t[1].n, why, sizeof why))
                return fail(p, "unknown type '%.*s'" UNKNOWN_TYPE_HINT, (int)(t[1].n > 40 ? 40 : t[1].n), t[1].s);
            p->declaring = true; /* a custom type, if `method` lines follow */
            p->type_line = p->line;
            return LF_OK;
        }
        p->h->type = ty;
        index_methods(p);
        return LF_OK;
    }
    if (tok_is(t[0], "init")) {
        if (!p->have_type) return fail(p, "'init' before the 'type' line");
        if (p->h->type != LF_TYPE_REGISTER && p->h->type != LF_TYPE_CAS_REGISTER)
            return fail(p, "'init' is only allowed for register types, not %s", lf_history_type_name(p->h));
        if (p->have_init) return fail(p, "a second 'init' line");
        if (p->seen_op) return fail(p, "'init' after the first operation");
        if (n != 2) return fail(p, "expected 'init <value>'");
        bool nil;
        lf_status st = parse_value(p, t[1], "initial value", &p->h->init, &nil);
        if (st) return st;
        p->h->init_kind = nil ? LF_K_NIL : LF_K_INT;
        p->h->has_init = true;
        p->have_init = true;
        return LF_OK;
    }
    if (tok_is(t[0], "capacity")) {
        if (!p->have_type) return fail(p, "'capacity' before the 'type' line");
        if (!lf_type_boundable(p->h->type))
            return fail(p, "'capacity' is only allowed for stack, queue, pqueue and deque, not %s",
                        p->h->type == LF_TYPE_CUSTOM ? "a custom type" : lf_type_name(p->h->type));
        if (p->have_capacity) return fail(p, "a second 'capacity' line");
        if (p->seen_op) return fail(p, "'capacity' after the first operation");
        if (n != 2) return fail(p, "expected 'capacity <N>'");
        uint64_t c;
        if (!parse_u64(t[1], &c) || c == 0)
            return fail(p, "capacity '%.*s' is not an integer in 1..18446744073709551615", (int)(t[1].n > 40 ? 40 : t[1].n),
                        t[1].s);
        p->h->capacity = c;
        p->have_capacity = true;
        return LF_OK;
    }
    if (tok_is(t[0], "contract")) {
        if (!p->have_type) return fail(p, "'contract' before the 'type' line");
        if (p->have_contract) return fail(p, "a second 'contract' line");
        if (p->seen_op) return fail(p, "'contract' after the first operation");
        const char *words[16];
        size_t lens[16];
        for (int i = 1; i < n; i++) words[i - 1] = t[i].s, lens[i - 1] = t[i].n;
        char why[256];
        lf_contract c;
        if (!lf_contract_parse_words(words, lens, n - 1, &c, why, sizeof why) ||
            !lf_contract_valid(p->h->type, &c, why, sizeof why))
            return fail(p, "%s", why);
        p->h->contract = c;
        p->have_contract = true;
        return LF_OK;
    }
    return parse_op(p, t, n);
}

static void parser_begin(parser *p, const char *name, lf_history *h, char *err, size_t errlen, bool use_fast,
                         bool line_limit) {
    memset(p, 0, sizeof *p);
    p->use_fast = use_fast;
    p->line_limit = line_limit;
    p->name = name;
    p->h = h;
    p->err = err;
    p->errlen = errlen;
    lf_seq_check_init(&p->seq);
    lf_history_init(h, LF_TYPE_REGISTER);
    if (errlen) err[0] = 0;
}

/* Room for the ops of `bytes` of text, allocated once (no copies while growing, and big blocks get huge pages
 * in one piece: util/big_alloc.h). Op lines take at least 10 bytes and usually 20 or more; a text of shorter
 * lines just grows the array as usual. The unused end is only address space and is given back at the end. */
static void reserve_for(lf_history *h, uint64_t bytes) {
    size_t want = (size_t)(bytes / 16) + 64;
    if (bytes / 16 > SIZE_MAX / sizeof *h->ops / 2 || want * sizeof *h->ops < ((size_t)4 << 20) || h->cap) return;
    lf_op *ops = lf_big_malloc(want * sizeof *ops);
    if (!ops) return; /* the usual growth will try again, smaller */
    h->ops = ops;
    h->cap = want;
}

static lf_status parser_finish(parser *p, lf_status s) {
    if (s == LF_OK) s = end_declaration(p);
    if (s == LF_OK && !p->have_type) {
        p->line = p->line ? p->line : 1;
        s = fail(p, "missing 'type' line (e.g. 'type queue')");
    }
    if (s == LF_OK && p->seq.need_full_validate) {
        char msg[400];
        size_t bad = lf_history_validate(p->h, msg, sizeof msg);
        if (bad != SIZE_MAX) {
            p->line = op_line(p, bad);
            s = fail(p, "%s", msg);
        }
    }
    if (s == LF_ERR_NOMEM)
        snprintf(p->err, p->errlen, "%s:%" PRIu64 ": out of memory after %zu operations", p->name, p->line,
                 p->h->n);
    free(p->runs);
    p->runs = NULL;
    lf_seq_check_free(&p->seq);
    if (s != LF_OK) {
        lf_history_free(p->h);
    } else if (p->h->cap > 2 * p->h->n + 1024) {
        lf_op *ops = realloc(p->h->ops, (p->h->n ? p->h->n : 1) * sizeof *ops);
        if (ops) {
            p->h->ops = ops;
            p->h->cap = p->h->n ? p->h->n : 1;
        }
    }
    return s;
}

/* Feeds complete lines from buf[0..len) (and the last, unterminated one when final); *consumed is the number
 * of bytes used. Runs of plain op lines go through the fast path; every other line through parse_line. */
static lf_status feed_lines(parser *p, const char *buf, size_t len, bool final, size_t *consumed) {
    size_t pos = 0;
    const char *last_nl = NULL; /* found once the fast path has a method table (after the type line) */
    bool searched = false;
    while (pos < len) {
        if (!searched && p->fast.n) {
            last_nl = memrchr(buf, '\n', len);
            searched = true;
        }
        if (last_nl && buf + pos <= last_nl) {
            uint64_t lines;
            lf_status st;
            size_t first = p->h->n;
            const char *stop = lf_text_fast_ops(&p->fast, buf + pos, last_nl, buf + len, p->h, &p->seq, &lines, &st);
            if (lines) {
                if (!note_op_line(p, first, p->line + 1)) st = LF_ERR_NOMEM;
                p->line += lines;
                p->seen_op = true;
            }
            if (st) return st;
            pos = (size_t)(stop - buf);
            if (pos >= len) break;
        }
        const char *nl = memchr(buf + pos, '\n', len - pos);
        if (!nl && !final) break;
        size_t end = nl ? (size_t)(nl - buf) : len;
        p->line++;
        if (p->line_limit && end - pos > MAX_LINE) return fail(p, "line longer than %u bytes", MAX_LINE);
        if (memchr(buf + pos, '\0', end - pos)) return fail(p, "NUL byte in a text history (binary file?)");
        lf_status s = parse_line(p, buf + pos, end - pos);
        if (s) return s;
        pos = nl ? end + 1 : len;
    }
    *consumed = pos;
    return LF_OK;
}

lf_status lf_text_read_buffer_with(const char *buf, size_t len, const char *name, lf_history *h, char *err,
                                   size_t errlen, bool use_fast, bool line_limit) {
    parser p;
    parser_begin(&p, name, h, err, errlen, use_fast, line_limit);
    reserve_for(h, len);
    size_t used;
    return parser_finish(&p, feed_lines(&p, buf, len, true, &used));
}

lf_status lf_text_read_buffer(const char *buf, size_t len, const char *name, lf_history *h, char *err,
                              size_t errlen) {
    return lf_text_read_buffer_with(buf, len, name, h, err, errlen, true, false);
}

lf_status lf_text_read_stream(FILE *f, const char *name, lf_history *h, char *err, size_t errlen) {
    parser p;
    parser_begin(&p, name, h, err, errlen, true, false);
    struct stat sb;
    long at = ftell(f);
    if (fstat(fileno(f), &sb) == 0 && S_ISREG(sb.st_mode) && at >= 0 && sb.st_size > at)
        reserve_for(h, (uint64_t)(sb.st_size - at));
    char *buf = malloc(CHUNK);
    if (!buf) return parser_finish(&p, LF_ERR_NOMEM);
    size_t have = 0;
    lf_status s = LF_OK;
    for (;;) {
        size_t got = fread(buf + have, 1, CHUNK - have, f);
        have += got;
        bool eof = got == 0;
        if (eof && ferror(f)) {
            snprintf(err, errlen, "%s: read error: %s", name, strerror(errno));
            s = LF_ERR_IO;
            break;
        }
        size_t used = 0;
        s = feed_lines(&p, buf, have, eof, &used);
        if (s || eof) break;
        if (used == 0 && have == CHUNK) {
            p.line++;
            s = fail(&p, "line longer than %u bytes", MAX_LINE);
            break;
        }
        memmove(buf, buf + used, have - used);
        have -= used;
    }
    free(buf);
    if (s == LF_ERR_IO) {
        free(p.runs);
        lf_seq_check_free(&p.seq);
        lf_history_free(h);
        return s;
    }
    return parser_finish(&p, s);
}

/* ---- writer ---- */

static char *put_u64(char *o, uint64_t v) {
    char tmp[24];
    int n = 0;
    do {
        tmp[n++] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    while (n) *o++ = tmp[--n];
    return o;
}

static char *put_i64(char *o, int64_t v) {
    if (v < 0) {
        *o++ = '-';
        return put_u64(o, 0 - (uint64_t)v);
    }
    return put_u64(o, (uint64_t)v);
}

static char *put_str(char *o, const char *s) {
    size_t n = strlen(s);
    memcpy(o, s, n);
    return o + n;
}

/* One op line with the given method name and arity; bulk: a bulk or burst op of a stack or queue. */
static size_t format_op(char *buf, const char *method, int nargs, bool bulk, const lf_op *op) {
    char *o = buf;
    o = put_u64(o, op->thread);
    *o++ = ' ';
    o = put_u64(o, op->call);
    *o++ = ' ';
    if (lf_op_pending(op))
        *o++ = '?';
    else
        o = put_u64(o, op->ret);
    *o++ = ' ';
    o = put_str(o, method);
    if (bulk) { /* docs/formats.md: "enq_bulk 1 2 3 -> full", "deq_burst 3 -> 1 2" */
        bool insert = lf_method_is_bulk_insert(op->method);
        int values = insert ? op->count : op->res_kind == LF_K_INT ? (int)op->res : 0;
        if (values > LF_BULK_MAX) values = LF_BULK_MAX;
        if (!insert) {
            *o++ = ' ';
            o = put_u64(o, op->count);
        }
        if (!insert && op->res_kind == LF_K_INT) o = put_str(o, " ->");
        for (int i = 0; i < values; i++) {
            *o++ = ' ';
            o = put_i64(o, op->arg[i]);
        }
        if (!insert && op->res_kind == LF_K_INT) return (size_t)(o - buf);
        nargs = 0;
    }
    for (int i = 0; i < nargs; i++) {
        *o++ = ' ';
        o = lf_arg_is_nil(op, i) ? put_str(o, "nil") : put_i64(o, op->arg[i]);
    }
    if (op->res_kind != LF_K_NONE && op->res_kind != LF_K_PENDING) {
        o = put_str(o, " -> ");
        o = op->res_kind == LF_K_INT ? put_i64(o, op->res) : put_str(o, lf_kind_name((lf_kind)op->res_kind));
    }
    return (size_t)(o - buf);
}

size_t lf_text_format_op(char *buf, lf_type type, const lf_op *op) {
    /* The arity comes from the history's type: a method name can mean different methods in different types
     * (kv's get takes a key, counter's get takes nothing). */
    const lf_method_info *mi = lf_method_info_of(type, (lf_method)op->method);
    return format_op(buf, lf_method_name((lf_method)op->method), mi ? mi->nargs : 0,
                     mi && lf_method_is_bulk(op->method), op);
}

size_t lf_text_format_history_op(char *buf, const lf_history *h, const lf_op *op) {
    if (h->type != LF_TYPE_CUSTOM) return lf_text_format_op(buf, h->type, op);
    const lf_method_decl *d = lf_history_method(h, op->method);
    return format_op(buf, d ? d->name : "?", d ? d->nargs : 0, false, op);
}

lf_status lf_text_write_header(FILE *f, const lf_history *h) {
    if (fprintf(f, "type %s\n", lf_history_type_name(h)) < 0) return LF_ERR_IO;
    for (unsigned m = 0; h->type == LF_TYPE_CUSTOM && m < lf_history_method_count(h); m++) {
        char line[256];
        lf_method_decl_format(line, sizeof line, lf_history_method(h, m));
        if (fprintf(f, "%s\n", line) < 0) return LF_ERR_IO;
    }
    return LF_OK;
}

lf_status lf_text_write_contract(FILE *f, const lf_history *h) {
    if (lf_contract_is_default(&h->contract)) return LF_OK;
    char text[96];
    lf_contract_format(text, sizeof text, &h->contract);
    return fprintf(f, "contract %s\n", text) < 0 ? LF_ERR_IO : LF_OK;
}

lf_status lf_text_write_stream(FILE *f, const lf_history *h) {
    if (fputs("# linfuzz history 1\n", f) < 0 || lf_text_write_header(f, h) != LF_OK) return LF_ERR_IO;
    if (h->has_init) {
        if (h->init_kind == LF_K_NIL) {
            if (fputs("init nil\n", f) < 0) return LF_ERR_IO;
        } else if (fprintf(f, "init %" PRId64 "\n", h->init) < 0)
            return LF_ERR_IO;
    }
    if (h->capacity && fprintf(f, "capacity %" PRIu64 "\n", h->capacity) < 0) return LF_ERR_IO;
    if (lf_text_write_contract(f, h) != LF_OK) return LF_ERR_IO;
    enum { BUF = 1 << 16 };
    char *buf = malloc(BUF);
    if (!buf) return LF_ERR_IO;
    size_t used = 0;
    for (size_t i = 0; i < h->n; i++) {
        used += lf_text_format_history_op(buf + used, h, &h->ops[i]);
        buf[used++] = '\n';
        if (used > BUF - LF_TEXT_OP_MAX - 1) {
            if (fwrite(buf, 1, used, f) != used) {
                free(buf);
                return LF_ERR_IO;
            }
            used = 0;
        }
    }
    bool ok = fwrite(buf, 1, used, f) == used;
    free(buf);
    return ok ? LF_OK : LF_ERR_IO;
}
