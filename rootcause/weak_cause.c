/* Which memory order is too weak: candidates from the weak behaviours of the violating run, validated by
 * re-running with the access strengthened (weak_cause.h). */
#include "weak_cause.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "symbolize.h"
#include "util/grow.h"
#include "util/hash.h"

#define MAX_STALE 64      /* weak behaviours of the violating run looked at */
#define MAX_CANDIDATES 24 /* candidates kept */
#define MAX_WEAK_VALIDATE 12

/* ---- the observed run ---- */

typedef struct wtrace {
    lf_wm_event *ev;
    size_t n, cap;
    size_t *by_seq; /* store number -> index of its event (SIZE_MAX: none) */
    size_t n_seq;
} wtrace;

static void on_weak(void *ctx, const lf_wm_event *e) {
    wtrace *w = ctx;
    if (!LF_GROW(w->ev, w->cap, w->n + 1, 4096)) return;
    w->ev[w->n++] = *e;
}

static bool index_stores(wtrace *w) {
    uint32_t max = 0;
    for (size_t i = 0; i < w->n; i++)
        if (w->ev[i].kind != LF_WM_EV_DRAIN && w->ev[i].seq > max) max = w->ev[i].seq;
    w->n_seq = (size_t)max + 1;
    w->by_seq = malloc(w->n_seq * sizeof *w->by_seq);
    if (!w->by_seq) return false;
    for (size_t s = 0; s < w->n_seq; s++) w->by_seq[s] = SIZE_MAX;
    for (size_t i = 0; i < w->n; i++)
        if (w->ev[i].kind != LF_WM_EV_DRAIN && w->ev[i].seq) w->by_seq[w->ev[i].seq] = i;
    return true;
}

static size_t store_event(const wtrace *w, uint32_t seq) { return seq && seq < w->n_seq ? w->by_seq[seq] : SIZE_MAX; }

static bool is_load(const lf_wm_event *e) { return e->kind == LF_WM_EV_LOAD || e->kind == LF_WM_EV_PLAIN_LOAD; }
static bool is_store(const lf_wm_event *e) {
    return e->kind == LF_WM_EV_STORE || e->kind == LF_WM_EV_PLAIN_STORE || e->kind == LF_WM_EV_RMW;
}
static bool acquiring(int mo) { return mo == LF_MO_CONSUME || mo == LF_MO_ACQUIRE || mo >= LF_MO_ACQ_REL; }
static bool releasing(int mo) { return mo >= LF_MO_RELEASE; }

/* ---- candidates ---- */

typedef enum fix_what { W_STORE, W_RMW, W_LOAD, W_FENCE } fix_what;

typedef struct wfix {
    lf_wm_fix fix;
    uint8_t what;    /* fix_what: the access at fix.pc */
    uintptr_t until; /* a fence fix: the access it goes before (0: none known) */
    uint8_t until_what;
} wfix;

typedef struct wcand {
    wfix f[LF_RC_MAX_FIXES];
    unsigned n;
    unsigned order; /* when it was found (nearer to the weak behaviour first) */
    bool fence_first; /* a fence that covers several loads: ranked as an order raised */
} wcand;

typedef struct wcands {
    wcand c[MAX_CANDIDATES];
    unsigned n;
} wcands;

static fix_what what_of(const lf_wm_event *e) {
    return e->kind == LF_WM_EV_RMW ? W_RMW : is_store(e) ? W_STORE : e->kind == LF_WM_EV_FENCE ? W_FENCE : W_LOAD;
}

static bool same_fixes(const wcand *a, const wcand *b) {
    if (a->n != b->n) return false;
    for (unsigned i = 0; i < a->n; i++) {
        bool found = false;
        for (unsigned j = 0; j < b->n && !found; j++)
            found = a->f[i].fix.pc == b->f[j].fix.pc && a->f[i].fix.kind == b->f[j].fix.kind &&
                    a->f[i].fix.order == b->f[j].fix.order;
        if (!found) return false;
    }
    return true;
}

