/* Deciding one (sub)history with the general checkers (see decide.h and docs/wgl.md, "Deciding a part").
 *
 * 1. WGL with a step budget of WGL_QUICK_PER_OP steps per op: most histories need no backtracking to
 *    speak of, and the depth-first search settles them in about one step per op.
 * 2. The frontier sweep as a beam prover (WGL_BEAM configurations per step): finds a witness of most
 *    linearizable histories that defeat WGL's depth-first order, in a few milliseconds.
 * 3. The exact frontier sweep on this thread and the WGL search on a second one, each with half of the
 *    memory budget; the first to decide stops the other. The sweep settles violations and wide histories,
 *    WGL the histories whose states are too rich for the sweep (long queues, stacks).
 * A spec opened with a user pointer (the self-spec, whose instances share a memo of serial replays on the
 * real object) gets the WGL search alone, on the calling thread, as before the sweep existed.
 * Every stage answers exactly or not at all, so the verdict never depends on which stage gave it. */
#include "wgl/decide.h"

#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "util/clock.h"
#include "wgl/frontier.h"
#include "wgl/wgl_search.h"

/* Runs one stage on a copy of the budget with at most `steps` more steps (0: the budget's own limit) and
 * max_bytes, then charges what it used to the budget. */
typedef struct stage {
    const lf_spec *spec;
    const lf_spec_env *env;
    const uint32_t *orig;
    const wgl_search_opts *opts;
    wgl_budget b;
    wgl_part_result r;
    size_t beam;
    bool frontier;
} stage;

static void stage_init(stage *st, const lf_spec *spec, const lf_spec_env *env, const uint32_t *orig,
                       const wgl_search_opts *opts, const wgl_budget *budget, uint64_t steps, size_t max_bytes) {
    memset(st, 0, sizeof *st);
    st->spec = spec;
    st->env = env;
    st->orig = orig;
    st->opts = opts;
    st->b = *budget;
    st->b.max_bytes = max_bytes;
    st->b.peak_bytes = 0;
    if (steps) {
        uint64_t cap = budget->steps + steps;
        if (!st->b.max_steps || cap < st->b.max_steps) st->b.max_steps = cap;
    }
}

static void stage_run(stage *st) {
    if (st->frontier)
        lf_wgl_frontier(st->spec, st->env, st->orig, st->opts, st->beam, &st->b, &st->r);
    else
        lf_wgl_search(st->spec, st->env, st->orig, st->opts, &st->b, &st->r);
}

static void *stage_thread(void *p) {
    stage *st = p;
    stage_run(st);
    if (st->r.verdict != LF_UNKNOWN) atomic_store(st->b.cancel, true);
    return NULL;
}

/* Takes over a finished stage's counters (it started from the budget's) and its peak. */
static void charge(wgl_budget *budget, const stage *st) {
    budget->steps = st->b.steps;
    budget->backtracks = st->b.backtracks;
    budget->cache_hits = st->b.cache_hits;
    budget->configs = st->b.configs;
    if (st->b.peak_bytes > budget->peak_bytes) budget->peak_bytes = st->b.peak_bytes;
}

static void take(wgl_part_result *out, stage *st) {
    *out = st->r;
    memset(&st->r, 0, sizeof st->r);
}

/* Whether the budget itself (not a stage's own cap) is spent. */
static bool spent(const wgl_budget *b) {
    return (b->max_steps && b->steps >= b->max_steps) || (b->deadline > 0 && lf_now_s() > b->deadline);
}

static bool two_cores(void) {
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n >= 2;
}

