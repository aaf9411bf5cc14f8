/* Text history format, version 1 (shared/spec/history-format.md): strict streaming reader and writer.
 *
 * The reader never guesses: anything outside the grammar is an error naming the file and line. It reads
 * in fixed-size chunks so that a history's text is never held in memory whole. */
#ifndef LINFUZZ_TEXT_FORMAT_H
#define LINFUZZ_TEXT_FORMAT_H

#include <stdio.h>

#include "format/format.h"
#include "history/history.h"

/* Reads a text history from an open stream. name is used in error messages ("FILE:LINE: ..."). */
lf_status lf_text_read_stream(FILE *f, const char *name, lf_history *h, char *err, size_t errlen);
/* Reads a text history held in memory (used by the compressed format and the parser fuzz target). */
lf_status lf_text_read_buffer(const char *buf, size_t len, const char *name, lf_history *h, char *err,
                              size_t errlen);

/* Writes h in the canonical text form. Returns LF_OK or LF_ERR_IO. */
lf_status lf_text_write_stream(FILE *f, const lf_history *h);
/* Appends one op line of a history of the given type (without newline) to buf; returns the number of
 * chars written (< 128). */
size_t lf_text_format_op(char *buf, lf_type type, const lf_op *op);

#endif