static void add_ranked(wcands *cs, const wfix *f, unsigned n, bool fence_first) {
    if (cs->n == MAX_CANDIDATES || !n) return;
    wcand c = {.n = n, .order = cs->n, .fence_first = fence_first};
    memcpy(c.f, f, n * sizeof *f);
    for (unsigned i = 0; i < cs->n; i++)
        if (same_fixes(&cs->c[i], &c)) {
            cs->c[i].fence_first |= fence_first;
            return;
        }
    cs->c[cs->n++] = c;
}

static void add(wcands *cs, const wfix *f, unsigned n) { add_ranked(cs, f, n, false); }

static wfix order_fix(const lf_wm_event *e, int order) {
    return (wfix){.fix = {.pc = e->pc, .kind = LF_WM_FIX_ORDER, .order = (uint8_t)order}, .what = (uint8_t)what_of(e)};
}

static wfix fence_fix(const lf_wm_event *after, int order, const lf_wm_event *before) {
    return (wfix){.fix = {.pc = after->pc, .kind = LF_WM_FIX_FENCE, .order = (uint8_t)order},
                  .what = (uint8_t)what_of(after), .until = before ? before->pc : 0,
                  .until_what = (uint8_t)(before ? what_of(before) : W_LOAD)};
}

/* Whether thread t made a fence of at least `acq` (acquire side) or release side between events lo and hi. */
static bool fence_between(const wtrace *w, unsigned t, size_t lo, size_t hi, bool acquire_side) {
    for (size_t k = lo + 1; k < hi && k < w->n; k++) {
        const lf_wm_event *f = &w->ev[k];
        if (f->kind == LF_WM_EV_FENCE && f->thread == t && (acquire_side ? acquiring(f->order) : releasing(f->order)))
            return true;
    }
    return false;
}

/* The store a load read, or the head of the release sequence it read through read-modify-writes: the first
 * store of thread u made after store number `after`, following RMWs back. SIZE_MAX: none. */
static size_t head_by(const wtrace *w, uint32_t read_seq, unsigned u, uint32_t after) {
    for (unsigned hops = 0; hops < 64 && read_seq; hops++) {
        size_t k = store_event(w, read_seq);
        if (k == SIZE_MAX) return SIZE_MAX;
        const lf_wm_event *s = &w->ev[k];
        if (s->thread == u && s->seq > after) return k;
        if (s->kind != LF_WM_EV_RMW) return SIZE_MAX;
        read_seq = s->read_seq;
    }
    return SIZE_MAX;
}

/* Store buffering on thread u's side: a seq_cst fence after its store at index n (before its next atomic load
 * of another word: the partner of a store-buffering pair is an atomic; a plain load there is likelier a
 * thread-private field), or a weaker fence there made seq_cst. */
static void store_buffering(const wtrace *w, size_t n, wcands *cs) {
    const lf_wm_event *st = &w->ev[n];
    const lf_wm_event *next_load = NULL;
    size_t k = n + 1;
    for (; k < w->n; k++) {
        const lf_wm_event *e = &w->ev[k];
        if (e->thread != st->thread) continue;
        if (e->op != st->op) break;
        if (e->kind == LF_WM_EV_LOAD && e->cell != st->cell) {
            next_load = e;
            break;
        }
    }
    for (size_t j = n + 1; j < k && j < w->n; j++) {
        const lf_wm_event *f = &w->ev[j];
        if (f->thread == st->thread && f->kind == LF_WM_EV_FENCE && f->order != LF_MO_SEQ_CST) {
            wfix x = order_fix(f, LF_MO_SEQ_CST);
            x.until = next_load ? next_load->pc : 0;
            add(cs, &x, 1);
        }
    }
    wfix x = fence_fix(st, LF_MO_SEQ_CST, next_load);
    add(cs, &x, 1);
}

/* The first store of thread u to the word E read, made after the store E read (the one E should have seen
 * at least): the store number of the newest when none. */
static size_t missed_store(const wtrace *w, const lf_wm_event *E) {
    size_t best = store_event(w, E->newest_seq);
    for (size_t k = 0; k < w->n; k++) {
        const lf_wm_event *s = &w->ev[k];
        if (is_store(s) && s->thread == E->newest_thread && s->cell == E->cell && s->seq > E->read_seq &&
            (best == SIZE_MAX || s->seq < w->ev[best].seq))
            best = k;
    }
    return best;
}

