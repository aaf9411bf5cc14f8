/* Replaying a fuzz case's input bytes outside libFuzzer: `linfuzz repro` re-runs an entry's workload with it,
 * `linfuzz triage` replays the crash inputs libFuzzer wrote.
 *
 * lf_fc_replay runs the case up to `runs` times in this process (run k is repetition k: its perturbation
 * seeds in free mode, its derived schedule in controlled mode, as the fuzz target's repeats), checks every
 * history and counts the violations. A controlled case replays its runs exactly; free_only makes every run
 * free instead (`linfuzz repro`'s second phase). lf_fc_replay_run replays one repetition and hands back its
 * history, for checking that a recorded controlled run comes back byte for byte.
 *
 * lf_fc_replay_isolated does the same in a child process, because an input libFuzzer saved may be one that
 * crashed the target (a memory error in the adapter, a sanitizer report) or hung it: the child's death or
 * its silence past the time limit becomes the outcome instead of taking the caller down. On a violation the
 * child captures an entry (findings: minimized, explained, as a fuzz target would have saved it) and
 * sends it back encoded, so the caller gets a complete entry. */
#ifndef LINFUZZ_CASE_REPLAY_H
#define LINFUZZ_CASE_REPLAY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "linfuzz/adapter.h"
#include "findings/entry.h"
#include "runtime/stuck_watch.h"
#include "linfuzz/history.h"
#include "testcase/case_runner.h"
#include "runtime/adapter_check.h"

typedef struct lf_replay_options {
    /* lf_fc_replay calls this before each run with the runs done and the violating ones among them (a
     * progress line); NULL (default): nothing */
    void (*on_run)(void *ctx, uint64_t runs, uint64_t violations);
    void *on_run_ctx;
    uint64_t runs;        /* at most this many runs (default 200) */
    double seconds;       /* and for at most this long (default 30) */
    double check_timeout; /* time budget per history for the search engines (default 10) */
    bool stop_at_first;   /* stop at the first violating run (default false) */
    bool balance_blocking; /* plan as LINFUZZ_FUZZ_BLOCKING=balanced does (lf_fc_plan_balance_blocking) */
    lf_stuck_fn on_stuck;  /* lf_fc_replay: what a stuck run does (NULL: the watchdog's default) */
    void *on_stuck_ctx;
    const char *format;   /* the bytes' format (default NULL: LF_FUZZ_CASE_FORMAT) */
    bool free_only;       /* every run in free mode, whatever the case says (default false) */
    int memory;           /* the memory model of controlled runs: LF_FC_MEMORY_MIXED (default: the case's) or
                             one for every run (lf_fuzz_case_force_memory), and then every run controlled */
    lf_spec_mode spec;    /* what the histories are checked against (default LF_SPEC_AUTO, runner/adapter_check.h) */
} lf_replay_options;

void lf_replay_options_default(lf_replay_options *o);

typedef struct lf_replay_result {
    uint64_t runs;       /* runs done */
    uint64_t violations; /* violating runs among them */
    uint64_t stuck;      /* controlled runs that deadlocked (not checked) */
    uint64_t weak_unchecked; /* weak runs released mid-run (their histories prove nothing: not checked) */
    uint64_t first_run;  /* index of the first violating run (when violations > 0) */
    lf_history first;    /* its history (initialised and owned by the caller) */
    lf_fc_run_info first_info; /* how that run was scheduled */
    char first_reason[512];
    const char *first_engine; /* static, or NULL */
    /* With the self-spec, a run can show serial nondeterminism of the adapter instead: counted here, and
     * when it is the first finding, first_nondeterministic is set and evidence holds the serial evidence
     * (lf_selfspec_nondeterminism; initialised by lf_fc_replay, freed by the caller). */
    uint64_t nondeterministic;
    bool first_nondeterministic;
    lf_history evidence;
    char error[256];     /* why lf_fc_replay returned false */
} lf_replay_result;

/* Decodes data as a fuzz case for adapter a and runs it (see above); r->first must be initialised. False
 * when the runs could not start or continue (out of memory or threads, the format is unknown, or the checker
 * cannot be had: r->error says why). A violation or a serial nondeterminism is a finding; stop_at_first stops
 * at either. A controlled run that deadlocks is counted (r->stuck) and not checked; a free run that gets stuck
 * ends the process through the executor's STUCK watchdog (its default: print the ops that never returned,
 * exit 5); lf_fc_replay_isolated turns it into an outcome instead. */
bool lf_fc_replay(const lf_adapter *a, const uint8_t *data, size_t len, const lf_replay_options *o,
                  lf_replay_result *r);

/* Runs repetition `run` of the case (format and balance_blocking as in lf_replay_options) once, in the case's
 * own mode: h (any type, initialised) receives the history, info what the run was. False when the run could
 * not be made or the format is unknown. */
bool lf_fc_replay_run(const lf_adapter *a, const char *format, bool balance_blocking, const uint8_t *data, size_t len,
                      unsigned run, lf_history *h, lf_fc_run_info *info);

/* Whether a and b are the same history byte for byte in the text format (type, initial value, every op's
 * thread, stamps, method, arguments and result). False also when memory runs out. */
bool lf_histories_identical(const lf_history *a, const lf_history *b);

/* Records in e's metadata how the run that found it was scheduled (docs/scheduling.md, "Entries"):
 * schedule_mode (controlled | free), schedule_run (the repetition), schedule_deterministic (yes, or no and
 * why) and, controlled, schedule (the schedule that run followed) and schedule_build (lf_sched_build_id: an
 * exact replay is promised within the same build); memory_model (the model the run had: sc, tso or c11, or
 * "machine" for a free run, docs/memory-models.md). False when out of memory. */
bool lf_entry_record_schedule(lf_violation_entry *e, const lf_fc_run_info *info, unsigned run, unsigned threads);

typedef enum lf_replay_outcome {
    LF_REPLAY_VIOLATION, /* a run violated: entry holds the captured entry */
    LF_REPLAY_CLEAN,     /* no run violated (each linearizable or undecided) */
    LF_REPLAY_CRASHED,   /* the child died or failed: detail says how */
    LF_REPLAY_STUCK,     /* a run got stuck: entry holds the STUCK entry its watchdog captured (findings/stuck.h),
                            or, when the child itself stopped answering, it was killed (entry empty) */
    LF_REPLAY_FAILED,    /* could not replay here (fork, pipe, memory, threads): detail says why */
} lf_replay_outcome;

typedef struct lf_isolated_replay {
    lf_replay_outcome outcome;
    uint64_t runs, first_run; /* runs done; the violating run (LF_REPLAY_VIOLATION) */
    lf_violation_entry entry; /* LF_REPLAY_VIOLATION, and STUCK when captured: owned by the caller (lf_entry_free) */
    bool has_entry;           /* entry holds a captured entry */
    char detail[256];         /* CRASHED, STUCK, FAILED: what happened */
} lf_isolated_replay;

/* Replays data in a child process with o->stop_at_first forced on; the child is killed after limit_s
 * seconds (o->seconds plus the time a capture may need is a good limit). origin is recorded in the entry
 * ("linfuzz triage, replay of crash-..."). The child's stderr is this process's (sanitizer reports show). */
lf_replay_outcome lf_fc_replay_isolated(const lf_adapter *a, const uint8_t *data, size_t len,
                                        const lf_replay_options *o, double limit_s, const char *origin,
                                        lf_isolated_replay *out);

#endif
