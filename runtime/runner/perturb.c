/* Schedule perturbation: the implementation of LF_YIELD() (lf_yield_point: a scheduling point in controlled
 * mode, a random delay otherwise) and of between-ops delays. */
#include "runtime/perturb.h"

#include <sched.h>
#include <stddef.h>

#include "linfuzz/adapter.h"
#include "runtime/sched.h"
#include "sched/baton.h" /* lf_cpu_relax */

static _Thread_local lf_perturb_state *bound_state;

void lf_perturb_state_init(lf_perturb_state *s, const lf_perturb *cfg, uint64_t seed) {
    s->cfg = *cfg;
    s->rng = seed;
    s->events = 0;
}

void lf_perturb_bind(lf_perturb_state *s) { bound_state = s; }

static void perturb(lf_perturb_state *s) {
    s->events++;
    uint64_t r = lf_rand_next(&s->rng);
    if ((r & 255) < s->cfg.yield_share) {
        sched_yield();
        return;
    }
    uint64_t spins = s->cfg.spin_max ? (r >> 8) % ((uint64_t)s->cfg.spin_max + 1) : 0;
    for (uint64_t i = 0; i < spins; i++) lf_cpu_relax();
}

void lf_yield_point(void) {
    /* In controlled mode the point is the scheduler's (a possible switch), never a delay. */
    if (lf_sched_yield_point((uintptr_t)__builtin_return_address(0))) return;
    lf_perturb_state *s = bound_state;
    if (!s || !s->cfg.point_chance) return;
    if (lf_rand_below(&s->rng, 1024) < s->cfg.point_chance) perturb(s);
}

void lf_perturb_gap(lf_perturb_state *s) {
    if (s->cfg.gap_chance && lf_rand_below(&s->rng, 1024) < s->cfg.gap_chance) perturb(s);
}