/* Candidates from the weak behaviour at index i: a load that missed a newer store. */
static void candidates_of(const wtrace *w, size_t i, bool c11, wcands *cs) {
    const lf_wm_event *E = &w->ev[i];
    unsigned t = E->thread, u = E->newest_thread;
    size_t n = c11 ? missed_store(w, E) : store_event(w, E->newest_seq);
    /* message passing (c11): the reader's earlier loads of its op that read the writer's later stores */
    for (size_t j = i; c11 && n != SIZE_MAX && j-- > 0;) {
        const lf_wm_event *L = &w->ev[j];
        if (L->thread != t) continue;
        if (L->op != E->op) break;
        if (L->kind != LF_WM_EV_LOAD && L->kind != LF_WM_EV_RMW) continue;
        size_t h = head_by(w, L->read_seq, u, w->ev[n].seq);
        if (h == SIZE_MAX) continue;
        const lf_wm_event *S = &w->ev[h], *N = &w->ev[n];
        bool rel = releasing(S->order) || fence_between(w, u, n, h, false);
        bool acq = acquiring(L->order) || fence_between(w, t, j, i, true);
        /* other loads between L and E: an acquire fence before E orders them all, the likelier repair (a
         * seqlock's fence before its re-check) */
        bool loads_between = false;
        for (size_t k = j + 1; k < i && !loads_between; k++)
            loads_between = w->ev[k].thread == t && (is_load(&w->ev[k]) || w->ev[k].kind == LF_WM_EV_RMW);
        if (!rel) {
            wfix x = order_fix(S, LF_MO_RELEASE);
            add(cs, &x, 1);
            x = fence_fix(N, LF_MO_RELEASE, S);
            add(cs, &x, 1);
        }
        if (!acq) {
            wfix x = order_fix(L, LF_MO_ACQUIRE);
            add(cs, &x, 1);
            x = fence_fix(L, LF_MO_ACQUIRE, E);
            add_ranked(cs, &x, 1, loads_between);
        }
        if (!rel && !acq) {
            wfix two[2] = {order_fix(S, LF_MO_RELEASE), order_fix(L, LF_MO_ACQUIRE)};
            add(cs, two, 2);
            two[0] = fence_fix(N, LF_MO_RELEASE, S);
            two[1] = fence_fix(L, LF_MO_ACQUIRE, E);
            add(cs, two, 2);
        }
    }
    /* store buffering: the writer's store stayed invisible past its next load; the reader's own earlier stores */
    if (n != SIZE_MAX) store_buffering(w, n, cs);
    /* ... or neither the missed atomic store nor the stale atomic load is in the seq_cst order, which alone
     * orders a store before a load of another thread that nothing else relates (c11: an emptiness check that
     * reads a stale NULL next beside an acq_rel link): both must be seq_cst */
    if (c11 && n != SIZE_MAX && E->kind == LF_WM_EV_LOAD && E->order != LF_MO_SEQ_CST &&
        w->ev[n].kind != LF_WM_EV_PLAIN_STORE && w->ev[n].order != LF_MO_SEQ_CST) {
        wfix two[2] = {order_fix(&w->ev[n], LF_MO_SEQ_CST), order_fix(E, LF_MO_SEQ_CST)};
        add(cs, two, 2);
    }
    unsigned stores = 0;
    for (size_t j = i; j-- > 0 && stores < 2;) {
        const lf_wm_event *W = &w->ev[j];
        if (W->thread != t) continue;
        if (W->op != E->op) break;
        if (!is_store(W) || W->cell == E->cell) continue;
        stores++;
        for (size_t k = j + 1; k < i; k++) {
            const lf_wm_event *f = &w->ev[k];
            if (f->thread == t && f->kind == LF_WM_EV_FENCE && f->order != LF_MO_SEQ_CST) {
                wfix x = order_fix(f, LF_MO_SEQ_CST);
                x.until = E->pc;
                add(cs, &x, 1);
            }
        }
        wfix x = fence_fix(W, LF_MO_SEQ_CST, E);
        add(cs, &x, 1);
    }
}

/* The weakest fix first: fewer accesses changed, release/acquire before seq_cst (a seq_cst fence fixes much that
 * a weaker order would too), an acquire fence that orders several loads before a single stale one, an order
 * raised before a fence added; then as found. */
