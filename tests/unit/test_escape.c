/* Text from inputs, shown (util/escape.h) and in JSON (cli/json_out.c): the UTF-8 decoder against the
 * standard's table of well-formed sequences, every 1-, 2- and 3-byte sequence and every 4-byte one with a
 * continuation tail; the escapes of hand-picked hostile text; random byte strings (a fixed number, seed
 * printed on failure) shown with nothing a terminal would act on, read back to the same bytes, and written
 * as JSON strings that a strict parser accepts and that decode to the text (invalid bytes to U+FFFD). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json_out.h"
#include "test_util.h"
#include "text_test_util.h"
#include "util/escape.h"
#include "util/prng.h"

/* What f received, NUL-terminated (malloc'ed), for a writer run on an in-memory stream. */
#define CAPTURE(out, len, call)                \
    do {                                       \
        FILE *f_ = open_memstream(&out, &len); \
        FILE *f = f_;                          \
        call;                                  \
        fclose(f_);                            \
    } while (0)

static void test_utf8_decoder(void) {
    unsigned char s[4];
    size_t mismatches = 0;
    /* every sequence of up to 3 bytes, read with exactly its length available */
    for (uint32_t len = 1; len <= 3; len++)
        for (uint32_t v = 0; v < (1u << (8 * len)); v++) {
            for (uint32_t k = 0; k < len; k++) s[k] = (unsigned char)(v >> (8 * (len - 1 - k)));
            uint32_t a = 0, b = 0;
            size_t la = lf_utf8_char(s, len, &a), lb = lf_test_utf8_seq(s, len, &b);
            if (la != lb || (la && a != b)) {
                if (mismatches++ < 5)
                    fprintf(stderr, "bytes %02x %02x %02x (%u): decoder %zu U+%04X, table %zu U+%04X\n", s[0],
                            len > 1 ? s[1] : 0, len > 2 ? s[2] : 0, len, la, a, lb, b);
            }
        }
    /* every 4-byte sequence whose last three bytes are continuation bytes, and others that are not */
    for (uint32_t lead = 0xe0; lead <= 0xff; lead++)
        for (uint32_t t = 0; t < (1u << 18); t++) {
            s[0] = (unsigned char)lead;
            s[1] = (unsigned char)(0x80 | (t >> 12));
            s[2] = (unsigned char)(0x80 | ((t >> 6) & 0x3f));
            s[3] = (unsigned char)(0x80 | (t & 0x3f));
            if (t % 4096 == 7) s[3] = (unsigned char)(t >> 4); /* a tail that breaks off */
            uint32_t a = 0, b = 0;
            size_t la = lf_utf8_char(s, 4, &a), lb = lf_test_utf8_seq(s, 4, &b);
            if (la != lb || (la && a != b)) {
                if (mismatches++ < 5)
                    fprintf(stderr, "bytes %02x %02x %02x %02x: decoder %zu, table %zu\n", s[0], s[1], s[2], s[3], la,
                            lb);
            }
        }
    CHECKF(mismatches == 0, "%zu sequences decoded otherwise than the table says", mismatches);
    uint32_t cp = 1;
    CHECK(lf_utf8_char("", 0, &cp) == 0);
    CHECK(lf_utf8_char("\xe2\x82", 2, &cp) == 0); /* cut short */
    CHECK(lf_utf8_char("\x00", 1, &cp) == 1 && cp == 0);
}

static void expect_escaped(const char *in, size_t n, unsigned keep, const char *want) {
    char *out = NULL;
    size_t len = 0;
    CAPTURE(out, len, lf_esc_write(f, in, n, keep));
    CHECKF(!strcmp(out, want), "escaped as '%s', expected '%s'", out, want);
    free(out);
}

/* a literal, NULs included */
#define EXPECT_ESCAPED(lit, keep, want) expect_escaped(lit, sizeof(lit) - 1, keep, want)

