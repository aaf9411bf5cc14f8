/* Stack monitor, the partition form ([Lee25], optimised form): repeatedly peel a "potentially bottom" value,
 * one each of whose ops can be placed at a moment when no other value is certainly in the stack.
 *
 * Partitions (gaps between consecutive tuned stamps) are handed out cheapest first from a coverage segment
 * tree: a partition no critical interval covers makes every op containing it safe; one covered only by
 * value v makes v's own ops containing it safe (that matters only for peeks). A value all of whose ops are
 * safe is peeled, which uncovers its critical interval. If every remaining partition is covered twice, no
 * value can be at the bottom: violation. O(n log n).
 *
 * lf_monitor_check uses engines/monitor/stack_monitor.c, which hands out runs of partitions of equal coverage (segments
 * between critical-interval ends) instead of single partitions; this form stays as its cross-check
 * (tests/unit/test_monitor_forms.c): both must give the same verdict, reason and culprits. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "monitor/monitors.h"
#include "monitor_forms.h"
#include "monitor/segment_tree.h"

#define NONE UINT32_MAX
#define KILLED (1 << 29)
#ifndef LF_STACK_MAX_SHORT_SPAN
#define LF_STACK_MAX_SHORT_SPAN 512 /* ops spanning more stamps go to the long-op tree */
#endif
#define SPAN_CLASSES 7 /* bitmaps for spans up to 8, 16, ..., 512 stamps */
#ifndef LF_STACK_SMALL_VALUE
#define LF_STACK_SMALL_VALUE 32 /* values with at most this many ops are scanned linearly for value stabs */
#endif
#define SMALL_VALUE LF_STACK_SMALL_VALUE
#define BATCH 4096 /* partitions handed out per tree walk */

typedef struct {
    const lf_std *s;
    lf_mintree cover;  /* live critical intervals covering each partition (+KILLED once handed out) */
    uint32_t *xor_ids; /* Fenwick tree of XORs of (value id + 1) covering each partition */
    uint32_t *xor_stale; /* peeled values not yet removed from xor_ids: removal waits for the next query */
    uint32_t n_xor_stale;
    uint32_t n_parts;
    /* Unsafe ops, for "which unsafe ops contain partition p". After tuning almost every op spans only a few
     * stamps (about twice the number of concurrent threads), so short ops are found by scanning a bitmap of
     * the invocation stamps just before p; the few long ones live in a max-tree ordered by invocation. */
    uint32_t *op_at_inv;   /* per stamp: the op invoked there, or NONE */
    /* bit per stamp: an unsafe op of span class c (span <= 8 << c) is invoked there. A stab at p scans class
     * c's bitmap over the (8 << c) stamps before p, so it mostly meets ops that do contain p. */
    uint64_t *short_live[SPAN_CLASSES];
    uint32_t class_count[SPAN_CLASSES];
    uint32_t n_classes;    /* classes in use: 0..n_classes-1 */
    uint32_t *order_long;  /* long ops by invocation */
    uint32_t n_long;
    lf_maxtree by_long;    /* response of each unsafe long op (0 once safe) */
    /* Unsafe ops by (value, invocation), for partitions covered by one value: only when there are peeks. */
    uint32_t *order_val, *start_val;
    lf_maxtree by_val;     /* built only when some value has more than SMALL_VALUE ops */
    uint32_t *pos_val;     /* op -> position in order_val (only with by_val) */
    bool big_values;
    uint8_t *safe;         /* per op */
    uint32_t *live;        /* per value: ops not yet safe */
    uint32_t *waiting;     /* per value: head of partitions handed out as v-permissive */
    uint32_t *part_next;   /* per partition: next in its waiting/pending list */
    uint32_t *parts;       /* scratch: partitions taken in one batch */
    uint32_t *found;       /* scratch: positions reported by one tree query */
    uint32_t pending;      /* partitions to hand out again as globally permissive */
    uint32_t unsafe;
    bool peeks;
} stack_state;

static void xor_update(stack_state *st, uint32_t p, uint32_t x) {
    for (; p <= st->n_parts; p += p & -p) st->xor_ids[p] ^= x;
}

static void xor_update(stack_state *st, uint32_t p, uint32_t x);

