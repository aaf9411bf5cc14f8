/* General linearizability checker: the Wing-Gong-Lowe search (depth-first over linearization orders, with
 * a cache of visited (linearized set, state) configurations) plus P-compositionality (split the history by
 * the spec's partition key and check the parts independently). Works for any lf_spec; docs/wgl.md
 * explains the search, the cache, when splitting is sound, and the budgets.
 *
 * Verdicts: linearizable (with a witness order when asked), violation (with the longest linearizable
 * prefix found, the ops that could not go next, and a reason naming them), or unknown when a budget
 * (time, memory, steps) ran out, never a guess. */
#ifndef LINFUZZ_WGL_H
#define LINFUZZ_WGL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "linfuzz/check.h"
#include "linfuzz/history.h"
#include "linfuzz/spec.h"

#define LF_WGL_DEFAULT_MEMORY ((size_t)2 << 30) /* 2 GiB */

typedef struct lf_wgl_options {
    double timeout_s;        /* wall-clock budget for the whole check (all parts); 0 = none */
    double deadline;         /* instead of timeout_s: the absolute lf_now_s() time the budget ends (0: none) */
    size_t max_memory_bytes; /* budget for the checker's own structures; 0 = LF_WGL_DEFAULT_MEMORY */
    uint64_t max_steps;      /* search iterations over all parts; 0 = none */
    bool want_witness;       /* fill lf_result.witness when linearizable */
    bool partition;          /* split by partition key when the spec allows it (default on) */
    bool use_cache;          /* Lowe's configuration cache (default on; off only for experiments) */
    bool bitset_key;         /* key configurations by op bitsets even when per-thread counters suffice */
    bool frontier;           /* when WGL alone does not decide quickly, the frontier sweep (default on; off
                              * only to study the WGL search itself) */
    lf_progress *progress;   /* search steps are published here (NULL: none) */
} lf_wgl_options;

void lf_wgl_options_default(lf_wgl_options *o);

/* Checks a history of a built-in type with its built-in spec. */
void lf_wgl_check(const lf_history *h, const lf_wgl_options *o, lf_result *r);

/* Checks env->ops[0..env->n) against any spec. The ops must be well formed: call <= ret for completed
 * ops; a thread's ops may overlap only at the cost of a bigger configuration key (bitsets). Op indices
 * in the result refer to env->ops. */
void lf_wgl_check_spec(const lf_spec *spec, const lf_spec_env *env, const lf_wgl_options *o, lf_result *r);

#endif
