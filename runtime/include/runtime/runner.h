/* Runner: executes workloads against an adapter on a persistent thread pool, records each run's history
 * and checks it with lf_check (engine auto by default). A run is free (the operating system's interleaving,
 * widened by the workload's perturbation) or controlled (runtime/sched: one thread at a time, switching where
 * the schedule says; the same workload and schedule give the same history). */
#ifndef LINFUZZ_RUNNER_H
#define LINFUZZ_RUNNER_H

#include <stdbool.h>
#include <stdint.h>

#include "linfuzz/adapter.h"
#include "linfuzz/check.h"
#include "linfuzz/history.h"
#include "runtime/stamp_clock.h"
#include "runtime/recorder.h"
#include "runtime/pool.h"
#include "runtime/stuck_watch.h"
#include "runtime/workload.h"
#include "runtime/sched.h"

typedef struct lf_runner {
    lf_pool *pool;
    lf_recorder recorder;
    size_t recorder_ops; /* per-thread capacity of the recorder's logs */
    lf_clock_kind clock;
    uint64_t perturbations; /* LF_YIELD and gap perturbations done, over all runs */
    lf_stuck_watch *watch;  /* declares a run that stops making progress STUCK (runner/stuck_watch.h) */
    /* Controlled mode: set `controlled` and `schedule` before a run (the scheduler is created on first use).
     * After a controlled run, last_stats and last_stuck describe it; a STUCK run's history holds only the
     * completed ops (do not check it) and its object is abandoned (runner/controlled.h). */
    bool controlled;
    lf_schedule schedule;
    lf_sched *sched;
    lf_sched_stats last_stats;
    bool last_stuck;
} lf_runner;

/* A runner with max_threads pooled threads and the given timestamp source. Returns false when threads or
 * memory cannot be had, or the clock is not available on this machine. */
bool lf_runner_init(lf_runner *r, unsigned max_threads, lf_clock_kind clock);
void lf_runner_free(lf_runner *r);
/* What a STUCK run does (runner/stuck_watch.h; default: print the ops that never returned, exit 5). */
void lf_runner_on_stuck(lf_runner *r, lf_stuck_fn fn, void *ctx);

/* Runs plan p (built from w for a) once on a fresh object of a, and appends the recorded history to h, whose
 * type must be a->type. Returns false when out of memory or p needs more threads than the pool has. */
bool lf_runner_run(lf_runner *r, const lf_adapter *a, const lf_workload *w, const lf_plan *p, lf_history *h);

/* Where the workers of the last (STUCK) controlled run of p were: one line per worker. */
int lf_runner_describe_stuck(char *buf, size_t len, const lf_runner *r, const lf_plan *p);

/* Expands w and runs it once: h (initialised by the caller, any type) receives the history, its ops replaced
 * and its type set to a's, reusing its buffer across runs. Returns false only when the run could not be made. */
bool lf_runner_run_workload(lf_runner *r, const lf_adapter *a, const lf_workload *w, lf_history *h);

/* Expands w, runs it once and checks the history with o (not when the run is STUCK: r->last_stuck is then
 * set and res left as it was). h (initialised by the caller, any type) receives the
 * history: its ops are replaced and its type set to a->type, reusing its buffer across runs. res (initialised
 * with lf_result_init) receives the verdict. Returns false only when the run could not be made. */
bool lf_runner_run_checked(lf_runner *r, const lf_adapter *a, const lf_workload *w, const lf_check_options *o,
                           lf_history *h, lf_result *res);

#endif
