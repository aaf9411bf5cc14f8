/* Priority-queue monitor ([Lee25], Corollary 8.3), as a sweep in time.
 *
 * The history is linearizable iff every peek and poll of a value v has a moment (partition) at which no value
 * of higher priority (smaller; nil is smallest) is certainly present, i.e. no critical interval of a
 * higher-priority value covers it. Let top(p) be the highest priority (smallest rank) among the critical
 * intervals covering partition p (none: +inf). A partition p frees op o of value v iff top(p) >= rank(v), since
 * v's own interval has rank(v) and every other rank differs. So the condition is: the maximum of top() over
 * the op's partitions is at least rank(v).
 *
 * top() comes from one sweep over the partitions in time order with the set of intervals covering the current
 * one (a hierarchical bitset of ranks, small enough to stay in the cache); the maximum over an op's partitions from a scan for short ops and a
 * sparse table over blocks of 64 partitions for long ones. Memory is touched in time order, which matters
 * when many values are present at once: the priority-order sweep over a segment tree (the cross-check in the
 * tests, tests/unit/monitor_forms/pqueue_tree.c) jumps around the tree and was bound by cache misses at 10^6
 * ops with 300,000 values present. O(n log n); the same verdict, reason and culprits as that form. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "monitor/monitors.h"
#include "util/big_alloc.h"
#include "util/radix_sort.h"

#define NONE UINT32_MAX
#define BLOCK 64
#define ENDS (1u << 31)

uint32_t *lf_pqueue_priority_order(const lf_std *s) {
    uint32_t nv = s->n_values;
    uint32_t *order = lf_big_malloc((nv ? nv : 1) * sizeof *order);
    lf_keyed *keys = lf_big_malloc((nv ? nv : 1) * sizeof *keys);
    if (!order || !keys) {
        free(order);
        free(keys);
        return NULL;
    }
    uint32_t k = 0, nil = NONE;
    LF_FOR_CHUNKS(ck, ck_end, 0, nv, s->dl) {
        for (uint32_t v = (uint32_t)ck; v < ck_end; v++) {
            if (s->value_nil[v])
                nil = v;
            else
                keys[k++] = (lf_keyed){(uint64_t)s->value_of[v] ^ (1ull << 63), v};
        }
    }
    if (lf_deadline_expired(s->dl)) {
        free(order);
        free(keys);
        return NULL;
    }
    if (!lf_sort_within(keys, k, s->dl)) {
        free(order);
        free(keys);
        return NULL;
    }
    uint32_t o = 0;
    if (nil != NONE) order[o++] = nil;
    for (uint32_t i = 0; i < k; i++) order[o++] = keys[i].payload;
    free(keys);
    return order;
}

/* The ranks of the critical intervals covering the current partition: a bitset with a summary bit per word,
 * levels up to a single root word. For 500,000 values the leaves are 62 KiB, so the sweep's inserts, deletes
 * and minimum searches stay in the cache whatever the priorities. */
typedef struct {
    uint64_t *w[6]; /* w[0]: one bit per rank; w[l + 1]: one bit per nonzero word of w[l] */
    int levels;
    uint32_t min; /* smallest rank present, NONE when empty */
} rank_set;

static bool rank_set_init(rank_set *rs, uint32_t n) {
    memset(rs, 0, sizeof *rs);
    rs->min = NONE;
    size_t words = n > 64 ? ((size_t)n + 63) / 64 : 1;
    for (;;) { /* up to a top level of one word: 64^6 > 2^30 ranks, the most a history can have */
        rs->w[rs->levels] = calloc(words, sizeof *rs->w[0]);
        if (!rs->w[rs->levels++]) return false;
        if (words == 1) return true;
        words = (words + 63) / 64;
    }
}

/* Also after a failed init. */
static void rank_set_free(rank_set *rs) {
    for (int l = 0; l < rs->levels; l++) free(rs->w[l]);
}

static void rank_set_insert(rank_set *rs, uint32_t r) {
    if (r < rs->min) rs->min = r;
    for (int l = 0; l < rs->levels; l++, r >>= 6) {
        uint64_t *w = &rs->w[l][r >> 6], was = *w;
        *w = was | 1ull << (r & 63);
        if (was) return; /* the levels above already know this word is nonzero */
    }
}

