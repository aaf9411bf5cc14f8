/* The root-causing driver (analyze.h): replay, cycles, regions, ranking, validation, exclusions. */
#include "rootcause/analyze.h"

#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "linfuzz/sync.h"
#include "cycles.h"
#include "symbolize.h"
#include "trace.h"
#include "util/clock.h"
#include "util/escape.h"
#include "util/grow.h"
#include "weak_cause.h"

#define MAX_VALIDATE 8
#define SERIAL_SCHEDULES 64 /* schedules tried with every call atomic (serial_violation) */
#define MAX_SOURCE_LINES 40

void lf_rc_options_default(lf_rc_options *o) {
    memset(o, 0, sizeof *o);
    o->schedules = 2000;
    o->baseline = LF_RC_BASELINE_ENOUGH;
    o->passing = 100;
    o->search = 0;
    o->validate = 3;
    o->check_timeout = 10;
}

void lf_rc_result_free(lf_rc_result *r) {
    for (size_t i = 0; i < r->n; i++) {
        for (size_t k = 0; k < r->c[i].n_source; k++) free(r->c[i].source[k]);
        free(r->c[i].source);
    }
    free(r->c);
    memset(r, 0, sizeof *r);
}

static void progress(const lf_rc_options *o, const char *what, uint64_t done, uint64_t total) {
    if (o->progress) o->progress(o->progress_ctx, what, done, total);
}

/* ---- candidates from cycles ---- */

typedef struct region {
    bool resolved;
    const char *file, *function;
    unsigned lo, hi;
    uintptr_t begin, end;
    char method[32];
    unsigned depth;                  /* resolved: the call depth the region was named at */
    uintptr_t calls[LF_RC_MAX_CALLS]; /* and the call sites above it (depth of them) */
} region;

/* The sites that name a segment from access x to access y of one op: where their call chains part (the
 * deepest function activation both are in), so that an access made in an out-of-line helper (an allocator in
 * another file) counts as the call of that helper in the function the other access is in. */
static unsigned segment_sites(const lf_rc_event *x, const lf_rc_event *y, uintptr_t *a, uintptr_t *b) {
    unsigned d = 0;
    while (d < x->n_calls && d < y->n_calls && x->calls[d] == y->calls[d]) d++;
    *a = lf_rc_event_site(x, d);
    *b = lf_rc_event_site(y, d);
    return d;
}

#define SITE_TRIES 6 /* accesses looked at inward from each end of a segment for one with a source line */

/* The events tried to name segment s: its first access and the next ones of its op (begin), its last access
 * and the earlier ones (end), at most SITE_TRIES each and not crossing. A site the compiler gave no line (code
 * merged from several places, such as one unlock call shared by three methods) names nothing: the region is
 * then named by the nearest access inward that has one. The atomic pair stays the segment's own sites. */
static size_t segment_tries(const lf_rc_trace *t, const lf_rc_segment *s, size_t *begin, size_t *end, size_t *nb) {
    size_t n_begin = 0, n_end = 0;
    for (size_t i = s->first; i <= s->last && n_begin < SITE_TRIES; i++)
        if (t->ev[i].thread == s->thread && t->ev[i].op == s->op) begin[n_begin++] = i;
    for (size_t i = s->last + 1; i-- > s->first && n_end < SITE_TRIES;)
        if (t->ev[i].thread == s->thread && t->ev[i].op == s->op) end[n_end++] = i;
    *nb = n_begin;
    return n_end;
}

static void segment_region(const lf_rc_runner *rn, const lf_rc_trace *t, const lf_rc_symbols *sy,
                           const lf_rc_segment *s, region *out) {
    memset(out, 0, sizeof *out);
    out->begin = t->ev[s->first].pc;
    out->end = t->ev[s->last].pc;
    snprintf(out->method, sizeof out->method, "%s", lf_rc_op_method(rn, s->thread, s->op));
    size_t begin[SITE_TRIES], end[SITE_TRIES], nb, ne = segment_tries(t, s, begin, end, &nb);
    for (size_t k = 0; k < nb + ne && !out->resolved; k++) /* the nearer to the ends first */
        for (size_t i = 0; i <= k && !out->resolved; i++) {
            size_t j = k - i;
            if (i >= nb || j >= ne || begin[i] > end[j]) continue;
            uintptr_t a, b;
            out->depth = segment_sites(&t->ev[begin[i]], &t->ev[end[j]], &a, &b);
            memcpy(out->calls, t->ev[begin[i]].calls, out->depth * sizeof *out->calls);
            out->resolved = lf_rc_region(lf_rc_symbols_find(sy, a), lf_rc_symbols_find(sy, b), &out->file,
                                         &out->function, &out->lo, &out->hi);
        }
}

/* Whether access e is made in region r's lines: in the same calls above r's depth, its site at that depth
 * symbolized to a line lo..hi of r's function (in any frame of its inline chain). */
static bool in_region(const lf_rc_event *e, const lf_rc_symbols *sy, const region *r) {
    if (!r->resolved || e->n_calls < r->depth) return false;
    for (unsigned d = 0; d < r->depth; d++)
        if (e->calls[d] != r->calls[d]) return false;
    const lf_rc_site *site = lf_rc_symbols_find(sy, lf_rc_event_site(e, r->depth));
    for (size_t k = 0; site && k < site->n; k++) {
        const lf_rc_frame *f = &site->frames[k];
        if (f->function && f->file && !strcmp(f->function, r->function) && !strcmp(f->file, r->file))
            return f->line >= r->lo && f->line <= r->hi;
    }
    return false;
}

/* The dynamic extent of region r around segment s: the segment widened to the op's neighbouring accesses
 * made in r's lines (a validation that walks the list before its last read, a traversal before its last
 * step), so that the atomic pair enforces the whole region named, not only the accesses the cycle passed
 * through. */