/* The covering value is needed only for partitions covered exactly once, which many histories never have:
 * peeled values are taken out of the Fenwick tree lazily, just before a query. */
static void xor_flush(stack_state *st) {
    for (uint32_t i = 0; i < st->n_xor_stale; i++) {
        uint32_t v = st->xor_stale[i], lo, hi;
        if (!lf_std_ci(st->s, v, &lo, &hi)) continue;
        xor_update(st, lo, v + 1);
        xor_update(st, hi, v + 1);
    }
    st->n_xor_stale = 0;
}

static uint32_t xor_query(stack_state *st, uint32_t p) {
    if (st->n_xor_stale) xor_flush(st);
    uint32_t x = 0;
    for (; p; p -= p & -p) x ^= st->xor_ids[p];
    return x;
}

/* Partition p is 1-based (the gap between stamps p and p+1); tree leaf p-1. */
static void uncover_value(stack_state *st, uint32_t v) {
    uint32_t lo, hi;
    if (!lf_std_ci(st->s, v, &lo, &hi)) return;
    lf_mintree_add(&st->cover, lo - 1, hi - 1, -1);
    st->xor_stale[st->n_xor_stale++] = v;
}

/* Span class of op, or SPAN_CLASSES for a long op. */
static inline uint32_t span_class(const stack_state *st, uint32_t op) {
    uint32_t span = st->s->res[op] - st->s->inv[op];
    /* smallest c with span <= 8 << c, i.e. ceil(log2(span)) - 3, clamped at 0 */
    uint32_t c = span <= 8 ? 0 : (uint32_t)(32 - __builtin_clz(span - 1)) - 3;
    return c < st->n_classes ? c : SPAN_CLASSES;
}
static inline bool value_is_big(const stack_state *st, uint32_t v) {
    return st->big_values && st->start_val[v + 1] - st->start_val[v] > SMALL_VALUE;
}

static void peel_value(stack_state *st, uint32_t v) {
    uncover_value(st, v);
    /* Partitions handed out as v-permissive are now globally permissive. */
    uint32_t p = st->waiting[v];
    while (p != NONE) {
        uint32_t next = st->part_next[p];
        st->part_next[p] = st->pending;
        st->pending = p;
        p = next;
    }
    st->waiting[v] = NONE;
}

