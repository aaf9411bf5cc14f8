/* Root causing, step 1: running one fuzz case again and again under chosen schedules, recording the
 * shared-memory accesses of the adapter (docs/rootcause.md).
 *
 * An lf_rc_runner holds a case (decoded from an entry's workload bytes), its plan and one executor, and runs
 * it in controlled mode under any schedule: the recorded one of the violating repetition, or the i-th of a
 * fixed family of other schedules (lf_rc_schedule_at: derived repetitions and random schedules), with or
 * without atomic pairs enforced (validation). Each run's history is checked; a run may record its trace: every
 * access scheduling point of the workers (thread, op index, read/write/read-modify-write, address, size,
 * access site), lock operations counted as read-modify-writes of the lock object (that is what orders
 * critical sections), and calls into uninstrumented libraries (their entry and their return) as
 * read-modify-writes of the call's first argument, the library's object. The serial prefix and the drain run uncontrolled and are not recorded. */
#ifndef LINFUZZ_RC_TRACE_H
#define LINFUZZ_RC_TRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "linfuzz/adapter.h"
#include "linfuzz/check.h"
#include "linfuzz/history.h"
#include "runtime/adapter_check.h"
#include "runtime/sched.h"
#include "rootcause/analyze.h"
#include "testcase/case_runner.h"

typedef enum lf_rc_access { LF_RC_READ, LF_RC_WRITE, LF_RC_RMW } lf_rc_access;

#define LF_RC_MAX_CALLS 3

typedef struct lf_rc_event {
    uint64_t seq;    /* position among all scheduling points of the run (trace order) */
    uint32_t thread; /* worker */
    uint32_t op;     /* the worker's op index */
    uint8_t kind;    /* lf_rc_access */
    uint8_t size;    /* bytes (at least 1) */
    uintptr_t addr;
    uintptr_t pc;    /* access site (a return address in the adapter's code) */
    /* the call sites of the instrumented functions the access was made in, below the op's function
     * (calls[0] is a call made in the op's function), outermost first; n_calls = 0: made in the op's function
     * itself (or no function entry/exit data); calls deeper than LF_RC_MAX_CALLS are not kept */
    uintptr_t calls[LF_RC_MAX_CALLS];
    uint8_t n_calls;
} lf_rc_event;

/* The site of e at call depth d (0: in the op's function): calls[d], or the access site at its own depth. */
static inline uintptr_t lf_rc_event_site(const lf_rc_event *e, unsigned d) {
    return d < e->n_calls ? e->calls[d] : e->pc;
}

typedef struct lf_rc_trace {
    lf_rc_event *ev;
    size_t n, cap;
    size_t max;    /* events kept at most (default 200000); beyond, overflow is set and the rest dropped */
    bool overflow;
    unsigned threads;
    size_t ops[LF_FC_MAX_THREADS]; /* ops per worker */
} lf_rc_trace;

void lf_rc_trace_init(lf_rc_trace *t);
void lf_rc_trace_free(lf_rc_trace *t);

/* What one run gave. */
typedef enum lf_rc_outcome {
    LF_RC_PASS,      /* linearizable (or undecided: never counted as a violation) */
    LF_RC_VIOLATION, /* the checker found a violation */
    LF_RC_STUCK,     /* the controlled run deadlocked: not checked */
    LF_RC_DISCARDED, /* the run was released (watchdog, budget) or an enforced atomic pair blocked inside */
    LF_RC_ERROR,     /* out of memory or threads */
    LF_RC_OVER_BUDGET, /* the analysis's work budget is spent (lf_rc_runner.work_budget): the run was not made */
} lf_rc_outcome;

typedef struct lf_rc_runner {
    const lf_adapter *adapter;
    lf_fc_plan plan;
    lf_fc_executor x;
    lf_adapter_checker checker; /* what the entry was checked against: its type's spec or the self-spec */
    lf_history h;
    lf_schedule base;      /* the case's schedule (run 0) */
    unsigned recorded_run; /* the repetition the entry recorded */
    bool case_controlled;  /* the case itself was controlled (else it was forced to be, for root causing) */
    lf_rc_trace *recording; /* the trace the next run records into (NULL: none) */
    lf_sched_stats last_stats;
    /* The work the runs may do in all (0: no limit; lf_rc_work), their points, switches and runs so far, and
     * whether a run was refused for want of work: deterministic, unlike a time limit, so that what the analysis
     * confirms (part of a crash's state) does not depend on the machine's speed. */
    uint64_t work_budget, points, switches, runs;
    bool over_budget;
} lf_rc_runner;

/* Decodes (format, data, len) for adapter a and prepares controlled runs of it; `run` is the recorded
 * repetition; each run's history is checked as the entry was (spec: its meta "spec", "self" for the adapter's
 * self-spec; NULL or anything else: auto, runtime/adapter_check.h). False with a message in err (unknown
 * format, a spec the adapter cannot have, out of memory or threads). */
bool lf_rc_runner_init(lf_rc_runner *r, const lf_adapter *a, const char *format, const uint8_t *data, size_t len,
                       unsigned run, const char *spec, double check_timeout, char *err, size_t errlen);
void lf_rc_runner_free(lf_rc_runner *r);

/* Schedule number i of the family every experiment uses: 0 is the recorded repetition's, odd ones derived
 * repetitions of the case's schedule, even ones random schedules (lf_schedule_random). Deterministic. */
void lf_rc_schedule_at(const lf_rc_runner *r, uint64_t i, lf_schedule *out);

/* Runs the case once under sch; trace (may be NULL) receives its accesses. Atomic pairs enforced are the
 * scheduler's (lf_rc_runner_set_pairs). LF_RC_OVER_BUDGET, without running, once the work budget is spent. */
lf_rc_outcome lf_rc_run(lf_rc_runner *r, const lf_schedule *sch, lf_rc_trace *trace);

/* Enforces the atomic pairs (begin_pc[k], end_pc[k]) in the following runs (n = 0: none). False when the
 * scheduler holds fewer. */
bool lf_rc_runner_set_pairs(lf_rc_runner *r, const uintptr_t *begin_pc, const uintptr_t *end_pc, size_t n);

/* The method name of worker t's op `op`. */
const char *lf_rc_op_method(const lf_rc_runner *r, unsigned t, uint32_t op);

/* Whether a validation's counts stand (lf_rc_counts_stand), given that a family cut by the work budget ran
 * only some of the schedules its baseline ran: then only a refutation stands. */
static inline bool lf_rc_validation_stands(const lf_rc_runner *r, uint64_t baseline_violations, uint64_t violations) {
    return violations > 0 || (!r->over_budget && lf_rc_counts_stand(baseline_violations, violations));
}

#endif