static void region_extent(const lf_rc_trace *t, const lf_rc_symbols *sy, const lf_rc_segment *s, const region *r,
                          size_t *first, size_t *last) {
    *first = s->first;
    *last = s->last;
    if (!r->resolved) return;
    for (size_t i = s->first; i-- > 0;) {
        const lf_rc_event *e = &t->ev[i];
        if (e->thread != s->thread) continue;
        if (e->op != s->op || !in_region(e, sy, r)) break;
        *first = i;
    }
    for (size_t i = s->last + 1; i < t->n; i++) {
        const lf_rc_event *e = &t->ev[i];
        if (e->thread != s->thread) continue;
        if (e->op != s->op || !in_region(e, sy, r)) break;
        *last = i;
    }
}

static bool same_region(const region *a, const region *b) {
    if (a->resolved != b->resolved) return false;
    if (!a->resolved) return a->begin == b->begin && a->end == b->end;
    return a->lo == b->lo && a->hi == b->hi && !strcmp(a->file, b->file) && !strcmp(a->method, b->method);
}

static const char *base_name(const char *path) {
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

/* "function() file:lo-hi", named by the function the lines are in; when that is not the op's method (a helper
 * of the op, or one entry point for every method), the op follows: "push_elems() ring.h:10-12 (in pop)". */
static void describe_region(char *buf, size_t len, const region *r) {
    if (r->resolved && strcmp(r->function, r->method) != 0)
        snprintf(buf, len, "%s() %s:%u-%u (in %s)", r->function, base_name(r->file), r->lo, r->hi, r->method);
    else if (r->resolved)
        snprintf(buf, len, "%s() %s:%u-%u", r->function, base_name(r->file), r->lo, r->hi);
    else
        snprintf(buf, len, "%s() sites 0x%" PRIxPTR "..0x%" PRIxPTR, r->method, r->begin, r->end);
}

static void add_pair(lf_rc_candidate *c, uintptr_t b, uintptr_t e) {
    for (size_t k = 0; k < c->n_pairs; k++)
        if (c->begin_pc[k] == b && c->end_pc[k] == e) return;
    if (c->n_pairs < LF_RC_MAX_PAIRS) {
        c->begin_pc[c->n_pairs] = b;
        c->end_pc[c->n_pairs] = e;
        c->n_pairs++;
    }
}

/* The lines lo..hi of file (at most MAX_SOURCE_LINES); none when it cannot be read. */
void lf_rc_read_source(lf_rc_candidate *c) {
    FILE *f = fopen(c->file, "r");
    if (!f) return;
    size_t want = c->hi - c->lo + 1;
    if (want > MAX_SOURCE_LINES) want = MAX_SOURCE_LINES;
    c->source = calloc(want, sizeof *c->source);
    char line[1024];
    unsigned no = 0;
    while (c->source && c->n_source < want && fgets(line, sizeof line, f)) {
        size_t l = strlen(line);
        bool whole = l && line[l - 1] == '\n';
        if (whole) line[--l] = 0;
        if (++no >= c->lo) {
            for (char *p = line; *p; p++)
                if (*p == '\t' || *p == '\r') *p = ' ';
            c->source[c->n_source] = strdup(line);
            if (!c->source[c->n_source]) break;
            c->n_source++;
        }
        while (!whole && fgets(line, sizeof line, f)) { /* the rest of a long line */
            l = strlen(line);
            whole = l && line[l - 1] == '\n';
        }
    }
    fclose(f);
}

/* The canonical order of two resolved regions of one candidate. */
static int region_order(const region *a, const region *b) {
    int c = strcmp(a->method, b->method);
    if (!c) c = strcmp(a->function ? a->function : "", b->function ? b->function : "");
    if (!c) c = strcmp(a->file ? a->file : "", b->file ? b->file : "");
    if (!c) c = a->lo < b->lo ? -1 : a->lo > b->lo;
    return c;
}

/* Whether trace events a and b are one site: the same access made from the same calls. */
static bool one_site(const lf_rc_trace *t, size_t a, size_t b) {
    const lf_rc_event *x = &t->ev[a], *y = &t->ev[b];
    if (x->pc != y->pc || x->n_calls != y->n_calls) return false;
    for (unsigned d = 0; d <= x->n_calls; d++)
        if (lf_rc_event_site(x, d) != lf_rc_event_site(y, d)) return false;
    return true;
}

static bool candidates_from_cycles(const lf_rc_runner *rn, const lf_rc_trace *t, const lf_rc_cycles *cy,
                                   lf_rc_result *r) {
    /* every site of the trace, at every call depth (region_extent looks at the segments' neighbours) */
    uintptr_t *pcs = malloc((t->n * (LF_RC_MAX_CALLS + 1) + 1) * sizeof *pcs);
    if (!pcs) return false;
    size_t np = 0;
    for (size_t i = 0; i < t->n; i++)
        for (unsigned d = 0; d <= t->ev[i].n_calls; d++) pcs[np++] = lf_rc_event_site(&t->ev[i], d);
    lf_rc_symbols sy;
    bool ok = lf_rc_symbolize(&sy, pcs, np);
    free(pcs);
    if (!ok) return false;
    snprintf(r->symbolizer, sizeof r->symbolizer, "%s", sy.tool);
    if (sy.note[0]) snprintf(r->note, sizeof r->note, "%s", sy.note);
    size_t cap = r->n; /* (weak candidates may be there already: the array holds at least them) */
    for (size_t i = 0; ok && i < cy->n; i++) {
        region rg[2];
        unsigned nr = 0;
        size_t first[2], last[2]; /* the segments' extents */
        bool paired[2] = {false, false};
        for (unsigned k = 0; k < cy->c[i].n; k++) {
            region x;
            segment_region(rn, t, &sy, &cy->c[i].seg[k], &x);
            region_extent(t, &sy, &cy->c[i].seg[k], &x, &first[k], &last[k]);
            /* A segment that starts and ends at one site (one access, or two executions of one access in one
             * place of a loop) gives no atomic pair and names no region: a pair from a site to itself would
             * hold from one execution of it to the thread's next, across whatever runs between (the rest of
             * the loop), which the line named does not describe; and one access is atomic by itself. */
            if (one_site(t, first[k], last[k])) continue;
            paired[k] = true;
            if (nr == 1 && same_region(&rg[0], &x)) {
                /* same source region: both segments are instances of it */
                rg[1] = x;
                continue;
            }
            rg[nr++] = x;
        }
        if (nr == 0) continue; /* (every segment one site: no region to name) */
        /* the regions in a canonical order: by op, then function, file and lines (whichever segment the cycle
         * listed first: the first region's op keys the triage group, docs/triage.md) */
        if (nr == 2 && ((rg[0].resolved && rg[1].resolved && region_order(&rg[0], &rg[1]) > 0) ||
                        (!rg[0].resolved && rg[0].begin > rg[1].begin))) {
            region s = rg[0];
            rg[0] = rg[1];
            rg[1] = s;
        }
        char d0[700], d1[700] = "", summary[768];
        describe_region(d0, sizeof d0, &rg[0]);
        if (nr == 2) describe_region(d1, sizeof d1, &rg[1]);
        snprintf(summary, sizeof summary, "%s%s%s must be atomic", d0, nr == 2 ? " and " : "", d1);
        lf_rc_candidate *c = NULL;
        for (size_t k = 0; k < r->n && !c; k++)
            if (!strcmp(r->c[k].summary, summary)) c = &r->c[k];
        if (!c) {
            if (!LF_GROW(r->c, cap, r->n + 1, 16)) {
                ok = false;
                break;
            }
            c = &r->c[r->n++];
            memset(c, 0, sizeof *c);
            snprintf(c->summary, sizeof c->summary, "%s", summary);
            snprintf(c->method, sizeof c->method, "%s", rg[0].method);
            c->n_regions = nr;
            c->resolved = rg[0].resolved;
            if (c->resolved) {
                snprintf(c->file, sizeof c->file, "%s", rg[0].file);
                snprintf(c->function, sizeof c->function, "%s", rg[0].function);
                c->lo = rg[0].lo;
                c->hi = rg[0].hi;
                lf_rc_read_source(c);
            }
        }
        for (unsigned k = 0; k < cy->c[i].n; k++)
            if (paired[k]) add_pair(c, t->ev[first[k]].pc, t->ev[last[k]].pc);
    }
    lf_rc_symbols_free(&sy);
    return ok;
}

/* ---- ranking ---- */

static int by_rank(const void *pa, const void *pb) {
    const lf_rc_candidate *a = pa, *b = pb;
    bool ca = lf_rc_confirmed(a), cb = lf_rc_confirmed(b);
    if (ca != cb) return ca ? -1 : 1;
    if (a->forbids != b->forbids) return a->forbids < b->forbids ? -1 : 1;
    if (a->n_regions != b->n_regions) return a->n_regions < b->n_regions ? -1 : 1;
    unsigned la = a->resolved ? a->hi - a->lo : 1000, lb = b->resolved ? b->hi - b->lo : 1000;
    if (la != lb) return la < lb ? -1 : 1;
    return strcmp(a->summary, b->summary);
}

/* The confirmed candidates first, each part in its order (a stable partition). */
static void confirmed_first(lf_rc_result *r) {
    lf_rc_candidate *sorted = malloc((r->n ? r->n : 1) * sizeof *sorted);
    if (!sorted) return; /* (the order only) */
    size_t k = 0;
    for (int pass = 0; pass < 2; pass++)
        for (size_t i = 0; i < r->n; i++)
            if (lf_rc_confirmed(&r->c[i]) == (pass == 0)) sorted[k++] = r->c[i];
    memcpy(r->c, sorted, r->n * sizeof *sorted);
    free(sorted);
}

/* ---- method-level exclusions: the harness serializes the calls of two methods ---- */

/* Method m of a's type by name (a custom type's declared name). */
static const char *method_name(const lf_adapter *a, unsigned m) {
    const lf_method_decl *d = lf_adapter_method(a, m);
    return d ? d->name : "?";
}

static const lf_adapter *excl_inner;
static lf_method excl_m[2];
static pthread_mutex_t excl_lock = PTHREAD_MUTEX_INITIALIZER;

static bool excl_all; /* every call, whatever its method */

static lf_kind excl_op(void *obj, lf_method m, const int64_t *args, int64_t *value) {
    if (!excl_all && m != excl_m[0] && m != excl_m[1]) return excl_inner->op(obj, m, args, value);
    lf_mutex_lock(&excl_lock);
    lf_kind k = excl_inner->op(obj, m, args, value);
    lf_mutex_unlock(&excl_lock);
    return k;
}

static lf_kind excl_bulk_op(void *obj, lf_method m, unsigned n, const int64_t *in, int64_t *out, unsigned *moved) {
    if (!excl_all && m != excl_m[0] && m != excl_m[1]) return excl_inner->bulk_op(obj, m, n, in, out, moved);
    lf_mutex_lock(&excl_lock);
    lf_kind k = excl_inner->bulk_op(obj, m, n, in, out, moved);
    lf_mutex_unlock(&excl_lock);
    return k;
}

/* ---- validation ---- */

static void debug_trace(const lf_rc_trace *t) {
    for (size_t i = 0; i < t->n; i++)
        fprintf(stderr, "ev %zu: t%u op%u %s %zu@%#lx pc %#lx calls %u %#lx\n", i, (unsigned)t->ev[i].thread,
                (unsigned)t->ev[i].op, t->ev[i].kind == LF_RC_READ ? "R" : t->ev[i].kind == LF_RC_WRITE ? "W" : "RMW",
                (size_t)t->ev[i].size, (unsigned long)t->ev[i].addr, (unsigned long)t->ev[i].pc,
                (unsigned)t->ev[i].n_calls, (unsigned long)(t->ev[i].n_calls ? t->ev[i].calls[0] : 0));
}

/* Runs schedules 0..n-1 of the family; counts violations, discarded runs. Stops once it has counted stop_at
 * violations (0: never; 1: a validation, which the first violation refutes); *tried (may be NULL) gets the
 * schedules it ran through, n unless it stopped. False on an error. */
static bool run_family(lf_rc_runner *rn, const lf_rc_options *o, const char *what, uint64_t n, uint64_t stop_at,
                       uint64_t *tried, uint64_t *runs, uint64_t *violations, uint64_t *discarded, uint64_t *spun) {
    *runs = *violations = *discarded = 0;
    if (spun) *spun = 0;
    if (tried) *tried = n;
    for (uint64_t i = 0; i < n; i++) {
        if (i % 64 == 0) progress(o, what, i, n);
        lf_schedule sch;
        lf_rc_schedule_at(rn, i, &sch);
        lf_rc_outcome out = lf_rc_run(rn, &sch, NULL);
        if (out == LF_RC_ERROR) return false;
        if (out == LF_RC_OVER_BUDGET) {
            if (tried) *tried = i;
            break;
        }
        if (out == LF_RC_DISCARDED || out == LF_RC_STUCK) {
            (*discarded)++;
            if (spun && rn->last_stats.region_spins) (*spun)++;
            continue;
        }
        (*runs)++;
        if (out == LF_RC_VIOLATION) {
            (*violations)++;
            if (stop_at == 1 && getenv("LINFUZZ_ROOTCAUSE_DEBUG")) { /* the refuting run's trace */
                lf_rc_trace t;
                lf_rc_trace_init(&t);
                lf_rc_run(rn, &sch, &t);
                lf_esc_printf(stderr, "%s: violation at schedule %" PRIu64 "\n", what, i);
                debug_trace(&t);
                lf_rc_trace_free(&t);
            }
            if (stop_at && *violations >= stop_at) {
                if (tried) *tried = i + 1;
                break;
            }
        }
    }
    return true;
}

/* Whether the test violates with every call atomic (the harness serializing all calls), in the first schedules of
 * the family: then no interleaving inside the calls explains it. False on an error (*error set). */
static bool serial_violation(lf_rc_runner *rn, const lf_rc_options *o, lf_rc_result *r, bool *error) {
    lf_adapter wrapped = *rn->adapter;
    wrapped.op = excl_op;
    if (wrapped.bulk_op) wrapped.bulk_op = excl_bulk_op;
    excl_inner = rn->adapter;
    excl_all = true;
    rn->plan.adapter = &wrapped;
    uint64_t n = o->schedules < SERIAL_SCHEDULES ? o->schedules : SERIAL_SCHEDULES, discarded;
    *error = !run_family(rn, o, "replaying with every call atomic", n, 1, NULL, &r->serial_runs,
                         &r->serial_violations, &discarded, NULL);
    rn->plan.adapter = rn->adapter;
    excl_all = false;
    return !*error && r->serial_violations > 0;
}

static int exclusions(lf_rc_runner *rn, const lf_rc_options *o, lf_rc_result *r, char *err, size_t errlen) {
    /* the methods of the case's threads */
    bool used[LF_M_COUNT] = {false};
    for (unsigned t = 0; t < rn->plan.threads; t++)
        for (size_t i = 0; i < rn->plan.len[t]; i++) used[rn->plan.ops[t][i].method] = true;
    lf_adapter wrapped = *rn->adapter;
    wrapped.op = excl_op;
    if (wrapped.bulk_op) wrapped.bulk_op = excl_bulk_op;
    excl_inner = rn->adapter;
    size_t cap = 0;
    for (unsigned m1 = 0; m1 < LF_M_COUNT; m1++)
        for (unsigned m2 = m1; m2 < LF_M_COUNT; m2++) {
            if (!used[m1] || !used[m2]) continue;
            if (!LF_GROW(r->c, cap, r->n + 1, 8)) {
                snprintf(err, errlen, "out of memory");
                return -1;
            }
            lf_rc_candidate *c = &r->c[r->n++];
            memset(c, 0, sizeof *c);
            c->exclusion = true;
            snprintf(c->methods[0], sizeof c->methods[0], "%s", method_name(rn->adapter, m1));
            snprintf(c->methods[1], sizeof c->methods[1], "%s", method_name(rn->adapter, m2));
            snprintf(c->summary, sizeof c->summary, "%s must not overlap %s", c->methods[0], c->methods[1]);
            excl_m[0] = (lf_method)m1;
            excl_m[1] = (lf_method)m2;
            rn->plan.adapter = &wrapped;
            char what[900];
            snprintf(what, sizeof what, "validating: %s", c->summary);
            bool ok = run_family(rn, o, what, r->baseline_schedules, 1, NULL, &c->schedules, &c->violations,
                                 &c->discarded, &c->spun);
            rn->plan.adapter = rn->adapter;
            if (!ok) {
                snprintf(err, errlen, "cannot run the workload (out of memory or threads)");
                return -1;
            }
            c->validated = lf_rc_validation_stands(rn, r->baseline_violations, c->violations);
        }
    /* confirmed first; among them the weakest exclusion (two different methods before one method with itself
     * is not weaker: keep the order of the methods) */
    if (r->n > 1) qsort(r->c, r->n, sizeof *r->c, by_rank);
    return 0;
}

/* What step 0 (a violation under a weak memory model) found. */
typedef enum { WEAK_GO_ON, WEAK_EXPLAINED, WEAK_SPENT, WEAK_ERROR } weak_step;

/* 0. a violation found under a weak memory model: does its schedule violate under sc too (an interleaving bug:
 * the analysis goes on, in sc)? If not, which order is too weak (weak_cause.h): WEAK_EXPLAINED when a
 * strengthening is confirmed (r holds the causes), WEAK_SPENT when the violation replayed but the work budget
 * ran out in this step (r holds what it found, the note says where it stopped), WEAK_ERROR with err set when a
 * run fails. */
static weak_step weak_memory_step(lf_rc_runner *rn, const lf_rc_options *o, lf_rc_result *r, char *err,
                                  size_t errlen) {
    lf_schedule recorded;
    lf_rc_schedule_at(rn, 0, &recorded);
    bool weak_run = recorded.memory_model == LF_MM_TSO || recorded.memory_model == LF_MM_C11;
    r->memory_model = weak_run ? recorded.memory_model : LF_MM_SC;
    if (weak_run && lf_sched_access_points_available()) {
        progress(o, "replaying the violation", 0, 1);
        lf_rc_outcome out = lf_rc_run(rn, &recorded, NULL);
        if (out == LF_RC_ERROR) {
            snprintf(err, errlen, "cannot run the workload (out of memory or threads)");
            return WEAK_ERROR;
        }
        if (out == LF_RC_VIOLATION) {
            lf_schedule sc = recorded;
            sc.memory_model = LF_MM_SC;
            lf_schedule_normalize(&sc);
            out = lf_rc_run(rn, &sc, NULL);
            if (out == LF_RC_ERROR) {
                snprintf(err, errlen, "cannot run the workload (out of memory or threads)");
                return WEAK_ERROR;
            }
            if (out == LF_RC_OVER_BUDGET) { /* undecided: whether it needs the weak behaviour is not known */
                snprintf(r->note, sizeof r->note, "the violation replayed under %s; the budget ran out before its "
                         "schedule was re-run under sc", lf_memory_model_name((lf_memory_model)recorded.memory_model));
                return WEAK_SPENT;
            }
            if (out == LF_RC_VIOLATION) { /* the same interleaving violates without weak behaviour */
                r->weak = LF_RC_WEAK_NOT_NEEDED;
                rn->base.memory_model = LF_MM_SC; /* the steps after this one in sc: the same interleavings */
                lf_schedule_normalize(&rn->base);
            } else {
                r->weak = LF_RC_WEAK_NEEDED;
                if (lf_rc_weak_causes(rn, &recorded, o, r, err, errlen) < 0) return WEAK_ERROR;
                bool any = false;
                for (size_t k = 0; k < r->n; k++) any |= lf_rc_confirmed(&r->c[k]);
                if (any) {
                    confirmed_first(r); /* keeping weak_cause.c's order (the weakest fix first) */
                    return WEAK_EXPLAINED;
                }
                if (rn->over_budget) return WEAK_SPENT; /* its candidates, none confirmed */
            }
        }
    }
    return WEAK_GO_ON;
}

/* 1. the violating run: the first of the search's schedules that violates, traced into bad (its number in
 * r->violating_schedule). 0 when found, 1 when none violates, -1 when a run fails (err set both times). */
static int find_violating_run(lf_rc_runner *rn, const lf_rc_options *o, uint64_t search, lf_rc_trace *bad,
                              lf_rc_result *r, char *err, size_t errlen) {
    bool found = false;
    for (uint64_t i = 0; i < search && !found; i++) {
        if (i % 64 == 0) progress(o, "replaying the violation", i, search);
        lf_schedule sch;
        lf_rc_schedule_at(rn, i, &sch);
        lf_rc_outcome out = lf_rc_run(rn, &sch, bad);
        if (out == LF_RC_ERROR) {
            snprintf(err, errlen, "cannot run the workload (out of memory or threads)");
            return -1;
        }
        if (out == LF_RC_VIOLATION) {
            found = true;
            r->violating_schedule = i;
        }
    }
    if (!found && rn->over_budget) {
        snprintf(err, errlen, "its work budget (%" PRIu64 " switches) ran out before a violating run was found",
                 rn->work_budget);
        return 1;
    }
    if (!found) {
        snprintf(err, errlen, "no violating run in %" PRIu64 " controlled schedules of the test", search);
        return 1;
    }
    return 0;
}

/* 4. validation: the best candidates (at least o->validate, more until one is confirmed, at most MAX_VALIDATE)
 * run with their regions made atomic. False when a run fails (err set). */
static bool validate_candidates(lf_rc_runner *rn, const lf_rc_options *o, lf_rc_result *r, char *err,
                                size_t errlen) {
    size_t confirmed = 0;
    bool can_confirm = r->baseline_violations >= LF_RC_MIN_BASELINE; /* else: refutations only, o->validate */
    for (size_t k = 0; k < r->n && k < MAX_VALIDATE && (k < o->validate || (!confirmed && can_confirm)); k++) {
        lf_rc_candidate *c = &r->c[k];
        if (c->weak) continue; /* validated by strengthening (weak_cause.c) */
        if (!lf_rc_runner_set_pairs(rn, c->begin_pc, c->end_pc, c->n_pairs)) continue;
        char what[900];
        snprintf(what, sizeof what, "validating %zu of %zu: %s", k + 1, r->n, c->summary);
        bool ok = run_family(rn, o, what, r->baseline_schedules, 1, NULL, &c->schedules, &c->violations,
                             &c->discarded, &c->spun);
        lf_rc_runner_set_pairs(rn, NULL, NULL, 0);
        if (!ok) {
            snprintf(err, errlen, "cannot run the workload (out of memory or threads)");
            return false;
        }
        c->validated = lf_rc_validation_stands(rn, r->baseline_violations, c->violations);
        confirmed += lf_rc_confirmed(c);
    }
    return true;
}

/* ---- two regions at once ---- */

#define JOIN_BASES 3    /* refuted candidates whose refuting runs are analysed */
#define JOIN_VALIDATE 4 /* of the candidates they give, validated at most */

#define JOIN_MAX_PARTS 8 /* regions named by a joined candidate */

typedef char region_label[768];

/* A new candidate at the end of r (uninitialised), or NULL when out of memory. The result keeps no capacity:
 * taken as r->n (at worst a realloc of an array that had room). */
static lf_rc_candidate *append_candidate(lf_rc_result *r) {
    size_t cap = r->n;
    return LF_GROW(r->c, cap, r->n + 1, 16) ? &r->c[r->n++] : NULL;
}

/* Adds the regions summary names ("A and B must be atomic": A, B) to parts[0..n) unless they are there already;
 * returns the new n (JOIN_MAX_PARTS + 1 when they do not fit). */
static unsigned add_summary_regions(const char *summary, region_label *parts, unsigned n) {
    static const char tail[] = " must be atomic", sep[] = " and ";
    size_t len = strlen(summary), t = sizeof tail - 1;
    if (len >= t && !strcmp(summary + len - t, tail)) len -= t;
    for (const char *p = summary, *end = summary + len; p < end;) {
        const char *q = strstr(p, sep);
        if (!q || q > end) q = end;
        region_label part;
        snprintf(part, sizeof part, "%.*s", (int)(q - p), p);
        bool seen = false;
        for (unsigned k = 0; k < n && !seen; k++) seen = !strcmp(parts[k], part);
        if (!seen) {
            if (n == JOIN_MAX_PARTS) return JOIN_MAX_PARTS + 1;
            memcpy(parts[n++], part, sizeof part);
        }
        p = q == end ? end : q + sizeof sep - 1;
    }
    return n;
}

static int by_label(const void *a, const void *b) { return strcmp(*(const region_label *)a, *(const region_label *)b); }

/* Candidate b (refuted) joined with d, a candidate of a run that violated with b atomic: "A and B must be atomic"
 * with the regions of both, each named once, in a canonical order, and the pairs of both enforced at once. False
 * when they do not fit (the scheduler's pairs, the summary) or the candidate is there already. */
static bool join_candidate(lf_rc_result *r, const lf_rc_candidate *b, const lf_rc_candidate *d) {
    if (b->n_pairs + d->n_pairs > LF_RC_MAX_PAIRS) return false;
    region_label parts[JOIN_MAX_PARTS];
    unsigned n = add_summary_regions(d->summary, parts, add_summary_regions(b->summary, parts, 0));
    if (n > JOIN_MAX_PARTS) return false;
    qsort(parts, n, sizeof *parts, by_label);
    char summary[sizeof r->c->summary];
    size_t len = 0;
    for (unsigned k = 0; k < n && len < sizeof summary; k++)
        len += (size_t)snprintf(summary + len, sizeof summary - len, "%s%s", k ? " and " : "", parts[k]);
    if (len < sizeof summary) len += (size_t)snprintf(summary + len, sizeof summary - len, " must be atomic");
    if (len >= sizeof summary) return false;
    for (size_t k = 0; k < r->n; k++)
        if (!strcmp(r->c[k].summary, summary)) return false;
    /* the file and lines kept (a candidate holds one region's: --write stores them) are those of the region named
     * first when it is d's first region, else of b's first region */
    const lf_rc_candidate *first = !strncmp(d->summary, parts[0], strlen(parts[0])) ? d : b;
    lf_rc_candidate *c = append_candidate(r);
    if (!c) return false;
    memset(c, 0, sizeof *c);
    snprintf(c->summary, sizeof c->summary, "%s", summary);
    snprintf(c->method, sizeof c->method, "%s", first->method);
    c->n_regions = n;
    c->resolved = first->resolved;
    if (c->resolved) {
        snprintf(c->file, sizeof c->file, "%s", first->file);
        snprintf(c->function, sizeof c->function, "%s", first->function);
        c->lo = first->lo;
        c->hi = first->hi;
        lf_rc_read_source(c);
    }
    for (size_t k = 0; k < b->n_pairs; k++) add_pair(c, b->begin_pc[k], b->end_pc[k]);
    for (size_t k = 0; k < d->n_pairs; k++) add_pair(c, d->begin_pc[k], d->end_pc[k]);
    return true;
}

/* d, a candidate of a refuting run, on its own: moved into r (its source lines with it) unless r has it. */
static void adopt_candidate(lf_rc_result *r, lf_rc_candidate *d) {
    for (size_t k = 0; k < r->n; k++)
        if (!strcmp(r->c[k].summary, d->summary)) return;
    lf_rc_candidate *c = append_candidate(r);
    if (!c) return;
    *c = *d;
    d->source = NULL;
    d->n_source = 0;
}

/* When no candidate is confirmed: a cause may need two regions at once (a writer's two stores and a reader's
 * two loads: with either atomic, the other still interleaves). The run that refuted a candidate violated with
 * its pairs atomic; that run's critical segments (its cycles, as in step 2) are candidates on their own (a
 * region the analysed trace did not show) and joined with the refuted one ([Cirisci20]'s loop over refuting
 * traces, one step deep). They are ranked as the others (a region alone before a join that contains it: it
 * forbids no more passing runs and names fewer regions) and validated in that order until one is confirmed.
 * Returns -1 on an error (err set). */
static int joined_candidates(lf_rc_runner *rn, const lf_rc_options *o, lf_rc_result *r, const lf_rc_trace *passing,
                             size_t n_passing, char *err, size_t errlen) {
    if (r->baseline_violations < LF_RC_MIN_BASELINE) return 0; /* nothing could be confirmed */
    for (size_t k = 0; k < r->n; k++)
        if (lf_rc_confirmed(&r->c[k])) return 0;
    size_t n_before = r->n, bases = 0;
    for (size_t k = 0; k < n_before && bases < JOIN_BASES; k++) {
        lf_rc_candidate b = r->c[k]; /* (a copy: r->c grows below) */
        if (b.weak || b.exclusion || !b.validated || !b.violations) continue;
        bases++;
        lf_schedule sch; /* validation stopped at the refuting run: the last one it made */
        lf_rc_schedule_at(rn, b.schedules + b.discarded - 1, &sch);
        lf_rc_trace t;
        lf_rc_trace_init(&t);
        lf_rc_cycles cy = {0};
        lf_rc_result found = {0};
        const char *failed = NULL;
        lf_rc_outcome out = LF_RC_PASS;
        if (lf_rc_runner_set_pairs(rn, b.begin_pc, b.end_pc, b.n_pairs)) out = lf_rc_run(rn, &sch, &t);
        lf_rc_runner_set_pairs(rn, NULL, NULL, 0);
        if (out == LF_RC_ERROR)
            failed = "cannot run the workload (out of memory or threads)";
        else if (out == LF_RC_VIOLATION && !t.overflow &&
                 (!lf_rc_find_cycles(&t, &cy) || !candidates_from_cycles(rn, &t, &cy, &found)))
            failed = "out of memory";
        for (size_t i = 0; !failed && i < found.n; i++)
            if (strcmp(found.c[i].summary, b.summary) != 0) {
                join_candidate(r, &b, &found.c[i]);
                adopt_candidate(r, &found.c[i]);
            }
        lf_rc_result_free(&found);
        lf_rc_cycles_free(&cy);
        lf_rc_trace_free(&t);
        if (failed) {
            snprintf(err, errlen, "%s", failed);
            return -1;
        }
    }
    if (r->n == n_before) return 0;
    lf_rc_candidate *joined = &r->c[n_before];
    size_t n_joined = r->n - n_before;
    for (size_t k = 0; k < n_joined; k++) {
        joined[k].passing = n_passing;
        for (size_t p = 0; p < n_passing; p++)
            joined[k].forbids += lf_rc_pairs_forbid(&passing[p], joined[k].begin_pc, joined[k].end_pc,
                                                    joined[k].n_pairs);
    }
    if (n_joined > 1) qsort(joined, n_joined, sizeof *joined, by_rank);
    for (size_t k = 0; k < n_joined && k < JOIN_VALIDATE; k++) {
        lf_rc_candidate *c = &joined[k];
        if (!lf_rc_runner_set_pairs(rn, c->begin_pc, c->end_pc, c->n_pairs)) continue;
        char what[900];
        snprintf(what, sizeof what, "validating %zu of %zu: %s", n_before + k + 1, r->n, c->summary);
        bool ok = run_family(rn, o, what, r->baseline_schedules, 1, NULL, &c->schedules, &c->violations,
                             &c->discarded, &c->spun);
        lf_rc_runner_set_pairs(rn, NULL, NULL, 0);
        if (!ok) {
            snprintf(err, errlen, "cannot run the workload (out of memory or threads)");
            return -1;
        }
        c->validated = lf_rc_validation_stands(rn, r->baseline_violations, c->violations);
        if (lf_rc_confirmed(c)) break;
    }
    return 0;
}

/* Puts "stopped by its budget" at the head of r->note. */
static void prepend_note(lf_rc_result *r, uint64_t budget) {
    char both[2 * sizeof r->note]; /* (room for both: the copy below cuts it to the note's size) */
    snprintf(both, sizeof both,
             "stopped by its work budget of %" PRIu64 " switches (the runs after it were not made)%s%s", budget,
             r->note[0] ? "; " : "", r->note);
    memcpy(r->note, both, sizeof r->note - 1);
    r->note[sizeof r->note - 1] = 0;
}

int lf_rc_analyze(const lf_adapter *a, const char *format, const uint8_t *data, size_t len, unsigned run,
                  const lf_rc_options *o, lf_rc_result *r, char *err, size_t errlen) {
    memset(r, 0, sizeof *r);
    double start = lf_now_s();
    lf_rc_runner rn;
    if (!lf_rc_runner_init(&rn, a, format, data, len, run, o->spec, o->check_timeout, err, errlen)) return -1;
    rn.work_budget = o->work_budget;
    lf_rc_trace bad;
    lf_rc_trace_init(&bad);
    int rc = -1;
    lf_rc_trace *passing = NULL;
    size_t n_passing = 0;
    lf_rc_cycles cy = {0};

    /* 0. a violation found under a weak memory model */
    weak_step ws = weak_memory_step(&rn, o, r, err, errlen);
    if (ws == WEAK_ERROR) goto done;
    /* (spent, or spent by the replays of step 0: the violation replayed, it is not "not reproduced") */
    if (ws == WEAK_EXPLAINED || ws == WEAK_SPENT || (rn.over_budget && r->weak != LF_RC_WEAK_NONE)) {
        rc = 0;
        goto done;
    }
    /* 1. the violating run */
    int vr = find_violating_run(&rn, o, o->search ? o->search : o->schedules, &bad, r, err, errlen);
    if (vr != 0) {
        rc = vr > 0 ? 1 : -1;
        goto done;
    }
    r->events = bad.n;
    /* the baseline first: how often the schedules violate with nothing made atomic decides whether a
     * candidate's clean runs can confirm it (LF_RC_MIN_BASELINE); it stops at its o->baseline-th violation,
     * and the validations run the schedules it ran */
    if (!run_family(&rn, o, "baseline (nothing made atomic)", o->schedules, lf_rc_baseline_stop(o),
                    &r->baseline_schedules, &r->baseline_runs, &r->baseline_violations, &r->baseline_discarded, NULL)) {
        snprintf(err, errlen, "cannot run the workload (out of memory or threads)");
        goto done;
    }
    bool error = false;
    if (serial_violation(&rn, o, r, &error)) {
        r->sequential = true;
        snprintf(r->note, sizeof r->note,
                 "the test violates with every call atomic (the harness serializing all calls): no interleaving "
                 "explains it; the structure's serial behaviour differs from what it is checked against (its type's "
                 "specification or its contract, docs/contracts.md), so no code region is a root cause");
        rc = 0;
        goto done;
    }
    if (error) {
        snprintf(err, errlen, "cannot run the workload (out of memory or threads)");
        goto done;
    }
    r->access_data = bad.n > 0 && lf_sched_access_points_available();
    if (!r->access_data) {
        snprintf(r->note, sizeof r->note, "no shared-memory accesses recorded (uninstrumented code): method-level "
                                          "exclusions");
        rc = exclusions(&rn, o, r, err, errlen);
        goto done;
    }
    if (bad.overflow) snprintf(r->note, sizeof r->note, "trace cut at %zu accesses", bad.max);

    /* 2. cycles and regions */
    progress(o, "conflict cycles", 0, 1);
    if (!lf_rc_find_cycles(&bad, &cy) || !candidates_from_cycles(&rn, &bad, &cy, r)) {
        snprintf(err, errlen, "out of memory");
        goto done;
    }
    if (getenv("LINFUZZ_ROOTCAUSE_DEBUG")) { /* the trace and the cycles, for debugging the analysis */
        debug_trace(&bad);
        for (size_t i = 0; i < cy.n; i++)
            for (unsigned k = 0; k < cy.c[i].n; k++)
                fprintf(stderr, "cycle %zu: t%u op%u [%zu..%zu]\n", i, (unsigned)cy.c[i].seg[k].thread,
                        (unsigned)cy.c[i].seg[k].op, cy.c[i].seg[k].first, cy.c[i].seg[k].last);
    }
    r->edges = cy.edges;
    r->cycles = cy.n;
    if (cy.truncated && !r->note[0]) snprintf(r->note, sizeof r->note, "conflict edges or cycles cut at a limit");

    /* 3. passing runs, ranking */
    passing = calloc(o->passing ? o->passing : 1, sizeof *passing);
    if (!passing) {
        snprintf(err, errlen, "out of memory");
        goto done;
    }
    for (uint64_t i = 1; i < 1 + 4 * o->passing && n_passing < o->passing; i++) {
        if (i % 16 == 1) progress(o, "recording passing runs", n_passing, o->passing);
        lf_rc_trace_init(&passing[n_passing]);
        lf_schedule sch;
        lf_rc_schedule_at(&rn, i, &sch);
        lf_rc_outcome out = lf_rc_run(&rn, &sch, &passing[n_passing]);
        if (out == LF_RC_ERROR) {
            lf_rc_trace_free(&passing[n_passing]);
            snprintf(err, errlen, "cannot run the workload (out of memory or threads)");
            goto done;
        }
        if (out == LF_RC_PASS && !passing[n_passing].overflow)
            n_passing++;
        else
            lf_rc_trace_free(&passing[n_passing]);
    }
    for (size_t k = 0; k < r->n; k++) {
        lf_rc_candidate *c = &r->c[k];
        if (c->weak) continue;
        c->passing = n_passing;
        for (size_t p = 0; p < n_passing; p++)
            c->forbids += lf_rc_pairs_forbid(&passing[p], c->begin_pc, c->end_pc, c->n_pairs);
    }
    if (r->n > 1) qsort(r->c, r->n, sizeof *r->c, by_rank);
    if (getenv("LINFUZZ_ROOTCAUSE_DEBUG"))
        for (size_t k = 0; k < r->n; k++)
            for (size_t p = 0; p < r->c[k].n_pairs; p++)
                lf_esc_printf(stderr, "candidate %zu: %s pair %#lx..%#lx\n", k + 1, r->c[k].summary,
                              (unsigned long)r->c[k].begin_pc[p], (unsigned long)r->c[k].end_pc[p]);

    /* 4. validation */
    if (!validate_candidates(&rn, o, r, err, errlen)) goto done;
    if (joined_candidates(&rn, o, r, passing, n_passing, err, errlen) < 0) goto done;
    if (r->n > 1) qsort(r->c, r->n, sizeof *r->c, by_rank);
    rc = 0;
done:
    for (size_t p = 0; p < n_passing; p++) lf_rc_trace_free(&passing[p]);
    free(passing);
    lf_rc_cycles_free(&cy);
    lf_rc_trace_free(&bad);
    r->points = rn.points;
    r->switches = rn.switches;
    r->runs = rn.runs;
    r->over_budget = rn.over_budget;
    if (rn.over_budget && rc == 0) /* what else limited it stays in the note, after this */
        prepend_note(r, rn.work_budget);
    lf_rc_runner_free(&rn);
    r->seconds = lf_now_s() - start;
    if (rc != 0) lf_rc_result_free(r); /* (nothing to read on "not reproduced" either) */
    return rc;
}