/* Number of entries of order[lo..hi) whose invocation is <= p (they are sorted by invocation). */
static uint32_t count_invoked(const lf_std *s, const uint32_t *order, uint32_t lo, uint32_t hi, uint32_t p) {
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (s->inv[order[mid]] <= p)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

static void mark_safe(stack_state *st, uint32_t op) {
    const lf_std *s = st->s;
    if (st->safe[op]) return;
    st->safe[op] = 1;
    uint32_t c = span_class(st, op);
    if (c < SPAN_CLASSES)
        st->short_live[c][s->inv[op] / 64] &= ~(1ull << (s->inv[op] % 64));
    else
        lf_maxtree_set(&st->by_long, count_invoked(s, st->order_long, 0, st->n_long, s->inv[op]) - 1, 0);
    uint32_t v = s->val[op];
    if (st->peeks && value_is_big(st, v)) lf_maxtree_set(&st->by_val, st->pos_val[op], 0);
    st->unsafe--;
    if (--st->live[v] == 0) peel_value(st, v);
}

/* Every unsafe op containing one of the partitions a..b (invoked at or before b, responding after a)
 * becomes safe: one query for a whole run of permissive partitions. */
static void stab_range(stack_state *st, uint32_t a, uint32_t b) {
    const lf_std *s = st->s;
    for (uint32_t c = 0; c < st->n_classes; c++) {
        if (!st->class_count[c]) continue;
        const uint32_t window = 8u << c;
        uint64_t *live = st->short_live[c];
        uint32_t from = a > window ? a - window + 1 : 1;
        for (uint32_t w = from / 64; w <= b / 64; w++) {
            uint64_t bits = live[w];
            if (!bits) continue;
            if (w == from / 64) bits &= ~0ull << (from % 64);
            if (w == b / 64 && b % 64 != 63) bits &= (1ull << (b % 64 + 1)) - 1;
            while (bits) {
                uint32_t t = w * 64 + (uint32_t)__builtin_ctzll(bits);
                bits &= bits - 1;
                uint32_t op = st->op_at_inv[t];
                if (s->res[op] > a) mark_safe(st, op);
            }
        }
    }
    if (st->n_long) {
        uint32_t end = count_invoked(s, st->order_long, 0, st->n_long, b);
        size_t k = lf_maxtree_take_above(&st->by_long, 0, end, a, st->found);
        for (size_t i = 0; i < k; i++) {
            uint32_t op = st->order_long[st->found[i]];
            st->safe[op] = 0; /* take_above cleared the tree entry; let mark_safe do the rest */
            mark_safe(st, op);
        }
    }
}

static void stab_all(stack_state *st, uint32_t p) { stab_range(st, p, p); }

static int cmp_u32(const void *a, const void *b) {
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

static void sort_u32(uint32_t *a, size_t n) {
    /* Pending lists come out of waiting lists in reverse hand-out order, often already descending. */
    bool descending = true;
    for (size_t i = 1; i < n && descending; i++) descending = a[i - 1] > a[i];
    if (descending) {
        for (size_t i = 0; i < n / 2; i++) {
            uint32_t t = a[i];
            a[i] = a[n - 1 - i];
            a[n - 1 - i] = t;
        }
        return;
    }
    qsort(a, n, sizeof *a, cmp_u32);
}

/* Every unsafe op of value v containing one of the partitions a..b becomes safe. */
static void stab_value(stack_state *st, uint32_t v, uint32_t a, uint32_t b) {
    const lf_std *s = st->s;
    uint32_t lo = st->start_val[v], hi = st->start_val[v + 1];
    if (!value_is_big(st, v)) {
        for (uint32_t j = lo; j < hi; j++) {
            uint32_t op = st->order_val[j];
            if (!st->safe[op] && s->inv[op] <= b && a < s->res[op]) mark_safe(st, op);
        }
        return;
    }
    uint32_t end = count_invoked(s, st->order_val, lo, hi, b);
    size_t k = lf_maxtree_take_above(&st->by_val, lo, end, a, st->found);
    for (size_t i = 0; i < k; i++) mark_safe(st, st->order_val[st->found[i]]);
}

static bool build_orders(stack_state *st) {
    const lf_std *s = st->s;
    uint32_t n = s->n_total, M = s->n_stamps, nv = s->n_values;
    size_t n1 = n ? n : 1;
    st->op_at_inv = malloc(((size_t)M + 1) * sizeof *st->op_at_inv);
    st->safe = calloc(n1, 1);
    if (!st->op_at_inv || !st->safe) return false;
    memset(st->op_at_inv, 0xff, ((size_t)M + 1) * sizeof *st->op_at_inv);
    st->n_classes = 0;
    while (st->n_classes < SPAN_CLASSES && (8u << st->n_classes) <= LF_STACK_MAX_SHORT_SPAN) st->n_classes++;
    for (uint32_t c = 0; c < st->n_classes; c++) {
        st->short_live[c] = calloc((size_t)M / 64 + 1, sizeof *st->short_live[c]);
        if (!st->short_live[c]) return false;
    }
    uint32_t m = 0;
    for (uint32_t i = 0; i < n; i++) {
        uint8_t k = s->kind[i];
        if (k != STD_ADD && k != STD_REM && k != STD_OTHER) {
            st->safe[i] = 1; /* not part of the search */
            continue;
        }
        st->op_at_inv[s->inv[i]] = i;
        m++;
        uint32_t c = span_class(st, i);
        if (c < SPAN_CLASSES) {
            st->short_live[c][s->inv[i] / 64] |= 1ull << (s->inv[i] % 64);
            st->class_count[c]++;
        } else {
            st->n_long++;
        }
    }
    st->unsafe = m;
    st->order_long = malloc((st->n_long ? st->n_long : 1) * sizeof *st->order_long);
    uint32_t *resv = malloc((size_t)(m ? m : 1) * sizeof *resv);
    if (!st->order_long || !resv) {
        free(resv);
        return false;
    }
    uint32_t q = 0;
    for (uint32_t t = 1; t <= M; t++) {
        uint32_t op = st->op_at_inv[t];
        if (op == NONE || span_class(st, op) < SPAN_CLASSES) continue;
        st->order_long[q] = op;
        resv[q++] = s->res[op];
    }
    bool ok = lf_maxtree_init(&st->by_long, resv, st->n_long);
    size_t found_cap = st->n_long;
    if (ok && st->peeks) {
        /* Ops grouped by value, each group in invocation order (counting sort over the stamp order). */
        st->start_val = calloc((size_t)nv + 2, sizeof *st->start_val);
        st->order_val = malloc((size_t)(m ? m : 1) * sizeof *st->order_val);
        uint32_t *fill = malloc(((size_t)nv + 1) * sizeof *fill);
        if (!st->start_val || !st->order_val || !fill) {
            free(fill);
            free(resv);
            return false;
        }
        for (uint32_t t = 1; t <= M; t++)
            if (st->op_at_inv[t] != NONE) st->start_val[s->val[st->op_at_inv[t]] + 1]++;
        uint32_t biggest = 0;
        for (uint32_t v = 0; v < nv; v++) {
            if (st->start_val[v + 1] > biggest) biggest = st->start_val[v + 1];
            st->start_val[v + 1] += st->start_val[v];
        }
        memcpy(fill, st->start_val, ((size_t)nv + 1) * sizeof *fill);
        for (uint32_t t = 1; t <= M; t++) {
            uint32_t op = st->op_at_inv[t];
            if (op == NONE) continue;
            uint32_t j = fill[s->val[op]]++;
            st->order_val[j] = op;
            resv[j] = s->res[op];
        }
        free(fill);
        /* Values peeked many times get a tree so stabbing them stays logarithmic; the rest are scanned. */
        st->big_values = biggest > SMALL_VALUE;
        if (st->big_values) {
            if (biggest > found_cap) found_cap = biggest;
            st->pos_val = malloc(n1 * sizeof *st->pos_val);
            if (!st->pos_val) {
                free(resv);
                return false;
            }
            for (uint32_t j = 0; j < m; j++) st->pos_val[st->order_val[j]] = j;
            ok = lf_maxtree_init(&st->by_val, resv, m);
        }
    }
    free(resv);
    st->found = malloc((found_cap + 1) * sizeof *st->found);
    return ok && st->found;
}

static bool init_cover(stack_state *st) {
    const lf_std *s = st->s;
    uint32_t P = st->n_parts;
    int32_t *count = calloc((size_t)P + 2, sizeof *count);
    if (!count) return false;
    for (uint32_t v = 0; v < s->n_values; v++) {
        uint32_t lo, hi;
        if (!lf_std_ci(s, v, &lo, &hi)) continue;
        count[lo]++;
        if (hi <= P) count[hi]--;
        st->xor_ids[lo] ^= v + 1;
        if (hi <= P) st->xor_ids[hi] ^= v + 1;
    }
    for (uint32_t p = 1; p <= P; p++) count[p] += count[p - 1];
    for (uint32_t i = 1; i <= P; i++) { /* Fenwick over the XOR difference array, linear build */
        uint32_t j = i + (i & -i);
        if (j <= P) st->xor_ids[j] ^= st->xor_ids[i];
    }
    bool ok = lf_mintree_init(&st->cover, P, count + 1);
    free(count);
    return ok;
}

lf_verdict lf_monitor_stack_partitions(const lf_history *h, const lf_std *s, lf_result *r) {
    if (s->n_stamps < 2) return LF_LINEARIZABLE;
    stack_state st;
    memset(&st, 0, sizeof st);
    st.s = s;
    st.peeks = s->has_other;
    st.n_parts = s->n_stamps - 1;
    st.pending = NONE;
    lf_verdict verdict = LF_UNKNOWN;
    st.xor_ids = calloc((size_t)st.n_parts + 1, sizeof *st.xor_ids);
    st.xor_stale = malloc((s->n_values ? s->n_values : 1) * sizeof *st.xor_stale);
    st.live = calloc(s->n_values ? s->n_values : 1, sizeof *st.live);
    st.waiting = malloc((s->n_values ? s->n_values : 1) * sizeof *st.waiting);
    st.part_next = malloc(((size_t)st.n_parts + 1) * sizeof *st.part_next);
    st.parts = malloc(BATCH * sizeof *st.parts);
    if (!st.xor_ids || !st.xor_stale || !st.parts || !st.live || !st.waiting || !st.part_next || !init_cover(&st) ||
        !build_orders(&st)) {
        lf_result_set(r, LF_UNKNOWN, "monitor", "out of memory in the stack monitor");
        goto done;
    }
    memset(st.waiting, 0xff, (s->n_values ? s->n_values : 1) * sizeof *st.waiting);
    for (uint32_t i = 0; i < s->n_total; i++) {
        uint8_t k = s->kind[i];
        if (k == STD_ADD || k == STD_REM || k == STD_OTHER) st.live[s->val[i]]++;
    }

    while (st.unsafe > 0) {
        if (st.pending != NONE) {
            /* Partitions freed by peeling are mostly contiguous pieces of a critical interval: take up to a
             * batch of them, sort, and stab each run of consecutive ones at once. */
            size_t k = 0;
            while (st.pending != NONE && k < BATCH) {
                st.parts[k++] = st.pending;
                st.pending = st.part_next[st.parts[k - 1]];
            }
            sort_u32(st.parts, k);
            for (size_t i = 0; i < k; i++) {
                uint32_t first = st.parts[i], last = first;
                while (i + 1 < k && st.parts[i + 1] == last + 1) last = st.parts[++i];
                stab_range(&st, first, last);
            }
            continue;
        }
        size_t leaf;
        int32_t count = lf_mintree_argmin(&st.cover, &leaf);
        if (count >= KILLED / 2) {
            /* Unreachable for standardised input ([Lee25]); refuse to guess. */
            lf_result_set(r, LF_UNKNOWN, "monitor", "internal error: stack monitor ran out of partitions");
            goto done;
        }
        if (count >= 2) {
            verdict = lf_stack_report_stuck(h, s, st.live, (uint32_t)leaf + 1, count, r);
            goto done;
        }
        /* Hand out every partition at the minimum count in one batch. Peeling during the batch only lowers
         * counts, so a partition whose single covering value got peeled meanwhile is globally permissive. */
        size_t taken = lf_mintree_take_min(&st.cover, KILLED, st.parts, BATCH);
        for (size_t i = 0; i < taken; i++) {
            uint32_t p = st.parts[i] + 1;
            uint32_t covering = count == 0 ? 0 : xor_query(&st, p);
            if (count == 0) {
                /* A run of consecutive globally permissive partitions is one stab. */
                uint32_t last = p;
                while (i + 1 < taken && st.parts[i + 1] + 1 == last + 1) {
                    last++;
                    i++;
                }
                stab_range(&st, p, last);
            } else if (covering == 0) {
                stab_all(&st, p);
            } else {
                /* p is covered by v alone: hand it out as v-permissive, with the run of following partitions
                 * that v alone still covers (inside CI(v), v unpeeled: counts only fall, so no other value
                 * covers them), and make v's ops meeting the run safe in one stab. */
                uint32_t v = covering - 1, lo = 0, hi = 0, last = p;
                if (!lf_std_ci(s, v, &lo, &hi)) hi = 0; /* unreachable: v covers p; then extend nothing */
                st.part_next[p] = st.waiting[v];
                st.waiting[v] = p;
                while (i + 1 < taken && st.parts[i + 1] + 1 == last + 1 && last + 1 < hi) {
                    last++;
                    i++;
                    st.part_next[last] = st.waiting[v];
                    st.waiting[v] = last;
                }
                if (st.peeks) stab_value(&st, v, p, last);
            }
        }
    }
    verdict = LF_LINEARIZABLE;
done:
    lf_mintree_free(&st.cover);
    lf_maxtree_free(&st.by_val);
    free(st.xor_ids);
    free(st.xor_stale);
    free(st.live);
    free(st.waiting);
    free(st.part_next);
    free(st.op_at_inv);
    for (uint32_t c = 0; c < SPAN_CLASSES; c++) free(st.short_live[c]);
    free(st.order_long);
    free(st.safe);
    lf_maxtree_free(&st.by_long);
    free(st.order_val);
    free(st.pos_val);
    free(st.start_val);
    free(st.found);
    free(st.parts);
    return verdict;
}
