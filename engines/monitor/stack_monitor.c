/* Stack monitor ([Lee25], optimised form): repeatedly peel a "potentially bottom" value, one each of whose
 * ops can be placed at a moment when no other value is certainly in the stack.
 *
 * Moments are partitions (gaps between consecutive tuned stamps). Which values certainly are in the stack
 * changes only where a critical interval starts or ends, so the partitions fall into segments of equal
 * coverage, about half as many: segments are handed out cheapest first from a coverage segment tree. A
 * segment no live critical interval covers makes every op meeting it safe; one covered only by value v makes
 * v's own ops meeting it safe (that matters only for peeks) and becomes free for everyone once v is peeled.
 * A value all of whose ops are safe is peeled, which uncovers its critical interval. If every remaining
 * segment is covered twice, no value can be at the bottom: violation. O(n log n).
 *
 * Which unsafe ops meet a run of partitions: after tuning almost every op spans only a few stamps (about
 * twice the number of concurrent threads), so short ops are found through bitmaps of their invocation stamps
 * (one per span class, scanned over the span before the run); the few long ones live in a max tree ordered
 * by invocation, and a value's peeks in a per-value list or tree.
 *
 * The verdict, reason and culprits are those of the partition form (the cross-check in the tests,
 * tests/unit/monitor_forms/stack_partitions.c), which peels the same values: peeling is monotone (uncovering
 * only frees moments), so every order of hand-outs reaches the same final state, and a stuck state is reported
 * at the leftmost least-covered moment, the same in both. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "monitor/monitors.h"
#include "monitor/segment_tree.h"
#include "util/big_alloc.h"

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
#define BATCH 4096 /* segments handed out per tree walk */

typedef struct {
    const lf_std *s;
    uint32_t n_parts;      /* partitions 1..n_parts */
    uint32_t n_segs;       /* segments 0..n_segs-1 */
    uint32_t *seg_start;   /* first partition of each segment; seg_start[n_segs] = n_parts + 1 */
    uint32_t *ci_seg;      /* per value: its critical interval as segments [ci_seg[2v], ci_seg[2v+1]), or NONE */
    lf_mintree cover;      /* live critical intervals covering each segment (+KILLED once handed out) */
    uint32_t *xor_ids;     /* Fenwick tree (segment k at k + 1) of XORs of (value id + 1) covering each segment */
    uint32_t *xor_stale;   /* peeled values not yet removed from xor_ids: removal waits for the next query */
    uint32_t n_xor_stale;
    /* Unsafe ops, for "which unsafe ops meet partitions a..b". */
    uint64_t *short_live[SPAN_CLASSES]; /* bit per stamp: an unsafe op of span <= 8 << c is invoked there */
    uint32_t class_count[SPAN_CLASSES];
    uint32_t n_classes;    /* classes in use: 0..n_classes-1 */
    uint32_t *order_long;  /* long ops by invocation */
    uint32_t n_long;
    lf_maxtree by_long;    /* response of each unsafe long op (0 once safe) */
    /* Unsafe ops by (value, invocation), for segments covered by one value: only when there are peeks. */
    uint32_t *order_val, *start_val;
    lf_maxtree by_val;     /* built only when some value has more than SMALL_VALUE ops */
    uint32_t *pos_val;     /* op -> position in order_val (only with by_val) */
    bool big_values;
    uint8_t *safe;         /* per op */
    uint32_t *live;        /* per value: ops not yet safe */
    /* Runs of segments handed out as v-permissive wait in waiting[v]; once v is peeled they are pending:
     * free for everyone. A pool of runs (each segment is handed out once, so n_segs runs at most). */
    uint32_t *waiting;
    uint32_t *run_first, *run_last, *run_next;
    uint32_t n_runs;
    uint32_t pending;
    uint32_t *segs;        /* scratch: segments taken in one batch */
    uint32_t *found;       /* scratch: positions reported by one tree query */
    uint32_t unsafe;
    bool peeks;
    bool late; /* the time budget (s->dl) ran out: the search stops where it is */
} stack_state;

static void xor_update(stack_state *st, uint32_t i, uint32_t x) {
    for (; i <= st->n_segs; i += i & -i) st->xor_ids[i] ^= x;
}

/* The covering value is needed only for segments covered exactly once, which many histories never have:
 * peeled values are taken out of the Fenwick tree lazily, just before a query. */