static void test_escapes(void) {
    /* a terminal title, a screen clear, colours, a bell, a carriage return, DEL */
    EXPECT_ESCAPED("\x1b]0;PWNED\x07\x1b[2J\x1b[31mred\rback\x7f", 0, "\\x1b]0;PWNED\\x07\\x1b[2J\\x1b[31mred\\x0dback\\x7f");
    /* C1 controls (CSI as U+009B) and lone bytes of them */
    EXPECT_ESCAPED("a\xc2\x9b" "b\x9b" "c", 0, "a\\xc2\\x9bb\\x9bc");
    /* not UTF-8: a stray continuation, an overlong '/', a surrogate, beyond U+10FFFF, cut short at the end */
    EXPECT_ESCAPED("\x80", 0, "\\x80");
    EXPECT_ESCAPED("\xc0\xaf", 0, "\\xc0\\xaf");
    EXPECT_ESCAPED("\xed\xa0\x80", 0, "\\xed\\xa0\\x80");
    EXPECT_ESCAPED("\xf4\x90\x80\x80", 0, "\\xf4\\x90\\x80\\x80");
    EXPECT_ESCAPED("x\xe2\x82", 0, "x\\xe2\\x82");
    /* bidirectional overrides and the line separator; other characters stay */
    EXPECT_ESCAPED("\xe2\x80\xae" "evil\xe2\x80\xa8" "x", 0, "\\xe2\\x80\\xaeevil\\xe2\\x80\\xa8x");
    EXPECT_ESCAPED("caf\xc3\xa9 \xe6\x97\xa5 \xf0\x9f\x98\x80 a\\x", 0, "caf\xc3\xa9 \xe6\x97\xa5 \xf0\x9f\x98\x80 a\\x");
    /* NUL inside a counted text */
    EXPECT_ESCAPED("a\0b", 0, "a\\x00b");
    /* line feeds and tabs: escaped unless kept */
    EXPECT_ESCAPED("a\nb\tc", 0, "a\\x0ab\\x09c");
    EXPECT_ESCAPED("a\nb\tc", LF_ESC_KEEP_NEWLINE, "a\nb\\x09c");
    EXPECT_ESCAPED("a\nb\tc", LF_ESC_KEEP_TAB, "a\\x0ab\tc");
    /* a table cell: '|' too, and never a line break */
    EXPECT_ESCAPED("a|b\nc", LF_ESC_CELL, "a\\|b\\x0ac");
    EXPECT_ESCAPED("a|b", 0, "a|b");

    /* into a buffer: an escape is never cut in two */
    char buf[8];
    CHECK(lf_esc_str(buf, sizeof buf, "ab\x1b" "cd", 0) == 7 && !strcmp(buf, "ab\\x1bc"));
    CHECK(lf_esc_str(buf, 6, "ab\x1b" "cd", 0) == 2 && !strcmp(buf, "ab"));
    CHECK(lf_esc_str(buf, 6, "ab\xc3\xa9\xc3\xa9", 0) == 4 && !strcmp(buf, "ab\xc3\xa9"));

    /* printf of a line: its own line feeds at the ends stay, one from an argument is escaped */
    char *out = NULL;
    size_t len = 0;
    CAPTURE(out, len, lf_esc_printf(f, "\nfile %s: %s\n\n", "a\nb", "\x1b[8mhidden\tx"));
    CHECKF(!strcmp(out, "\nfile a\\x0ab: \\x1b[8mhidden\tx\n\n"), "printf gave '%s'", out);
    free(out);
    CAPTURE(out, len, lf_esc_printf(f, "%s", ""));
    CHECK(len == 0);
    free(out);
    /* a text longer than the formatting buffer */
    char big[5000];
    memset(big, 'x', sizeof big - 1);
    big[sizeof big - 1] = 0;
    big[4000] = '\a';
    CAPTURE(out, len, lf_esc_printf(f, "<%s>\n", big));
    CHECK(len == sizeof big - 1 + 3 + 3 && out[4001] == '\\' && out[len - 1] == '\n');
    free(out);
}

/* Reads the escapes back (\xNN and \|); text without backslashes of its own comes back as it was. */
static size_t unescape(const char *s, size_t n, char *out) {
    size_t w = 0;
    for (size_t i = 0; i < n;) {
        if (s[i] == '\\' && i + 3 < n + 0 && s[i + 1] == 'x') {
            unsigned v;
            sscanf(s + i + 2, "%2x", &v);
            out[w++] = (char)v;
            i += 4;
        } else if (s[i] == '\\' && i + 1 < n && s[i + 1] == '|') {
            out[w++] = '|';
            i += 2;
        } else {
            out[w++] = s[i++];
        }
    }
    return w;
}

/* Decodes a JSON string literal (as lf_json_string writes it) into UTF-8; its length, or (size_t)-1. */
static size_t json_decode(const char *s, size_t n, char *out) {
    size_t w = 0;
    if (n < 2 || s[0] != '"' || s[n - 1] != '"') return (size_t)-1;
    for (size_t i = 1; i < n - 1;) {
        if (s[i] != '\\') {
            out[w++] = s[i++];
            continue;
        }
        char e = s[i + 1];
        if (e == 'u') {
            unsigned v;
            if (sscanf(s + i + 2, "%4x", &v) != 1) return (size_t)-1;
            if (v < 0x80) {
                out[w++] = (char)v;
            } else if (v < 0x800) {
                out[w++] = (char)(0xc0 | v >> 6);
                out[w++] = (char)(0x80 | (v & 0x3f));
            } else {
                out[w++] = (char)(0xe0 | v >> 12);
                out[w++] = (char)(0x80 | ((v >> 6) & 0x3f));
                out[w++] = (char)(0x80 | (v & 0x3f));
            }
            i += 6;
        } else {
            out[w++] = e;
            i += 2;
        }
    }
    return w;
}

