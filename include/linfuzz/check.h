/* Checking histories for linearizability: the verdicts and explanations every engine returns, and the
 * pipeline that picks an engine for a history (`linfuzz check --engine ...`).
 *
 * auto: the log-linear monitors when they apply (unambiguous register/set/stack/queue/pqueue/deque), otherwise
 * the general checkers. Every engine answers linearizable, violation or unknown, never guesses. The numeric
 * verdicts are the exit codes of `linfuzz check` (0 linearizable, 1 violation, 3 unknown). docs/pipeline.md. */
#ifndef LINFUZZ_CHECK_H
#define LINFUZZ_CHECK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "linfuzz/history.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum lf_verdict {
    LF_LINEARIZABLE = 0,
    LF_VIOLATION = 1,
    LF_UNKNOWN = 3,
} lf_verdict;

/* Line-Up's two levels of a violation ([Burckhardt10]), found by checking the history again with real-time
 * order dropped: no order of the ops at all gives the recorded results, or some order does, but real time
 * rules every such order out. Classified for custom types and self-spec checks (lf_result.level). */
typedef enum lf_level {
    LF_LEVEL_NONE = 0,            /* not classified (a built-in check, or the budget ran out) */
    LF_LEVEL_NO_SERIAL_ORDER = 1, /* no serial order of these ops gives these results */
    LF_LEVEL_REAL_TIME = 2,       /* only orders that real time rules out give them */
} lf_level;

/* "NO_SERIAL_ORDER", "REAL_TIME_ORDER", or "" for LF_LEVEL_NONE: a violation shape for reports and triage. */
const char *lf_level_name(lf_level l);

typedef struct lf_result {
    lf_verdict verdict;
    const char *engine; /* static name of the engine that decided: "monitor", "brute", "wgl", "hitting", "self" */
    int depth;          /* hitting-family depth of the witness, or -1 */
    char reason[512];   /* human-readable: which ops or values conflict, or why unknown */
    /* Optional explanation (owned, freed by lf_result_free):
     *  witness  — op indices in a legal linearization order (linearizable; pending ops left out are absent);
     *  prefix   — for a violation, the longest linearizable prefix found (op indices, in order);
     *  culprits — ops that conflict (violation) or could not be linearized next. */
    uint32_t *witness;
    size_t witness_len;
    uint32_t *prefix;
    size_t prefix_len;
    uint32_t *culprits;
    size_t n_culprits;
    /* Counters for reports and benchmarks. */
    uint64_t steps;
    uint64_t partitions;
    lf_level level; /* a classified violation's level (custom types, self-spec), else LF_LEVEL_NONE */
    /* Self-spec checks: the verdict is unknown because the implementation's serial runs were not
     * deterministic (the SERIAL_NONDETERMINISM category: not a linearizability bug, the reason says where). */
    bool serial_nondeterminism;
} lf_result;

void lf_result_init(lf_result *r);
void lf_result_free(lf_result *r);
/* Sets verdict, engine and a printf-style reason. */
void lf_result_set(lf_result *r, lf_verdict v, const char *engine, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* Appends op index to the culprits (silently ignores allocation failure: explanations are best effort). */
void lf_result_add_culprit(lf_result *r, uint32_t op);
const char *lf_verdict_name(lf_verdict v);

typedef enum lf_engine {
    LF_ENGINE_AUTO,
    LF_ENGINE_MONITOR,
    LF_ENGINE_BRUTE,
    LF_ENGINE_WGL,
    LF_ENGINE_HITTING,
} lf_engine;

/* Live progress of a running lf_check, for a reporter in another thread (`linfuzz check` draws its progress
 * line from it). The check writes the fields with atomic stores; read them only through lf_progress_read,
 * from any thread, at any time. Zero the struct before the check. */
typedef struct lf_progress {
    const char *stage;    /* engine at work: "monitor", "brute", "hitting", "wgl" (NULL before the first) */
    uint64_t steps;       /* search steps of the stage so far (wgl, brute: iterations; hitting: schedules) */
    uint64_t parts_done;  /* parts of a split history decided so far */
    uint64_t parts_total; /* parts of the history (0 until it is split, 1 when it is not) */
} lf_progress;

/* A snapshot of *p (each field read atomically). */
void lf_progress_read(const lf_progress *p, lf_progress *snapshot);

struct lf_spec;
struct lf_selfspec;

typedef struct lf_check_options {
    lf_engine engine;
    double timeout_s;        /* wall-clock budget for search engines; 0 = none */
    size_t max_memory_bytes; /* memory budget for search engines; 0 = built-in default */
    bool want_witness;       /* fill lf_result.witness when linearizable */
    int max_depth;           /* hitting families: deepest d tried; 0 = default */
    lf_progress *progress;   /* updated while the check runs; NULL: none */
    /* What the history is checked against (both NULL: the spec of its type, lf_spec_of_history):
     * spec  — this sequential specification instead (the monitors, which know only the built-in
     *         semantics, are then skipped); its env.user is spec_user;
     * self  — an implementation's own serial behaviour (linfuzz/selfspec.h: the self-spec, after Line-Up),
     *         which takes precedence over spec. */
    const struct lf_spec *spec;
    const void *spec_user;
    struct lf_selfspec *self;
} lf_check_options;

void lf_check_options_default(lf_check_options *o);
/* Parses "auto", "monitor", "brute", "wgl", "hitting". */
bool lf_engine_from_name(const char *name, lf_engine *out);
const char *lf_engine_name(lf_engine e);

/* Checks h with the selected engine. r must be initialised with lf_result_init. A custom type without a
 * spec (and no o->spec or o->self) answers unknown ("no specification for type bank"). */
void lf_check(const lf_history *h, const lf_check_options *o, lf_result *r);

#ifdef __cplusplus
}
#endif

#endif
