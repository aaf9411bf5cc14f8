/* What reading a file may cost (docs/budgets.md, "Reading"), measured: each file is read by lf_history_read in
 * a child process, whose peak memory (wait4's ru_maxrss) is compared with a child reading a one-op history.
 *  - A history section is decoded only when its op count fits the decoding budget (lf_lfz_history_budget):
 *    a 6 KB file of 15 million valid ops (720 MB decoded, 2.13 GB in a check before) and a 2 KB file of junk
 *    declaring 16 million ops (802 MB before) are refused before their ops are allocated: they cost their
 *    payload. Junk within the budget costs its payload and the ops decoded before the first bad one.
 *  - The header comes first: a 100 MB junk file named .lfz costs 56 bytes of reading, not 100 MB.
 *  - Devices are refused without a byte read (a symlink to /dev/zero read for minutes into 8 GB).
 * The files are generated here (the big payloads compressed in a stream, never held whole); `test_read_budget
 * --write DIR` writes them into DIR instead and stops (ci/bench_budgets.sh measures the commands on them). */
#include <fcntl.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "linfuzz/format.h"
#include "linfuzz/lfz.h"
#include "lfz_test_util.h"
#include "test_util.h"

/* Freed blocks would wait in ASan's quarantine and count against the reader. */
const char *__asan_default_options(void);
const char *__asan_default_options(void) { return "quarantine_size_mb=0"; }

#if defined(__SANITIZE_ADDRESS__)
#define SLACK_KB (32 * 1024L)
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SLACK_KB (32 * 1024L)
#endif
#endif
#ifndef SLACK_KB
#define SLACK_KB (8 * 1024L) /* zstd's context and window, a chunk of output, allocator slack */
#endif

static char dir[1024] = "/tmp/lf_read_budget_XXXXXX";

/* A one-section .lfz file at path whose payload is head[0..head_len) then `reps` copies of unit[0..unit_len). */
static void write_lfz(const char *path, const uint8_t *head, size_t head_len, const uint8_t *unit, size_t unit_len,
                      uint64_t reps) {
    size_t n;
    uint8_t *f = lfz_build_stream(head, head_len, unit, unit_len, reps, 1, 3, &n);
    FILE *out = fopen(path, "wb");
    CHECKF(out && fwrite(f, 1, n, out) == n && fclose(out) == 0, "cannot write %s", path);
    free(f);
}

/* The head of a payload holding one history section "history" of a counter with the one shape `inc` and
 * n_ops ops of op_bytes bytes each (the body runs to the end of the payload). */
static size_t counter_head(uint8_t *p, uint64_t n_ops, size_t op_bytes) {
    uint8_t body[64];
    size_t b = 0;
    b += lfz_varint(body + b, 7);
    memcpy(body + b, "counter", 7), b += 7;
    body[b++] = 0; /* no init */
    b += lfz_varint(body + b, 1);
    b += lfz_varint(body + b, 3);
    memcpy(body + b, "inc", 3), b += 3;
    body[b++] = 0; /* result code: none */
    body[b++] = 0; /* nil mask */
    b += lfz_varint(body + b, n_ops);
    size_t n = 0;
    p[n++] = LF_LFZ_HISTORY;
    n += lfz_varint(p + n, 7);
    memcpy(p + n, "history", 7), n += 7;
    n += lfz_varint(p + n, b + n_ops * op_bytes);
    memcpy(p + n, body, b);
    return n + b;
}

/* Reads path in a child: its status and message, and the child's peak memory in KB. */
static long read_in_child(const char *path, lf_status *st, char *msg, size_t msglen) {
    int fds[2];
    if (pipe(fds) != 0) return -1;
    pid_t pid = fork();
    if (pid == 0) {
        close(fds[0]);
        lf_history h;
        char err[1024] = "";
        lf_status s = lf_history_read(path, &h, err, sizeof err);
        if (s == LF_OK) lf_history_free(&h);
        char out[1100];
        int len = snprintf(out, sizeof out, "%d %s", (int)s, err);
        if (write(fds[1], out, (size_t)len) < 0) _exit(3);
        _exit(0);
    }
    close(fds[1]);
    char buf[1100];
    ssize_t got = 0, k;
    while ((k = read(fds[0], buf + got, sizeof buf - 1 - (size_t)got)) > 0) got += k;
    close(fds[0]);
    buf[got > 0 ? got : 0] = '\0';
    int status;
    struct rusage ru;
    if (wait4(pid, &status, 0, &ru) != pid || !WIFEXITED(status) || WEXITSTATUS(status) != 0) return -1;
    int s = -1;
    int off = 0;
    sscanf(buf, "%d %n", &s, &off);
    *st = (lf_status)s;
    snprintf(msg, msglen, "%s", buf + off);
    return ru.ru_maxrss;
}

typedef struct {
    const char *name;
    lf_status want;
    const char *why;   /* a fragment of the message */
    long max_grow_kb;  /* peak memory above the one-op reader's, at most (before the slack) */
} expectation;

/* The peak of a child reading the one-op history, forked from the parent as it is now (a child starts with
 * what the parent had). */
static long base_kb(void) {
    char path[1280], msg[1100];
    lf_status st = LF_ERR_IO;
    snprintf(path, sizeof path, "%s/one.hist", dir);
    long kb = read_in_child(path, &st, msg, sizeof msg);
    CHECKF(kb > 0 && st == LF_OK, "the one-op history: %d %s", st, msg);
    return kb;
}

