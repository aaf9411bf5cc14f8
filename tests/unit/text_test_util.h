/* Oracles of the tests of text shown to people and programs (test_escape.c, test_hostile_output.c), written
 * independently of util/escape.c: well-formed UTF-8 by the table of the Unicode standard (ch. 3, table 3-7,
 * "Well-Formed UTF-8 Byte Sequences"), what may reach a terminal, and a strict JSON parser (RFC 8259). */
#ifndef LINFUZZ_TEXT_TEST_UTIL_H
#define LINFUZZ_TEXT_TEST_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* The length of the well-formed sequence at s (table 3-7), 0 when there is none; its code point in *cp. */
static size_t lf_test_utf8_seq(const unsigned char *s, size_t n, uint32_t *cp) {
    static const struct {
        unsigned char lo[4], hi[4];
        size_t len;
    } rows[] = {
        {{0x00}, {0x7f}, 1},
        {{0xc2, 0x80}, {0xdf, 0xbf}, 2},
        {{0xe0, 0xa0, 0x80}, {0xe0, 0xbf, 0xbf}, 3},
        {{0xe1, 0x80, 0x80}, {0xec, 0xbf, 0xbf}, 3},
        {{0xed, 0x80, 0x80}, {0xed, 0x9f, 0xbf}, 3},
        {{0xee, 0x80, 0x80}, {0xef, 0xbf, 0xbf}, 3},
        {{0xf0, 0x90, 0x80, 0x80}, {0xf0, 0xbf, 0xbf, 0xbf}, 4},
        {{0xf1, 0x80, 0x80, 0x80}, {0xf3, 0xbf, 0xbf, 0xbf}, 4},
        {{0xf4, 0x80, 0x80, 0x80}, {0xf4, 0x8f, 0xbf, 0xbf}, 4},
    };
    for (size_t r = 0; r < sizeof rows / sizeof *rows; r++) {
        if (n < rows[r].len) continue;
        bool in = true;
        for (size_t k = 0; k < rows[r].len && in; k++) in = s[k] >= rows[r].lo[k] && s[k] <= rows[r].hi[k];
        if (!in) continue;
        static const unsigned char lead_mask[] = {0, 0x7f, 0x1f, 0x0f, 0x07};
        uint32_t v = s[0] & lead_mask[rows[r].len];
        for (size_t k = 1; k < rows[r].len; k++) v = v << 6 | (s[k] & 0x3fu);
        *cp = v;
        return rows[r].len;
    }
    return 0;
}

/* Whether s[0..n) may be shown on a terminal as it is: well-formed UTF-8 with no control character (C0 but
 * the line feeds and tabs allowed, DEL, C1), no bidirectional formatting character and no line or paragraph
 * separator. The offset of the first offending byte goes to *at. */
static bool lf_test_terminal_safe(const char *s, size_t n, bool newlines, bool tabs, size_t *at) {
    const unsigned char *p = (const unsigned char *)s;
    for (size_t i = 0; i < n;) {
        uint32_t cp;
        size_t len = lf_test_utf8_seq(p + i, n - i, &cp);
        bool bad = !len || (cp < 0x20 && !(cp == '\n' && newlines) && !(cp == '\t' && tabs)) ||
                   (cp >= 0x7f && cp <= 0x9f) || cp == 0x61c || cp == 0x200e || cp == 0x200f ||
                   (cp >= 0x2028 && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069);
        if (bad) {
            *at = i;
            return false;
        }
        i += len;
    }
    return true;
}

/* ---- a strict JSON parser (RFC 8259): syntax, string escapes, and UTF-8 ---- */

typedef struct lf_test_json {
    const unsigned char *s;
    size_t n, i;
    const char *why;
} lf_test_json;

static void lf_test_json_ws(lf_test_json *j) {
    while (j->i < j->n && (j->s[j->i] == ' ' || j->s[j->i] == '\t' || j->s[j->i] == '\n' || j->s[j->i] == '\r'))
        j->i++;
}

static bool lf_test_json_fail(lf_test_json *j, const char *why) {
    if (!j->why) j->why = why;
    return false;
}

