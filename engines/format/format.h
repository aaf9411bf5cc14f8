/* History files: status codes shared by all formats, and reading/writing by file extension
 * (".hist" text, ".lfz" zstd-compressed binary). */
#ifndef LINFUZZ_FORMAT_H
#define LINFUZZ_FORMAT_H

#include <stddef.h>
#include <stdio.h>

#include "history/history.h"

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
/* Writes path atomically: fill writes a temporary file in the same directory, which is flushed, fsynced
 * and renamed over path. A process killed at any point leaves the old file or the new one, never a part
 * of one (at worst a stray PATH.*.tmp). Errors name the path. */
lf_status lf_write_file_atomic(const char *path, lf_fill_fn fill, void *ctx, char *err, size_t errlen);

#endif