/* The text with every byte that starts no UTF-8 character replaced by U+FFFD (what JSON must carry). */
static size_t replace_invalid(const char *s, size_t n, char *out) {
    size_t w = 0;
    for (size_t i = 0; i < n;) {
        uint32_t cp;
        size_t len = lf_test_utf8_seq((const unsigned char *)s + i, n - i, &cp);
        if (!len) {
            memcpy(out + w, "\xef\xbf\xbd", 3);
            w += 3;
            i++;
        } else {
            memcpy(out + w, s + i, len);
            w += len;
            i += len;
        }
    }
    return w;
}

static void test_random_texts(void) {
    /* bytes that matter, more often than chance would pick them */
    static const char *const pieces[] = {"\x1b", "\x07", "\n", "\t", "\r", "\x7f", "|", "\"", "a", "Z", " ", "\xc2\x9b",
                                         "\xc3\xa9", "\xe2\x80\xae", "\xe2\x80\xa8", "\xf0\x9f\x98\x80", "\xed\xa0\x80",
                                         "\xc0\xaf", "\xff", "\x80", "\xe2\x82", "\xf4\x90\x80\x80"};
    const int cases = 20000;
    uint64_t seed = 0x5eed2100;
    int failed = 0;
    for (int c = 0; c < cases && failed < 5; c++) {
        uint64_t st = seed + (uint64_t)c;
        char in[256];
        size_t n = 0, parts = lf_rand_below(&st, 24);
        for (size_t k = 0; k < parts; k++) {
            if (lf_rand_below(&st, 4) == 0) {
                unsigned char b = (unsigned char)lf_rand_below(&st, 256);
                if (b == '\\' || b == 0) b = '?';
                in[n++] = (char)b;
            } else {
                const char *p = pieces[lf_rand_below(&st, sizeof pieces / sizeof *pieces)];
                memcpy(in + n, p, strlen(p));
                n += strlen(p);
            }
        }
        in[n] = 0;
        static const unsigned keeps[] = {0, LF_ESC_KEEP_NEWLINE | LF_ESC_KEEP_TAB, LF_ESC_CELL};
        unsigned keep = keeps[c % 3];
        char *out = NULL, back[1024];
        size_t len = 0, at = 0;
        CAPTURE(out, len, lf_esc_write(f, in, n, keep));
        bool safe = lf_test_terminal_safe(out, len, keep & LF_ESC_KEEP_NEWLINE, keep & LF_ESC_KEEP_TAB, &at);
        bool pipe_bare = false;
        for (size_t i = 0; (keep & LF_ESC_CELL) && i < len; i++)
            pipe_bare |= out[i] == '|' && (i == 0 || out[i - 1] != '\\');
        size_t bl = unescape(out, len, back);
        bool same = bl == n && !memcmp(back, in, n);
        char str[1200];
        size_t sl = lf_esc_str(str, sizeof str, in, keep);
        bool str_same = sl == len && !memcmp(str, out, len);
        free(out);
        /* JSON */
        char *js = NULL, dec[1024], want[1024];
        size_t jl = 0, jat = 0;
        const char *why = NULL;
        CAPTURE(js, jl, lf_json_string(f, in));
        bool valid = lf_test_json_valid(js, jl, &why, &jat);
        size_t dl = json_decode(js, jl, dec), wl = replace_invalid(in, n, want);
        bool json_same = dl == wl && !memcmp(dec, want, wl);
        free(js);
        if (!safe || pipe_bare || !same || !str_same || !valid || !json_same) {
            failed++;
            CHECKF(false, "seed %#llx (case %d, keep %u): safe %d (byte %zu), bare '|' %d, read back %d, buffer %d, JSON "
                          "valid %d (%s at %zu), JSON decodes to the text %d",
                   (unsigned long long)st, c, keep, safe, at, pipe_bare, same, str_same, valid, why ? why : "-", jat,
                   json_same);
        }
    }
    CHECK(failed == 0);
}

static void test_json_fixed(void) {
    char *js = NULL;
    size_t jl = 0;
    CAPTURE(js, jl, lf_json_string(f, "q\"b\\\x01\x7f\xc2\x85\xe2\x80\xae\xff\xc3\xa9"));
    CHECKF(!strcmp(js, "\"q\\\"b\\\\\\u0001\\u007f\\u0085\\u202e\\ufffd\xc3\xa9\""), "JSON '%s'", js);
    free(js);
}

int main(void) {
    test_utf8_decoder();
    test_escapes();
    test_random_texts();
    test_json_fixed();
    TEST_DONE();
}
