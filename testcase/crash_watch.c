/* Crashes of the code under test as CRASH entries, in the crashing process (crash_watch.h). */
#include "testcase/crash_watch.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "findings/crash.h"
#include "runtime/adapter_type.h"
#include "testcase/case_replay.h"
#include "util/env.h"
#include "util/escape.h"

/* AddressSanitizer's report callback, when the process has the sanitizer (weak: absent otherwise). */
extern void __asan_set_error_report_callback(void (*callback)(const char *)) __attribute__((weak));

static struct {
    lf_crash_fn fn;
    void *ctx;
    bool installed, signals;
    const lf_crash_run *_Atomic running;
    atomic_flag busy; /* one capture per process: a crash inside the capture itself is left to die */
    struct sigaction old_segv, old_bus;
    int last_resort[2]; /* the pipe that arms the last resort (last_resort_main) */
    pid_t pid;          /* the process whose thread reads it (a forked child must not arm its parent's) */
    double grace;       /* seconds */
} W = {.busy = ATOMIC_FLAG_INIT, .last_resort = {-1, -1}};

/* The last resort: a crash handler that never returns. The handlers after ours are not async-signal-safe
 * either (libFuzzer's allocates, prints and symbolizes): when the crash left the allocator or a stdio lock
 * held (glibc's abort on a corrupted heap holds its arena's lock), they wait forever. Seen with treiber_uaf
 * built without a sanitizer: a use after free inside a root-causing run, libFuzzer's handler in calloc for good,
 * the other crashing threads spinning on the sanitizer's report lock, the process alive 4 minutes later at
 * 200% CPU. So SIGSEGV and SIGBUS first arm this thread (a write to a pipe, which a handler may do); if the
 * process still lives `grace` seconds later, it says so on stderr and ends with _exit. (Not SIGABRT: the fuzz
 * target's own aborts name the bug by the frames under them, and a handler of ours would sit on top of them in
 * the stack ClusterFuzz reads, fuzz/bug_report.h.) */
static void *last_resort_main(void *arg) {
    (void)arg;
    char b;
    ssize_t n;
    do n = read(W.last_resort[0], &b, 1);
    while (n < 0 && errno == EINTR);
    if (n != 1) return NULL;
    struct timespec t = {(time_t)W.grace, (long)((W.grace - (double)(time_t)W.grace) * 1e9)};
    while (nanosleep(&t, &t) != 0 && errno == EINTR) {
    }
    static const char msg[] = "linfuzz: the crash handlers did not end the process (a lock the crash left held?): "
                              "ending it (LINFUZZ_CRASH_GRACE_SECONDS)\n";
    (void)!write(2, msg, sizeof msg - 1);
    _exit(LF_CRASH_WATCH_EXIT);
}

/* Arms the last resort (async-signal-safe). */
static void arm_last_resort(void) {
    if (W.last_resort[1] < 0 || getpid() != W.pid) return;
    char b = 1;
    (void)!write(W.last_resort[1], &b, 1);
}

static void start_last_resort(void) {
    char err[256];
    if (!lf_env_seconds("LINFUZZ_CRASH_GRACE_SECONDS", LF_CRASH_WATCH_GRACE_SECONDS, 0.001, 3600, &W.grace, err,
                        sizeof err)) {
        lf_esc_printf(stderr, "linfuzz: %s; the crash watch waits %d s\n", err, LF_CRASH_WATCH_GRACE_SECONDS);
        W.grace = LF_CRASH_WATCH_GRACE_SECONDS;
    }
    if (pipe(W.last_resort) != 0) return;
    W.pid = getpid();
    pthread_t t;
    pthread_attr_t at;
    pthread_attr_init(&at);
    pthread_attr_setdetachstate(&at, PTHREAD_CREATE_DETACHED);
    if (pthread_create(&t, &at, last_resort_main, NULL) != 0) {
        close(W.last_resort[0]);
        close(W.last_resort[1]);
        W.last_resort[0] = W.last_resort[1] = -1;
    }
    pthread_attr_destroy(&at);
}

bool lf_crash_watch_sanitized(void) { return __asan_set_error_report_callback != NULL; }

/* Builds the entry of the run in progress from the crash's report and hands it to the handler. */
static void capture(const char *report) {
    const lf_crash_run *r = atomic_load(&W.running);
    if (!r || !W.fn || atomic_flag_test_and_set(&W.busy)) return;
    const lf_adapter *a = r->adapter;
    lf_history h;
    lf_adapter_history_init(&h, a);
    if (!lf_recorder_snapshot(&r->executor->recorder, &h)) {
        fprintf(stderr, "linfuzz: a crash, but its history cannot be read (out of memory): no entry\n");
        return;
    }
    char desc[4096], err[512];
    lf_fuzz_case_describe(desc, sizeof desc, r->c, a);
    lf_crash_input in = {
        .adapter = a->name,
        .expected_linearizable = a->linearizable,
        .origin = r->origin,
        .workload_format = LF_FUZZ_CASE_FORMAT,
        .workload_desc = desc,
        .workload = r->data,
        .workload_len = r->len,
        .history = &h,
        .report = report,
    };
    lf_violation_entry e;
    if (lf_capture_crash(&in, &e, err, sizeof err) != LF_OK) {
        lf_esc_printf(stderr, "linfuzz: a crash, but no entry: %s\n", err);
        lf_history_free(&h);
        return;
    }
    lf_history_free(&h);
    const lf_fc_run_info *info = &r->executor->last;
    bool recorded = lf_entry_record_schedule(&e, info, r->run, r->c->threads);
    /* (the scheduler's statistics come at the end of a run, which this one never reached) */
    if (recorded && info->mode == LF_FC_CONTROLLED)
        recorded = lf_entry_set_meta(&e, "schedule_deterministic", "yes (up to the crash)");
    if (!recorded) fprintf(stderr, "linfuzz: out of memory recording the crash's schedule\n");
    W.fn(W.ctx, &e);
    lf_entry_free(&e);
}

static void on_asan_report(const char *report) { capture(report); }

static void on_signal(int sig, siginfo_t *si, void *uctx) {
    (void)uctx;
    arm_last_resort(); /* first: what follows may never return */
    char text[256];
    snprintf(text, sizeof text,
             "%s at address %p (no sanitizer: build with AddressSanitizer, LINFUZZ_SANITIZE=ON, for the stacks of "
             "the access and of the free)\n",
             sig == SIGSEGV ? "SIGSEGV" : "SIGBUS", si ? si->si_addr : NULL);
    capture(text);
    /* the handler that was there before (libFuzzer's, or the default) takes it from here */
    sigaction(sig, sig == SIGSEGV ? &W.old_segv : &W.old_bus, NULL);
    raise(sig);
}

void lf_crash_watch_install(lf_crash_fn fn, void *ctx) {
    W.fn = fn;
    W.ctx = ctx;
    if (W.installed) return;
    W.installed = true;
    if (lf_crash_watch_sanitized()) {
        __asan_set_error_report_callback(on_asan_report);
        return;
    }
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_signal;
    sa.sa_flags = SA_SIGINFO | SA_NODEFER;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGSEGV, &sa, &W.old_segv);
    sigaction(SIGBUS, &sa, &W.old_bus);
    W.signals = true;
    start_last_resort();
}

void lf_crash_watch_running(const lf_crash_run *r) {
    if (W.installed) atomic_store(&W.running, r);
}
