/* The count rule of lagging and quiescent full/empty answers (docs/contracts.md, "Full and empty answers").
 *
 * At a moment t, counting only what is certain from real time:
 *   available(t) = values put in by inserts that are done at t  -  values taken by removes called at or before t
 *   room(t)      = capacity - values put in by inserts called at or before t  +  values taken by removes done at t
 * where an insert (remove) is done at t when it returned before t (lagging), or when moreover some moment
 * between its return and t had no insert (remove) in flight (quiescent). A pending op counts the most it could
 * have moved and is never done. An empty answer that needed n values passes when available(t) < n at some
 * moment t of it; a full answer that needed n places, when room(t) < n at some moment of it, in both counts
 * leaving out the answer's own values (a burst that moved k of n values needed k + 1, not counting its k). Weak answers count
 * over the whole answer: the inserts done at its call, the removes called by its return (and for full: the inserts
 * called by its return, the removes done at its call).
 *
 * Both sides are one computation: f(t) = sum of weights of "done" keys < t minus sum of weights of calls <= t.
 * f only falls at call stamps, so its minimum over an answer's interval [lo, hi] is at lo or at a call stamp in
 * (lo, hi]: f at every call stamp and a sparse table of range minima answer each interval in O(1) after
 * O(n log n). Quiescent keys: an op is done after the end of the connected run of intervals of its side that
 * its own interval belongs to (pending ops stretch a run forever). */
#include "contract/contract.h"

#include "monitor/range_min.h"
#include "util/radix_sort.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

lf_count_role lf_count_role_of(const lf_history *h, const lf_op *op) {
    lf_count_role r = {false, false, 0, 0};
    if (lf_method_is_bulk(op->method)) {
        /* n values: a pending op may move n; a full or empty answer needed n (bulk) or 1 (a burst that moved none);
         * a burst that moved k < n needed k + 1 (room or values for one more) */
        unsigned k = lf_op_pending(op) ? op->count : lf_bulk_moved(op);
        r.insert = lf_method_is_bulk_insert(op->method);
        r.remove = !r.insert;
        r.moved = k;
        if (!lf_op_pending(op) && k < op->count) r.needed = lf_method_is_burst(op->method) ? k + 1 : op->count;
        return r;
    }
    switch ((lf_method)op->method) {
    case LF_M_ENQ:
    case LF_M_PUSH:
        r.insert = true;
        if (op->res_kind == LF_K_FULL)
            r.needed = 1;
        else
            r.moved = 1;
        break;
    case LF_M_DEQ:
    case LF_M_POP:
        r.remove = true;
        if (op->res_kind == LF_K_EMPTY)
            r.needed = 1;
        else
            r.moved = 1;
        break;
    case LF_M_PEEK:
        if (op->res_kind == LF_K_EMPTY) r.needed = 1;
        break;
    default: break;
    }
    (void)h;
    return r;
}

/* A weighted stamp: a "done" key (key < t counts) or a call (call <= t counts). */
typedef struct wstamp {
    uint64_t at;
    uint64_t weight;
    bool never; /* a done key that never comes (pending) */
} wstamp;

/* Sorts a[0..n) by stamp, those that never come last; false when out of memory or time. */
static bool sort_wstamps(wstamp **a, size_t n, lf_deadline *dl) {
    lf_keyed *by_at = malloc((n ? n : 1) * sizeof *by_at);
    wstamp *out = malloc((n ? n : 1) * sizeof *out);
    size_t m = 0;
    bool ok = by_at && out;
    for (size_t i = 0; ok && i < n; i++)
        if (!(*a)[i].never) by_at[m++] = (lf_keyed){(*a)[i].at, (uint32_t)i};
    ok = ok && lf_sort_within(by_at, m, dl);
    for (size_t i = 0; ok && i < m; i++) out[i] = (*a)[by_at[i].payload];
    for (size_t i = 0; ok && i < n; i++)
        if ((*a)[i].never) out[m++] = (*a)[i];
    free(by_at);
    if (!ok) {
        free(out);
        return false;
    }
    free(*a);
    *a = out;
    return true;
}

typedef struct interval {
    uint64_t call, ret;
    bool pending;
    uint32_t op;
} interval;

/* One side of the rule: the ops whose completion adds (done) and whose call subtracts (started). */
typedef struct side {
    wstamp *done, *calls;
    size_t n_done, n_calls;
    uint64_t *done_prefix, *call_prefix; /* prefix sums of weights, sorted */
    uint64_t *f_at_call;                 /* f at each distinct call stamp (lf_range_min_key) */
    uint64_t *call_at;
    size_t n_points;
    lf_range_min mins;                   /* over f_at_call */
} side;

static void side_free(side *s) {
    free(s->done);
    free(s->calls);
    free(s->done_prefix);
    free(s->call_prefix);
    free(s->f_at_call);
    free(s->call_at);
    lf_range_min_free(&s->mins);
    memset(s, 0, sizeof *s);
}

