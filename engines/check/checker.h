/* The checking pipeline: picks an engine for a history and runs it (`linfuzz check --engine ...`).
 *
 * auto: the log-linear monitors when they apply (unambiguous register/set/stack/queue/pqueue), otherwise
 * the general checkers. Every engine answers linearizable, violation or unknown, never guesses. */
#ifndef LINFUZZ_CHECKER_H
#define LINFUZZ_CHECKER_H

#include <stdbool.h>
#include <stddef.h>

#include "check/result.h"
#include "history/history.h"

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

#endif