static void rank_set_delete(rank_set *rs, uint32_t r) {
    bool was_min = r == rs->min;
    for (int l = 0; l < rs->levels; l++, r >>= 6) {
        uint64_t *w = &rs->w[l][r >> 6];
        *w &= ~(1ull << (r & 63));
        if (*w) break;
    }
    if (!was_min) return;
    int top = rs->levels - 1;
    if (!rs->w[top][0]) {
        rs->min = NONE;
        return;
    }
    uint32_t i = (uint32_t)__builtin_ctzll(rs->w[top][0]);
    for (int l = top - 1; l >= 0; l--) i = i * 64 + (uint32_t)__builtin_ctzll(rs->w[l][i]);
    rs->min = i;
}

typedef struct {
    uint32_t *top;   /* per partition 1..P: highest priority covering it, NONE when uncovered */
    uint32_t P;
    uint32_t *table; /* sparse table: level k holds the maximum of top() over 2^k blocks from each block */
    uint32_t blocks, levels;
} top_index;

static inline uint32_t max32(uint32_t a, uint32_t b) { return a > b ? a : b; }

static bool build_table(top_index *x, lf_deadline *dl) {
    x->blocks = x->P / BLOCK + 1; /* block b: partitions b*BLOCK .. b*BLOCK+BLOCK-1 (partition 0 unused) */
    x->levels = 1;
    while ((1u << x->levels) <= x->blocks) x->levels++;
    x->table = lf_big_malloc((size_t)x->blocks * x->levels * sizeof *x->table);
    if (!x->table) return false;
    for (uint32_t b = 0; b < x->blocks; b++) {
        if (lf_deadline_spend(dl, BLOCK)) return false;
        uint32_t m = 0, lo = b * BLOCK, hi = lo + BLOCK - 1;
        if (lo == 0) lo = 1;
        if (hi > x->P) hi = x->P;
        for (uint32_t p = lo; p <= hi; p++) m = max32(m, x->top[p]);
        x->table[b] = m;
    }
    for (uint32_t k = 1; k < x->levels; k++) {
        uint32_t *prev = x->table + (size_t)(k - 1) * x->blocks, *cur = x->table + (size_t)k * x->blocks;
        uint32_t half = 1u << (k - 1);
        LF_FOR_CHUNKS(ck, ck_end, 0, x->blocks, dl) {
            for (uint32_t b = (uint32_t)ck; b < ck_end; b++) {
                cur[b] = b + half < x->blocks ? max32(prev[b], prev[b + half]) : prev[b];
            }
        }
        if (lf_deadline_expired(dl)) return false;
    }
    return true;
}

/* Whether some partition in a..b (a <= b) has top() >= need. */
static bool some_at_least(const top_index *x, uint32_t a, uint32_t b, uint32_t need) {
    if (b - a < 2 * BLOCK) {
        for (uint32_t p = a; p <= b; p++)
            if (x->top[p] >= need) return true;
        return false;
    }
    uint32_t ba = a / BLOCK + 1, bb = b / BLOCK; /* whole blocks ba..bb-1 */
    for (uint32_t p = a; p < ba * BLOCK; p++)
        if (x->top[p] >= need) return true;
    for (uint32_t p = bb * BLOCK; p <= b; p++)
        if (x->top[p] >= need) return true;
    if (ba >= bb) return false;
    uint32_t k = 31 - (uint32_t)__builtin_clz(bb - ba);
    const uint32_t *level = x->table + (size_t)k * x->blocks;
    return max32(level[ba], level[bb - (1u << k)]) >= need;
}

lf_verdict lf_pqueue_report_hidden(const lf_history *h, const lf_std *s, const uint32_t *order, uint32_t rank, uint32_t o,
                                   lf_result *r) {
    /* Name a higher-priority value certainly present when the op starts. */
    uint32_t w = NONE;
    for (uint32_t q = 0; q < rank && w == NONE; q++) {
        uint32_t lo, hi;
        if (lf_std_ci(s, order[q], &lo, &hi) && lo <= s->inv[o] && s->inv[o] < hi) w = order[q];
    }
    char d[300], ws[32] = "?", a[300] = "", b[300] = "";
    lf_std_describe(s, h, o, d, sizeof d);
    lf_std_culprit(s, r, o);
    if (w != NONE) {
        lf_std_value_str(s, w, ws, sizeof ws);
        lf_std_describe(s, h, s->add_op[w], a, sizeof a);
        lf_std_describe(s, h, s->rem_op[w], b, sizeof b);
        lf_std_culprit(s, r, s->add_op[w]);
        lf_std_culprit(s, r, s->rem_op[w]);
    }
    lf_result_set(r, LF_VIOLATION, "monitor",
                  "%s cannot see its value as the minimum: at every moment of it a smaller value is certainly "
                  "present (e.g. %s, from the end of %s to the start of %s)",
                  d, ws, a, b);
    return LF_VIOLATION;
}