static void expect_read(const char *file, const expectation *e) {
    char path[1280], msg[1100];
    snprintf(path, sizeof path, "%s/%s", dir, file);
    lf_status st = LF_OK;
    long base = base_kb(), kb = read_in_child(path, &st, msg, sizeof msg);
    struct stat sb;
    long long bytes = lstat(path, &sb) == 0 ? (long long)sb.st_size : -1;
    printf("%s (%lld bytes): peak +%ld KB: %s\n", file, bytes, kb - base, msg);
    CHECKF(kb > 0, "%s: the reading child failed", file);
    CHECKF(st == e->want, "%s: status %d, wanted %d (%s)", file, st, e->want, msg);
    CHECKF(strstr(msg, path) == msg && strstr(msg, e->why), "%s: message '%s' lacks '%s'", file, msg, e->why);
    CHECKF(kb - base <= e->max_grow_kb + SLACK_KB, "%s: peak memory grew by %ld KB (bound %ld + %ld)", file,
           kb - base, e->max_grow_kb, SLACK_KB);
}

/* The hostile .lfz files into dir: valid-15m.lfz, junk-16m.lfz, junk-1m.lfz (see the top). */
static void write_files(void) {
    char path[1280];
    uint8_t head[128];
    const uint8_t op[4] = {0, 0, 4, 1}, zeros[4] = {0, 0, 0, 0};
    snprintf(path, sizeof path, "%s/valid-15m.lfz", dir);
    write_lfz(path, head, counter_head(head, 15000000, 4), op, 4, 15000000);
    snprintf(path, sizeof path, "%s/junk-16m.lfz", dir);
    write_lfz(path, head, counter_head(head, 16000000, 3), zeros, 4, 12000000);
    snprintf(path, sizeof path, "%s/junk-1m.lfz", dir);
    write_lfz(path, head, counter_head(head, 1000000, 4), zeros, 4, 1000000);
}

/* Payload bytes of a file written by write_files. */
static uint64_t payload_of(const char *file) {
    char path[1280];
    snprintf(path, sizeof path, "%s/%s", dir, file);
    uint8_t h[LF_LFZ_HEADER_SIZE];
    FILE *f = fopen(path, "rb");
    uint64_t u = 0;
    if (f && fread(h, 1, sizeof h, f) == sizeof h)
        for (int i = 0; i < 8; i++) u |= (uint64_t)h[16 + i] << (8 * i);
    if (f) fclose(f);
    return u;
}

int main(int argc, char **argv) {
    if (argc == 3 && !strcmp(argv[1], "--write")) {
        snprintf(dir, sizeof dir, "%s", argv[2]);
        write_files();
        TEST_DONE();
    }
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        return 1;
    }
    write_files();
    char path[1280];
    lf_status st;
    snprintf(path, sizeof path, "%s/one.hist", dir);
    FILE *one = fopen(path, "w");
    fputs("type counter\n0 1 2 inc\n", one);
    fclose(one);

    /* 15 million valid ops (call += 2, ret = call + 1, one thread): 60 MB of payload in about 6 KB. */
    expectation valid = {"valid-15m.lfz", LF_ERR_FORMAT, "decodes at most", (long)(payload_of("valid-15m.lfz") / 1024)};
    expect_read("valid-15m.lfz", &valid);
    /* junk declaring 16 million ops: zeros (an op of four zero bytes is parseable) */
    expectation junk = {"junk-16m.lfz", LF_ERR_FORMAT, "decodes at most", (long)(payload_of("junk-16m.lfz") / 1024)};
    expect_read("junk-16m.lfz", &junk);
    /* junk within the decoding budget: a million ops of zeros, every one parsed, all of thread 0 at stamp 0:
     * refused by the validation that follows; it costs its payload, its ops and their validation (docs/budgets.md:
     * an lf_op + 32 bytes an op). */
    expectation small_junk = {"junk-1m.lfz", LF_ERR_FORMAT, "overlap",
                              (long)((payload_of("junk-1m.lfz") + 1000000 * (sizeof(lf_op) + 32)) / 1024)};
    expect_read("junk-1m.lfz", &small_junk);

    /* 100 MB of junk named .lfz (sparse: nothing to write): its first 56 bytes are enough. */
    snprintf(path, sizeof path, "%s/junk-100m.lfz", dir);
    int fd = open(path, O_CREAT | O_WRONLY | O_TRUNC, 0644);
    CHECK(fd >= 0 && ftruncate(fd, 100 << 20) == 0 && close(fd) == 0);
    expectation big = {"junk-100m.lfz", LF_ERR_FORMAT, "bad magic bytes", 0};
    expect_read("junk-100m.lfz", &big);

    /* devices behind a name: refused without a byte read */
    const char *devices[][2] = {{"zero.lfz", "/dev/zero"}, {"urandom.lfz", "/dev/urandom"}, {"zero.hist", "/dev/zero"}};
    for (size_t i = 0; i < sizeof devices / sizeof devices[0]; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, devices[i][0]);
        CHECK(symlink(devices[i][1], path) == 0);
        expectation dev = {devices[i][0], LF_ERR_IO, "not a regular file or a pipe (a character device)", 0};
        expect_read(devices[i][0], &dev);
    }

    /* The writer refuses what the reader would: a history this regular is kept as text. */
    lf_history h;
    lf_history_init(&h, LF_TYPE_COUNTER);
    for (uint64_t i = 0; i < 2000000; i++) {
        lf_op o = {0};
        o.call = 2 * i + 2;
        o.ret = o.call + 1;
        o.method = LF_M_INC;
        lf_history_push(&h, &o);
    }
    char err[1024];
    snprintf(path, sizeof path, "%s/regular.lfz", dir);
    st = lf_history_write(path, &h, err, sizeof err);
    CHECKF(st == LF_ERR_FORMAT && strstr(err, "as text"), "writing 2 M ops of one op repeated: %d %s", st, err);
    lf_history_free(&h);

    char cmd[1100];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    CHECK(system(cmd) == 0);
    TEST_DONE();
}
