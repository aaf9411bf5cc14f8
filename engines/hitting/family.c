/* Strong d-hitting families: building the schedule of one index (robust Algorithm 1 of [Ozkan19])
 * and enumerating the indices of one depth. */
#include "hitting/family.h"

#include <stdlib.h>
#include <string.h>

bool lf_hit_builder_init(hit_builder *b, const hit_poset *p) {
    memset(b, 0, sizeof *b);
    b->p = p;
    size_t alloc = p->n ? p->n : 1;
    b->tix = calloc(3 * alloc, sizeof *b->tix); /* tix, hit and mark in one block */
    if (!b->tix) return false;
    b->hit = b->tix + alloc;
    b->mark = b->hit + alloc;
    return true;
}

void lf_hit_builder_free(hit_builder *b) {
    free(b->tix);
    memset(b, 0, sizeof *b);
}

static inline void insert_at(uint32_t *sch, size_t len, size_t pos, uint32_t op) {
    /* Most moves are a few elements: a plain loop beats a memmove call. */
    for (size_t q = len; q > pos; q--) sch[q] = sch[q - 1];
    sch[pos] = op;
}

/* Every HIT_BUILD_CHECK_STEPS steps: whether the deadline passed (then b->late is set). */
static bool build_late(hit_builder *b, uint64_t steps, uint64_t *check_at) {
    if (steps < *check_at) return false;
    *check_at = steps + HIT_BUILD_CHECK_STEPS;
    if (!lf_deadline_passed_or_none(b->dl)) return false;
    b->late = true;
    return true;
}

void lf_hit_build(hit_builder *b, uint32_t c, const uint32_t *X, size_t k, const uint32_t *topo, uint32_t *sch) {
    const hit_poset *p = b->p;
    const size_t n = p->n;
    uint32_t *tix = b->tix, *hit = b->hit;
    for (size_t a = 0; a < k; a++) tix[X[a]] = (uint32_t)(a + 1);
    size_t nhit = 0, len = 0;
    uint64_t steps = 0, check_at = HIT_BUILD_CHECK_STEPS;
    for (size_t t = 0; t < n; t++) {
        if (build_late(b, steps, &check_at)) break;
        uint32_t op = topo ? topo[t] : (uint32_t)t;
        size_t pos;
        if (p->chain[op] == HIT_NO_CHAIN && !tix[op]) continue; /* a pending op: placed last, see below */
        if (tix[op] || p->chain[op] == c) {
            /* op must be strongly hit: as late as the hit ops of higher tuple index allow. */
            uint32_t i = tix[op]; /* 0 for a member of chain c outside X */
            uint32_t last = nhit ? hit[nhit - 1] : 0;
            if (nhit == 0 || (i && i > tix[last]) || hit_before(p, last, op)) {
                pos = len; /* cases 1a, 2a: nothing inserted has to follow op */
            } else {
                /* Cases 1b, 2b: op goes before the maximal run hit[j..] of higher-index hit ops that are all
                 * concurrent with it, right before the run's earliest member in the schedule (§2.5 fix:
                 * with an infeasible tuple or another topological order the run need not be in tuple
                 * order there). */
                size_t j = nhit;
                while (j > 0 && tix[hit[j - 1]] > i && hit_concurrent(p, op, hit[j - 1])) j--;
                if (++b->stamp == 0) { /* stamps wrapped: clear the marks once */
                    memset(b->mark, 0, n * sizeof *b->mark);
                    b->stamp = 1;
                }
                for (size_t s = j; s < nhit; s++) b->mark[hit[s]] = b->stamp;
                pos = 0;
                while (pos < len && b->mark[sch[pos]] != b->stamp) pos++;
                steps += pos + (nhit - j);
            }
            insert_at(sch, len, pos, op);
            if (tix[op]) {
                size_t s = nhit++;
                while (s > 0 && tix[hit[s - 1]] > i) {
                    hit[s] = hit[s - 1];
                    s--;
                }
                hit[s] = op;
            }
        } else {
            /* Case 3, an op that is not hit: as early as possible, right after its last real-time
             * predecessor already in the schedule (or first when it has none). */
            uint64_t call = p->call[op];
            pos = len;
            while (pos > 0 && !(p->ret[sch[pos - 1]] < call)) pos--;
            steps += len - pos;
            insert_at(sch, len, pos, op);
        }
        steps += len - pos + 1;
        len++;
    }
    /* Pending ops go right after their last real-time predecessor once every other op is placed, so that
     * each is as early as real-time order allows in the final schedule: the replay lets it take effect
     * there or at any later point (hitting/replay.h). No op follows a pending op in real time, so the
     * schedule stays a linear extension, and the completed ops keep their relative order. */
    for (size_t t = 0; p->n_pending && !b->late && t < n; t++) {
        if (build_late(b, steps, &check_at)) break;
        uint32_t op = topo ? topo[t] : (uint32_t)t;
        if (p->chain[op] != HIT_NO_CHAIN || tix[op]) continue;
        uint64_t call = p->call[op];
        size_t pos = len;
        while (pos > 0 && !(p->ret[sch[pos - 1]] < call)) pos--;
        steps += len - pos + 1;
        insert_at(sch, len, pos, op);
        len++;
    }
    for (size_t a = 0; a < k; a++) tix[X[a]] = 0;
    b->steps += steps;
}

