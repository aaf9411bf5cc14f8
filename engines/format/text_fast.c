/* The fast path of the text reader: plain op lines in one pass (see text_fast.h for what it accepts and why
 * that is always what the general parser would accept).
 *
 * Numbers and names are read 8 bytes at a time (SWAR): one load gives the count of leading digits and, with
 * three multiplications, their value; a method name is one masked compare per method of the type. */
#include "format/text_fast.h"

#include <string.h>

void lf_text_fast_clear(lf_text_fast *t) { t->n = 0; }

void lf_text_fast_add(lf_text_fast *t, const char *name, unsigned method, unsigned nargs, unsigned results) {
    size_t len = strlen(name);
    if (t->n >= LF_TEXT_FAST_MAX_METHODS || len == 0 || len > 255 || nargs > 2 || method > 255) return;
    uint64_t key = 0;
    for (size_t i = 0; i < len && i < 8; i++) key |= (uint64_t)(unsigned char)name[i] << (8 * i);
    uint64_t mask = len >= 8 ? ~0ull : (1ull << (8 * len)) - 1;
    t->m[t->n++] = (lf_text_fast_method){key, mask, name, (uint8_t)len, (uint8_t)nargs, (uint8_t)method,
                                         (uint16_t)results};
}

/* The helpers below are the body of one loop: forced inline, so that the loop keeps its state in registers. */
#define HOT static inline __attribute__((always_inline))

static inline bool is_sep(char c) { return c == ' ' || c == '\t'; }
static inline unsigned digit(char c) { return (unsigned)(unsigned char)c - '0'; } /* > 9 for non-digits */

/* The rare case of load8: fewer than 8 bytes left before end. */
static __attribute__((noinline)) uint64_t load_tail(const char *q, const char *end) {
    uint64_t x = 0;
    for (int i = 0; q + i < end; i++) x |= (uint64_t)(unsigned char)q[i] << (8 * i);
    return x;
}

/* The 8 bytes at q (little-endian: q[0] lowest); bytes at or after end read as 0. Every token ends at the
 * latest at the line's '\n', which lies before end, so a zero never stands for a byte that matters. */
HOT uint64_t load8(const char *q, const char *end) {
    uint64_t x;
    if (__builtin_expect(end - q < 8, 0)) return load_tail(q, end);
    memcpy(&x, q, 8);
    return x;
}

/* How many of the bytes of x, from the lowest, are decimal digits before the first one that is not.
 * Per byte c: c - '0' borrows (sets bit 7) iff c < '0'; c + 0x46 sets bit 7 iff c > '9' (or c >= 0x80). A
 * borrow or carry only moves to higher bytes, which come after the first non-digit, so its flag is exact. */
HOT unsigned lead_digits(uint64_t x) {
    uint64_t nd = ((x - 0x3030303030303030ull) | (x + 0x4646464646464646ull)) & 0x8080808080808080ull;
    return nd ? (unsigned)__builtin_ctzll(nd) / 8 : 8;
}

/* The value of the first n (1..8) digits of x: shifting them to the top turns the bytes below into leading
 * zeros; then pairs, quads and octets are combined by multiplication. */
HOT uint64_t digits_value(uint64_t x, unsigned n) {
    x <<= 8 * (8 - n);
    x = ((x & 0x0F0F0F0F0F0F0F0Full) * 2561) >> 8;
    x = ((x & 0x00FF00FF00FF00FFull) * 6553601) >> 16;
    return ((x & 0x0000FFFF0000FFFFull) * 42949672960001ull) >> 32;
}

static const uint64_t POW10[9] = {1, 10, 100, 1000, 10000, 100000, 1000000, 10000000, 100000000};

/* One to max_digits (<= 19, so no overflow) decimal digits at *pq; more or none: false. */
HOT bool number(const char **pq, const char *end, unsigned max_digits, uint64_t *out) {
    const char *q = *pq;
    uint64_t x = load8(q, end);
    unsigned n = lead_digits(x);
    if (n == 0) return false;
    uint64_t v = digits_value(x, n);
    unsigned total = n;
    while (n == 8) {
        x = load8(q + total, end);
        n = lead_digits(x);
        if (n == 0) break;
        total += n;
        if (total > max_digits) return false;
        v = v * POW10[n] + digits_value(x, n);
    }
    if (total > max_digits) return false;
    *out = v;
    *pq = q + total;
    return true;
}

/* A signed value of at most 18 digits (always within int64; longer ones go to the general parser). */
HOT bool small_int(const char **pq, const char *end, int64_t *out) {
    const char *q = *pq;
    bool neg = *q == '-';
    q += neg;
    uint64_t u;
    if (!number(&q, end, 18, &u)) return false;
    *out = neg ? -(int64_t)u : (int64_t)u;
    *pq = q;
    return true;
}

/* At least one separator at *pq, all of them skipped (a single space, the canonical form, costs one test). */
HOT bool separators(const char **pq) {
    const char *q = *pq;
    if (__builtin_expect(q[0] == ' ' && q[1] > ' ', 1)) {
        *pq = q + 1;
        return true;
    }
    if (!is_sep(*q)) return false;
    do q++;
    while (is_sep(*q));
    *pq = q;
    return true;
}

/* A token ends at a separator or the line's end (anything else, '#' and '\r' included, is the general
 * parser's business). */
