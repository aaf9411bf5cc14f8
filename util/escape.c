/* Showing text from outside without letting it control the terminal or break a table (escape.h). */
#include "util/escape.h"

#include <stdlib.h>
#include <string.h>

size_t lf_utf8_char(const void *s, size_t n, uint32_t *cp) {
    const unsigned char *p = s;
    if (n == 0) return 0;
    unsigned char c = p[0];
    if (c < 0x80) {
        *cp = c;
        return 1;
    }
    size_t len;
    uint32_t v, min;
    if (c >= 0xc2 && c <= 0xdf)
        len = 2, v = c & 0x1fu, min = 0x80;
    else if (c >= 0xe0 && c <= 0xef)
        len = 3, v = c & 0x0fu, min = 0x800;
    else if (c >= 0xf0 && c <= 0xf4)
        len = 4, v = c & 0x07u, min = 0x10000;
    else
        return 0; /* a continuation byte, or a lead byte that can only start an overlong form or go past U+10FFFF */
    if (n < len) return 0;
    for (size_t k = 1; k < len; k++) {
        if ((p[k] & 0xc0) != 0x80) return 0;
        v = v << 6 | (p[k] & 0x3fu);
    }
    if (v < min || v > 0x10ffff || (v >= 0xd800 && v <= 0xdfff)) return 0;
    *cp = v;
    return len;
}

bool lf_char_is_unsafe(uint32_t cp) {
    return cp < 0x20 || (cp >= 0x7f && cp <= 0x9f) || cp == 0x61c || cp == 0x200e || cp == 0x200f ||
           (cp >= 0x2028 && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069);
}

/* How many bytes at s[0..n) are shown as they are (0: s starts with what is escaped); *len is the length of
 * the first character (or 1 for a byte that starts none). */
static size_t shown_as_is(const unsigned char *s, size_t n, unsigned keep, size_t *len) {
    uint32_t cp;
    *len = lf_utf8_char(s, n, &cp);
    if (!*len) {
        *len = 1;
        return 0;
    }
    if (cp == '\n') return keep & LF_ESC_KEEP_NEWLINE ? 1 : 0;
    if (cp == '\t') return keep & LF_ESC_KEEP_TAB ? 1 : 0;
    if (cp == '|' && (keep & LF_ESC_CELL)) return 0;
    return lf_char_is_unsafe(cp) ? 0 : *len;
}

/* The escape of s[0..len) (one character, or one byte that starts none) into buf; returns its length. */
static size_t escape_of(const unsigned char *s, size_t len, char buf[16]) {
    if (len == 1 && s[0] == '|') return (size_t)snprintf(buf, 16, "\\|");
    size_t w = 0;
    for (size_t k = 0; k < len; k++) w += (size_t)snprintf(buf + w, 16 - w, "\\x%02x", s[k]);
    return w;
}

void lf_esc_write(FILE *f, const char *s, size_t n, unsigned keep) {
    const unsigned char *p = (const unsigned char *)s;
    size_t i = 0, run = 0; /* p[i - run .. i) is shown as it is, not written yet */
    while (i < n) {
        unsigned char c = p[i];
        if (c >= 0x20 && c < 0x7f && !(c == '|' && (keep & LF_ESC_CELL))) { /* the common case */
            i++, run++;
            continue;
        }
        size_t len, ok = shown_as_is(p + i, n - i, keep, &len);
        if (ok) {
            i += ok, run += ok;
            continue;
        }
        if (run) fwrite(p + i - run, 1, run, f);
        char buf[16];
        fwrite(buf, 1, escape_of(p + i, len, buf), f);
        i += len, run = 0;
    }
    if (run) fwrite(p + i - run, 1, run, f);
}

void lf_esc_puts(FILE *f, const char *s, unsigned keep) {
    if (s) lf_esc_write(f, s, strlen(s), keep);
}

size_t lf_esc_str(char *out, size_t len, const char *s, unsigned keep) {
    if (!len) return 0;
    const unsigned char *p = (const unsigned char *)s;
    size_t n = strlen(s), i = 0, w = 0;
    while (i < n) {
        size_t clen, ok = shown_as_is(p + i, n - i, keep, &clen);
        char buf[16];
        const char *piece = ok ? s + i : buf;
        size_t plen = ok ? ok : escape_of(p + i, clen, buf);
        if (w + plen >= len) break;
        memcpy(out + w, piece, plen);
        w += plen, i += clen;
    }
    out[w] = 0;
    return w;
}

void lf_esc_vprintf(FILE *f, const char *fmt, va_list ap) {
    char small[1024], *text = small;
    va_list again;
    va_copy(again, ap);
    int n = vsnprintf(small, sizeof small, fmt, ap);
    if (n >= (int)sizeof small && (text = malloc((size_t)n + 1)) != NULL)
        vsnprintf(text, (size_t)n + 1, fmt, again);
    va_end(again);
    if (n < 0) return;
    if (!text) { /* out of memory: what fits, escaped all the same */
        text = small;
        n = (int)strlen(small);
    }
    size_t len = (size_t)n, lead = 0, trail = 0;
    while (lead < len && text[lead] == '\n') lead++;
    while (trail < len - lead && text[len - 1 - trail] == '\n') trail++;
    fwrite(text, 1, lead, f);
    lf_esc_write(f, text + lead, len - lead - trail, LF_ESC_KEEP_TAB);
    fwrite(text + len - trail, 1, trail, f);
    if (text != small) free(text);
}

void lf_esc_printf(FILE *f, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    lf_esc_vprintf(f, fmt, ap);
    va_end(ap);
}