/* Number of entries of a (sorted, never last) with at < t (strict) or at <= t. */
static size_t count_before(const wstamp *a, size_t n, uint64_t t, bool inclusive) {
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        bool before = !a[mid].never && (inclusive ? a[mid].at <= t : a[mid].at < t);
        if (before)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

static int64_t f_at(const side *s, uint64_t t) {
    size_t d = count_before(s->done, s->n_done, t, false), c = count_before(s->calls, s->n_calls, t, true);
    return (int64_t)s->done_prefix[d] - (int64_t)s->call_prefix[c];
}

static bool side_build(side *s, lf_deadline *dl) {
    if (!sort_wstamps(&s->done, s->n_done, dl) || !sort_wstamps(&s->calls, s->n_calls, dl)) return false;
    s->done_prefix = malloc((s->n_done + 1) * sizeof *s->done_prefix);
    s->call_prefix = malloc((s->n_calls + 1) * sizeof *s->call_prefix);
    s->f_at_call = malloc((s->n_calls + 1) * sizeof *s->f_at_call);
    s->call_at = malloc((s->n_calls + 1) * sizeof *s->call_at);
    if (!s->done_prefix || !s->call_prefix || !s->f_at_call || !s->call_at) return false;
    s->done_prefix[0] = s->call_prefix[0] = 0;
    for (size_t i = 0; i < s->n_done; i++) s->done_prefix[i + 1] = s->done_prefix[i] + s->done[i].weight;
    for (size_t i = 0; i < s->n_calls; i++) s->call_prefix[i + 1] = s->call_prefix[i] + s->calls[i].weight;
    for (size_t i = 0; i < s->n_calls; i++) {
        if (lf_deadline_every(dl, i)) return false;
        if (s->n_points && s->call_at[s->n_points - 1] == s->calls[i].at) continue;
        s->call_at[s->n_points] = s->calls[i].at;
        s->f_at_call[s->n_points++] = lf_range_min_key(f_at(s, s->calls[i].at));
    }
    return lf_range_min_init(&s->mins, s->f_at_call, s->n_points);
}

/* The minimum of f over the stamps of [lo, hi]. */
static int64_t side_min(const side *s, uint64_t lo, uint64_t hi) {
    int64_t best = f_at(s, lo);
    size_t first, a; /* the call points in (lo, hi] */
    lf_keys_between(s->call_at, s->n_points, lo, hi, &first, &a);
    if (a > first) {
        int64_t m = lf_range_min_signed(lf_range_min_query(&s->mins, first, a));
        if (m < best) best = m;
    }
    return best;
}

/* The count over the whole of [lo, hi] (weak): the done keys before lo, less the calls up to hi. */
static int64_t side_span(const side *s, uint64_t lo, uint64_t hi) {
    size_t d = count_before(s->done, s->n_done, lo, false), c = count_before(s->calls, s->n_calls, hi, true);
    return (int64_t)s->done_prefix[d] - (int64_t)s->call_prefix[c];
}

/* Quiescent keys: each op of `iv` (its side's successful and pending ops) gets the end of its connected run of
 * intervals as its done key. False when out of memory or time. */
static bool quiescent_keys(interval *unsorted, size_t n, wstamp *done_of_op, const size_t *slot, lf_deadline *dl) {
    lf_keyed *by_call = malloc((n ? n : 1) * sizeof *by_call);
    interval *iv = malloc((n ? n : 1) * sizeof *iv);
    bool ok = by_call && iv;
    for (size_t i = 0; ok && i < n; i++) by_call[i] = (lf_keyed){unsorted[i].call, (uint32_t)i};
    ok = ok && lf_sort_within(by_call, n, dl);
    for (size_t i = 0; ok && i < n; i++) iv[i] = unsorted[by_call[i].payload];
    free(by_call);
    for (size_t i = 0; ok && i < n;) {
        if (lf_deadline_spend(dl, 1)) ok = false;
        uint64_t end = iv[i].ret;
        bool never = iv[i].pending;
        size_t j = i + 1;
        while (j < n && (never || iv[j].call <= end)) {
            if (iv[j].pending)
                never = true;
            else if (iv[j].ret > end)
                end = iv[j].ret;
            j++;
        }
        for (size_t k = i; k < j; k++) {
            if (iv[k].pending) continue;
            wstamp *w = &done_of_op[slot[iv[k].op]];
            w->at = end;
            w->never = never;
        }
        i = j;
    }
    free(iv);
    return ok;
}

typedef enum { EMPTY_SIDE, FULL_SIDE } which;

/* Builds one side: for the empty side, inserts are done-keys and removes calls; the full side the other way. False
 * when out of memory or time. */
static bool build(const lf_history *h, which w, side *s, lf_deadline *dl) {
    size_t n = h->n;
    s->done = malloc((n ? n : 1) * sizeof *s->done);
    s->calls = malloc((n ? n : 1) * sizeof *s->calls);
    size_t *slot = malloc((n ? n : 1) * sizeof *slot);
    interval *iv = malloc((n ? n : 1) * sizeof *iv);
    bool ok = s->done && s->calls && slot && iv;
    size_t n_iv = 0;
    for (size_t i = 0; ok && i < n; i++) {
        if (lf_deadline_every(dl, i)) ok = false;
        const lf_op *op = &h->ops[i];
        lf_count_role r = lf_count_role_of(h, op);
        if (!r.moved) continue;
        bool adds = w == EMPTY_SIDE ? r.insert : r.remove, subtracts = w == EMPTY_SIDE ? r.remove : r.insert;
        if (subtracts) s->calls[s->n_calls++] = (wstamp){op->call, r.moved, false};
        if (!adds) continue;
        iv[n_iv++] = (interval){op->call, op->ret, lf_op_pending(op), (uint32_t)i};
        if (lf_op_pending(op)) continue; /* never done */
        slot[i] = s->n_done;
        s->done[s->n_done++] = (wstamp){op->ret, r.moved, false};
    }
    if (ok && h->contract.full_empty == LF_FULL_EMPTY_QUIESCENT) ok = quiescent_keys(iv, n_iv, s->done, slot, dl);
    free(slot);
    free(iv);
    return ok && side_build(s, dl);
}

static const char *container_name(const lf_history *h) { return h->type == LF_TYPE_STACK ? "stack" : "queue"; }

bool lf_count_rule_check(const lf_history *h, lf_deadline *dl, lf_result *r) {
    if (h->contract.full_empty == LF_FULL_EMPTY_UNCHECKED) {
        lf_result_set(r, LF_LINEARIZABLE, "count", "full and empty answers are not checked under this contract");
        return true;
    }
    if (dl && lf_deadline_passed(dl)) return false;
    bool any_empty = false, any_full = false;
    for (size_t i = 0; i < h->n; i++) {
        if (lf_deadline_every(dl, i)) return false;
        const lf_op *op = &h->ops[i];
        if (lf_op_pending(op)) continue;
        lf_count_role role = lf_count_role_of(h, op);
        if (!role.needed) continue;
        any_full |= role.insert;
        any_empty |= !role.insert;
    }
    side empty = {0}, full = {0};
    if ((any_empty && !build(h, EMPTY_SIDE, &empty, dl)) || (any_full && !build(h, FULL_SIDE, &full, dl))) {
        side_free(&empty);
        side_free(&full);
        return false;
    }
    bool weak = h->contract.full_empty == LF_FULL_EMPTY_WEAK;
    size_t worst = SIZE_MAX;
    int64_t worst_count = 0;
    for (size_t i = 0; i < h->n; i++) {
        if (lf_deadline_every(dl, i)) {
            side_free(&empty);
            side_free(&full);
            return false;
        }
        const lf_op *op = &h->ops[i];
        if (lf_op_pending(op)) continue;
        lf_count_role role = lf_count_role_of(h, op);
        if (!role.needed) continue;
        int64_t m = weak ? (role.insert ? (int64_t)h->capacity : 0) + side_span(role.insert ? &full : &empty, op->call,
                                                                               op->ret)
                    : role.insert ? (int64_t)h->capacity + side_min(&full, op->call, op->ret)
                                  : side_min(&empty, op->call, op->ret);
        m += (int64_t)role.moved; /* its own values (a burst that moved some) do not count against it */
        if (m < (int64_t)role.needed) continue;
        if (worst == SIZE_MAX || op->ret < h->ops[worst].ret) worst = i, worst_count = m;
    }
    side_free(&empty);
    side_free(&full);
    bool quiescent = h->contract.full_empty == LF_FULL_EMPTY_QUIESCENT;
    const char *when = weak ? "throughout it" : "at every moment of it";
    char contract[96], desc[200];
    lf_contract_format(contract, sizeof contract, &h->contract);
    if (worst == SIZE_MAX) {
        lf_result_set(r, LF_LINEARIZABLE, "count", "every full and empty answer passes the count rule");
        return true;
    }
    const lf_op *op = &h->ops[worst];
    lf_history_describe_op(h, op, desc, sizeof desc);
    lf_count_role role = lf_count_role_of(h, op);
    if (role.insert)
        lf_result_set(r, LF_VIOLATION, "count",
                      "contract '%s': op %zu (%s) answered full, but %s at least %" PRId64
                      " of the %" PRIu64 " places were free: not taken by an insert called by then, or freed by "
                      "removes that had returned%s",
                      contract, worst, desc, when, worst_count, h->capacity,
                      quiescent ? " with no remove in flight since" : "");
    else
        lf_result_set(r, LF_VIOLATION, "count",
                      "contract '%s': op %zu (%s) answered empty, but %s the %s held at least %" PRId64
                      " value%s put there by inserts that had returned%s, which no remove called by then could have "
                      "taken",
                      contract, worst, desc, when, container_name(h), worst_count, worst_count == 1 ? "" : "s",
                      quiescent ? " with no insert in flight since" : "");
    lf_result_add_culprit(r, (uint32_t)worst);
    return true;
}
