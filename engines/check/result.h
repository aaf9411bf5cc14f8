/* Verdicts and explanations: what every checking engine returns.
 *
 * The numeric verdicts are the exit codes of `linfuzz check` (0 linearizable, 1 violation, 3 unknown). */
#ifndef LINFUZZ_RESULT_H
#define LINFUZZ_RESULT_H

#include <stddef.h>
#include <stdint.h>

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

#endif
