/* Root causing a violation (issue 13, [Cirisci20]; docs/rootcause.md): which code must run atomically so
 * that the test cannot violate any more.
 *
 *  1. replay the violating run of the case (its recorded schedule; an entry found free, or whose recorded run
 *     no longer violates, first searches the schedule family of trace.h for a violating run) with its
 *     accesses recorded;
 *  2. its two-thread conflict cycles and their critical segments (cycles.h), each segment mapped to a source
 *     region through its first and last access site (symbolize.h); candidates with the same regions merge;
 *  3. rank: record passing runs of the same test under other schedules; a candidate ranks higher the fewer of
 *     them it would forbid (lf_rc_pairs_forbid), then the shorter its region;
 *  4. validate the best candidates: re-run the test under N schedules of the family with the candidate's
 *     access-site pairs enforced as atomic (lf_sched_add_atomic_pair: the scheduler never preempts between
 *     them), against the same N schedules without (the baseline, run first: N is where it saw its
 *     30th violation, LF_RC_BASELINE_ENOUGH, at most the options' schedules). Confirmed: no violation in any
 *     schedule that ran the region uninterrupted (runs where the region had to wait for a lock inside are
 *     discarded and counted: the repaired code would not have taken that path), where the baseline violated
 *     at least LF_RC_MIN_BASELINE times;
 *  5. without access data (an adapter whose code is not instrumented), method-level exclusions instead: for
 *     each pair of methods of the violating run, the same N schedules with the harness making every call of
 *     one wait for the calls of the other ("pop must not overlap pop").
 * Before 2: when the test still violates with every call atomic (the harness serializing all calls), no
 * interleaving explains the violation: the structure's serial behaviour itself differs from its specification (or
 * contract, docs/contracts.md), and no code region can be a root cause. The result says so (sequential) and has no
 * candidates. */
#ifndef LINFUZZ_RC_ANALYZE_H
#define LINFUZZ_RC_ANALYZE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "linfuzz/adapter.h"
#include "runtime/memory_model.h"

#define LF_RC_MAX_PAIRS 16 /* the scheduler's regions */

typedef struct lf_rc_options {
    uint64_t schedules;     /* validation: schedules for the baseline, at most (it stops at its
                               baseline-th violation), and per candidate as many (default 2000) */
    uint64_t baseline;      /* the baseline stops at this many violations (default LF_RC_BASELINE_ENOUGH;
                               0: it runs all the schedules) */
    uint64_t passing;       /* ranking: passing runs to record (default 100) */
    uint64_t search;        /* schedules tried to find a violating run when the recorded one does not (default
                               = schedules) */
    unsigned validate;      /* candidates validated at least (default 3; more until one is confirmed, at most 8) */
    double check_timeout;   /* per history (default 10 s) */
    uint64_t work_budget;   /* the work all the runs may do (lf_rc_work; 0, the default: no limit); once spent,
                               no run is made: a validation it cut counts only as a refutation */
    const char *spec;       /* what the entry was checked against (its meta "spec": "self" for the adapter's own
                               serial behaviour); NULL: auto (the type's spec, else the self-spec) */
    /* progress: what is being done, done of total (NULL: none) */
    void (*progress)(void *ctx, const char *what, uint64_t done, uint64_t total);
    void *progress_ctx;
} lf_rc_options;

void lf_rc_options_default(lf_rc_options *o);

/* The work of controlled runs that made `switches` switches between threads and passed `points` scheduling
 * points, in switches: a switch (a baton handoff, about 10 us on 2 cores when this was measured) cost about
 * what 256 points do (about 30 ns each), and the two together predicted the root causing's time of the
 * bundled bugs within a factor of 2 or 3 (weak memory models cost more per switch). Since a run's workers
 * share one CPU (runtime/sched/one_cpu.h) a unit takes about 5 to 6 us (ck_hp_stack_unprotected's committed
 * entry: 187,480 units in 0.95 s, 2.0 s with LINFUZZ_ONE_CPU=0). */
static inline uint64_t lf_rc_work(uint64_t switches, uint64_t points) {
    return switches + points / 256;
}

#define LF_RC_MAX_FIXES 4

typedef struct lf_rc_candidate {
    bool exclusion;           /* method-level exclusion (methods[]) instead of a region */
    /* A memory order that is too weak (weak_cause.h): the runs validating it strengthen the accesses of
     * fixes[] (an order raised, a fence added after an access); file and lo..hi name their lines. */
    bool weak;
    lf_wm_fix fixes[LF_RC_MAX_FIXES];
    unsigned n_fixes;
    char methods[2][32];
    bool resolved;            /* region: file and lines known (else only raw sites) */
    char file[512], function[128];
    unsigned lo, hi;
    char method[32];          /* the method whose op the region was seen in */
    char summary[768];
    uintptr_t begin_pc[LF_RC_MAX_PAIRS], end_pc[LF_RC_MAX_PAIRS];
    size_t n_pairs;
    unsigned n_regions;       /* source regions of the cycle (1, or 2 when two different regions were critical) */
    uint64_t forbids, passing;
    bool validated;
    uint64_t schedules, violations, discarded;
    uint64_t spun;            /* of the discarded runs, those where the region spun (LF_SCHED_REGION_POINTS) */
    char **source;            /* region: its lines lo..lo+n_source-1 (at most 40) */
    size_t n_source;
} lf_rc_candidate;