static uint32_t xor_query(stack_state *st, uint32_t seg) {
    for (uint32_t i = 0; i < st->n_xor_stale; i++) {
        uint32_t v = st->xor_stale[i];
        xor_update(st, st->ci_seg[2 * v] + 1, v + 1);
        xor_update(st, st->ci_seg[2 * v + 1] + 1, v + 1);
    }
    st->n_xor_stale = 0;
    uint32_t x = 0;
    for (uint32_t i = seg + 1; i; i -= i & -i) x ^= st->xor_ids[i];
    return x;
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
    uint32_t lo = st->ci_seg[2 * v], hi = st->ci_seg[2 * v + 1];
    if (lo != NONE) {
        lf_mintree_add(&st->cover, lo, hi, -1);
        st->xor_stale[st->n_xor_stale++] = v;
    }
    /* Runs handed out as v-permissive are now free for everyone. */
    uint32_t r = st->waiting[v];
    while (r != NONE) {
        uint32_t next = st->run_next[r];
        st->run_next[r] = st->pending;
        st->pending = r;
        r = next;
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
    if (lf_deadline_every(s->dl, st->unsafe)) st->late = true; /* unsafe counts down by one per call */
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
 * becomes safe: one query for a whole run of free partitions. */
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
                uint32_t op = s->at[t] >> 1; /* a bit is set only at an op's invocation */
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

/* The partitions of segments first..last. */
static void stab_segments(stack_state *st, uint32_t first, uint32_t last) {
    stab_range(st, st->seg_start[first], st->seg_start[last + 1] - 1);
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

lf_verdict lf_stack_report_stuck(const lf_history *h, const lf_std *s, const uint32_t *live, uint32_t p, int32_t count,
                                 lf_result *r) {
    uint32_t remaining = 0, shown[2] = {NONE, NONE};
    int n_shown = 0;
    for (uint32_t v = 0; v < s->n_values; v++) {
        if (s->add_op[v] == NONE || live[v] == 0) continue;
        remaining++;
        uint32_t lo, hi;
        if (n_shown < 2 && lf_std_ci(s, v, &lo, &hi) && lo <= p && p < hi) shown[n_shown++] = v;
    }
    char a[32] = "?", b[32] = "?", pa[300] = "", pb[300] = "";
    if (n_shown == 2) {
        lf_std_value_str(s, shown[0], a, sizeof a);
        lf_std_value_str(s, shown[1], b, sizeof b);
        lf_std_describe(s, h, s->add_op[shown[0]], pa, sizeof pa);
        lf_std_describe(s, h, s->add_op[shown[1]], pb, sizeof pb);
        for (int i = 0; i < 2; i++) {
            lf_std_culprit(s, r, s->add_op[shown[i]]);
            lf_std_culprit(s, r, s->rem_op[shown[i]]);
        }
    }
    lf_result_set(r, LF_VIOLATION, "monitor",
                  "LIFO order violated: no value can be at the bottom of the stack; each of the %" PRIu32
                  " remaining values has an operation during all of which another value is certainly in the "
                  "stack (at one such moment %" PRId32 " values are, e.g. %s pushed by %s and %s pushed by %s)",
                  remaining, count, a, pa, b, pb);
    return LF_VIOLATION;
}

/* Segments: a new one starts at partition 1 and wherever a nonempty critical interval starts or ends (the
 * partition after a value's insert returns, or the one its remove is invoked in). The boundaries are marked
 * per value in a bitmap of partitions (two stamp lookups per value, instead of classifying the event at every
 * stamp), and a segment's index is the number of boundaries up to it: prefix counts per word. Then the
 * coverage of each segment, its tree and the XOR Fenwick tree. */
static bool build_segments(stack_state *st) {
    const lf_std *s = st->s;
    uint32_t P = st->n_parts, nv = s->n_values;
    size_t words = (size_t)P / 64 + 1; /* bits 0..P: bit p is partition p (bit 0 unused) */
    st->ci_seg = lf_big_malloc(((size_t)nv * 2 + 2) * sizeof *st->ci_seg);
    st->seg_start = lf_big_malloc(((size_t)P + 2) * sizeof *st->seg_start);
    uint64_t *bound = lf_big_calloc(words, sizeof *bound);
    uint32_t *before = lf_big_malloc(words * sizeof *before); /* boundaries in the words before each word */
    if (!st->ci_seg || !st->seg_start || !bound || !before) {
        free(bound);
        free(before);
        return false;
    }
    bound[0] |= 2; /* partition 1 */
    LF_FOR_CHUNKS(ck, ck_end, 0, nv, s->dl) {
        for (uint32_t v = (uint32_t)ck; v < ck_end; v++) {
            uint32_t lo, hi;
            if (!lf_std_ci(s, v, &lo, &hi)) {
                st->ci_seg[2 * v] = st->ci_seg[2 * v + 1] = NONE;
                continue;
            }
            st->ci_seg[2 * v] = lo; /* stamps for now: lo <= P always, hi <= P + 1 */
            st->ci_seg[2 * v + 1] = hi;
            bound[lo / 64] |= 1ull << (lo % 64);
            if (hi <= P) bound[hi / 64] |= 1ull << (hi % 64);
        }
    }
    if (lf_deadline_expired(s->dl)) {
        free(bound);
        free(before);
        return false;
    }
    st->ci_seg[2 * nv] = st->ci_seg[2 * nv + 1] = NONE;
    uint32_t k = 0; /* segments started so far */
    LF_FOR_CHUNKS(ck, ck_end, 0, words, s->dl) {
        for (size_t w = ck; w < ck_end; w++) {
            before[w] = k;
            for (uint64_t bits = bound[w]; bits; bits &= bits - 1)
                st->seg_start[k++] = (uint32_t)(w * 64 + (size_t)__builtin_ctzll(bits));
        }
    }
    if (lf_deadline_expired(s->dl)) {
        free(bound);
        free(before);
        return false;
    }
    st->n_segs = k;
    st->seg_start[k] = P + 1;
    /* a boundary at p <= P starts segment (boundaries up to p) - 1; an interval ending at the last stamp,
     * P + 1, ends after the last segment: at n_segs = k */
    LF_FOR_CHUNKS(ck, ck_end, 0, nv, s->dl) {
        for (uint32_t v = (uint32_t)ck; v < ck_end; v++) {
            uint32_t lo = st->ci_seg[2 * v], hi = st->ci_seg[2 * v + 1];
            if (lo == NONE) continue;
            st->ci_seg[2 * v] = before[lo / 64] + (uint32_t)__builtin_popcountll(bound[lo / 64] << (63 - lo % 64)) - 1;
            st->ci_seg[2 * v + 1] =
                hi <= P ? before[hi / 64] + (uint32_t)__builtin_popcountll(bound[hi / 64] << (63 - hi % 64)) - 1 : k;
        }
    }
    if (lf_deadline_expired(s->dl)) {
        free(bound);
        free(before);
        return false;
    }
    free(bound);
    free(before);

    /* Coverage counts go straight into the tree's leaves (a difference array, then prefix sums). */
    st->xor_ids = lf_big_calloc((size_t)k + 2, sizeof *st->xor_ids);
    if (!st->xor_ids || !lf_mintree_init(&st->cover, k, NULL)) return false;
    int32_t *count = lf_mintree_leaves(&st->cover);
    LF_FOR_CHUNKS(ck, ck_end, 0, nv, s->dl) {
        for (uint32_t v = (uint32_t)ck; v < ck_end; v++) {
            uint32_t lo = st->ci_seg[2 * v], hi = st->ci_seg[2 * v + 1];
            if (lo == NONE) continue;
            count[lo]++;
            if (hi < k) count[hi]--;
            st->xor_ids[lo + 1] ^= v + 1;
            if (hi + 1 <= k) st->xor_ids[hi + 1] ^= v + 1;
        }
    }
    if (lf_deadline_expired(s->dl)) return false;
    LF_FOR_CHUNKS(ck, ck_end, 1, k, s->dl) {
        for (uint32_t i = (uint32_t)ck; i < ck_end; i++) {
            count[i] += count[i - 1];
        }
    }
    if (lf_deadline_expired(s->dl)) return false;
    for (uint32_t i = 1; i <= k; i++) { /* Fenwick over the XOR difference array, linear build */
        if (lf_deadline_every(s->dl, i)) return false;
        uint32_t j = i + (i & -i);
        if (j <= k) st->xor_ids[j] ^= st->xor_ids[i];
    }
    lf_mintree_rebuild(&st->cover);
    return true;
}

static bool build_orders(stack_state *st) {
    const lf_std *s = st->s;
    uint32_t n = s->n_total, M = s->n_stamps, nv = s->n_values;
    size_t n1 = n ? n : 1;
    st->safe = lf_big_calloc(n1, 1);
    if (!st->safe) return false;
    st->n_classes = 0;
    while (st->n_classes < SPAN_CLASSES && (8u << st->n_classes) <= LF_STACK_MAX_SHORT_SPAN) st->n_classes++;
    for (uint32_t c = 0; c < st->n_classes; c++) {
        st->short_live[c] = lf_big_calloc((size_t)M / 64 + 1, sizeof *st->short_live[c]);
        if (!st->short_live[c]) return false;
    }
    uint32_t m = 0;
    LF_FOR_CHUNKS(ck, ck_end, 0, n, s->dl) {
        for (uint32_t i = (uint32_t)ck; i < ck_end; i++) {
            uint8_t k = s->kind[i];
            if (k != STD_ADD && k != STD_REM && k != STD_OTHER) {
                st->safe[i] = 1; /* not part of the search */
                continue;
            }
            m++;
            uint32_t c = span_class(st, i);
            if (c < SPAN_CLASSES) {
                st->short_live[c][s->inv[i] / 64] |= 1ull << (s->inv[i] % 64);
                st->class_count[c]++;
            } else {
                st->n_long++;
            }
        }
    }
    if (lf_deadline_expired(s->dl)) return false;
    st->unsafe = m;
    st->order_long = malloc((st->n_long ? st->n_long : 1) * sizeof *st->order_long);
    uint32_t *resv = lf_big_malloc((st->n_long ? st->n_long : 1) * sizeof *resv); /* responses, for a max tree */
    if (!st->order_long || !resv) {
        free(resv);
        return false;
    }
    /* The ops of the search in invocation order: the invocation events of the tuned stamps. */
#define FOR_INVOKED(op, body)                                                                \
    LF_FOR_CHUNKS(ck, ck_end, 1, (size_t)M + 1, s->dl) {                                      \
        for (uint32_t t_ = (uint32_t)ck; t_ < ck_end; t_++) {                                \
            uint32_t e_ = s->at[t_], op = e_ >> 1;                                           \
            if ((e_ & 1) || (s->kind[op] != STD_ADD && s->kind[op] != STD_REM && s->kind[op] != STD_OTHER)) \
                continue;                                                                    \
            body                                                                             \
        }                                                                                    \
    }                                                                                        \
    late = lf_deadline_expired(s->dl);
    uint32_t q = 0;
    bool late = false; /* FOR_INVOKED stops when the time budget runs out */
    if (st->n_long)
        FOR_INVOKED(op, {
            if (span_class(st, op) < SPAN_CLASSES) continue;
            st->order_long[q] = op;
            resv[q++] = s->res[op];
        })
    bool ok = !late && lf_maxtree_init(&st->by_long, resv, st->n_long);
    free(resv);
    resv = NULL;
    size_t found_cap = st->n_long;
    if (ok && st->peeks) {
        /* Ops grouped by value, each group in invocation order: a counting sort over the stamp order whose
         * cursors are the group starts themselves (counts at [v + 2], starts at [v + 1], cursors moving them to
         * the ends, which are the next group's starts: afterwards value v's ops are start_val[v..v+1)). */
        uint32_t *start = st->start_val = lf_big_calloc((size_t)nv + 2, sizeof *st->start_val);
        st->order_val = lf_big_malloc((size_t)(m ? m : 1) * sizeof *st->order_val);
        if (!start || !st->order_val) return false;
        FOR_INVOKED(op, { start[s->val[op] + 2]++; })
        if (late) return false;
        uint32_t biggest = 0;
        LF_FOR_CHUNKS(ck, ck_end, 0, nv, s->dl) {
            for (uint32_t v = (uint32_t)ck; v < ck_end; v++) {
                if (start[v + 2] > biggest) biggest = start[v + 2];
                start[v + 2] += start[v + 1];
            }
        }
        if (lf_deadline_expired(s->dl)) return false;
        /* Values peeked many times get a tree so stabbing them stays logarithmic; the rest are scanned. */
        st->big_values = biggest > SMALL_VALUE;
        if (st->big_values) resv = lf_big_malloc((size_t)(m ? m : 1) * sizeof *resv);
        if (st->big_values && !resv) return false;
        FOR_INVOKED(op, {
            uint32_t j = start[s->val[op] + 1]++;
            st->order_val[j] = op;
            if (resv) resv[j] = s->res[op];
        })
        if (late) {
            free(resv);
            return false;
        }
        if (st->big_values) {
            if (biggest > found_cap) found_cap = biggest;
            st->pos_val = lf_big_malloc(n1 * sizeof *st->pos_val);
            if (!st->pos_val) {
                free(resv);
                return false;
            }
            for (uint32_t j = 0; j < m; j++) st->pos_val[st->order_val[j]] = j;
            ok = lf_maxtree_init(&st->by_val, resv, m);
        }
    }
#undef FOR_INVOKED
    free(resv);
    st->found = malloc((found_cap + 1) * sizeof *st->found);
    return ok && st->found;
}

lf_verdict lf_monitor_stack(const lf_history *h, const lf_std *s, lf_result *r) {
    if (s->n_stamps < 2) return LF_LINEARIZABLE;
    stack_state st;
    memset(&st, 0, sizeof st);
    st.s = s;
    st.peeks = s->has_other;
    st.n_parts = s->n_stamps - 1;
    st.pending = NONE;
    lf_verdict verdict = LF_UNKNOWN;
    size_t nv1 = s->n_values ? s->n_values : 1;
    st.xor_stale = lf_big_malloc(nv1 * sizeof *st.xor_stale);
    st.live = lf_big_calloc(nv1, sizeof *st.live);
    st.waiting = lf_big_malloc(nv1 * sizeof *st.waiting);
    st.segs = malloc(BATCH * sizeof *st.segs);
    if (!st.xor_stale || !st.segs || !st.live || !st.waiting || !build_segments(&st) || !build_orders(&st)) goto oom;
    st.run_first = lf_big_malloc((size_t)st.n_segs * sizeof *st.run_first);
    st.run_last = lf_big_malloc((size_t)st.n_segs * sizeof *st.run_last);
    st.run_next = lf_big_malloc((size_t)st.n_segs * sizeof *st.run_next);
    if (!st.run_first || !st.run_last || !st.run_next) goto oom;
    memset(st.waiting, 0xff, nv1 * sizeof *st.waiting);
    LF_FOR_CHUNKS(ck, ck_end, 0, s->n_total, s->dl) {
        for (uint32_t i = (uint32_t)ck; i < ck_end; i++) {
            uint8_t k = s->kind[i];
            if (k == STD_ADD || k == STD_REM || k == STD_OTHER) st.live[s->val[i]]++;
        }
    }
    if (lf_deadline_expired(s->dl)) goto oom;

    while (st.unsafe > 0) {
        if (st.late || lf_deadline_tick(s->dl)) goto late;
        if (st.pending != NONE) { /* a run freed by peeling its only covering value */
            uint32_t run = st.pending;
            st.pending = st.run_next[run];
            stab_segments(&st, st.run_first[run], st.run_last[run]);
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
            verdict = lf_stack_report_stuck(h, s, st.live, st.seg_start[leaf], count, r);
            goto done;
        }
        /* Hand out every segment at the minimum count in one batch. Peeling during the batch only lowers
         * counts, so a segment whose single covering value got peeled meanwhile is free for everyone. */
        size_t taken = lf_mintree_take_min(&st.cover, KILLED, st.segs, BATCH);
        for (size_t i = 0; i < taken; i++) {
            if (st.late) goto late; /* mark_safe looks at the deadline */
            uint32_t first = st.segs[i], last = first;
            uint32_t covering = count == 0 ? 0 : xor_query(&st, first);
            if (covering == 0) {
                /* A run of consecutive free segments is one stab. */
                while (count == 0 && i + 1 < taken && st.segs[i + 1] == last + 1) last = st.segs[++i];
                stab_segments(&st, first, last);
                continue;
            }
            /* covered by v alone: hand the run of following segments that v alone still covers (inside its
             * interval, v unpeeled: counts only fall, so no other value covers them) out as v-permissive,
             * and make v's ops meeting it safe in one stab. */
            uint32_t v = covering - 1, hi = st.ci_seg[2 * v + 1];
            while (i + 1 < taken && st.segs[i + 1] == last + 1 && last + 1 < hi) last = st.segs[++i];
            uint32_t run = st.n_runs++;
            st.run_first[run] = first;
            st.run_last[run] = last;
            st.run_next[run] = st.waiting[v];
            st.waiting[v] = run;
            if (st.peeks) stab_value(&st, v, st.seg_start[first], st.seg_start[last + 1] - 1);
        }
    }
    if (st.late) goto late; /* the last stab was cut short */
    verdict = LF_LINEARIZABLE;
    goto done;
oom:
    if (!lf_deadline_expired(s->dl)) {
        lf_result_set(r, LF_UNKNOWN, "monitor", "out of memory in the stack monitor");
        goto done;
    }
late:
    verdict = lf_monitor_late(r, "stack");
done:
    lf_mintree_free(&st.cover);
    lf_maxtree_free(&st.by_val);
    lf_maxtree_free(&st.by_long);
    free(st.ci_seg);
    free(st.seg_start);
    free(st.xor_ids);
    free(st.xor_stale);
    free(st.live);
    free(st.waiting);
    free(st.run_first);
    free(st.run_last);
    free(st.run_next);
    for (uint32_t c = 0; c < SPAN_CLASSES; c++) free(st.short_live[c]);
    free(st.order_long);
    free(st.safe);
    free(st.order_val);
    free(st.pos_val);
    free(st.start_val);
    free(st.found);
    free(st.segs);
    return verdict;
}
