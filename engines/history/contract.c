/* Contracts (linfuzz/history.h, docs/contracts.md): their names, the words of the text format's contract line,
 * and which types may have which contract. What a contract means is decided elsewhere (engines/contract). */
#include "linfuzz/history.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const ORDER_WORDS[LF_ORDER_COUNT] = {"linearizable", "k-relaxed", "per-producer", "bag"};
static const char *const FULL_EMPTY_WORDS[LF_FULL_EMPTY_COUNT] = {"linearizable", "lagging-full-empty",
                                                                  "quiescent-full-empty", "weak-full-empty",
                                                                  "unchecked-full-empty"};

bool lf_contract_valid(lf_type t, const lf_contract *c, char *err, size_t errlen) {
    char text[96];
    if (c->order >= LF_ORDER_COUNT || c->full_empty >= LF_FULL_EMPTY_COUNT) {
        snprintf(err, errlen, "unknown contract (order %u, full/empty %u)", c->order, c->full_empty);
        return false;
    }
    if (c->order == LF_ORDER_K_RELAXED ? c->k < 1 || c->k > LF_CONTRACT_MAX_K : c->k != 0) {
        snprintf(err, errlen, "contract: %s", c->order == LF_ORDER_K_RELAXED
                                                  ? "k-relaxed needs K in 1..65536"
                                                  : "K is only for k-relaxed (set it to 0)");
        return false;
    }
    if (lf_contract_is_default(c)) return true;
    lf_contract_format(text, sizeof text, c);
    if (t != LF_TYPE_QUEUE && t != LF_TYPE_STACK) {
        snprintf(err, errlen, "contract '%s' is only for stack and queue, not %s", text,
                 t == LF_TYPE_CUSTOM ? "a custom type" : lf_type_name(t));
        return false;
    }
    if (c->order == LF_ORDER_PER_PRODUCER && t != LF_TYPE_QUEUE) {
        snprintf(err, errlen, "contract '%s': per-producer order is only for queue, not %s", text, lf_type_name(t));
        return false;
    }
    return true;
}

int lf_contract_format(char *buf, size_t len, const lf_contract *c) {
    const char *order = c->order < LF_ORDER_COUNT ? ORDER_WORDS[c->order] : "?";
    const char *fe = c->full_empty < LF_FULL_EMPTY_COUNT ? FULL_EMPTY_WORDS[c->full_empty] : "?";
    if (c->full_empty == LF_FULL_EMPTY_EXACT) {
        if (c->order == LF_ORDER_K_RELAXED) return snprintf(buf, len, "%s %" PRIu32, order, c->k);
        return snprintf(buf, len, "%s", order);
    }
    if (c->order == LF_ORDER_EXACT) return snprintf(buf, len, "%s", fe);
    if (c->order == LF_ORDER_K_RELAXED) return snprintf(buf, len, "%s %" PRIu32 " %s", order, c->k, fe);
    return snprintf(buf, len, "%s %s", order, fe);
}

static bool word_is(const char *w, size_t n, const char *lit) { return strlen(lit) == n && memcmp(w, lit, n) == 0; }

bool lf_contract_parse_words(const char *const *words, const size_t *lens, int n, lf_contract *out, char *err,
                             size_t errlen) {
    lf_contract c = {0, 0, 0};
    bool have_order = false, have_fe = false;
    if (n < 1) {
        snprintf(err, errlen, "expected 'contract <words>' (e.g. 'contract k-relaxed 4', 'contract bag "
                              "lagging-full-empty'; docs/contracts.md)");
        return false;
    }
    for (int i = 0; i < n; i++) {
        const char *w = words[i];
        size_t len = lens[i];
        int order = -1, fe = -1;
        if (word_is(w, len, "linearizable")) {
            if (n != 1) {
                snprintf(err, errlen, "contract 'linearizable' stands alone (it is the default)");
                return false;
            }
            break;
        }
        for (int o = 1; o < LF_ORDER_COUNT; o++)
            if (word_is(w, len, ORDER_WORDS[o])) order = o;
        for (int f = 1; f < LF_FULL_EMPTY_COUNT; f++)
            if (word_is(w, len, FULL_EMPTY_WORDS[f])) fe = f;
        if (order > 0) {
            if (have_order) {
                snprintf(err, errlen, "contract: a second order word '%.*s' (one of k-relaxed, per-producer, bag)",
                         (int)(len > 40 ? 40 : len), w);
                return false;
            }
            have_order = true;
            c.order = (uint8_t)order;
            if (order == LF_ORDER_K_RELAXED) {
                char num[24];
                uint64_t k = 0;
                size_t nl = i + 1 < n ? lens[i + 1] : 0;
                bool digits = nl > 0 && nl < sizeof num;
                for (size_t d = 0; digits && d < nl; d++) digits = words[i + 1][d] >= '0' && words[i + 1][d] <= '9';
                if (digits) {
                    memcpy(num, words[i + 1], nl);
                    num[nl] = 0;
                    k = strtoull(num, NULL, 10);
                }
                if (!digits || k < 1 || k > LF_CONTRACT_MAX_K) {
                    snprintf(err, errlen, "contract: k-relaxed needs its K, an integer in 1..%u (e.g. 'k-relaxed 4')",
                             LF_CONTRACT_MAX_K);
                    return false;
                }
                c.k = (uint32_t)k;
                i++;
            }
        } else if (fe > 0) {
            if (have_fe) {
                snprintf(err, errlen, "contract: a second full/empty word '%.*s'", (int)(len > 40 ? 40 : len), w);
                return false;
            }
            have_fe = true;
            c.full_empty = (uint8_t)fe;
        } else {
            snprintf(err, errlen,
                     "contract: unknown word '%.*s' (linearizable, k-relaxed K, per-producer, bag, lagging-full-empty, "
                     "quiescent-full-empty, weak-full-empty, unchecked-full-empty)",
                     (int)(len > 40 ? 40 : len), w);
            return false;
        }
    }
    *out = c;
    return true;
}

bool lf_contract_parse(const char *text, lf_contract *out, char *err, size_t errlen) {
    enum { MAX_WORDS = 8 };
    const char *words[MAX_WORDS + 1];
    size_t lens[MAX_WORDS + 1];
    int n = 0;
    for (const char *p = text ? text : "";;) {
        while (*p == ' ' || *p == '\t') p++;
        if (!*p) break;
        const char *start = p;
        while (*p && *p != ' ' && *p != '\t') p++;
        if (n == MAX_WORDS + 1) break;
        words[n] = start;
        lens[n++] = (size_t)(p - start);
    }
    if (n > MAX_WORDS) {
        snprintf(err, errlen, "contract: too many words");
        return false;
    }
    return lf_contract_parse_words(words, lens, n, out, err, errlen);
}