static int by_simplicity(const void *pa, const void *pb) {
    const wcand *a = pa, *b = pb;
    if (a->n != b->n) return a->n < b->n ? -1 : 1;
    unsigned fa = 0, fb = 0, sa = 0, sb = 0;
    for (unsigned i = 0; i < a->n; i++) {
        fa += a->f[i].fix.kind == LF_WM_FIX_FENCE && !a->fence_first;
        sa += a->f[i].fix.order == LF_MO_SEQ_CST;
    }
    for (unsigned i = 0; i < b->n; i++) {
        fb += b->f[i].fix.kind == LF_WM_FIX_FENCE && !b->fence_first;
        sb += b->f[i].fix.order == LF_MO_SEQ_CST;
    }
    if (sa != sb) return sa < sb ? -1 : 1;
    if (a->fence_first != b->fence_first) return a->fence_first ? -1 : 1;
    if (fa != fb) return fa < fb ? -1 : 1;
    return a->order < b->order ? -1 : a->order > b->order;
}

/* ---- words ---- */

static const char *const WHAT[] = {"store", "read-modify-write", "load", "fence"};
static const char *article(int mo) { return mo == LF_MO_ACQUIRE || mo == LF_MO_ACQ_REL ? "an" : "a"; }
static const char *order_name(int mo) {
    static const char *const names[] = {"relaxed", "consume", "acquire", "release", "acq_rel", "seq_cst"};
    return mo >= 0 && mo <= 5 ? names[mo] : "?";
}

/* "file.c:57" of a site (innermost frame), or its address. */
static void site_name(const lf_rc_symbols *sy, uintptr_t pc, char *buf, size_t len, const char **file,
                      const char **function, unsigned *line) {
    const lf_rc_site *s = lf_rc_symbols_find(sy, pc);
    if (s && s->n && s->frames[0].file) {
        const char *base = strrchr(s->frames[0].file, '/');
        snprintf(buf, len, "%s:%u", base ? base + 1 : s->frames[0].file, s->frames[0].line);
        if (file) *file = s->frames[0].file;
        if (function) *function = s->frames[0].function;
        if (line) *line = s->frames[0].line;
    } else {
        snprintf(buf, len, "%#lx", (unsigned long)pc);
        if (file) *file = NULL;
    }
}

static int describe_fix(const lf_rc_symbols *sy, const wfix *f, char *buf, size_t len) {
    char at[160], until[160];
    site_name(sy, f->fix.pc, at, sizeof at, NULL, NULL, NULL);
    if (f->fix.kind == LF_WM_FIX_ORDER)
        return snprintf(buf, len, "the %s at %s must be %s", WHAT[f->what], at, order_name(f->fix.order));
    if (!f->until)
        return snprintf(buf, len, "%s %s fence is needed after the %s at %s", article(f->fix.order),
                        order_name(f->fix.order), WHAT[f->what], at);
    site_name(sy, f->until, until, sizeof until, NULL, NULL, NULL);
    return snprintf(buf, len, "%s %s fence is needed between the %s at %s and the %s at %s", article(f->fix.order),
                    order_name(f->fix.order), WHAT[f->what], at, WHAT[f->until_what], until);
}

/* ---- validation ---- */

/* Run i of the weak family around the violating schedule sch0: 0 is sch0; even ones its interleaving with
 * other weak choices; odd ones derived interleavings under the same model and chance. */
static void weak_schedule_at(const lf_rc_runner *rn, const lf_schedule *sch0, uint64_t i, lf_schedule *out) {
    *out = *sch0;
    if (i == 0) return;
    if (i % 2 == 0) {
        out->weak_seed = lf_mix64(sch0->weak_seed ^ (i * 0x9e3779b97f4a7c15ull));
        return;
    }
    lf_schedule base = rn->base;
    base.memory_model = sch0->memory_model;
    base.weak_chance = sch0->weak_chance;
    base.weak_seed = sch0->weak_seed;
    lf_schedule_for_run(&base, rn->plan.schedule_salt, (unsigned)(1000 + i), rn->plan.threads, rn->plan.len, out);
}

