/* History files: the text format (version 1, docs/formats.md: a strict streaming reader and a canonical
 * writer that never guess; anything outside the grammar is an error naming the file and line), status codes
 * shared by all formats, and reading/writing by file extension (".hist" text, ".lfz" zstd-compressed
 * binary, linfuzz/lfz.h). */
#ifndef LINFUZZ_FORMAT_H
#define LINFUZZ_FORMAT_H

#include <stddef.h>
#include <stdio.h>

#include "linfuzz/history.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum lf_status {
    LF_OK = 0,
    LF_ERR_IO,     /* cannot open, read or write the file */
    LF_ERR_FORMAT, /* malformed content: the message names file and line (or byte offset) */
    LF_ERR_NOMEM,  /* the history does not fit in memory */
} lf_status;

typedef enum lf_file_format { LF_FMT_TEXT, LF_FMT_LFZ } lf_file_format;

/* Format chosen by extension: ".lfz" is compressed, anything else is text. */
lf_file_format lf_format_of_path(const char *path);

/* Reads a history from path ("-" is standard input, text). Errors go to err as "PATH:LINE: message". */
lf_status lf_history_read(const char *path, lf_history *h, char *err, size_t errlen);
/* Writes a history to path atomically (temporary file + rename), in the format of its extension. */
lf_status lf_history_write(const char *path, const lf_history *h, char *err, size_t errlen);

/* Fills a file through fill(f, ctx), which returns LF_OK or LF_ERR_IO. */
typedef lf_status (*lf_fill_fn)(FILE *f, void *ctx);
/* Writes path atomically: fill writes an unnamed file in the same directory (O_TMPFILE; where the file
 * system lacks it, a temporary file .NAME.lf<pid>-<n>.tmp), which is flushed, fsynced and then linked or
 * renamed to path. A process killed at any point leaves the old file or the new one, never a part of one;
 * a temporary file it leaves (only possible without O_TMPFILE, or in the instant between link and rename)
 * is removed by the next write into that directory. Errors name the path. */
lf_status lf_write_file_atomic(const char *path, lf_fill_fn fill, void *ctx, char *err, size_t errlen);
/* lf_write_file_atomic of len bytes at data. */
lf_status lf_write_bytes_atomic(const char *path, const void *data, size_t len, char *err, size_t errlen);

/* Reads a whole file of at most max bytes into *data (malloc'ed; its length in *len), opened as histories are
 * (docs/budgets.md: a FIFO nobody writes to reads as empty, a directory or a device is refused, LF_ERR_IO);
 * LF_ERR_FORMAT, "PATH: more than MAX bytes", when it is larger: no more than max + 1 bytes are read. */
lf_status lf_read_file_bounded(const char *path, size_t max, uint8_t **data, size_t *len, char *err, size_t errlen);

/* Reads a text history from an open stream. name is used in error messages ("FILE:LINE: ..."). */
lf_status lf_text_read_stream(FILE *f, const char *name, lf_history *h, char *err, size_t errlen);
/* Reads a text history held in memory (used by the compressed format and the parser fuzz target). */
lf_status lf_text_read_buffer(const char *buf, size_t len, const char *name, lf_history *h, char *err,
                              size_t errlen);

/* Writes h in the canonical text form. Returns LF_OK or LF_ERR_IO. */
lf_status lf_text_write_stream(FILE *f, const lf_history *h);
/* The longest op line lf_text_format_op and lf_text_format_history_op write (thread, stamps, a method name of
 * LF_CUSTOM_NAME_MAX, four 64-bit arguments and a result: at most 193 characters). */
#define LF_TEXT_OP_MAX 256
/* Appends one op line of a history of the given built-in type (without newline) to buf; returns the number
 * of chars written (< LF_TEXT_OP_MAX). */
size_t lf_text_format_op(char *buf, lf_type type, const lf_op *op);
/* The same for an op of h, of any type (custom types included). */
size_t lf_text_format_history_op(char *buf, const lf_history *h, const lf_op *op);
/* Writes h's header lines: "type NAME", and for a custom type its "method ..." declarations. */
lf_status lf_text_write_header(FILE *f, const lf_history *h);
/* Writes h's "contract ..." line (docs/contracts.md), or nothing when h has the default contract. */
lf_status lf_text_write_contract(FILE *f, const lf_history *h);

#ifdef __cplusplus
}
#endif

#endif
