/* The depth-prioritized hitting-family prover: d = 1, 2, ..., distinct schedules only, replay with early
 * exit and prefix sharing, within the schedule, work and time budgets. */
#include "hitting/hitting.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "budget/progress.h"
#include "hitting/family.h"
#include "hitting/replay.h"
#include "hitting/schedule_set.h"
#include "util/clock.h"

void lf_hitting_options_default(lf_hitting_options *o) {
    memset(o, 0, sizeof *o);
    o->max_depth = LF_HITTING_DEFAULT_DEPTH;
    o->chains = HIT_CHAINS_MIN;
    o->frontier_cap = LF_HITTING_DEFAULT_FRONTIER;
}


typedef enum prover_status {
    PROVER_RUNNING,
    PROVER_FOUND,
    PROVER_SCHEDULE_BUDGET,
    PROVER_WORK_BUDGET,
    PROVER_TIMEOUT,
    PROVER_NOMEM,
} prover_status;

typedef struct prover {
    const lf_hitting_options *o;
    hit_poset poset;
    hit_builder builder;
    hit_replay replay;
    hit_schedule_set seen;
    uint32_t *sch;
    lf_hitting_stats *st;
    prover_status status;
    uint64_t next_check; /* work (elementary steps) at which the deadline is looked at next */
} prover;

/* Elementary steps of building and replaying schedules between two looks at the clock (about 0.1 ms), and at
 * most this many indices (small histories build a schedule in a few steps). */
#define HIT_CHECK_WORK 65536
#define HIT_CHECK_INDICES 64

static uint64_t prover_work(const prover *pv) { return pv->builder.steps + pv->replay.steps; }

/* One index of the current family: build its schedule, skip it if seen before, else replay it. */
static bool on_index(void *arg, uint32_t c, const uint32_t *X, size_t k) {
    prover *pv = arg;
    lf_hitting_stats *st = pv->st;
    const size_t n = pv->poset.n;
    lf_hit_build(&pv->builder, c, X, k, NULL, pv->sch);
    if (pv->builder.late) { /* the schedule is incomplete */
        pv->status = PROVER_TIMEOUT;
        return false;
    }
    st->indices++;
    int added = lf_hit_schedule_set_add(&pv->seen, lf_hit_schedule_hash(pv->sch, n));
    if (added < 0) {
        pv->status = PROVER_NOMEM;
        return false;
    }
    if (added) {
        st->schedules++;
        hit_replay_status rs = lf_hit_replay_run(&pv->replay, pv->sch);
        if (rs == HIT_REPLAY_MATCH) {
            pv->status = PROVER_FOUND;
            return false;
        }
        if (rs == HIT_REPLAY_ERROR) {
            pv->status = PROVER_NOMEM;
            return false;
        }
        if (pv->o->max_schedules && st->schedules >= pv->o->max_schedules) {
            pv->status = PROVER_SCHEDULE_BUDGET;
            return false;
        }
    }
    if (pv->o->max_work && prover_work(pv) >= pv->o->max_work) {
        pv->status = PROVER_WORK_BUDGET;
        return false;
    }
    uint64_t work = prover_work(pv);
    if (work >= pv->next_check || (st->indices & (HIT_CHECK_INDICES - 1)) == 0) {
        pv->next_check = work + HIT_CHECK_WORK;
        lf_progress_steps(pv->o->progress, st->indices);
        if (pv->o->deadline > 0 && lf_now_s() > pv->o->deadline) {
            pv->status = PROVER_TIMEOUT;
            return false;
        }
    }
    return true;
}

static void prover_free(prover *pv) {
    lf_hit_replay_free(&pv->replay);
    lf_hit_builder_free(&pv->builder);
    lf_hit_schedule_set_free(&pv->seen);
    lf_hit_poset_free(&pv->poset);
    free(pv->sch);
}