typedef struct lf_rc_result {
    lf_rc_candidate *c;       /* confirmed first, then by rank */
    size_t n;
    bool access_data;         /* the run had recorded accesses (else the method-level fallback ran) */
    uint64_t violating_schedule; /* index in the family of the run analysed (0: the recorded one) */
    uint64_t baseline_runs, baseline_violations, baseline_discarded;
    uint64_t baseline_schedules; /* schedules of the family the baseline ran through: every validation's N */
    size_t events, edges, cycles;
    char symbolizer[64];      /* the tool used, or "" */
    /* The memory model of the violating run (lf_memory_model) and, when it was weak (tso, c11), whether the
     * violation needs the weak behaviour: LF_RC_WEAK_* */
    uint8_t memory_model;
    uint8_t weak;
    uint64_t weak_events;     /* weak behaviours of the violating run (stale loads, delayed stores) */
    char note[512];           /* what limited the analysis, or "" */
    bool sequential;          /* the test violates with every call atomic: serial behaviour, not an interleaving */
    uint64_t serial_runs, serial_violations; /* those runs (every call atomic), and how many violated */
    uint64_t points, switches, runs; /* scheduling points the runs passed, switches they made, runs made */
    bool over_budget;         /* the work budget ran out (the note says so) */
    double seconds;
} lf_rc_result;

enum {
    LF_RC_WEAK_NONE,       /* the violating run was sc */
    LF_RC_WEAK_NOT_NEEDED, /* weak, but its schedule violates under sc too: an interleaving bug */
    LF_RC_WEAK_NEEDED,     /* weak, and its schedule does not violate under sc: candidates name orders */
};

void lf_rc_result_free(lf_rc_result *r);

/* Root-causes the violation of (format, data, len) on adapter a, recorded as repetition `run`. Returns 0 on
 * success (r filled; r->n may be 0), 1 when no violating run could be found, -1 on an error (message in
 * err for both; r then holds nothing to free). */
int lf_rc_analyze(const lf_adapter *a, const char *format, const uint8_t *data, size_t len, unsigned run,
                  const lf_rc_options *o, lf_rc_result *r, char *err, size_t errlen);

/* A baseline (the validation's schedules with nothing made atomic) must violate at least this often before
 * "no violation with the candidate made atomic" can confirm it: were the candidate no cause, a baseline of b
 * violations in N schedules gives N schedules without one a chance of about e^-b, under 1% from 5 on. With a
 * baseline of 1 (the recorded schedule alone), 0 violations in 500 would happen 37% of the time by chance. */
#define LF_RC_MIN_BASELINE 5

/* The baseline stops at this many violations by default (lf_rc_options.baseline; else at the options'
 * schedules), and the validations run the schedules it ran through. Were a candidate no cause, those schedules
 * would all pass with it made atomic with a chance of about e^-30; one that only makes the violation k times
 * rarer passes them with a chance of about e^(-30/k), 5% for k = 10. A fixed N instead spent most of a fuzz
 * target's work budget on baselines that violated a hundred times (treiber_aba: 109 violations in 500
 * schedules), and the validation that would have confirmed the cause was never run (docs/rootcause.md, "How
 * many schedules"). */
#define LF_RC_BASELINE_ENOUGH 30

/* Where a baseline of the options stops: at its o->baseline-th violation, never before LF_RC_MIN_BASELINE (a
 * baseline stopped earlier could confirm nothing); 0: it runs all the schedules. */
static inline uint64_t lf_rc_baseline_stop(const lf_rc_options *o) {
    return o->baseline && o->baseline < LF_RC_MIN_BASELINE ? LF_RC_MIN_BASELINE : o->baseline;
}

/* Whether a validation's counts stand: a refutation (a violation with the candidate enforced) always, no
 * violation only against a baseline of at least LF_RC_MIN_BASELINE violations. */
static inline bool lf_rc_counts_stand(uint64_t baseline_violations, uint64_t violations) {
    return violations > 0 || baseline_violations >= LF_RC_MIN_BASELINE;
}

/* Whether candidate c is confirmed (validated, no violation, at least one schedule counted). */
static inline bool lf_rc_confirmed(const lf_rc_candidate *c) {
    return c->validated && c->violations == 0 && c->schedules > 0;
}

#endif
