/* Schedule perturbation: random busy-waits or sched_yield at the adapters' LF_YIELD points and between ops.
 *
 * Real races need the threads to interleave inside narrow windows; on a few cores the OS rarely preempts a
 * thread there. Stretching random windows (spins) and handing the core to another thread (yields) makes the
 * rare interleavings common. Every decision comes from a per-thread PRNG seeded by the workload, so a run's
 * perturbation is reproducible as a distribution even though the schedule itself is not. */
#ifndef LINFUZZ_PERTURB_H
#define LINFUZZ_PERTURB_H

#include <stdint.h>

#include "util/prng.h" /* lf_rand_next, lf_rand_below: workloads draw from it too */

/* Plain data (part of lf_workload): chances are out of 1024, shares out of 256. */
typedef struct lf_perturb {
    uint16_t point_chance; /* chance that one LF_YIELD point perturbs */
    uint16_t gap_chance;   /* chance to perturb between two ops of a thread */
    uint16_t spin_max;     /* longest busy-wait, in cpu-relax iterations */
    uint8_t yield_share;   /* share of perturbations that call sched_yield instead of spinning */
} lf_perturb;

/* One worker thread's perturbation state. */
typedef struct lf_perturb_state {
    lf_perturb cfg;
    uint64_t rng;
    uint64_t events; /* perturbations done, for statistics */
} lf_perturb_state;

void lf_perturb_state_init(lf_perturb_state *s, const lf_perturb *cfg, uint64_t seed);
/* Makes s the state used by LF_YIELD points on the calling thread (NULL: no perturbation). */
void lf_perturb_bind(lf_perturb_state *s);
/* The between-ops perturbation. */
void lf_perturb_gap(lf_perturb_state *s);

#endif
