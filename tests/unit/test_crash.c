/* CRASH entries (findings/crash.h): what is read from a sanitizer's report (the kind, the first frame of the
 * access and of the free in the code under test, past the sanitizer's interceptors and linfuzz's access hooks),
 * the entry built from it (loads back, its report renders), and how triage groups crashes: by the free for a use
 * after free (two reads of one freed node are one bug), by the access otherwise; CRASH for an adapter that
 * claims to be correct, KNOWN_BUG for a known-buggy one. And the crash watch's last resort
 * (testcase/crash_watch.h): a crash whose handlers never return still ends the process. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "findings/crash.h"
#include "findings/entry.h"
#include "findings/triage.h"
#include "test_util.h"
#include "testcase/crash_watch.h"

static const char UAF[] =
    "=================================================================\n"
    "==1==ERROR: AddressSanitizer: heap-use-after-free on address 0x602000021558 at pc 0x1 bp 0x2 sp 0x3\n"
    "READ of size 8 at 0x602000021558 thread T1\n"
    "    #0 0x55e4 in __tsan_atomic64_load /src/linfuzz/runtime/sched/tsan_access.c:263:1\n"
    "    #1 0x55e4 in %s /src/proj/my_stack.c:%d:27\n"
    "    #2 0x55e4 in lf_recorder_call /src/linfuzz/runtime/include/runtime/recorder.h:56:20\n"
    "\n"
    "0x602000021558 is located 8 bytes inside of 16-byte region [0x602000021550,0x602000021560)\n"
    "freed by thread T2 here:\n"
    "    #0 0x55e4 in __interceptor_free (/out/fuzz_my_stack+0x1cdf72)\n"
    "    #1 0x55e4 in pop /src/proj/my_stack.c:%d:21\n"
    "\n"
    "previously allocated by thread T0 here:\n"
    "    #0 0x55e4 in malloc (/out/fuzz_my_stack+0x1ce21e)\n"
    "    #1 0x55e4 in push /src/proj/my_stack.c:40:22\n";

static const char DOUBLE_FREE[] =
    "==2==ERROR: AddressSanitizer: attempting double-free on 0x602000000010 in thread T1:\n"
    "    #0 0x4a in free (/out/fuzz_x+0x10)\n"
    "    #1 0x4b in pop /src/proj/my_stack.c:77:5\n"
    "0x602000000010 is located 0 bytes inside of 16-byte region\n"
    "freed by thread T2 here:\n"
    "    #0 0x4a in free (/out/fuzz_x+0x10)\n"
    "    #1 0x4b in pop /src/proj/my_stack.c:77:5\n";

static const char SEGV[] = "==3==ERROR: AddressSanitizer: SEGV on unknown address 0x000000000008 (pc 0x1 bp 0x2 sp "
                           "0x3 T1)\n==3==The signal is caused by a READ memory access.\n"
                           "    #0 0x4c in walk /src/proj/my_list.c:12:9\n";

static void parse(void) {
    char text[4096], kind[64];
    lf_crash_site access, freed;
    snprintf(text, sizeof text, UAF, "pop", 61, 70);
    CHECK(lf_crash_parse_report(text, kind, &access, &freed));
    CHECK(!strcmp(kind, "heap-use-after-free"));
    CHECKF(!strcmp(access.function, "pop") && !strcmp(access.file, "my_stack.c") && access.line == 61,
           "access %s %s:%u (the access hook is not the code under test)", access.function, access.file, access.line);
    CHECKF(!strcmp(freed.function, "pop") && freed.line == 70, "freed %s:%u", freed.function, freed.line);
    CHECK(lf_crash_parse_report(DOUBLE_FREE, kind, &access, &freed) && !strcmp(kind, "double-free") &&
          access.line == 77 && freed.line == 77);
    CHECK(lf_crash_parse_report(SEGV, kind, &access, &freed) && !strcmp(kind, "SEGV") && !strcmp(access.function, "walk") &&
          !freed.function[0]);
    CHECK(lf_crash_parse_report("SIGSEGV at address 0x8 (no sanitizer)\n", kind, &access, &freed) &&
          !strcmp(kind, "SIGSEGV") && !access.function[0]);
    CHECK(!lf_crash_parse_report("nothing to see\n", kind, &access, &freed));
}

/* An entry of adapter `adapter` (claiming linearizability or not) crashing with report text. */
static void make(lf_violation_entry *e, const char *adapter, bool linearizable, const char *report) {
    lf_history h;
    lf_history_init(&h, LF_TYPE_STACK);
    lf_op ops[2] = {{.call = 1, .ret = 2, .thread = 0, .method = LF_M_PUSH, .arg = {5}, .res_kind = LF_K_NONE},
                    {.call = 3, .thread = 1, .method = LF_M_POP, .res_kind = LF_K_PENDING}};
    for (int i = 0; i < 2; i++) CHECK(lf_history_push(&h, &ops[i]));
    const uint8_t work[3] = {1, 2, 3};
    lf_crash_input in = {.adapter = adapter, .expected_linearizable = linearizable, .origin = "test",
                         .workload_format = "fuzz-case 2", .workload = work, .workload_len = 3, .history = &h,
                         .report = report};
    char err[256];
    CHECKF(lf_capture_crash(&in, e, err, sizeof err) == LF_OK, "%s", err);
    lf_history_free(&h);
}

