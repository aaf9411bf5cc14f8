/* One (sub)history's decision: the budget its searches share with the other parts of a check, their options,
 * and the result they report back for aggregation. The interface between the searches of engines/wgl/
 * (wgl_search.h, frontier.h, decide.h) and the pipeline (engines/check/pipeline.c), which budgets and
 * aggregates them. */
#ifndef LINFUZZ_WGL_PART_H
#define LINFUZZ_WGL_PART_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "budget/deadline.h"
#include "linfuzz/check.h"
#include "linfuzz/spec.h"

/* Shared by every part of one check. */
typedef struct wgl_budget {
    double deadline;      /* CLOCK_MONOTONIC seconds; 0 = none */
    size_t max_bytes;     /* bytes one search may hold (parts run one after another) */
    uint64_t max_steps;   /* 0 = none */
    uint64_t steps;       /* iterations so far, all parts */
    uint64_t backtracks, cache_hits, configs;
    size_t peak_bytes;
    atomic_bool *cancel;  /* set by another search of a portfolio that decided first; NULL = none */
    lf_progress *progress; /* steps are published here at every budget check (NULL: none) */
} wgl_budget;

typedef struct wgl_search_opts {
    bool use_cache;
    bool bitset_key;  /* force op bitsets as configuration keys */
    bool want_order;  /* fill order on success (the witness); on violation it is always filled */
    bool no_frontier; /* wgl_decide: the WGL search alone (experiments and tests of the search itself) */
} wgl_search_opts;

typedef struct wgl_part_result {
    lf_verdict verdict;
    char reason[512];
    uint32_t *order;  /* linearizable: witness; violation: longest linearizable prefix (local op indices) */
    size_t order_len;
    uint32_t *culprits; /* violation: ops that could not be linearized next (local indices) */
    size_t n_culprits;
} wgl_part_result;

void lf_wgl_part_result_free(wgl_part_result *p);
/* out: unknown, with the reason fmt says (a budget ran out, or the history is beyond the search). */
void lf_wgl_part_set_unknown(wgl_part_result *out, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The first thing a search does: sets dl to the budget's deadline and says whether the search may start; when
 * the deadline has passed or a partner decided first, out is unknown ("time budget exhausted before the `what`
 * of n ops started"). */
bool lf_wgl_may_start(const struct wgl_budget *budget, lf_deadline *dl, const char *what, size_t n,
                      wgl_part_result *out);
/* Whether a portfolio partner asked this search to stop. */
static inline bool wgl_cancelled(const wgl_budget *b) { return b->cancel && atomic_load(b->cancel); }

#endif
