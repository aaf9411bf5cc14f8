/* History files by extension: dispatch to the text or the compressed format (writes through
 * lf_write_file_atomic, atomic_file.c). */
#include "linfuzz/format.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "format/input_file.h"
#include "linfuzz/lfz.h"

lf_file_format lf_format_of_path(const char *path) {
    size_t n = strlen(path);
    return n >= 4 && strcmp(path + n - 4, ".lfz") == 0 ? LF_FMT_LFZ : LF_FMT_TEXT;
}

lf_status lf_history_read(const char *path, lf_history *h, char *err, size_t errlen) {
    if (lf_format_of_path(path) == LF_FMT_LFZ) return lf_lfz_read_history(path, NULL, h, err, errlen);
    if (strcmp(path, "-") == 0) return lf_text_read_stream(stdin, "<stdin>", h, err, errlen);
    /* A FIFO without a writer must not hang the reader, nor a device feed it forever (input_file.h). */
    lf_input in;
    lf_status s = lf_open_input(path, &in, err, errlen);
    FILE *f = s == LF_OK ? fdopen(in.fd, "rb") : NULL;
    if (!f) {
        if (s == LF_OK) {
            snprintf(err, errlen, "%s: cannot open: %s", path, strerror(errno));
            lf_input_close(&in);
            s = LF_ERR_IO;
        }
        lf_history_init(h, LF_TYPE_REGISTER);
        return s;
    }
    s = lf_text_read_stream(f, path, h, err, errlen);
    fclose(f);
    return s;
}

static lf_status fill_text(FILE *f, void *ctx) { return lf_text_write_stream(f, ctx); }

lf_status lf_history_write(const char *path, const lf_history *h, char *err, size_t errlen) {
    if (strcmp(path, "-") == 0) {
        lf_status s = lf_text_write_stream(stdout, h);
        if (s == LF_OK && fflush(stdout) != 0) s = LF_ERR_IO;
        if (s) snprintf(err, errlen, "cannot write to standard output: %s", strerror(errno));
        return s;
    }
    if (lf_format_of_path(path) == LF_FMT_LFZ)
        return lf_lfz_write_history(path, h, LF_LFZ_DEFAULT_LEVEL, err, errlen);
    return lf_write_file_atomic(path, fill_text, (void *)h, err, errlen);
}
