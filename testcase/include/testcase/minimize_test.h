/* Minimizing the test of a controlled-mode finding (docs/fuzzing.md, "On a violation"): delta debugging over
 * the fuzz case itself, re-run under the recorded schedule, instead of over its history only.
 *
 * A controlled run is deterministic (docs/scheduling.md), so a smaller case can be tried by running it: first
 * the violating repetition is pinned (repeats = 1 and the schedule that repetition followed made the case's
 * own, so that run 0 is the same run), then threads are dropped, rounds lowered, calls dropped from the
 * bodies (chunks, then one by one) and the prefix, the drain and keys tried away, and the schedule
 * simplified (a change point or a choice less; the memory model sc, or a lower weak chance: fewer weak
 * choices, docs/memory-models.md). A candidate is kept only when its run 0, checked with the entry's checker
 * (runner/adapter_check.h), is again a violation and the run was deterministic. Positions of the schedule
 * (thread, op, step) are carried over when a thread or a call is dropped, so that the remaining ops keep
 * their interleaving. Each kept candidate is smaller (fewer calls, threads, keys, change points, choices or
 * weak choices), so the search ends; a budget of runs and seconds bounds it too.
 *
 * The result is a test whose recorded history really happened, is small, and keeps the op that caused the
 * bug even when its own result looks innocent; the history minimizer then runs on that history. */
#ifndef LINFUZZ_MINIMIZE_TEST_H
#define LINFUZZ_MINIMIZE_TEST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "findings/entry.h"
#include "linfuzz/adapter.h"
#include "linfuzz/history.h"
#include "runtime/adapter_check.h"
#include "testcase/case_runner.h"
#include "testcase/fuzz_case.h"

typedef struct lf_tmin_stats {
    uint64_t runs;              /* controlled runs made (the checks of the original run and the pin included) */
    uint64_t kept;              /* candidates kept */
    double seconds;             /* time taken */
    bool complete;              /* a fixpoint was reached (false: a budget stopped it) */
    bool same_history;          /* the pinned run gave the original repetition's history byte for byte */
    unsigned threads_before, threads_after;
    size_t calls_before, calls_after; /* calls of one run: bodies x rounds, the prefix */
    size_t ops_before, ops_after;     /* ops of the violating run's history (the drain included) */
} lf_tmin_stats;

typedef struct lf_tmin_options {
    uint64_t max_runs;      /* at most this many runs (default 3000) */
    double seconds;         /* and this long (default 5) */
    bool balance_blocking;  /* plan as the finding was planned (lf_fc_plan_balance_blocking) */
    /* called after each kept candidate and every 64 runs (a progress line); NULL: nothing */
    void (*on_progress)(void *ctx, const lf_tmin_stats *s);
    void *ctx;
} lf_tmin_options;

void lf_tmin_options_default(lf_tmin_options *o);

/* Minimizes the test of repetition `run` of the controlled case in data (format: NULL = LF_FUZZ_CASE_FORMAT)
 * for adapter a, running candidates on x (whose STUCK handler must be unset, so that a candidate that
 * deadlocks is only rejected) and checking them with checker. On success out (LF_FC_MAX_ENCODED bytes)
 * holds the canonical bytes of the minimized case (repeats 1: its run 0 violates), *out_len their number, h
 * (initialised, any type) the history of that run, s what was done. False with a message when there is no
 * controlled violation to start from (not a controlled case, the repetition does not violate again, or its
 * pinned form does not). */
bool lf_fc_minimize_test(const lf_adapter *a, lf_fc_executor *x, lf_adapter_checker *checker, const char *format,
                         const uint8_t *data, size_t len, unsigned run, const lf_tmin_options *o, uint8_t *out,
                         size_t *out_len, lf_history *h, lf_tmin_stats *s, char *err, size_t errlen);

/* Minimizes the test of entry old (a controlled finding: its workload, repetition meta "schedule_run",
 * planned as meta "blocking" says, checked as meta "spec" says) on a fresh executor and captures the entry
 * again with it (lf_capture_again_with_test: the same workload, recorded history, origin, schedule metadata
 * and root causes; the minimized history now from the test's history). e is initialised on success. */
lf_status lf_entry_minimize_test(const lf_violation_entry *old, const lf_adapter *a, const lf_tmin_options *o,
                                 lf_violation_entry *e, lf_tmin_stats *s, char *err, size_t errlen);

/* One line for entries and reports: "test 4 threads, 96 calls -> 2 threads, 3 calls (history 101 -> 4 ops);
 * 213 runs, 0.8 s". */
int lf_tmin_describe(char *buf, size_t len, const lf_tmin_stats *s);

#endif
