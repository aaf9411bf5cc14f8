/* Turning a crash of the code under test into a CRASH entry (findings/crash.h), inside the process that crashes:
 * the fuzz target (fuzz/fuzz_adapter.c) and the child of an isolated replay (testcase/case_replay.c).
 *
 * The process says which fuzz case run is in progress (lf_crash_watch_running before each run, NULL after).
 * When the code under test dies during it:
 *  - under AddressSanitizer (the CI fuzzing job's and the quickstart's builds, docs/ci.md), its error report
 *    callback (__asan_set_error_report_callback: called with the whole report after it is printed, before the
 *    process dies) builds the entry: the input with its mode and schedule (a controlled run replays exactly),
 *    the history recorded so far (lf_recorder_snapshot: the ops in flight pending), and the report, from which
 *    findings/crash.h reads the kind and the sites; then the handler given to lf_crash_watch_install saves or
 *    sends it, and the sanitizer goes on dying as it would (libFuzzer still writes its crash input);
 *  - without a sanitizer, SIGSEGV and SIGBUS handlers do the same with a description of the signal, then hand
 *    the signal to the handler that was there before (libFuzzer's, or the default). Building an entry in a
 *    signal handler is not async-signal-safe: it works when the crash left the allocator alone (a load of a
 *    freed node, the classic case), and at worst the process dies a little later, as it would have.
 * In controlled mode the other threads are parked while the crashing one runs, so the snapshot is exact.
 * Without a sanitizer the watch also arms a last resort at SIGSEGV and SIGBUS: the handlers are not
 * async-signal-safe, and when a crash left a lock held (glibc's allocator aborting on a corrupted heap) they
 * may wait forever; a thread then ends the process LINFUZZ_CRASH_GRACE_SECONDS (default
 * LF_CRASH_WATCH_GRACE_SECONDS) after the signal, with a line on stderr and exit status LF_CRASH_WATCH_EXIT. */
#ifndef LINFUZZ_CRASH_WATCH_H
#define LINFUZZ_CRASH_WATCH_H

#include <stddef.h>
#include <stdint.h>

#include "findings/entry.h"
#include "linfuzz/adapter.h"
#include "testcase/case_runner.h"
#include "testcase/fuzz_case.h"

#define LF_CRASH_WATCH_GRACE_SECONDS 30
#define LF_CRASH_WATCH_EXIT 77 /* libFuzzer's exit status for a crash */

/* Called with the captured entry (owned by the watch: read or copy it, do not free it). */
typedef void (*lf_crash_fn)(void *ctx, const lf_violation_entry *e);

/* The run in progress (pointers must stay valid while it runs). */
typedef struct lf_crash_run {
    const lf_adapter *adapter;
    const lf_fc_executor *executor; /* its recorder and x->last (the schedule of a controlled run) */
    const uint8_t *data;            /* the input bytes that ran (what the entry records) */
    size_t len;
    const lf_fuzz_case *c;          /* the decoded case */
    unsigned run;                   /* the repetition in progress */
    const char *origin;             /* who ran it ("fuzz_x (libFuzzer), execution 3"), or NULL */
} lf_crash_run;

/* Installs the watch (once per process; a second call only replaces fn and ctx). Signal handlers are installed
 * now when the process has no sanitizer: call this after the fuzzing engine has installed its own. */
void lf_crash_watch_install(lf_crash_fn fn, void *ctx);
/* The run in progress, or NULL between runs. Does nothing until lf_crash_watch_install. */
void lf_crash_watch_running(const lf_crash_run *r);
/* Whether the process runs under AddressSanitizer (its report callback is what the watch uses). */
bool lf_crash_watch_sanitized(void);

#endif
