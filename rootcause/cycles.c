/* Conflict cycles and critical segments of a recorded trace (cycles.h). */
#include "cycles.h"

#include <stdlib.h>
#include <string.h>

#include "util/grow.h"

#define MAX_SCAN 4096      /* accesses of one location looked at from one access, each way */
#define MAX_EDGES 400000
#define MAX_CYCLES 20000

static bool conflict(const lf_rc_event *a, const lf_rc_event *b) {
    if (a->thread == b->thread) return false;
    if (a->kind == LF_RC_READ && b->kind == LF_RC_READ) return false;
    return a->addr < b->addr + b->size && b->addr < a->addr + a->size;
}

typedef struct edge {
    size_t src, dst; /* event indices, src before dst in trace order */
} edge;

static const lf_rc_trace *sort_trace;
static int by_location(const void *pa, const void *pb) {
    const lf_rc_event *a = &sort_trace->ev[*(const size_t *)pa], *b = &sort_trace->ev[*(const size_t *)pb];
    uintptr_t ka = a->addr >> 3, kb = b->addr >> 3;
    if (ka != kb) return ka < kb ? -1 : 1;
    return *(const size_t *)pa < *(const size_t *)pb ? -1 : *(const size_t *)pa > *(const size_t *)pb;
}
static int by_edge(const void *pa, const void *pb) {
    const edge *a = pa, *b = pb;
    if (a->src != b->src) return a->src < b->src ? -1 : 1;
    return a->dst < b->dst ? -1 : a->dst > b->dst;
}

typedef struct edges {
    edge *e;
    size_t n, cap;
    bool truncated;
} edges;

static bool push_edge(edges *es, size_t src, size_t dst) {
    if (es->n == MAX_EDGES) {
        es->truncated = true;
        return true;
    }
    if (!LF_GROW(es->e, es->cap, es->n + 1, 256)) return false;
    es->e[es->n++] = (edge){src, dst};
    return true;
}

/* The nearest conflict edges (see cycles.h), sorted by source and unique. */
static bool conflict_edges(const lf_rc_trace *t, edges *es) {
    size_t *idx = malloc((t->n ? t->n : 1) * sizeof *idx);
    if (!idx) return false;
    for (size_t i = 0; i < t->n; i++) idx[i] = i;
    sort_trace = t;
    if (t->n > 1) qsort(idx, t->n, sizeof *idx, by_location);
    bool ok = true;
    for (size_t g = 0; ok && g < t->n;) {
        size_t h = g;
        while (h < t->n && t->ev[idx[h]].addr >> 3 == t->ev[idx[g]].addr >> 3) h++;
        for (size_t i = g; ok && i < h; i++) {
            const lf_rc_event *e = &t->ev[idx[i]];
            uint64_t later = 0, earlier = 0; /* threads found (bit per thread, up to 64) */
            for (size_t j = i + 1; ok && j < h && j - i <= MAX_SCAN; j++) {
                const lf_rc_event *f = &t->ev[idx[j]];
                uint64_t bit = 1ull << (f->thread & 63);
                if ((later & bit) || !conflict(e, f)) continue;
                later |= bit;
                ok = push_edge(es, idx[i], idx[j]);
            }
            for (size_t j = i; ok && j-- > g && i - j <= MAX_SCAN;) {
                const lf_rc_event *f = &t->ev[idx[j]];
                uint64_t bit = 1ull << (f->thread & 63);
                if ((earlier & bit) || !conflict(e, f)) continue;
                earlier |= bit;
                ok = push_edge(es, idx[j], idx[i]);
            }
        }
        g = h;
    }
    free(idx);
    if (!ok) return false;
    if (es->n > 1) qsort(es->e, es->n, sizeof *es->e, by_edge);
    size_t w = 0;
    for (size_t i = 0; i < es->n; i++)
        if (!w || es->e[i].src != es->e[w - 1].src || es->e[i].dst != es->e[w - 1].dst) es->e[w++] = es->e[i];
    es->n = w;
    return true;
}

