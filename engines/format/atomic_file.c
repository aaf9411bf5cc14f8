/* Atomic file writes (lf_write_file_atomic, linfuzz/format.h): a reader of the target's name sees the old
 * file or the complete new one, never a part of one, and a process killed while writing leaves nothing
 * behind.
 *
 * Where the file system supports it (ext4, xfs, btrfs, tmpfs, ...), the data goes to an unnamed file in the
 * target's directory (O_TMPFILE), which the kernel frees if the process dies; once complete and fsynced it
 * gets its name with linkat: directly when the target does not exist, else through a temporary name and a
 * rename over the target (rename is the only atomic replacement). Elsewhere the data goes to a temporary
 * file next to the target, renamed over it when complete. Either way a kill can leave a temporary file
 * (for O_TMPFILE only in the instant between link and rename), named .NAME.lf<pid>-<n>.tmp, hidden and
 * unmistakable: every write first removes those of its directory whose process is gone (kill(pid, 0) says
 * ESRCH), and the PATH.<pid>.<n>.tmp files that older versions left for the same target. (A directory
 * shared by writers in different PID namespaces could see a live writer's file taken for a dead one's;
 * that writer's rename then fails with an error, it never publishes a partial file.) */
#include "format/atomic_file.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

#include "linfuzz/format.h"

static atomic_bool use_tmpfile = true;

void lf_atomic_file_use_tmpfile(bool on) { atomic_store(&use_tmpfile, on); }

/* path split into its directory ("." when none) and its last component; NULL when out of memory. */
static char *split(const char *path, const char **base) {
    const char *slash = strrchr(path, '/');
    *base = slash ? slash + 1 : path;
    if (!slash) return strdup(".");
    size_t n = slash == path ? 1 : (size_t)(slash - path);
    char *d = malloc(n + 1);
    if (d) {
        memcpy(d, path, n);
        d[n] = '\0';
    }
    return d;
}

/* Parses the decimal digits at s up to the character stop; false when there are none, or others. */
static bool digits_until(const char *s, char stop, long long *value, const char **end) {
    char *e;
    if (*s < '0' || *s > '9') return false;
    errno = 0;
    *value = strtoll(s, &e, 10);
    if (errno || *e != stop) return false;
    *end = e;
    return true;
}

/* The pid of a temporary file name of ours (".X.lf<pid>-<n>.tmp"), or of an older version's for the target
 * `base` ("BASE.<pid>.<n>.tmp"); 0 for anything else. */
static long long temp_pid(const char *name, const char *base) {
    size_t len = strlen(name), blen = strlen(base);
    if (len < 5 || strcmp(name + len - 4, ".tmp") != 0) return 0;
    long long pid, n;
    const char *end;
    if (name[0] == '.') {
        const char *lf = NULL;
        for (const char *p = strstr(name, ".lf"); p; p = strstr(p + 1, ".lf")) lf = p; /* the last one */
        if (lf && lf > name + 1 && digits_until(lf + 3, '-', &pid, &end) && digits_until(end + 1, '.', &n, &end) &&
            end == name + len - 4)
            return pid;
    } else if (!strncmp(name, base, blen) && name[blen] == '.' && digits_until(name + blen + 1, '.', &pid, &end) &&
               digits_until(end + 1, '.', &n, &end) && end == name + len - 4) {
        return pid;
    }
    return 0;
}

/* Removes the temporary files in dir whose writer is gone (and the older versions' ones for base); returns
 * how many. Every write does this for its own directory first. */
static size_t atomic_file_sweep(const char *dir, const char *base) {
    DIR *d = opendir(dir);
    if (!d) return 0;
    size_t removed = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        long long pid = temp_pid(e->d_name, base);
        if (pid <= 0 || pid > INT_MAX || pid == (long long)getpid()) continue;
        if (kill((pid_t)pid, 0) == 0 || errno != ESRCH) continue; /* alive, or not ours to judge */
        if (unlinkat(dirfd(d), e->d_name, 0) == 0) removed++;
    }
    closedir(d);
    return removed;
}