static void entries(void) {
    char a[4096], b[4096], c[4096];
    snprintf(a, sizeof a, UAF, "pop", 61, 70);
    snprintf(b, sizeof b, UAF, "peek", 52, 70); /* another read of a node freed by the same free */
    snprintf(c, sizeof c, UAF, "pop", 61, 90);  /* freed somewhere else: another bug */
    lf_violation_entry e[4];
    make(&e[0], "my_stack", false, a);
    make(&e[1], "my_stack", false, b);
    make(&e[2], "my_stack", false, c);
    make(&e[3], "my_correct_stack", true, a);
    CHECK(lf_entry_is_crash(&e[0]) && !strcmp(lf_entry_meta(&e[0], "crash_freed"), "pop (my_stack.c:70)"));
    CHECK(!strcmp(lf_entry_meta(&e[0], "bucket"), lf_entry_meta(&e[1], "bucket")));
    CHECK(strcmp(lf_entry_meta(&e[0], "bucket"), lf_entry_meta(&e[2], "bucket")) != 0);
    /* it loads back, and its report renders with the root cause */
    uint8_t *bytes;
    size_t n;
    char err[256];
    lf_violation_entry back;
    CHECK(lf_entry_encode(&e[0], &bytes, &n, err, sizeof err) == LF_OK);
    CHECKF(lf_entry_decode(bytes, n, "test", &back, err, sizeof err) == LF_OK, "%s", err);
    free(bytes);
    CHECK(lf_entry_is_crash(&back) && back.full.n == 2 && lf_op_pending(&back.full.ops[1]));
    CHECK(back.report && strstr(back.report, "root cause: memory freed in pop (my_stack.c:70)") &&
          strstr(back.report, "heap-use-after-free"));
    lf_entry_free(&back);
    /* triage: the two reads of one freed node are one group; the other free another; a correct adapter's CRASH */
    lf_triage t;
    lf_triage_init(&t, LF_TRIAGE_BY_SIGNATURE);
    for (int i = 0; i < 4; i++) CHECK(lf_triage_add_violation(&t, i == 3 ? "x.lfz" : "y.lfz", false, &e[i], NULL) >= 0);
    CHECK(lf_triage_group_all(&t));
    CHECKF(t.n_groups == 3, "%zu groups", t.n_groups);
    size_t crash = 0, known = 0;
    for (size_t g = 0; g < t.n_groups; g++) {
        crash += t.groups[g].category == LF_TRIAGE_CRASH;
        known += t.groups[g].category == LF_TRIAGE_KNOWN_BUG;
        if (t.groups[g].count == 2)
            CHECKF(!strcmp(t.groups[g].label, "stack, crash: heap-use-after-free of memory freed in pop (my_stack.c:70)"),
                   "label '%s'", t.groups[g].label);
    }
    CHECK(crash == 1 && known == 2);
    lf_triage_free(&t);
    for (int i = 0; i < 4; i++) lf_entry_free(&e[i]);
}

/* Stands for libFuzzer's crash handler waiting forever on a lock the crash left held. */
static void handler_that_never_returns(int sig) {
    (void)sig;
    for (;;) pause();
}

static void no_entry(void *ctx, const lf_violation_entry *e) { (void)ctx, (void)e; }

/* In a child: a SIGSEGV handler that never returns, the watch installed after it (as the fuzz target installs it
 * after libFuzzer's), a segmentation fault. The child must end by itself, with LF_CRASH_WATCH_EXIT and a line
 * saying why, soon after the grace (0.2 s here). Under AddressSanitizer the watch installs no signal handler
 * (the sanitizer's report callback captures the crash): nothing to test there. */
static void last_resort(void) {
    if (lf_crash_watch_sanitized()) return;
    int fds[2];
    CHECK(pipe(fds) == 0);
    pid_t pid = fork();
    CHECK(pid >= 0);
    if (pid == 0) {
        close(fds[0]);
        dup2(fds[1], 2);
        setenv("LINFUZZ_CRASH_GRACE_SECONDS", "0.2", 1);
        signal(SIGSEGV, handler_that_never_returns);
        lf_crash_watch_install(no_entry, NULL);
        raise(SIGSEGV);
        _exit(3); /* (not reached) */
    }
    close(fds[1]);
    int status = 0;
    pid_t done = 0;
    for (int i = 0; i < 1000 && done == 0; i++) { /* at most 10 s */
        done = waitpid(pid, &status, WNOHANG);
        if (done == 0) nanosleep(&(struct timespec){0, 10000000}, NULL);
    }
    if (done == 0) {
        kill(pid, SIGKILL);
        waitpid(pid, &status, 0);
    }
    char out[512] = "";
    ssize_t n = read(fds[0], out, sizeof out - 1);
    out[n > 0 ? n : 0] = '\0';
    close(fds[0]);
    CHECK(done == pid); /* it ended by itself */
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == LF_CRASH_WATCH_EXIT);
    CHECK(strstr(out, "the crash handlers did not end the process") != NULL);
}

int main(void) {
    parse();
    entries();
    last_resort();
    TEST_DONE();
}