void lf_wgl_decide(const lf_spec *spec, const lf_spec_env *env, const uint32_t *orig, const wgl_search_opts *opts,
                wgl_budget *budget, wgl_part_result *out) {
    /* A spec opened with a user pointer (the self-spec: every new state is a serial replay on the real object,
     * its memo shared by all instances) gets WGL alone: it visits far fewer states than the sweep, and no
     * second thread may touch the shared memory. */
    if (opts->no_frontier || env->user) {
        lf_wgl_search(spec, env, orig, opts, budget, out);
        return;
    }
    /* 1. WGL, while cheap. */
    stage quick;
    stage_init(&quick, spec, env, orig, opts, budget, WGL_QUICK_PER_OP * (uint64_t)env->n + WGL_QUICK_BASE,
               budget->max_bytes);
    stage_run(&quick);
    charge(budget, &quick);
    if (quick.r.verdict != LF_UNKNOWN || spent(budget)) {
        take(out, &quick);
        return;
    }
    /* 2. The beam prover. */
    stage beam;
    stage_init(&beam, spec, env, orig, opts, budget, WGL_BEAM_PER_OP * (uint64_t)env->n + WGL_BEAM_BASE,
               budget->max_bytes);
    beam.frontier = true;
    beam.beam = WGL_BEAM;
    stage_run(&beam);
    charge(budget, &beam);
    if (beam.r.verdict == LF_LINEARIZABLE || spent(budget)) {
        lf_wgl_part_result_free(&quick.r);
        take(out, &beam); /* linearizable, or stopped by the budget (its reason says which) */
        return;
    }
    lf_wgl_part_result_free(&quick.r);
    lf_wgl_part_result_free(&beam.r);

    /* 3. The exact sweep here, WGL on the other core. */
    atomic_bool cancel;
    atomic_init(&cancel, false);
    stage sweep, dfs;
    uint64_t base = budget->steps;
    bool parallel = two_cores();
    size_t half = parallel ? budget->max_bytes / 2 : budget->max_bytes;
    /* Two searches at once share what is left of a step budget. */
    uint64_t share = budget->max_steps && parallel ? (budget->max_steps - budget->steps + 1) / 2 : 0;
    stage_init(&sweep, spec, env, orig, opts, budget, share, half);
    stage_init(&dfs, spec, env, orig, opts, budget, share, half);
    sweep.frontier = true;
    sweep.b.cancel = dfs.b.cancel = &cancel;
    if (parallel) dfs.b.progress = NULL; /* one counter on the progress line: the sweep's */
    pthread_t tid;
    if (parallel && pthread_create(&tid, NULL, stage_thread, &dfs) != 0) parallel = false;
    stage_run(&sweep);
    if (sweep.r.verdict != LF_UNKNOWN) atomic_store(&cancel, true);
    if (parallel) {
        pthread_join(tid, NULL);
    } else if (sweep.r.verdict == LF_UNKNOWN && !spent(&sweep.b)) {
        dfs.b.steps = sweep.b.steps; /* one after the other: the sweep's steps count against WGL's */
        dfs.b.max_bytes = budget->max_bytes;
        stage_run(&dfs);
    } else {
        dfs.r.verdict = LF_UNKNOWN;
        snprintf(dfs.r.reason, sizeof dfs.r.reason, "not run");
    }
    /* Both searches count: the budget's steps grow by what each of them did. */
    uint64_t sweep_steps = sweep.b.steps - base, dfs_steps = dfs.b.steps - (parallel ? base : sweep.b.steps);
    budget->steps = base + sweep_steps + dfs_steps;
    budget->configs = sweep.b.configs + (dfs.b.configs - budget->configs);
    budget->backtracks = dfs.b.backtracks;
    budget->cache_hits = dfs.b.cache_hits;
    size_t peak = parallel ? sweep.b.peak_bytes + dfs.b.peak_bytes
                           : (sweep.b.peak_bytes > dfs.b.peak_bytes ? sweep.b.peak_bytes : dfs.b.peak_bytes);
    if (peak > budget->peak_bytes) budget->peak_bytes = peak;

    stage *win = sweep.r.verdict != LF_UNKNOWN ? &sweep : dfs.r.verdict != LF_UNKNOWN ? &dfs : NULL;
    if (sweep.r.verdict != LF_UNKNOWN && dfs.r.verdict != LF_UNKNOWN && sweep.r.verdict != dfs.r.verdict) {
        /* Cannot happen (both are exact); never report either answer if it does. */
        out->verdict = LF_UNKNOWN;
        snprintf(out->reason, sizeof out->reason, "internal error: the frontier sweep and WGL disagree");
    } else if (win) {
        take(out, win);
    } else {
        out->verdict = LF_UNKNOWN;
        snprintf(out->reason, sizeof out->reason, "%.300s; WGL search: %.190s", sweep.r.reason, dfs.r.reason);
    }
    lf_wgl_part_result_free(&sweep.r);
    lf_wgl_part_result_free(&dfs.r);
}