/* A temporary name next to path: DIR/.BASE.lf<pid>-<n>.tmp (malloc'ed). */
static char *temp_name(const char *dir, const char *base) {
    static atomic_uint counter; /* concurrent writers in one process */
    size_t n = strlen(dir) + strlen(base) + 64;
    char *t = malloc(n);
    if (t) snprintf(t, n, "%s/.%s.lf%ld-%u.tmp", dir, base, (long)getpid(), atomic_fetch_add(&counter, 1));
    return t;
}

/* Gives the complete unnamed file fd the name path (see the top). */
static int link_unnamed(int fd, const char *path, const char *dir, const char *base) {
    char proc[64];
    snprintf(proc, sizeof proc, "/proc/self/fd/%d", fd);
    if (linkat(AT_FDCWD, proc, AT_FDCWD, path, AT_SYMLINK_FOLLOW) == 0) return 0;
    if (errno != EEXIST) return -1;
    char *tmp = temp_name(dir, base);
    if (!tmp) {
        errno = ENOMEM;
        return -1;
    }
    int rc = linkat(AT_FDCWD, proc, AT_FDCWD, tmp, AT_SYMLINK_FOLLOW);
    if (rc == 0 && (rc = rename(tmp, path)) != 0) {
        int saved = errno;
        unlink(tmp);
        errno = saved;
    }
    free(tmp);
    return rc;
}

lf_status lf_write_file_atomic(const char *path, lf_fill_fn fill, void *ctx, char *err, size_t errlen) {
    const char *base;
    char *dir = split(path, &base), *tmp = NULL;
    if (!dir) {
        snprintf(err, errlen, "%s: out of memory", path);
        return LF_ERR_NOMEM;
    }
    atomic_file_sweep(dir, base);
    int fd = -1;
    if (atomic_load(&use_tmpfile) && access("/proc/self/fd", X_OK) == 0)
        fd = open(dir, O_TMPFILE | O_WRONLY | O_CLOEXEC, 0666); /* EOPNOTSUPP, EISDIR: not here */
    if (fd < 0) {
        tmp = temp_name(dir, base);
        fd = tmp ? open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666) : -1;
    }
    FILE *f = fd >= 0 ? fdopen(fd, "wb") : NULL;
    if (!f) {
        snprintf(err, errlen, "%s: cannot create %s: %s", path, tmp ? tmp : "a temporary file", strerror(errno));
        if (fd >= 0) close(fd);
        if (fd >= 0 && tmp) unlink(tmp);
        free(tmp);
        free(dir);
        return LF_ERR_IO;
    }
    errno = 0;
    lf_status s = fill(f, ctx);
    int saved = errno;
    if (s == LF_OK && (fflush(f) != 0 || fsync(fd) != 0)) s = LF_ERR_IO, saved = errno;
    int keep = s == LF_OK && !tmp ? dup(fd) : -1; /* the unnamed file lives on this fd until it is linked */
    if (s == LF_OK && !tmp && keep < 0) s = LF_ERR_IO, saved = errno;
    if (fclose(f) != 0 && s == LF_OK) s = LF_ERR_IO, saved = errno;
    if (s == LF_OK && (tmp ? rename(tmp, path) : link_unnamed(keep, path, dir, base)) != 0)
        s = LF_ERR_IO, saved = errno;
    if (keep >= 0) close(keep);
    if (s != LF_OK) {
        snprintf(err, errlen, "%s: write failed: %s", path, saved ? strerror(saved) : "output error");
        if (tmp) unlink(tmp);
    } else {
        /* Make the new name durable; a failure here cannot undo the (complete) file, so ignore it. */
        int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (dfd >= 0) {
            (void)fsync(dfd);
            close(dfd);
        }
    }
    free(tmp);
    free(dir);
    return s;
}

typedef struct bytes_job {
    const void *data;
    size_t len;
} bytes_job;

static lf_status fill_bytes(FILE *f, void *ctx) {
    const bytes_job *j = ctx;
    return fwrite(j->data, 1, j->len, f) == j->len ? LF_OK : LF_ERR_IO;
}

lf_status lf_write_bytes_atomic(const char *path, const void *data, size_t len, char *err, size_t errlen) {
    bytes_job j = {data, len};
    return lf_write_file_atomic(path, fill_bytes, &j, err, errlen);
}
