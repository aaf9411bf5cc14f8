/* The checking pipeline behind `linfuzz check --engine auto` (and `--engine hitting`, which runs its
 * prover stage alone). docs/pipeline.md explains the decisions and the measurements behind the defaults.
 *
 * Per history: the log-linear monitors when the whole history is unambiguous and of a type they decide.
 * Otherwise the history is split by the spec's partition key (only when every op has one — the rule of
 * engines/wgl/partition.c), and each part goes through
 *   1. the monitor, when the part is unambiguous and of a monitored type (parts too big for step 2);
 *   2. the hitting-family prover (depth d = 1, 2, ... under a work budget) on small parts (ops x width at
 *      most hitting_max_size), which can only prove;
 *   3. WGL, which decides what is left (violations always come from the monitor or WGL).
 * A violation in any part is a violation of the whole; otherwise an undecided part makes the whole
 * unknown; otherwise it is linearizable, and the parts' witnesses are merged into one order.
 *
 * r->engine names the stage that decided: for a violation, the stage that found it; for a linearizable
 * history, the most expensive stage any part needed ("wgl" > "hitting" > "monitor"), with r->depth the
 * deepest hitting depth when that is "hitting". */
#ifndef LINFUZZ_PIPELINE_H
#define LINFUZZ_PIPELINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "linfuzz/check.h"
#include "linfuzz/history.h"

/* The pipeline's hitting rule (docs/pipeline.md has the measurements): only parts whose ops x width is at
 * most LF_PIPELINE_HITTING_MAX_SIZE try the families (the depth-1 family is width schedules of about
 * ops^2/2 steps each; on bigger parts WGL settles them for less), to depth 2 within a budget of
 * LF_PIPELINE_HITTING_WORK_FACTOR x ops^2 elementary steps (about 16 schedules). */
#define LF_PIPELINE_HITTING_DEPTH 2
#define LF_PIPELINE_HITTING_WORK_FACTOR 8
#define LF_PIPELINE_HITTING_MAX_SIZE 20

typedef struct lf_pipeline_options {
    bool use_monitor, use_hitting, use_wgl;
    double timeout_s;            /* for the whole history, all stages; 0: none */
    double deadline;             /* instead of timeout_s: the absolute lf_now_s() time the budget ends (0: from
                                  * timeout_s, counted from the start of the check) */
    size_t max_memory_bytes;     /* WGL's budget; 0: its default */
    bool want_witness;
    int hitting_depth;            /* 0: LF_PIPELINE_HITTING_DEPTH */
    uint64_t hitting_work_factor; /* budget ops^2 x this (0: LF_PIPELINE_HITTING_WORK_FACTOR; UINT64_MAX: none) */
    size_t hitting_max_size;      /* ops x width of the parts that try the families (0: LF_PIPELINE_HITTING_MAX_SIZE;
                                   * SIZE_MAX: every part) */
    lf_progress *progress;        /* stage, steps and parts are published here (NULL: none) */
    const struct lf_spec *spec;   /* check against this spec (env.user = spec_user) instead of the type's; the
                                   * monitors, which know only the built-in semantics, are skipped */
    const void *spec_user;
} lf_pipeline_options;

/* Counters of one run, for benchmarks and tests. */
typedef struct lf_pipeline_stats {
    size_t parts;
    size_t by_monitor, by_hitting, by_wgl; /* parts decided by each stage */
    size_t hitting_depths[8];              /* parts proven by hitting at depth 1..7 (index 7: deeper) */
    uint64_t hitting_work, hitting_schedules, wgl_steps;
} lf_pipeline_stats;

void lf_pipeline_options_default(lf_pipeline_options *o);
/* r must be initialised with lf_result_init; stats may be NULL. */
void lf_pipeline_check(const lf_history *h, const lf_pipeline_options *o, lf_result *r, lf_pipeline_stats *stats);

#endif
