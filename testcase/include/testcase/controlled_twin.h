/* The controlled twin of a free-mode finding: the same test, run under a controlled schedule that violates
 * too, so that the finding gets what controlled findings have (docs/fuzzing.md, "Free findings and their
 * controlled twins"): an exact replay, root causing (rootcause/analyze.h) and test minimization
 * (testcase/minimize_test.h).
 *
 * A violation in free mode proves that some interleaving of the test is not linearizable; the operating
 * system chose it and nothing records it. The search runs the test (its threads, bodies, prefix, drain, keys:
 * the case with its mode set to controlled and one repetition) under a fixed family of schedules until one
 * violates in a deterministic run: schedule 0 is the case's own, odd ones are repetitions derived from it
 * (lf_schedule_for_run), even ones random schedules of every strategy (lf_schedule_random, as `linfuzz
 * stress` draws them), every other one of these turned into SURW (the races of free runs, many switches at
 * once, are its kind), all seeded from the test, so that the same test always gives the same twin. Any
 * linearizability violation of the test is one of the same triage signature as the free one (adapter,
 * category, type: neither has a root cause before it is root-caused, findings/triage.h); whether its shape
 * (lf_violation_shape) is the free one's too is recorded. Bounded by a number of schedules and seconds. */
#ifndef LINFUZZ_CONTROLLED_TWIN_H
#define LINFUZZ_CONTROLLED_TWIN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "linfuzz/adapter.h"
#include "linfuzz/history.h"
#include "runtime/adapter_check.h"
#include "testcase/case_runner.h"
#include "testcase/fuzz_case.h"

typedef struct lf_twin_options {
    uint64_t schedules;    /* schedules tried at most (default 1000) */
    double seconds;        /* and for at most this much CPU time (default 10; a busy machine stretches it) */
    bool balance_blocking; /* plan as the finding was planned (lf_fc_plan_balance_blocking) */
} lf_twin_options;

void lf_twin_options_default(lf_twin_options *o);

typedef struct lf_twin {
    bool found;
    uint64_t tried;                   /* schedules run */
    uint64_t schedule_index;          /* the twin's schedule in the family */
    double seconds;                   /* wall-clock time taken */
    uint8_t bytes[LF_FC_MAX_ENCODED]; /* the twin: a controlled case of one repetition, its run 0 violates */
    size_t len;
    lf_history history;               /* that run's history (initialised by lf_fc_controlled_twin) */
    lf_fc_run_info info;              /* how that run was scheduled */
    char reason[512];                 /* the checker's reason */
    const char *engine;               /* static, or NULL */
} lf_twin;

/* Searches for the controlled twin of the test in (format, data, len) (format NULL: LF_FUZZ_CASE_FORMAT; any
 * mode) on adapter a, running on x (whose STUCK handler the caller unsets: a schedule that deadlocks is only
 * passed over) and checking with checker. True when the search ran (t->found says whether a twin was found;
 * t->history is initialised either way: lf_history_free it); false with a message when the bytes do not decode
 * or a run cannot be made. */
bool lf_fc_controlled_twin(const lf_adapter *a, lf_fc_executor *x, lf_adapter_checker *checker, const char *format,
                           const uint8_t *data, size_t len, const lf_twin_options *o, lf_twin *t, char *err,
                           size_t errlen);

#endif
