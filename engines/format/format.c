/* History files by extension: dispatch to the text or the compressed format, atomic writes. */
#include "format/format.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "format/text_format.h"

lf_file_format lf_format_of_path(const char *path) {
    size_t n = strlen(path);
    return n >= 4 && strcmp(path + n - 4, ".lfz") == 0 ? LF_FMT_LFZ : LF_FMT_TEXT;
}

lf_status lf_history_read(const char *path, lf_history *h, char *err, size_t errlen) {
    if (lf_format_of_path(path) == LF_FMT_LFZ) {
        snprintf(err, errlen, "%s: the compressed .lfz format is not built into this binary", path);
        return LF_ERR_FORMAT;
    }
    bool is_stdin = strcmp(path, "-") == 0;
    FILE *f = is_stdin ? stdin : fopen(path, "rb");
    if (!f) {
        snprintf(err, errlen, "%s: cannot open: %s", path, strerror(errno));
        return LF_ERR_IO;
    }
    lf_status s = lf_text_read_stream(f, is_stdin ? "<stdin>" : path, h, err, errlen);
    if (!is_stdin) fclose(f);
    return s;
}

lf_status lf_history_write(const char *path, const lf_history *h, char *err, size_t errlen) {
    if (strcmp(path, "-") == 0) {
        lf_status s = lf_text_write_stream(stdout, h);
        if (s == LF_OK && fflush(stdout) != 0) s = LF_ERR_IO;
        if (s) snprintf(err, errlen, "<stdout>: write error: %s", strerror(errno));
        return s;
    }
    if (lf_format_of_path(path) == LF_FMT_LFZ) {
        snprintf(err, errlen, "%s: the compressed .lfz format is not built into this binary", path);
        return LF_ERR_FORMAT;
    }
    /* Write next to the target and rename, so a killed process never leaves a half-written file. */
    size_t n = strlen(path) + 32;
    char *tmp = malloc(n);
    if (!tmp) return LF_ERR_NOMEM;
    snprintf(tmp, n, "%s.%ld.tmp", path, (long)getpid());
    FILE *f = fopen(tmp, "wb");
    if (!f) {
        snprintf(err, errlen, "%s: cannot create: %s", tmp, strerror(errno));
        free(tmp);
        return LF_ERR_IO;
    }
    lf_status s = lf_text_write_stream(f, h);
    if (fflush(f) != 0 || fsync(fileno(f)) != 0) s = LF_ERR_IO;
    if (fclose(f) != 0) s = LF_ERR_IO;
    if (s == LF_OK && rename(tmp, path) != 0) s = LF_ERR_IO;
    if (s != LF_OK) {
        snprintf(err, errlen, "%s: write failed: %s", path, strerror(errno));
        unlink(tmp);
    }
    free(tmp);
    return s;
}
