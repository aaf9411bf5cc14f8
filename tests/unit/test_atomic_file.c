/* Atomic writes (engines/format/atomic_file.c), both ways they are made (an unnamed O_TMPFILE file where the
 * file system has it, a named temporary file elsewhere): new and replaced targets leave only the target;
 * the next write removes temporary files of dead writers (ours and older versions') and keeps live ones
 * and other files; and 20 writers killed with SIGKILL at random moments while writing 32 MB leave no
 * temporary file once the next write has run, the target always whole (the old content or the new). */
#include <dirent.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "format/atomic_file.h"
#include "linfuzz/format.h"
#include "test_util.h"

#define BIG (32u << 20)

typedef struct {
    size_t size;
    char fill;
} content;

/* Writes c->size bytes of c->fill, 64 KB at a time. */
static lf_status fill_bytes(FILE *f, void *ctx) {
    const content *c = ctx;
    static char block[1 << 16];
    memset(block, c->fill, sizeof block);
    for (size_t done = 0; done < c->size; done += sizeof block) {
        size_t n = c->size - done < sizeof block ? c->size - done : sizeof block;
        if (fwrite(block, 1, n, f) != n) return LF_ERR_IO;
    }
    return LF_OK;
}

/* Names in dir other than . and ..; "temporaries" counts those ending in .tmp. */
static int count(const char *dir, int *temporaries) {
    DIR *d = opendir(dir);
    int n = 0;
    *temporaries = 0;
    struct dirent *e;
    while (d && (e = readdir(d))) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
        n++;
        size_t len = strlen(e->d_name);
        *temporaries += len > 4 && !strcmp(e->d_name + len - 4, ".tmp");
    }
    if (d) closedir(d);
    return n;
}

/* The target holds size bytes, all of them `fill`. */
static bool whole(const char *path, size_t size, char fill) {
    FILE *f = fopen(path, "rb");
    if (!f) return false;
    size_t n = 0, got;
    char buf[1 << 16];
    bool same = true;
    while ((got = fread(buf, 1, sizeof buf, f)) > 0) {
        for (size_t i = 0; i < got; i++) same &= buf[i] == fill;
        n += got;
    }
    fclose(f);
    return same && n == size;
}

static void touch(const char *dir, const char *name) {
    char p[512];
    snprintf(p, sizeof p, "%s/%s", dir, name);
    FILE *f = fopen(p, "w");
    if (f) fclose(f);
}

static bool exists(const char *dir, const char *name) {
    char p[512];
    struct stat st;
    snprintf(p, sizeof p, "%s/%s", dir, name);
    return stat(p, &st) == 0;
}

/* A pid that was a process a moment ago and is none now. */
static pid_t dead_pid(void) {
    pid_t p = fork();
    if (p == 0) _exit(0);
    waitpid(p, NULL, 0);
    return p;
}

static void test_mode(bool tmpfile) {
    lf_atomic_file_use_tmpfile(tmpfile);
    char dir[] = "/tmp/lf_atomic_XXXXXX", path[512], err[512], name[256];
    CHECK(mkdtemp(dir) != NULL);
    snprintf(path, sizeof path, "%s/out.hist", dir);
    int tmps;
    content small = {1000, 'a'};
    CHECKF(lf_write_file_atomic(path, fill_bytes, &small, err, sizeof err) == LF_OK, "%s", err);
    small.fill = 'b';
    CHECKF(lf_write_file_atomic(path, fill_bytes, &small, err, sizeof err) == LF_OK, "%s", err); /* replaces */
    CHECK(count(dir, &tmps) == 1 && whole(path, 1000, 'b'));

    /* Leftovers: dead writers' go, live ones and other files stay. */
    pid_t dead = dead_pid();
    snprintf(name, sizeof name, ".out.hist.lf%ld-0.tmp", (long)dead);
    touch(dir, name);
    snprintf(name, sizeof name, ".entry.lfz.lf%ld-7.tmp", (long)dead); /* another target's, same directory */
    touch(dir, name);
    snprintf(name, sizeof name, "out.hist.%ld.0.tmp", (long)dead); /* an older version's */
    touch(dir, name);
    snprintf(name, sizeof name, ".out.hist.lf%ld-1.tmp", (long)getppid()); /* alive */
    touch(dir, name);
    touch(dir, "notes.1.2.tmp");        /* not ours */
    touch(dir, ".entry.lfz.lfx-1.tmp"); /* not a pid */
    CHECK(count(dir, &tmps) == 7 && tmps == 6);
    CHECKF(lf_write_file_atomic(path, fill_bytes, &small, err, sizeof err) == LF_OK, "%s", err);
    CHECKF(count(dir, &tmps) == 4 && tmps == 3, "%d files, %d temporary", count(dir, &tmps), tmps);
    CHECK(exists(dir, name) && exists(dir, "notes.1.2.tmp") && exists(dir, ".entry.lfz.lfx-1.tmp"));
    unlink(path);
    snprintf(path, sizeof path, "%s/%s", dir, name);
    unlink(path);
    snprintf(path, sizeof path, "%s/notes.1.2.tmp", dir);
    unlink(path);
    snprintf(path, sizeof path, "%s/.entry.lfz.lfx-1.tmp", dir);
    unlink(path);

    /* 20 writers of 32 MB killed at random moments; the target is the old file or the new one. */
    snprintf(path, sizeof path, "%s/big.bin", dir);
    content old = {BIG, 'o'}, fresh = {BIG, 'n'};
    CHECKF(lf_write_file_atomic(path, fill_bytes, &old, err, sizeof err) == LF_OK, "%s", err);
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    CHECK(lf_write_file_atomic(path, fill_bytes, &old, err, sizeof err) == LF_OK);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    long write_us = (t1.tv_sec - t0.tv_sec) * 1000000L + (t1.tv_nsec - t0.tv_nsec) / 1000;
    srand(7);
    int left_before = 0, killed = 0, completed = 0;
    for (int k = 0; k < 20; k++) {
        pid_t child = fork();
        if (child == 0) {
            char e[512];
            _exit(lf_write_file_atomic(path, fill_bytes, &fresh, e, sizeof e) == LF_OK ? 0 : 1);
        }
        struct timespec d = {0, (rand() % (write_us + 1)) * 1000L};
        while (d.tv_nsec >= 1000000000L) d.tv_sec++, d.tv_nsec -= 1000000000L;
        nanosleep(&d, NULL);
        kill(child, SIGKILL);
        int status;
        waitpid(child, &status, 0);
        killed += WIFSIGNALED(status);
        completed += WIFEXITED(status) && WEXITSTATUS(status) == 0;
        CHECKF(whole(path, BIG, 'o') || whole(path, BIG, 'n'), "kill %d: the target is neither file", k);
    }
    count(dir, &left_before);
    CHECKF(lf_write_file_atomic(path, fill_bytes, &old, err, sizeof err) == LF_OK, "%s", err);
    CHECKF(count(dir, &tmps) == 1 && tmps == 0, "%d temporary files after the kills and a write", tmps);
    printf("%s: a 32 MB write takes %ld ms; 20 writers killed at random moments (%d by the signal, %d had "
           "finished): %d temporary files left, %d after the next write\n",
           tmpfile ? "O_TMPFILE where supported" : "named temporary file", write_us / 1000, killed, completed,
           left_before, tmps);
    CHECK(!tmpfile || left_before == 0 || left_before == 1); /* at most a kill between link and rename */
    unlink(path);
    CHECK(rmdir(dir) == 0);
}

int main(void) {
    test_mode(true);
    test_mode(false);
    TEST_DONE();
}