static inline bool token_end(char c) { return c == ' ' || c == '\n' || c == '\t'; }

#define WORD(a, b, c, d, e)                                                                                   \
    ((uint64_t)(unsigned char)(a) | (uint64_t)(unsigned char)(b) << 8 | (uint64_t)(unsigned char)(c) << 16 | \
     (uint64_t)(unsigned char)(d) << 24 | (uint64_t)(unsigned char)(e) << 32)

/* A result token: an integer or one of the result words; LF_K_NONE when it is anything else. */
HOT lf_kind result_token(const char **pq, const char *end, int64_t *value) {
    const char *q = *pq;
    if (*q == '-' || (unsigned)(unsigned char)*q - '0' <= 9) {
        if (!small_int(&q, end, value)) return LF_K_NONE;
        *pq = q;
        return LF_K_INT;
    }
    static const struct {
        uint64_t key;
        unsigned len;
        lf_kind kind;
    } words[] = {{WORD('e', 'm', 'p', 't', 'y'), 5, LF_K_EMPTY}, {WORD('t', 'r', 'u', 'e', 0), 4, LF_K_TRUE},
                 {WORD('f', 'a', 'l', 's', 'e'), 5, LF_K_FALSE}, {WORD('n', 'i', 'l', 0, 0), 3, LF_K_NIL},
                 {WORD('o', 'k', 0, 0, 0), 2, LF_K_OK},          {WORD('f', 'a', 'i', 'l', 0), 4, LF_K_FAIL}};
    uint64_t x = load8(q, end);
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++) {
        unsigned len = words[i].len;
        if ((x & ((1ull << (8 * len)) - 1)) == words[i].key && token_end(q[len])) {
            *pq = q + len;
            return words[i].kind;
        }
    }
    return LF_K_NONE;
}

/* The method whose name is the token at q (followed by a separator or the line's end), or NULL. */
HOT const lf_text_fast_method *find_method(const lf_text_fast *t, const char *q, const char *end) {
    uint64_t x = load8(q, end);
    for (int i = 0; i < t->n; i++) {
        const lf_text_fast_method *m = &t->m[i];
        if ((x & m->mask) != m->key) continue;
        /* The name's first min(len, 8) bytes matched, none of them '\n', so q[len] is readable for len <= 8. */
        if (m->len > 8 && (end - q <= m->len || memcmp(m->name + 8, q + 8, m->len - 8u) != 0)) continue;
        if (token_end(q[m->len])) return m;
    }
    return NULL;
}

const char *lf_text_fast_ops(const lf_text_fast *t, const char *s, const char *last_nl, const char *end,
                             lf_history *h, lf_seq_check *seq, uint64_t *lines, lf_status *st) {
    const char *p = s;
    uint64_t done = 0;
    *st = LF_OK;
    while (p <= last_nl && t->n) {
        const char *q = p;
        uint64_t thread, call, ret;
        /* Thread ids are short: one or two digits bytewise, longer ones as any number. */
        unsigned d0 = digit(q[0]), d1 = d0 <= 9 ? digit(q[1]) : 10;
        if (d0 <= 9 && d1 > 9) {
            thread = d0;
            q += 1;
        } else if (d1 <= 9 && digit(q[2]) > 9) {
            thread = d0 * 10 + d1;
            q += 2;
        } else if (!number(&q, end, 10, &thread) || thread > UINT32_MAX) {
            break;
        }
        if (!separators(&q)) break;
        if (!number(&q, end, 19, &call) || !separators(&q)) break;
        if (!number(&q, end, 19, &ret) || ret < call || !separators(&q)) break;
        const lf_text_fast_method *m = find_method(t, q, end);
        if (!m) break;
        q += m->len;

        /* The op is written in place and counted only once the whole line is accepted. */
        if (h->n == h->cap) {
            lf_op none = {0};
            if (!lf_history_push(h, &none)) { /* grows the array (the op itself is filled below) */
                *st = LF_ERR_NOMEM;
                break;
            }
            h->n--;
        }
        lf_op *op = &h->ops[h->n];
        *op = (lf_op){.call = call, .ret = ret, .thread = (uint32_t)thread, .method = m->method};
        unsigned a = 0;
        for (; a < m->nargs; a++)
            if (!separators(&q) || !small_int(&q, end, &op->arg[a])) break;
        if (a < m->nargs) break;
        /* The method or last argument ends at a separator or the line's end ("deq->" is one token). */
        if (*q != '\n' && !separators(&q)) break;
        if (*q == '\n') {
            if (!(m->results & LF_KBIT(LF_K_NONE))) break; /* a missing result: the general parser says so */
        } else {
            if (!(q[0] == '-' && q[1] == '>' && is_sep(q[2])) || (m->results & LF_KBIT(LF_K_NONE))) break;
            q += 2;
            separators(&q);
            lf_kind k = result_token(&q, end, &op->res);
            if (k == LF_K_NONE || !(m->results & LF_KBIT(k))) break;
            op->res_kind = (uint8_t)k;
            if (*q != '\n' && (!separators(&q) || *q != '\n')) break;
        }

        h->n++;
        done++;
        p = q + 1;
        if (!lf_seq_check_add_inline(seq, h, h->n - 1)) {
            *st = LF_ERR_NOMEM;
            break;
        }
    }
    *lines = done;
    return p;
}
