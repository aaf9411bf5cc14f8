/* Checking histories for linearizability: the verdicts and explanations every engine returns, and the
 * pipeline that picks an engine for a history (`linfuzz check --engine ...`).
 *
 * auto: the log-linear monitors when they apply (unambiguous register/set/stack/queue/pqueue), otherwise
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

typedef struct lf_result {
    lf_verdict verdict;
    const char *engine; /* static name of the engine that decided: "monitor", "brute", "wgl", "hitting" */
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

typedef struct lf_check_options {
    lf_engine engine;
    double timeout_s;        /* wall-clock budget for search engines; 0 = none */
    size_t max_memory_bytes; /* memory budget for search engines; 0 = built-in default */
    bool want_witness;       /* fill lf_result.witness when linearizable */
    int max_depth;           /* hitting families: deepest d tried; 0 = default */
} lf_check_options;

void lf_check_options_default(lf_check_options *o);
/* Parses "auto", "monitor", "brute", "wgl", "hitting". */
bool lf_engine_from_name(const char *name, lf_engine *out);
const char *lf_engine_name(lf_engine e);

/* Checks h with the selected engine. r must be initialised with lf_result_init. */
void lf_check(const lf_history *h, const lf_check_options *o, lf_result *r);

#ifdef __cplusplus
}
#endif

#endif
