/* Crashes of the code under test as CRASH entries, in the crashing process (crash_watch.h). */
#include "testcase/crash_watch.h"

#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "findings/crash.h"
#include "runtime/adapter_type.h"
#include "testcase/case_replay.h"
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
} W = {.busy = ATOMIC_FLAG_INIT};

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
}

void lf_crash_watch_running(const lf_crash_run *r) {
    if (W.installed) atomic_store(&W.running, r);
}
