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

/* The bytes one thread's accesses read and wrote, per 8-byte word: what an access of another thread conflicts
 * with (conflict(): overlapping bytes, not both reads) in one lookup per word it spans, where scanning the
 * accesses took a pass each. An open-addressing table; `used` lists its filled slots, to clear them. */
typedef struct word_bytes {
    uintptr_t word; /* addr >> 3 */
    uint8_t read, written, filled;
} word_bytes;

typedef struct access_set {
    word_bytes *slot;
    size_t cap; /* a power of two */
    size_t *used, n_used;
} access_set;

static void access_set_free(access_set *a) {
    free(a->slot);
    free(a->used);
}

/* Empties a and makes room for `words` words (the table kept at most half full). False when out of memory. */
static bool access_set_prepare(access_set *a, size_t words) {
    for (size_t i = 0; i < a->n_used; i++) a->slot[a->used[i]].filled = 0;
    a->n_used = 0;
    size_t need = 2 * words, cap = 64;
    while (cap < need) cap *= 2;
    if (cap <= a->cap) return true;
    access_set_free(a);
    a->slot = calloc(cap, sizeof *a->slot);
    a->used = malloc(cap / 2 * sizeof *a->used);
    a->cap = a->slot && a->used ? cap : 0;
    return a->cap != 0;
}

/* The slot of word w: its own, or the empty one where it would go. */
static word_bytes *access_set_slot(access_set *a, uintptr_t w) {
    size_t i = (size_t)((w * 0x9e3779b97f4a7c15ull) >> 20) & (a->cap - 1);
    while (a->slot[i].filled && a->slot[i].word != w) i = (i + 1) & (a->cap - 1);
    return &a->slot[i];
}

/* The last 8-byte word e's bytes reach (its first: e->addr >> 3). */
static uintptr_t last_word(const lf_rc_event *e) { return (e->addr + e->size - 1) >> 3; }

/* The bytes of [addr, addr + size) within word w, as a mask (bit b: byte w * 8 + b). */
static uint8_t bytes_in_word(uintptr_t addr, unsigned size, uintptr_t w) {
    uintptr_t lo = addr > w * 8 ? addr : w * 8, hi = addr + size < w * 8 + 8 ? addr + size : w * 8 + 8;
    return (uint8_t)(((1u << (hi - lo)) - 1) << (lo - w * 8));
}

static void access_set_add(access_set *a, const lf_rc_event *e) {
    for (uintptr_t w = e->addr >> 3; w <= last_word(e); w++) {
        word_bytes *b = access_set_slot(a, w);
        if (!b->filled) {
            *b = (word_bytes){.word = w, .filled = 1};
            a->used[a->n_used++] = (size_t)(b - a->slot);
        }
        uint8_t mask = bytes_in_word(e->addr, e->size, w);
        if (e->kind == LF_RC_READ) b->read |= mask;
        else b->written |= mask;
    }
}

/* Whether e conflicts with an access of the set (which holds another thread's accesses only). */
static bool access_set_conflicts(access_set *a, const lf_rc_event *e) {
    for (uintptr_t w = e->addr >> 3; w <= last_word(e); w++) {
        const word_bytes *b = access_set_slot(a, w);
        if (!b->filled) continue;
        uint8_t mask = bytes_in_word(e->addr, e->size, w);
        if (mask & (e->kind == LF_RC_READ ? b->written : (uint8_t)(b->read | b->written))) return true;
    }
    return false;
}

/* Whether the block [s .. e] (indices; events of one thread and op) is interrupted by a two-thread cycle: some
 * other thread j has an access u inside it conflicting with an earlier access of the block, and at or after
 * the first such u an access v conflicting with a later one. One pass forward finds each thread's first u (the
 * set holds the block's accesses before it), one backward each thread's last v. */
static bool block_interrupted(const lf_rc_trace *t, size_t s, size_t e, access_set *set) {
    uint32_t ti = t->ev[s].thread;
    size_t first_u[LF_FC_MAX_THREADS], last_v[LF_FC_MAX_THREADS];
    for (unsigned j = 0; j < LF_FC_MAX_THREADS; j++) first_u[j] = last_v[j] = SIZE_MAX;
    size_t words = 0; /* the block's words, counted with repeats: room enough */
    for (size_t k = s; k <= e; k++)
        if (t->ev[k].thread == ti) words += last_word(&t->ev[k]) - (t->ev[k].addr >> 3) + 1;
    if (!access_set_prepare(set, words)) return false; /* (out of memory: counted as not forbidden) */
    access_set_add(set, &t->ev[s]);
    for (size_t k = s + 1; k < e; k++) {
        const lf_rc_event *u = &t->ev[k];
        if (u->thread == ti) access_set_add(set, u);
        else if (u->thread < LF_FC_MAX_THREADS && first_u[u->thread] == SIZE_MAX && access_set_conflicts(set, u))
            first_u[u->thread] = k;
    }
    if (!access_set_prepare(set, words)) return false;
    access_set_add(set, &t->ev[e]);
    for (size_t k = e - 1; k > s; k--) {
        const lf_rc_event *v = &t->ev[k];
        if (v->thread == ti) access_set_add(set, v);
        else if (v->thread < LF_FC_MAX_THREADS && last_v[v->thread] == SIZE_MAX && access_set_conflicts(set, v))
            last_v[v->thread] = k;
    }
    for (unsigned j = 0; j < LF_FC_MAX_THREADS; j++)
        if (first_u[j] != SIZE_MAX && last_v[j] != SIZE_MAX && first_u[j] <= last_v[j]) return true;
    return false;
}

bool lf_rc_pairs_forbid(const lf_rc_trace *t, const uintptr_t *begin_pc, const uintptr_t *end_pc, size_t n) {
    access_set set = {0};
    bool forbids = false;
    for (size_t k = 0; k < n && !forbids; k++) {
        /* per thread: the open instance's start (SIZE_MAX: none) */
        size_t open[LF_FC_MAX_THREADS];
        for (unsigned i = 0; i < LF_FC_MAX_THREADS; i++) open[i] = SIZE_MAX;
        for (size_t i = 0; i < t->n && !forbids; i++) {
            const lf_rc_event *e = &t->ev[i];
            if (e->thread >= LF_FC_MAX_THREADS) continue;
            size_t *o = &open[e->thread];
            if (*o != SIZE_MAX && t->ev[*o].op != e->op) *o = SIZE_MAX;
            if (*o != SIZE_MAX && e->pc == end_pc[k]) {
                forbids = block_interrupted(t, *o, i, &set);
                *o = SIZE_MAX;
            } else if (*o == SIZE_MAX && e->pc == begin_pc[k]) {
                *o = i;
            }
        }
    }
    access_set_free(&set);
    return forbids;
}
