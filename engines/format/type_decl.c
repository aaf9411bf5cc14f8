/* Custom type declarations read from files: collecting methods, parsing `method` lines, attaching the
 * registered type or an owned copy (see type_decl.h). */
#include "format/type_decl.h"

#include <stdio.h>
#include <string.h>

static bool word_is(const char *w, size_t n, const char *lit) { return strlen(lit) == n && memcmp(w, lit, n) == 0; }

bool lf_decl_begin(lf_decl_builder *b, const char *name, size_t len, char *err, size_t errlen) {
    memset(b, 0, sizeof *b);
    if (len == 0 || len > LF_CUSTOM_NAME_MAX) {
        snprintf(err, errlen, "type name of %zu characters (1 to %d)", len, LF_CUSTOM_NAME_MAX);
        return false;
    }
    memcpy(b->name, name, len);
    /* the name rules are those of lf_type_desc_check, with a method to satisfy it */
    lf_method_decl probe = {"m", 0, LF_KBIT(LF_K_NONE), 0};
    lf_type_desc d = {b->name, &probe, 1, NULL};
    char why[160];
    if (!lf_type_desc_check(&d, why, sizeof why)) {
        snprintf(err, errlen, "%s", why);
        return false;
    }
    return true;
}

bool lf_decl_add(lf_decl_builder *b, const char *name, size_t len, unsigned nargs, unsigned results, unsigned flags,
                 char *err, size_t errlen) {
    if (b->n == LF_CUSTOM_MAX_METHODS) {
        snprintf(err, errlen, "type %s declares more than %d methods", b->name, LF_CUSTOM_MAX_METHODS);
        return false;
    }
    if (len == 0 || len > LF_CUSTOM_NAME_MAX) {
        snprintf(err, errlen, "method name of %zu characters (1 to %d)", len, LF_CUSTOM_NAME_MAX);
        return false;
    }
    char *mname = b->method_names[b->n];
    memcpy(mname, name, len);
    mname[len] = 0;
    if (strlen(mname) != len) {
        snprintf(err, errlen, "method name with a NUL byte");
        return false;
    }
    if (nargs > LF_CUSTOM_MAX_ARGS || results > UINT16_MAX || flags > UINT8_MAX) {
        snprintf(err, errlen, "method %s: %u arguments, results 0x%x, flags 0x%x out of range", mname, nargs, results,
                 flags);
        return false;
    }
    b->methods[b->n] = (lf_method_decl){mname, (uint8_t)nargs, (uint16_t)results, (uint8_t)flags};
    lf_type_desc d = {b->name, b->methods, b->n + 1, NULL};
    char why[200];
    if (!lf_type_desc_check(&d, why, sizeof why)) {
        snprintf(err, errlen, "%s", why);
        return false;
    }
    b->n++;
    return true;
}

bool lf_decl_parse_words(lf_decl_builder *b, const char *const *w, const size_t *len, int n, char *err,
                         size_t errlen) {
    if (n < 2) {
        snprintf(err, errlen,
                 "expected 'method <name> <arguments> [-> <result>|...] [observer] [nondet] [blocks] [keyed]'");
        return false;
    }
    if (!(len[1] == 1 && w[1][0] >= '0' && w[1][0] <= '0' + LF_CUSTOM_MAX_ARGS)) {
        snprintf(err, errlen, "method %.*s: the number of arguments '%.*s' is not 0..%d", (int)len[0], w[0],
                 (int)(len[1] > 20 ? 20 : len[1]), w[1], LF_CUSTOM_MAX_ARGS);
        return false;
    }
    unsigned nargs = (unsigned)(w[1][0] - '0'), results = LF_KBIT(LF_K_NONE), flags = 0;
    int i = 2;
    if (i < n && word_is(w[i], len[i], "->")) {
        if (++i >= n) {
            snprintf(err, errlen, "method %.*s: '->' without result kinds", (int)len[0], w[0]);
            return false;
        }
        results = 0;
        const char *s = w[i], *end = w[i] + len[i];
        while (s <= end) {
            const char *bar = memchr(s, '|', (size_t)(end - s));
            size_t k = (size_t)((bar ? bar : end) - s);
            int kind = -1;
            for (int c = LF_K_INT; c < LF_K_COUNT; c++)
                if (c != LF_K_PENDING && word_is(s, k, lf_kind_name((lf_kind)c))) kind = c;
            if (kind < 0) {
                snprintf(err, errlen, "method %.*s: '%.*s' is not a result kind (int, nil, empty, true, false, ok, "
                         "fail)", (int)len[0], w[0], (int)(k > 20 ? 20 : k), s);
                return false;
            }
            if (results & LF_KBIT(kind)) {
                snprintf(err, errlen, "method %.*s: result kind %s given twice", (int)len[0], w[0],
                         lf_kind_name((lf_kind)kind));
                return false;
            }
            results |= LF_KBIT(kind);
            if (!bar) break;
            s = bar + 1;
        }
        i++;
    }
    for (; i < n; i++) {
        unsigned f = word_is(w[i], len[i], "observer") ? LF_MF_OBSERVER
                     : word_is(w[i], len[i], "nondet") ? LF_MF_NONDET
                     : word_is(w[i], len[i], "blocks") ? LF_MF_BLOCKS
                     : word_is(w[i], len[i], "keyed")  ? LF_MF_KEYED
                                                       : 0;
        if (!f) {
            snprintf(err, errlen, "method %.*s: '%.*s' is not a flag (observer, nondet, blocks, keyed)%s", (int)len[0], w[0],
                     (int)(len[i] > 20 ? 20 : len[i]), w[i],
                     word_is(w[i], len[i], "->") ? "; '->' comes right after the number of arguments" : "");
            return false;
        }
        if (flags & f) {
            snprintf(err, errlen, "method %.*s: flag %.*s given twice", (int)len[0], w[0], (int)len[i], w[i]);
            return false;
        }
        flags |= f;
    }
    return lf_decl_add(b, w[0], len[0], nargs, results, flags, err, errlen);
}

bool lf_decl_attach(const lf_decl_builder *b, lf_history *h, char *err, size_t errlen) {
    if (b->n == 0) {
        snprintf(err, errlen, "type %s declares no methods", b->name);
        return false;
    }
    lf_type_desc d = {b->name, b->methods, b->n, NULL};
    if (h->custom_owned) lf_type_desc_free(h->custom_owned);
    h->custom_owned = NULL;
    h->type = LF_TYPE_CUSTOM;
    const lf_type_desc *reg = lf_type_find(b->name, strlen(b->name));
    if (reg && lf_type_desc_equal(reg, &d)) {
        h->custom = reg;
        return true;
    }
    h->custom_owned = lf_type_desc_dup(&d);
    h->custom = h->custom_owned;
    if (!h->custom_owned) {
        snprintf(err, errlen, "out of memory");
        return false;
    }
    return true;
}