/* Runs 0..n-1 of the weak family; stops once it has counted stop_at violations (0: never), *tried (may be NULL)
 * getting the runs it went through, as analyze.c's run_family. False on an error. */
static bool run_weak_family(lf_rc_runner *rn, const lf_schedule *sch0, const lf_rc_options *o, const char *what,
                            uint64_t n, uint64_t stop_at, uint64_t *tried, uint64_t *runs, uint64_t *violations,
                            uint64_t *discarded) {
    *runs = *violations = *discarded = 0;
    if (tried) *tried = n;
    for (uint64_t i = 0; i < n; i++) {
        if (i % 64 == 0 && o->progress) o->progress(o->progress_ctx, what, i, n);
        lf_schedule sch;
        weak_schedule_at(rn, sch0, i, &sch);
        lf_rc_outcome out = lf_rc_run(rn, &sch, NULL);
        if (out == LF_RC_ERROR) return false;
        if (out == LF_RC_OVER_BUDGET) {
            if (tried) *tried = i;
            break;
        }
        if (out == LF_RC_DISCARDED || out == LF_RC_STUCK) {
            (*discarded)++;
            continue;
        }
        (*runs)++;
        if (out == LF_RC_VIOLATION) {
            (*violations)++;
            if (stop_at && *violations >= stop_at) {
                if (tried) *tried = i + 1;
                break;
            }
        }
    }
    return true;
}

/* ---- the analysis ---- */

