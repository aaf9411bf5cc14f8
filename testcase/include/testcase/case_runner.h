/* Running fuzz cases: a case expanded into concrete calls (its plan), and one run of a plan on a fresh
 * object: serial prefix on the calling thread, the threads' bodies concurrently on a persistent pool (with
 * the runner's perturbation), then the serial drain. The history has one thread id per worker (0..T-1) and
 * T for the serial part, which is sequential with everything (it runs before the workers start and after
 * they stop).
 *
 * Arguments: values inserted (register write, push, enq, insert, put's value, push_front/back) are
 * distinct within a run, arg * 65536 + a unique index + 1, so histories of register, stack, queue, pqueue and
 * deque are unambiguous and the arg byte still orders pqueue priorities. Set keys are 1 + arg % keys (a wide
 * key domain: stress's keys, a fresh key per add and an added or never-added key for the others), kv keys
 * arg % keys, cas-register values 1 + arg % keys (the expected value of a cas also 0, the initial value).
 * Custom types take their arguments from the adapter's ranges (lf_custom_args_select, at most 16 keys) and
 * drain with every observer method (lf_custom_drain). */
#ifndef LINFUZZ_CASE_RUNNER_H
#define LINFUZZ_CASE_RUNNER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "linfuzz/adapter.h"
#include "linfuzz/history.h"
#include "runtime/recorder.h"
#include "runtime/pool.h"
#include "runtime/stuck_watch.h"
#include "runtime/workload.h"
#include "runtime/sched.h"
#include "testcase/fuzz_case.h"

#define LF_FC_MAX_CUSTOM_DRAIN 64

typedef struct lf_fc_plan {
    const lf_adapter *adapter;
    unsigned threads;
    size_t len[LF_FC_MAX_THREADS];
    lf_planned_op *ops[LF_FC_MAX_THREADS]; /* thread t's calls; ops[0] owns one block for all threads */
    size_t prefix_len;
    lf_planned_op prefix[LF_FC_MAX_PREFIX];
    lf_method drain_method; /* LF_M_COUNT: no drain */
    size_t drain_max;       /* drain calls at most (removes until empty, or one observer per key) */
    int64_t *drain_keys;    /* a set of a wide key domain: the keys its drain asks for (owned), else NULL */
    size_t n_custom_drain;  /* custom types: the drain's calls (runner/adapter_type.h, lf_custom_drain) */
    lf_planned_op custom_drain[LF_FC_MAX_CUSTOM_DRAIN];
    unsigned key_domain;
    lf_perturb perturb;
    uint64_t seed;
    lf_fc_mode mode;      /* the case's; a caller may override it (repro's free runs) */
    lf_schedule schedule; /* controlled mode: run 0's schedule; run r uses lf_schedule_for_run(.., r, ..) */
    uint64_t schedule_salt; /* a hash of the case's calls: the salt of the derived schedules */
} lf_fc_plan;

/* Expands c for adapter a. Returns false when out of memory. */
bool lf_fc_plan_build(lf_fc_plan *p, const lf_fuzz_case *c, const lf_adapter *a);
void lf_fc_plan_free(lf_fc_plan *p);

/* What the last run was: its mode, and in controlled mode its schedule and the scheduler's statistics. */
typedef struct lf_fc_run_info {
    lf_fc_mode mode;
    bool stuck;           /* controlled: a deadlock; the history holds only the completed ops: do not check it */
    lf_schedule schedule; /* controlled: the schedule this run followed */
    lf_sched_stats stats; /* controlled: points, switches, and whether the run was deterministic */
} lf_fc_run_info;

typedef struct lf_fc_executor {
    lf_pool *pool;
    lf_recorder recorder;
    size_t log_cap; /* per-thread capacity of the recorder's logs */
    lf_clock_kind clock;
    uint64_t perturbations; /* over all runs */
    lf_stuck_watch *watch;  /* declares a run that stops making progress STUCK (runner/stuck_watch.h) */
    lf_sched *sched;        /* created at the first controlled run, with sched_options */
    lf_sched_options sched_options; /* defaults (lf_sched_options_default); change before the first run */
    lf_fc_run_info last;
    /* Schedule feedback for controlled runs (lf_sched_set_feedback), applied when the scheduler exists. */
    uint8_t *feedback;
    size_t feedback_n;
    unsigned feedback_parts;
} lf_fc_executor;

/* A pool of LF_FC_MAX_THREADS threads and the STUCK watchdog. False when threads or memory cannot be had or
 * clock is unavailable. */
bool lf_fc_executor_init(lf_fc_executor *x, lf_clock_kind clock);
void lf_fc_executor_free(lf_fc_executor *x);
/* What a STUCK run does (runner/stuck_watch.h; default: print the ops that never returned, exit 5). */
void lf_fc_executor_on_stuck(lf_fc_executor *x, lf_stuck_fn fn, void *ctx);

/* Balanced blocking (lf_plan_balance_blocking, LINFUZZ_FUZZ_BLOCKING=balanced): skips the removes of p that
 * could wait forever on a correct implementation. Returns the number of calls skipped. */
size_t lf_fc_plan_balance_blocking(lf_fc_plan *p);

/* Runs p once (run = index of the repetition, which varies the perturbation seeds, or selects the derived
 * schedule in controlled mode) on a fresh object; h receives the history (its ops replaced, its type set) and
 * x->last describes the run. A STUCK controlled run (x->last.stuck) abandons its object (never destroyed)
 * and skips the drain. False when out of memory or threads. */
bool lf_fc_execute(lf_fc_executor *x, const lf_fc_plan *p, unsigned run, lf_history *h);

/* Schedule feedback of controlled runs into counters[0..n-1] (sched/feedback.h parts; NULL: off). */
void lf_fc_executor_set_feedback(lf_fc_executor *x, uint8_t *counters, size_t n, unsigned parts);

/* The deadlock of the last run (x->last.stuck): one line per worker, its op and what it waits for. */
int lf_fc_describe_stuck(char *buf, size_t len, const lf_fc_executor *x, const lf_fc_plan *p);

#endif