bool lf_hit_tuple_feasible(const hit_poset *p, const uint32_t *X, size_t k) {
    for (size_t a = 0; a < k; a++)
        for (size_t b = a + 1; b < k; b++)
            if (hit_before(p, X[b], X[a])) return false;
    return true;
}

size_t lf_hit_reduction_filters(const hit_poset *p, uint8_t *x_allowed, uint8_t *chain_allowed) {
    size_t candidates = 0;
    memset(chain_allowed, 0, p->n_chains);
    for (size_t i = 0; i < p->n; i++) {
        x_allowed[i] = !p->isolated[i] && p->chain[i] != HIT_NO_CHAIN; /* pending ops are never hit */
        if (x_allowed[i]) {
            candidates++;
            chain_allowed[p->chain[i]] = 1;
        }
    }
    return candidates;
}

typedef struct enum_ctx {
    const hit_poset *p;
    size_t k;
    const uint8_t *x_allowed;
    uint32_t c;
    hit_index_fn fn;
    void *arg;
    uint32_t X[HIT_MAX_TUPLE];
} enum_ctx;

static bool enum_rec(enum_ctx *e, size_t depth) {
    if (depth == e->k) return e->fn(e->arg, e->c, e->X, e->k);
    for (uint32_t x = 0; x < e->p->n; x++) {
        if (e->x_allowed && !e->x_allowed[x]) continue;
        /* x must be new, and appending it keeps X feasible iff it precedes none of the chosen members. */
        bool usable = true;
        for (size_t a = 0; a < depth && usable; a++)
            if (e->X[a] == x || hit_before(e->p, x, e->X[a])) usable = false;
        if (!usable) continue;
        e->X[depth] = x;
        if (!enum_rec(e, depth + 1)) return false;
    }
    return true;
}

bool lf_hit_enum_indices(const hit_poset *p, size_t k, const uint8_t *x_allowed, const uint8_t *chain_allowed,
                      hit_index_fn fn, void *arg) {
    if (k > HIT_MAX_TUPLE) return true;
    enum_ctx e = {.p = p, .k = k, .x_allowed = x_allowed, .fn = fn, .arg = arg};
    bool go_on = true;
    /* Only pending ops (no chain at all): one index, whose schedule places them as early as they can go. */
    uint32_t chains = p->n_chains ? p->n_chains : 1;
    for (uint32_t c = 0; c < chains && go_on; c++) {
        if (p->n_chains && chain_allowed && !chain_allowed[c]) continue;
        e.c = c;
        go_on = enum_rec(&e, 0);
    }
    return go_on;
}