static bool lf_test_json_string(lf_test_json *j) {
    if (j->i >= j->n || j->s[j->i] != '"') return lf_test_json_fail(j, "a string expected");
    j->i++;
    while (j->i < j->n) {
        unsigned char c = j->s[j->i];
        if (c == '"') {
            j->i++;
            return true;
        }
        if (c < 0x20) return lf_test_json_fail(j, "a raw control character in a string");
        if (c == '\\') {
            if (j->i + 1 >= j->n) return lf_test_json_fail(j, "an escape cut short");
            unsigned char e = j->s[j->i + 1];
            if (e == 'u') {
                if (j->i + 6 > j->n) return lf_test_json_fail(j, "a \\u escape cut short");
                for (size_t k = 2; k < 6; k++) {
                    unsigned char h = j->s[j->i + k];
                    if (!((h >= '0' && h <= '9') || (h >= 'a' && h <= 'f') || (h >= 'A' && h <= 'F')))
                        return lf_test_json_fail(j, "a \\u escape without 4 hex digits");
                }
                j->i += 6;
            } else if (strchr("\"\\/bfnrt", e) && e) {
                j->i += 2;
            } else {
                return lf_test_json_fail(j, "an unknown escape");
            }
            continue;
        }
        uint32_t cp;
        size_t len = lf_test_utf8_seq(j->s + j->i, j->n - j->i, &cp);
        if (!len) return lf_test_json_fail(j, "invalid UTF-8 in a string");
        j->i += len;
    }
    return lf_test_json_fail(j, "an unterminated string");
}

static bool lf_test_json_value(lf_test_json *j, int depth);

static bool lf_test_json_items(lf_test_json *j, int depth, char close, bool keyed) {
    j->i++;
    lf_test_json_ws(j);
    if (j->i < j->n && j->s[j->i] == (unsigned char)close) {
        j->i++;
        return true;
    }
    for (;;) {
        if (keyed) {
            if (!lf_test_json_string(j)) return false;
            lf_test_json_ws(j);
            if (j->i >= j->n || j->s[j->i] != ':') return lf_test_json_fail(j, "':' expected");
            j->i++;
        }
        if (!lf_test_json_value(j, depth + 1)) return false;
        lf_test_json_ws(j);
        if (j->i < j->n && j->s[j->i] == ',') {
            j->i++;
            lf_test_json_ws(j);
            continue;
        }
        if (j->i < j->n && j->s[j->i] == (unsigned char)close) {
            j->i++;
            return true;
        }
        return lf_test_json_fail(j, "',' or a closing bracket expected");
    }
}

static bool lf_test_json_value(lf_test_json *j, int depth) {
    if (depth > 64) return lf_test_json_fail(j, "nested too deep");
    lf_test_json_ws(j);
    if (j->i >= j->n) return lf_test_json_fail(j, "a value expected");
    unsigned char c = j->s[j->i];
    if (c == '{') return lf_test_json_items(j, depth, '}', true);
    if (c == '[') return lf_test_json_items(j, depth, ']', false);
    if (c == '"') return lf_test_json_string(j);
    static const char *const words[] = {"true", "false", "null"};
    for (int w = 0; w < 3; w++) {
        size_t len = strlen(words[w]);
        if (j->n - j->i >= len && !memcmp(j->s + j->i, words[w], len)) {
            j->i += len;
            return true;
        }
    }
    /* a number: -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)? */
    size_t start = j->i;
    if (j->s[j->i] == '-') j->i++;
    if (j->i < j->n && j->s[j->i] == '0') {
        j->i++;
    } else {
        if (j->i >= j->n || j->s[j->i] < '1' || j->s[j->i] > '9') return lf_test_json_fail(j, "a value expected");
        while (j->i < j->n && j->s[j->i] >= '0' && j->s[j->i] <= '9') j->i++;
    }
    if (j->i < j->n && j->s[j->i] == '.') {
        j->i++;
        size_t d = j->i;
        while (j->i < j->n && j->s[j->i] >= '0' && j->s[j->i] <= '9') j->i++;
        if (j->i == d) return lf_test_json_fail(j, "digits expected after '.'");
    }
    if (j->i < j->n && (j->s[j->i] == 'e' || j->s[j->i] == 'E')) {
        j->i++;
        if (j->i < j->n && (j->s[j->i] == '+' || j->s[j->i] == '-')) j->i++;
        size_t d = j->i;
        while (j->i < j->n && j->s[j->i] >= '0' && j->s[j->i] <= '9') j->i++;
        if (j->i == d) return lf_test_json_fail(j, "digits expected in an exponent");
    }
    return j->i > start;
}

/* Whether s[0..n) is a sequence of JSON texts (one, or one per line as `check --json` prints them), at least
 * one; why gets the first problem and *at its offset. */
static bool lf_test_json_valid(const char *s, size_t n, const char **why, size_t *at) {
    lf_test_json j = {(const unsigned char *)s, n, 0, NULL};
    size_t values = 0;
    for (lf_test_json_ws(&j); j.i < n; lf_test_json_ws(&j), values++)
        if (!lf_test_json_value(&j, 0)) break;
    if (!j.why && !values) j.why = "no JSON value";
    *why = j.why;
    *at = j.i;
    return !j.why;
}

#endif
