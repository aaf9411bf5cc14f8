/* Depth-prioritized linearizability prover by strong d-hitting families ([Ozkan19]):
 * for d = 1, 2, ... up to max_depth, enumerate the distinct schedules of the depth-d family (never one
 * twice across depths) and replay each against the sequential spec; the first that reproduces every
 * recorded result is a witness. If the history's linearizability depth is at most d, the depth-d family
 * contains a witness, so most linearizable histories are proven at a tiny depth with few replays.
 *
 * It only ever proves: the answer is linearizable (with the witness and the depth d at which it was found,
 * an upper bound on the linearizability depth) or unknown (no witness up to the depth or budget). Pending
 * ops may take effect at their place in a schedule or never (see hitting/replay.h). docs/pipeline.md
 * explains how `--engine auto` uses it. */
#ifndef LINFUZZ_HITTING_H
#define LINFUZZ_HITTING_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "linfuzz/check.h"
#include "hitting/poset.h"
#include "linfuzz/spec.h"

#define LF_HITTING_DEFAULT_DEPTH 3          /* `--engine hitting` without --max-depth */
#define LF_HITTING_DEFAULT_FRONTIER 16      /* states kept per position when pending ops fork the replay */
#define LF_HITTING_MAX_OPS ((size_t)1 << 20) /* larger (sub)histories answer unknown at once */

typedef struct lf_hitting_options {
    int max_depth;          /* deepest d tried (0: LF_HITTING_DEFAULT_DEPTH) */
    uint64_t max_schedules; /* distinct schedules replayed over all depths (0: no limit) */
    uint64_t max_work;      /* elementary steps: family construction plus spec steps (0: no limit) */
    double deadline;        /* CLOCK_MONOTONIC seconds (lf_now_s); 0: none */
    bool want_witness;      /* fill lf_result.witness when linearizable */
    hit_chain_mode chains;  /* chain partition (default HIT_CHAINS_MIN) */
    size_t frontier_cap;    /* 0: LF_HITTING_DEFAULT_FRONTIER */
    lf_progress *progress;  /* schedules built are published here (NULL: none) */
} lf_hitting_options;

/* What one run did, for reports, benchmarks and the pipeline's budget rules. */
typedef struct lf_hitting_stats {
    int depth_reached;     /* deepest d whose family was started */
    bool exhausted;        /* every family up to depth_reached was enumerated completely */
    uint64_t indices;      /* schedules built */
    uint64_t schedules;    /* distinct schedules replayed */
    uint64_t build_steps;  /* family construction work */
    uint64_t replay_steps; /* spec steps */
    uint64_t replay_reused; /* schedule positions not replayed thanks to the previous schedule's prefix */
} lf_hitting_stats;

void lf_hitting_options_default(lf_hitting_options *o);

/* Tries to prove env->ops[0..env->n) linearizable against spec. Op indices in the result (witness) refer
 * to env->ops. r->engine is "hitting"; r->depth the depth of the witness. stats may be NULL. */
void lf_hitting_check_spec(const lf_spec *spec, const lf_spec_env *env, const lf_hitting_options *o, lf_result *r,
                           lf_hitting_stats *stats);

#endif
