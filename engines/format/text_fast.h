/* The fast path of the text reader: runs of plain op lines parsed in one pass.
 *
 * Almost every line of a real history is an op line of a simple shape: `thread call ret method [args]
 * [-> result]`, decimal numbers, known method, no comment. Parsing those with the general tokenizer costs
 * most of a million-op check. This module parses such lines character by character with no per-line
 * function calls and appends the ops directly; at the first line it is not certain about (a comment, a
 * blank line, a header line, `?`, `nil`, a 19- or 20-digit number, `\r`, anything malformed, a result word
 * it does not know) it stops and hands that line to the general parser in text_format.c, which has the final
 * word and writes every error message. So the fast path only ever accepts lines that the general parser
 * accepts, and builds the same op from them (the parser fuzz target checks exactly that, against the reader
 * with the fast path off). */
#ifndef LINFUZZ_TEXT_FAST_H
#define LINFUZZ_TEXT_FAST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "history/seq_check.h"
#include "linfuzz/format.h"
#include "linfuzz/history.h"

#define LF_TEXT_FAST_MAX_METHODS 32

typedef struct lf_text_fast_method {
    uint64_t key;     /* the first (up to) 8 bytes of the name, little-endian, zero-padded */
    uint64_t mask;    /* the bytes of key that belong to the name */
    const char *name; /* the whole name, compared beyond 8 bytes */
    uint8_t len;
    uint8_t nargs;
    uint8_t method;   /* lf_op.method */
    uint16_t results; /* LF_KBIT mask of allowed result kinds (LF_K_NONE: no "->" part) */
} lf_text_fast_method;

/* The methods of the history's type, as the fast path looks them up. Empty: every line goes to the general
 * parser. */
typedef struct lf_text_fast {
    lf_text_fast_method m[LF_TEXT_FAST_MAX_METHODS];
    int n;
} lf_text_fast;

void lf_text_fast_clear(lf_text_fast *t);
/* Adds a method; names longer than 255 bytes or beyond the table are left to the general parser. */
void lf_text_fast_add(lf_text_fast *t, const char *name, unsigned method, unsigned nargs, unsigned results);

/* Parses the op lines starting at s, none of which may extend beyond last_nl (a '\n' of the buffer, at or
 * after s), appending ops to h and feeding them to seq. Bytes up to end (> last_nl) may be read, never beyond.
 * Stops at the first line it does not handle, or after last_nl. Returns the position reached (the start of
 * the line not handled, or last_nl + 1); *lines is the number of lines consumed (each one op). *st is LF_OK,
 * or LF_ERR_NOMEM when h or seq cannot grow. */
const char *lf_text_fast_ops(const lf_text_fast *t, const char *s, const char *last_nl, const char *end,
                             lf_history *h, lf_seq_check *seq, uint64_t *lines, lf_status *st);

#endif
