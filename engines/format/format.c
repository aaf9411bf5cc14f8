/* History files by extension: dispatch to the text or the compressed format, atomic writes. */
#include "linfuzz/format.h"

#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "linfuzz/lfz.h"

lf_file_format lf_format_of_path(const char *path) {
    size_t n = strlen(path);
    return n >= 4 && strcmp(path + n - 4, ".lfz") == 0 ? LF_FMT_LFZ : LF_FMT_TEXT;
}

lf_status lf_history_read(const char *path, lf_history *h, char *err, size_t errlen) {
    if (lf_format_of_path(path) == LF_FMT_LFZ) return lf_lfz_read_history(path, NULL, h, err, errlen);
    bool is_stdin = strcmp(path, "-") == 0;
    FILE *f = is_stdin ? stdin : fopen(path, "rb");
    if (!f) {
        lf_history_init(h, LF_TYPE_REGISTER);
        snprintf(err, errlen, "%s: cannot open: %s", path, strerror(errno));
        return LF_ERR_IO;
    }
    lf_status s = lf_text_read_stream(f, is_stdin ? "<stdin>" : path, h, err, errlen);
    if (!is_stdin) fclose(f);
    return s;
}

/* The directory part of path ("." when there is none), so the rename can be made durable. */
static char *dir_of(const char *path) {
    const char *slash = strrchr(path, '/');
    if (!slash) return strdup(".");
    size_t n = slash == path ? 1 : (size_t)(slash - path);
    char *d = malloc(n + 1);
    if (d) {
        memcpy(d, path, n);
        d[n] = '\0';
    }
    return d;
}

lf_status lf_write_file_atomic(const char *path, lf_fill_fn fill, void *ctx, char *err, size_t errlen) {
    /* The temporary file sits next to the target so that rename() is atomic (same file system); pid and a
     * counter keep concurrent writers, in one process or several, off each other's temporary files. */
    static atomic_uint counter;
    size_t n = strlen(path) + 48;
    char *tmp = malloc(n);
    if (!tmp) {
        snprintf(err, errlen, "%s: out of memory", path);
        return LF_ERR_NOMEM;
    }
    snprintf(tmp, n, "%s.%ld.%u.tmp", path, (long)getpid(), atomic_fetch_add(&counter, 1));
    int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    FILE *f = fd >= 0 ? fdopen(fd, "wb") : NULL;
    if (!f) {
        snprintf(err, errlen, "%s: cannot create %s: %s", path, tmp, strerror(errno));
        if (fd >= 0) {
            close(fd);
            unlink(tmp);
        }
        free(tmp);
        return LF_ERR_IO;
    }
    errno = 0;
    lf_status s = fill(f, ctx);
    int saved = errno;
    if (s == LF_OK && (fflush(f) != 0 || fsync(fileno(f)) != 0)) s = LF_ERR_IO, saved = errno;
    if (fclose(f) != 0 && s == LF_OK) s = LF_ERR_IO, saved = errno;
    if (s == LF_OK && rename(tmp, path) != 0) s = LF_ERR_IO, saved = errno;
    if (s != LF_OK) {
        snprintf(err, errlen, "%s: write failed: %s", path, saved ? strerror(saved) : "output error");
        unlink(tmp);
    } else {
        /* Make the rename itself durable; a failure here cannot undo the (complete) file, so ignore it. */
        char *dir = dir_of(path);
        int dfd = dir ? open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC) : -1;
        if (dfd >= 0) {
            (void)fsync(dfd);
            close(dfd);
        }
        free(dir);
    }
    free(tmp);
    return s;
}

static lf_status fill_text(FILE *f, void *ctx) { return lf_text_write_stream(f, ctx); }

lf_status lf_history_write(const char *path, const lf_history *h, char *err, size_t errlen) {
    if (strcmp(path, "-") == 0) {
        lf_status s = lf_text_write_stream(stdout, h);
        if (s == LF_OK && fflush(stdout) != 0) s = LF_ERR_IO;
        if (s) snprintf(err, errlen, "<stdout>: write error: %s", strerror(errno));
        return s;
    }
    if (lf_format_of_path(path) == LF_FMT_LFZ)
        return lf_lfz_write_history(path, h, LF_LFZ_DEFAULT_LEVEL, err, errlen);
    return lf_write_file_atomic(path, fill_text, (void *)h, err, errlen);
}