void lf_hitting_check_spec(const lf_spec *spec, const lf_spec_env *env, const lf_hitting_options *o, lf_result *r,
                           lf_hitting_stats *stats) {
    lf_hitting_stats local_stats;
    lf_hitting_stats *st = stats ? stats : &local_stats;
    memset(st, 0, sizeof *st);
    lf_hitting_options defaults;
    if (!o) {
        lf_hitting_options_default(&defaults);
        o = &defaults;
    }
    const int max_depth = o->max_depth > 0 ? o->max_depth : LF_HITTING_DEFAULT_DEPTH;
    const size_t n = env->n;
    if (n > LF_HITTING_MAX_OPS) {
        lf_result_set(r, LF_UNKNOWN, "hitting", "hitting: %zu ops exceed the prover's limit of %zu", n,
                      LF_HITTING_MAX_OPS);
        return;
    }
    /* The deadline is looked at before anything else, in the setup's loops and sorts, and within each build. */
    lf_deadline dl;
    lf_deadline_init(&dl, o->deadline);
    if (lf_deadline_passed(&dl)) {
        lf_result_set(r, LF_UNKNOWN, "hitting", "hitting: time budget exceeded before the prover started");
        return;
    }
    lf_spec_inst inst;
    if (!lf_spec_open(spec, env, &inst)) {
        lf_result_set(r, LF_UNKNOWN, "hitting", "hitting: out of memory opening the %s spec", spec->name);
        return;
    }
    prover pv;
    memset(&pv, 0, sizeof pv);
    pv.o = o;
    pv.st = st;
    lf_hit_schedule_set_init(&pv.seen);
    uint8_t *x_allowed = NULL, *chain_allowed = NULL;
    bool ok = lf_hit_poset_init(&pv.poset, env->ops, n, o->chains, &dl);
    ok = ok && lf_hit_builder_init(&pv.builder, &pv.poset);
    pv.builder.dl = &dl;
    ok = ok && lf_hit_replay_init(&pv.replay, &inst, env->ops, &pv.poset,
                               o->frontier_cap ? o->frontier_cap : LF_HITTING_DEFAULT_FRONTIER);
    if (ok) {
        pv.sch = malloc((n ? n : 1) * sizeof *pv.sch);
        x_allowed = malloc(n ? n : 1);
        chain_allowed = calloc(pv.poset.n_chains ? pv.poset.n_chains : 1, 1);
        ok = pv.sch && x_allowed && chain_allowed;
    }
    if (!ok || lf_deadline_passed(&dl)) {
        free(x_allowed);
        free(chain_allowed);
        prover_free(&pv);
        lf_spec_close(&inst);
        if (dl.passed)
            lf_result_set(r, LF_UNKNOWN, "hitting", "hitting: time budget exceeded setting up the prover of %zu ops", n);
        else
            lf_result_set(r, LF_UNKNOWN, "hitting", "hitting: out of memory");
        return;
    }
    /* Families are used cumulatively, so from d = 2 on X may skip isolated ops and the index may skip
     * chains made only of isolated ops ([Ozkan19]): a tuple with an isolated member is strongly hit
     * whenever the tuple without it is, and that one was covered at a smaller depth. */
    size_t candidates = lf_hit_reduction_filters(&pv.poset, x_allowed, chain_allowed);
    int d = 0;
    bool exhausted = true;
    if (n == 0) {
        pv.status = PROVER_FOUND; /* the empty schedule */
        d = 1;
    }
    while (pv.status == PROVER_RUNNING && d < max_depth) {
        d++;
        size_t k = (size_t)d - 1;
        if (k > candidates || k > HIT_MAX_TUPLE) break; /* no tuple left: every family so far was complete */
        st->depth_reached = d;
        lf_hit_enum_indices(&pv.poset, k, d == 1 ? NULL : x_allowed, d == 1 ? NULL : chain_allowed, on_index, &pv);
    }
    if (pv.status != PROVER_RUNNING && pv.status != PROVER_FOUND) exhausted = false;
    st->exhausted = exhausted && pv.status != PROVER_FOUND;
    st->build_steps = pv.builder.steps;
    st->replay_steps = pv.replay.steps;
    st->replay_reused = pv.replay.reused;
    r->steps += prover_work(&pv);
    switch (pv.status) {
    case PROVER_FOUND:
        lf_result_set(r, LF_LINEARIZABLE, "hitting", "witness in the depth-%d hitting family", d);
        r->depth = d;
        if (o->want_witness) {
            free(r->witness);
            r->witness = malloc((n ? n : 1) * sizeof *r->witness);
            r->witness_len = r->witness && n ? lf_hit_replay_witness(&pv.replay, r->witness) : 0;
        }
        break;
    case PROVER_RUNNING:
        lf_result_set(r, LF_UNKNOWN, "hitting",
                      "hitting: no witness among the %" PRIu64 " distinct schedules of the hitting families up to "
                      "depth %d",
                      st->schedules, st->depth_reached);
        break;
    case PROVER_SCHEDULE_BUDGET:
        lf_result_set(r, LF_UNKNOWN, "hitting",
                      "hitting: no witness within the budget of %" PRIu64 " schedules (reached depth %d)",
                      st->schedules, d);
        break;
    case PROVER_WORK_BUDGET:
        lf_result_set(r, LF_UNKNOWN, "hitting",
                      "hitting: no witness within the work budget (%" PRIu64 " schedules, reached depth %d)",
                      st->schedules, d);
        break;
    case PROVER_TIMEOUT:
        lf_result_set(r, LF_UNKNOWN, "hitting", "hitting: time budget exceeded at depth %d", d);
        break;
    case PROVER_NOMEM:
        lf_result_set(r, LF_UNKNOWN, "hitting", "hitting: out of memory at depth %d", d);
        break;
    }
    free(x_allowed);
    free(chain_allowed);
    prover_free(&pv);
    lf_spec_close(&inst);
}
