/* Text from outside shown where it could do harm: file names, an entry's metadata, verdict and root-cause
 * text, bytes an error message quotes from an input, environment values. On a terminal an escape sequence
 * in such text could set the window title, move the cursor or hide what follows; in a table a '|' or a
 * line break would end a cell or a row. One rule for all of it (docs/security.md, "Text from inputs"):
 *
 *   - a byte that does not start a well-formed UTF-8 character (a stray continuation byte, an overlong form,
 *     a surrogate, a code point above U+10FFFF, a sequence cut short) is shown as \xNN;
 *   - a control character, C0 (U+0000-U+001F), DEL (U+007F) or C1 (U+0080-U+009F), is shown as \xNN, each of
 *     its bytes (U+009B is \xc2\x9b), except a tab or a line feed where the caller keeps them;
 *   - so is a character that changes how the text around it is displayed: the bidirectional formatting
 *     characters (U+061C, U+200E, U+200F, U+202A-U+202E, U+2066-U+2069) and the line and paragraph
 *     separators (U+2028, U+2029);
 *   - in a markdown table cell, '|' is shown as '\|'.
 * Everything else, every other well-formed character and backslash too, is shown as it is: the text stays
 * readable (it is for reading, not for parsing back), and nothing in it reaches a terminal as a control.
 * JSON strings follow the same classes with JSON's escapes (cli/json_out.c). */
#ifndef LINFUZZ_UTIL_ESCAPE_H
#define LINFUZZ_UTIL_ESCAPE_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define LF_ESC_KEEP_NEWLINE 1u /* '\n' as it is: multi-line text whose lines are its own (a stored report) */
#define LF_ESC_KEEP_TAB 2u     /* '\t' as it is (source lines, reports) */
#define LF_ESC_CELL 4u         /* a markdown table cell: '|' as '\|' (line breaks and tabs are escaped) */

/* The length (1 to 4) of the well-formed UTF-8 character that starts s[0..n), its code point in *cp; 0 when
 * s does not start with one (n = 0 included). U+0000 is a character of length 1. */
size_t lf_utf8_char(const void *s, size_t n, uint32_t *cp);
/* Whether a character is shown escaped (a control, a bidirectional formatting character, a line or
 * paragraph separator: the list above). */
bool lf_char_is_unsafe(uint32_t cp);

/* Writes s[0..n) to f, escaped; keep: LF_ESC_* above. */
void lf_esc_write(FILE *f, const char *s, size_t n, unsigned keep);
/* Writes the NUL-terminated s (NULL: nothing), escaped. */
void lf_esc_puts(FILE *f, const char *s, unsigned keep);
/* s escaped into out (len bytes, NUL-terminated; an escape is never cut in two). Returns the length written. */
size_t lf_esc_str(char *out, size_t len, const char *s, unsigned keep);
/* printf of a line: the formatted text escaped with tabs kept, but the line feeds it starts or ends with
 * printed as such (one inside it, which can only come from an argument, is escaped). For messages and
 * one-line results that show text from outside. */
void lf_esc_printf(FILE *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void lf_esc_vprintf(FILE *f, const char *fmt, va_list ap) __attribute__((format(printf, 2, 0)));

#endif