/* Whether segment a contains segment b. */
static bool seg_contains(const lf_rc_segment *a, const lf_rc_segment *b) {
    return a->thread == b->thread && a->op == b->op && a->first <= b->first && b->last <= a->last;
}
/* Whether cycle a subsumes cycle b: every segment of b lies inside a segment of a. */
static bool subsumes(const lf_rc_cycle *a, const lf_rc_cycle *b) {
    for (unsigned i = 0; i < b->n; i++) {
        bool in = false;
        for (unsigned k = 0; k < a->n && !in; k++) in = seg_contains(&a->seg[k], &b->seg[i]);
        if (!in) return false;
    }
    return true;
}
static bool same_cycle(const lf_rc_cycle *a, const lf_rc_cycle *b) { return subsumes(a, b) && subsumes(b, a); }

static int by_segment(const void *pa, const void *pb) {
    const lf_rc_segment *a = pa, *b = pb;
    if (a->first != b->first) return a->first < b->first ? -1 : 1;
    return a->last < b->last ? -1 : a->last > b->last;
}
static int by_cycle(const void *pa, const void *pb) {
    const lf_rc_cycle *a = pa, *b = pb;
    if (a->n != b->n) return a->n < b->n ? -1 : 1;
    for (unsigned i = 0; i < a->n; i++) {
        int c = by_segment(&a->seg[i], &b->seg[i]);
        if (c) return c;
    }
    return 0;
}

void lf_rc_cycles_free(lf_rc_cycles *c) {
    free(c->c);
    memset(c, 0, sizeof *c);
}

static bool add_cycle(lf_rc_cycles *out, size_t *cap, const lf_rc_cycle *cy) {
    if (out->n == MAX_CYCLES) {
        out->truncated = true;
        return true;
    }
    if (!LF_GROW(out->c, *cap, out->n + 1, 64)) return false;
    out->c[out->n++] = *cy;
    return true;
}

bool lf_rc_find_cycles(const lf_rc_trace *t, lf_rc_cycles *out) {
    memset(out, 0, sizeof *out);
    edges es = {0};
    if (!conflict_edges(t, &es)) {
        free(es.e);
        return false;
    }
    out->edges = es.n;
    out->truncated = es.truncated;
    /* Edges into each event, by destination. */
    edge *in = malloc((es.n ? es.n : 1) * sizeof *in);
    if (!in) {
        free(es.e);
        return false;
    }
    memcpy(in, es.e, es.n * sizeof *in);
    for (size_t i = 0; i < es.n; i++) in[i] = (edge){es.e[i].dst, es.e[i].src}; /* (dst, src), sorted by dst */
    if (es.n > 1) qsort(in, es.n, sizeof *in, by_edge);
    size_t cap = 0;
    bool ok = true;
    /* Out-edges x1 -> y1 leave op O of thread i at x1; in-edges x2 -> y2 come back to O at y2 after x1. Both
     * lists are sorted by the event in O; O's events are consecutive in the thread's program order. */
    for (size_t a = 0; ok && a < es.n; a++) {
        size_t x1 = es.e[a].src, y1 = es.e[a].dst;
        const lf_rc_event *ex1 = &t->ev[x1], *ey1 = &t->ev[y1];
        /* in-edges whose destination y2 is in the same op, after x1 */
        size_t lo = 0, hi = es.n;
        while (lo < hi) { /* first in-edge with destination > x1 */
            size_t mid = (lo + hi) / 2;
            if (in[mid].src <= x1) lo = mid + 1;
            else hi = mid;
        }
        /* In-edges come by y2 ascending: a later cycle of this out-edge is subsumed by an earlier one when its
         * segment of j contains the earlier one's (x2 no later) or the earlier one had none. Such cycles are
         * not kept (on long traversals they were most of them, and the cap cut the rest). */
        size_t max_x2 = 0;
        bool have_two = false;
        for (size_t b = lo; ok && b < es.n && !out->truncated; b++) {
            size_t y2 = in[b].src, x2 = in[b].dst;
            const lf_rc_event *ey2 = &t->ev[y2], *ex2 = &t->ev[x2];
            if (ey2->thread != ex1->thread) continue;
            if (ey2->op != ex1->op) {
                if (ey2->op > ex1->op) break; /* later ops of thread i: none of them comes back into O */
                continue;
            }
            if (ex2->thread != ey1->thread) continue;
            lf_rc_cycle cy = {.n = 1};
            cy.seg[0] = (lf_rc_segment){ex1->thread, ex1->op, x1, y2};
            if (y1 > x2) { /* thread j: arrives at y1 after leaving from x2 */
                if (ex2->op != ey1->op) continue; /* across ops of j: not a cycle */
                if (have_two && x2 <= max_x2) continue; /* subsumed by an earlier cycle of this out-edge */
                have_two = true;
                max_x2 = x2;
                cy.seg[1] = (lf_rc_segment){ex2->thread, ex2->op, x2, y1};
                cy.n = 2;
                if (by_segment(&cy.seg[1], &cy.seg[0]) < 0) {
                    lf_rc_segment s = cy.seg[0];
                    cy.seg[0] = cy.seg[1];
                    cy.seg[1] = s;
                }
            }
            ok = add_cycle(out, &cap, &cy);
            if (cy.n == 1) break; /* every later cycle of this out-edge contains [x1 .. y2] */
        }
    }
    free(in);
    free(es.e);
    if (!ok) return false;
    /* unique, then minimal */
    if (out->n > 1) qsort(out->c, out->n, sizeof *out->c, by_cycle);
    size_t w = 0;
    for (size_t i = 0; i < out->n; i++)
        if (!w || !same_cycle(&out->c[i], &out->c[w - 1])) out->c[w++] = out->c[i];
    out->n = w;
    bool *drop = calloc(out->n ? out->n : 1, sizeof *drop);
    if (!drop) return false;
    for (size_t i = 0; i < out->n; i++)
        for (size_t k = 0; k < out->n && !drop[i]; k++)
            if (k != i && !drop[k] && subsumes(&out->c[i], &out->c[k])) drop[i] = true;
    w = 0;
    for (size_t i = 0; i < out->n; i++)
        if (!drop[i]) out->c[w++] = out->c[i];
    out->n = w;
    free(drop);
    return true;
}