lf_verdict lf_monitor_pqueue(const lf_history *h, const lf_std *s, lf_result *r) {
    if (s->n_stamps < 2) return LF_LINEARIZABLE;
    uint32_t nv = s->n_values, n = s->n_total, M = s->n_stamps;
    top_index x = {.P = M - 1};
    rank_set live;
    uint32_t *order = lf_pqueue_priority_order(s);
    uint32_t *rank = lf_big_malloc((nv ? nv : 1) * sizeof *rank);
    /* per stamp: the critical interval starting there (rank + 1) or ending there (rank + 1 | ENDS), or 0;
     * stamps are distinct events, so there is at most one */
    uint32_t *at = lf_big_calloc((size_t)M + 1, sizeof *at);
    x.top = lf_big_malloc(((size_t)M + 1) * sizeof *x.top);
    bool set_ok = rank_set_init(&live, nv);
    lf_verdict verdict = LF_UNKNOWN;
    if (!order || !rank || !at || !x.top || !set_ok) goto oom;
    LF_FOR_CHUNKS(ck, ck_end, 0, nv, s->dl) {
        for (uint32_t q = (uint32_t)ck; q < ck_end; q++) {
            rank[order[q]] = q;
        }
    }
    if (lf_deadline_expired(s->dl)) goto oom;
    LF_FOR_CHUNKS(ck, ck_end, 0, nv, s->dl) {
        for (uint32_t v = (uint32_t)ck; v < ck_end; v++) {
            uint32_t lo, hi;
            if (!lf_std_ci(s, v, &lo, &hi)) continue;
            at[lo] = rank[v] + 1;
            at[hi] = (rank[v] + 1) | ENDS;
        }
    }
    if (lf_deadline_expired(s->dl)) goto oom;
    /* The sweep: partition p lies between stamps p and p + 1, so an interval [lo, hi) covers lo..hi-1. */
    LF_FOR_CHUNKS(ck, ck_end, 1, (size_t)x.P + 1, s->dl) {
        for (uint32_t p = (uint32_t)ck; p < ck_end; p++) {
            uint32_t e = at[p];
            if (e & ENDS)
                rank_set_delete(&live, (e & ~ENDS) - 1);
            else if (e)
                rank_set_insert(&live, e - 1);
            x.top[p] = live.min;
        }
    }
    if (lf_deadline_expired(s->dl)) goto oom;
    free(at);
    at = NULL;
    if (!build_table(&x, s->dl)) goto oom;

    /* Every peek and poll (artificial polls included) needs a partition freeing it. The report names the
     * first failing op in priority order, and in op order within a value, as the priority-order sweep does. */
    uint32_t bad = NONE, bad_rank = NONE;
    LF_FOR_CHUNKS(ck, ck_end, 0, n, s->dl) {
        for (uint32_t o = (uint32_t)ck; o < ck_end; o++) {
            if (s->kind[o] != STD_REM && s->kind[o] != STD_OTHER) continue;
            uint32_t need = rank[s->val[o]];
            if (need > bad_rank || some_at_least(&x, s->inv[o], s->res[o] - 1, need)) continue;
            if (need < bad_rank || o < bad) bad = o, bad_rank = need;
        }
    }
    if (lf_deadline_expired(s->dl)) goto oom;
    verdict = bad == NONE ? LF_LINEARIZABLE : lf_pqueue_report_hidden(h, s, order, bad_rank, bad, r);
    goto done;
oom:
    if (lf_deadline_expired(s->dl))
        verdict = lf_monitor_late(r, "priority queue");
    else
        lf_result_set(r, LF_UNKNOWN, "monitor", "out of memory in the priority-queue monitor");
done:
    free(order);
    free(rank);
    free(at);
    rank_set_free(&live);
    free(x.top);
    free(x.table);
    return verdict;
}