int lf_rc_weak_causes(lf_rc_runner *rn, const lf_schedule *sch, const lf_rc_options *o, lf_rc_result *r, char *err,
                      size_t errlen) {
    wtrace w = {0};
    wcands *cs = calloc(1, sizeof *cs);
    lf_rc_symbols sy = {0};
    uintptr_t *pcs = NULL;
    int rc = -1;
    if (!cs) goto oom;
    /* the violating run, observed */
    lf_sched_set_weak_observer(rn->x.sched, on_weak, &w);
    lf_rc_outcome out = lf_rc_run(rn, sch, NULL);
    lf_sched_set_weak_observer(rn->x.sched, NULL, NULL);
    if (out == LF_RC_OVER_BUDGET) { /* no run left to observe: no candidates */
        rc = 0;
        goto done;
    }
    if (out == LF_RC_ERROR || !index_stores(&w)) goto oom;
    bool c11 = sch->memory_model == LF_MM_C11;
    size_t stale = 0;
    uintptr_t race_load = 0, race_store = 0;
    for (size_t i = 0; i < w.n && stale < MAX_STALE; i++) {
        const lf_wm_event *e = &w.ev[i];
        if (!is_load(e) || !e->stale) continue;
        stale++;
        if (c11 && e->kind == LF_WM_EV_PLAIN_LOAD && !race_load) {
            race_load = e->pc;
            race_store = e->newest_pc;
        }
        candidates_of(&w, i, c11, cs);
    }
    r->weak_events = stale;
    qsort(cs->c, cs->n, sizeof *cs->c, by_simplicity);
    /* the sites, symbolized */
    pcs = calloc(2 * LF_RC_MAX_FIXES * (cs->n ? cs->n : 1) + 2, sizeof *pcs);
    if (!pcs) goto oom;
    size_t np = 0;
    for (unsigned k = 0; k < cs->n; k++)
        for (unsigned f = 0; f < cs->c[k].n; f++) {
            pcs[np++] = cs->c[k].f[f].fix.pc;
            if (cs->c[k].f[f].until) pcs[np++] = cs->c[k].f[f].until;
        }
    if (race_load) {
        pcs[np++] = race_load;
        pcs[np++] = race_store;
    }
    if (!lf_rc_symbolize(&sy, pcs, np)) goto oom;
    if (sy.tool[0] && !r->symbolizer[0]) snprintf(r->symbolizer, sizeof r->symbolizer, "%s", sy.tool);
    if (race_load && race_store && !r->note[0]) {
        char a[160], b[160];
        site_name(&sy, race_load, a, sizeof a, NULL, NULL, NULL);
        site_name(&sy, race_store, b, sizeof b, NULL, NULL, NULL);
        snprintf(r->note, sizeof r->note,
                 "data race: the plain load at %s read an older value than the store at %s, which does not "
                 "happen-before it (C11 undefined behaviour)", a, b);
    }
    /* the candidates as results */
    size_t first = r->n;
    lf_rc_candidate *grown = realloc(r->c, (r->n + cs->n + 1) * sizeof *r->c);
    if (!grown) goto oom;
    r->c = grown;
    for (unsigned k = 0; k < cs->n; k++) {
        lf_rc_candidate *c = &r->c[r->n++];
        memset(c, 0, sizeof *c);
        c->weak = true;
        c->n_fixes = cs->c[k].n;
        size_t w_sum = 0;
        for (unsigned f = 0; f < cs->c[k].n; f++) {
            c->fixes[f] = cs->c[k].f[f].fix;
            if (f) w_sum += (size_t)snprintf(c->summary + w_sum, w_sum < sizeof c->summary ? sizeof c->summary - w_sum : 0, " and ");
            if (w_sum < sizeof c->summary)
                w_sum += (size_t)describe_fix(&sy, &cs->c[k].f[f], c->summary + w_sum, sizeof c->summary - w_sum);
        }
        /* the lines: the fixed accesses' (and where a fence goes before), in the first one's file */
        const char *file = NULL, *function = NULL;
        unsigned line = 0;
        char dummy[160];
        site_name(&sy, c->fixes[0].pc, dummy, sizeof dummy, &file, &function, &line);
        if (file) {
            c->resolved = true;
            snprintf(c->file, sizeof c->file, "%s", file);
            snprintf(c->function, sizeof c->function, "%s", function ? function : "");
            c->lo = c->hi = line;
            for (unsigned f = 0; f < cs->c[k].n; f++)
                for (int which = 0; which < 2; which++) {
                    uintptr_t pc = which ? cs->c[k].f[f].until : cs->c[k].f[f].fix.pc;
                    const char *fl = NULL;
                    unsigned ln = 0;
                    if (!pc) continue;
                    site_name(&sy, pc, dummy, sizeof dummy, &fl, NULL, &ln);
                    if (fl && !strcmp(fl, file) && ln) {
                        if (ln < c->lo) c->lo = ln;
                        if (ln > c->hi) c->hi = ln;
                    }
                }
            if (c->hi - c->lo < 40) lf_rc_read_source(c);
        }
    }
    /* validation: the baseline (to its o->baseline-th violation), then the simplest candidates until one is
     * confirmed, each over the runs the baseline went through */
    uint64_t base_runs, base_violations, base_discarded, base_tried;
    if (!run_weak_family(rn, sch, o, "baseline (weak runs, nothing strengthened)", o->schedules,
                         lf_rc_baseline_stop(o), &base_tried, &base_runs, &base_violations, &base_discarded))
        goto fail;
    r->baseline_schedules = base_tried;
    r->baseline_runs = base_runs;
    r->baseline_violations = base_violations;
    r->baseline_discarded = base_discarded;
    size_t confirmed = 0;
    bool can_confirm = base_violations >= LF_RC_MIN_BASELINE; /* else: refutations only, o->validate */
    for (size_t k = first;
         k < r->n && k - first < MAX_WEAK_VALIDATE && (k - first < o->validate || (!confirmed && can_confirm)); k++) {
        lf_rc_candidate *c = &r->c[k];
        lf_sched_set_weak_fixes(rn->x.sched, c->fixes, c->n_fixes);
        char what[900];
        snprintf(what, sizeof what, "validating %zu of %zu: %s", k - first + 1, r->n - first, c->summary);
        bool ok = run_weak_family(rn, sch, o, what, base_tried, 1, NULL, &c->schedules, &c->violations,
                                  &c->discarded);
        lf_sched_set_weak_fixes(rn->x.sched, NULL, 0);
        if (!ok) goto fail;
        c->validated = lf_rc_validation_stands(rn, base_violations, c->violations);
        confirmed += lf_rc_confirmed(c);
    }
    rc = 0;
    goto done;
oom:
    snprintf(err, errlen, "out of memory");
    goto done;
fail:
    snprintf(err, errlen, "cannot run the workload (out of memory or threads)");
done:
    lf_rc_symbols_free(&sy);
    free(pcs);
    free(cs);
    free(w.ev);
    free(w.by_seq);
    return rc;
}