/* Whether the block [s .. e] (indices; events of one thread and op) is interrupted by a two-thread cycle. */
static bool block_interrupted(const lf_rc_trace *t, size_t s, size_t e) {
    uint32_t ti = t->ev[s].thread;
    for (unsigned j = 0; j < t->threads; j++) {
        if (j == ti) continue;
        size_t first_u = SIZE_MAX, last_v = 0;
        bool any_v = false;
        for (size_t k = s + 1; k < e; k++) {
            const lf_rc_event *u = &t->ev[k];
            if (u->thread != j) continue;
            for (size_t x = s; x < k; x++) /* an access of the block before u that u conflicts with */
                if (t->ev[x].thread == ti && conflict(&t->ev[x], u)) {
                    if (first_u == SIZE_MAX) first_u = k;
                    break;
                }
            for (size_t y = k + 1; y <= e; y++) /* one after u */
                if (t->ev[y].thread == ti && conflict(u, &t->ev[y])) {
                    last_v = k;
                    any_v = true;
                    break;
                }
        }
        if (first_u != SIZE_MAX && any_v && first_u <= last_v) return true;
    }
    return false;
}

bool lf_rc_pairs_forbid(const lf_rc_trace *t, const uintptr_t *begin_pc, const uintptr_t *end_pc, size_t n) {
    for (size_t k = 0; k < n; k++) {
        /* per thread: the open instance's start (SIZE_MAX: none) */
        size_t open[LF_FC_MAX_THREADS];
        for (unsigned i = 0; i < LF_FC_MAX_THREADS; i++) open[i] = SIZE_MAX;
        for (size_t i = 0; i < t->n; i++) {
            const lf_rc_event *e = &t->ev[i];
            if (e->thread >= LF_FC_MAX_THREADS) continue;
            size_t *o = &open[e->thread];
            if (*o != SIZE_MAX && t->ev[*o].op != e->op) *o = SIZE_MAX;
            if (*o != SIZE_MAX && e->pc == end_pc[k]) {
                if (block_interrupted(t, *o, i)) return true;
                *o = SIZE_MAX;
            } else if (*o == SIZE_MAX && e->pc == begin_pc[k]) {
                *o = i;
            }
        }
    }
    return false;
}
