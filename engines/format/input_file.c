/* Opening a file to read a history or a container from (input_file.h). */
#include "format/input_file.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *kind_of(mode_t m) {
    if (S_ISDIR(m)) return "a directory";
    if (S_ISCHR(m)) return "a character device";
    if (S_ISBLK(m)) return "a block device";
    return "not a file";
}

lf_status lf_open_input(const char *path, lf_input *in, char *err, size_t errlen) {
    memset(in, 0, sizeof *in);
    in->fd = -1;
    /* O_NONBLOCK: a FIFO without a writer opens at once instead of waiting for one (and then reads as empty). */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
    if (fd < 0) {
        snprintf(err, errlen, "%s: cannot open: %s", path, strerror(errno));
        return LF_ERR_IO;
    }
    struct stat sb;
    if (fstat(fd, &sb) != 0) {
        snprintf(err, errlen, "%s: cannot open: %s", path, strerror(errno));
        close(fd);
        return LF_ERR_IO;
    }
    if (!S_ISREG(sb.st_mode) && !S_ISFIFO(sb.st_mode) && !S_ISSOCK(sb.st_mode)) {
        snprintf(err, errlen, "%s: not a regular file or a pipe (%s): refused", path, kind_of(sb.st_mode));
        close(fd);
        return LF_ERR_IO;
    }
    int flags = fcntl(fd, F_GETFL);
    if (flags < 0 || fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) < 0) {
        snprintf(err, errlen, "%s: cannot open: %s", path, strerror(errno));
        close(fd);
        return LF_ERR_IO;
    }
    in->fd = fd;
    in->regular = S_ISREG(sb.st_mode);
    in->size = in->regular && sb.st_size > 0 ? (uint64_t)sb.st_size : 0;
    return LF_OK;
}

size_t lf_input_read(lf_input *in, void *buf, size_t n) {
    size_t got = 0;
    while (got < n) {
        ssize_t k = read(in->fd, (char *)buf + got, n - got);
        if (k < 0 && errno == EINTR) continue;
        if (k < 0) return SIZE_MAX;
        if (k == 0) break;
        got += (size_t)k;
    }
    return got;
}

void lf_input_close(lf_input *in) {
    if (in->fd >= 0) close(in->fd);
    in->fd = -1;
}

lf_status lf_read_file_bounded(const char *path, size_t max, uint8_t **data, size_t *len, char *err, size_t errlen) {
    *data = NULL;
    *len = 0;
    lf_input in;
    lf_status st = lf_open_input(path, &in, err, errlen);
    if (st != LF_OK) return st;
    size_t cap = in.regular && in.size < max ? (size_t)in.size + 1 : max + 1; /* one more: to see it is larger */
    uint8_t *buf = malloc(cap ? cap : 1);
    size_t n = buf ? lf_input_read(&in, buf, cap) : 0;
    int saved = errno;
    lf_input_close(&in);
    if (!buf || n == SIZE_MAX) {
        snprintf(err, errlen, "%s: cannot read: %s", path, buf ? strerror(saved) : "out of memory");
        free(buf);
        return buf ? LF_ERR_IO : LF_ERR_NOMEM;
    }
    if (n > max) {
        snprintf(err, errlen, "%s: more than %zu bytes", path, max);
        free(buf);
        return LF_ERR_FORMAT;
    }
    *data = buf;
    *len = n;
    return LF_OK;
}
