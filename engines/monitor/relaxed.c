/* What the monitors of relaxed orders share (relaxed.h): which histories they take, pairing each value's insert
 * with its remove, and the empty answers against the stretches when some value is certainly inside. */
#include "monitor/relaxed.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "monitor/monitor.h"
#include "monitor/monitors.h"

typedef struct span {
    uint64_t lo, hi; /* integer stamps lo..hi at which a value is certainly inside */
} span;

void lf_relaxed_describe(const lf_history *h, uint32_t i, char *buf, size_t len) {
    char d[160];
    lf_history_describe_op(h, &h->ops[i], d, sizeof d);
    snprintf(buf, len, "op %" PRIu32 " (%s)", i, d);
}

static int unsupported(lf_result *r, const char *why) {
    lf_result_set(r, LF_UNKNOWN, "monitor", "unsupported: %s", why);
    return -1;
}

int lf_relaxed_gave_up(const lf_deadline *dl, lf_result *r) {
    if (lf_deadline_expired(dl)) {
        lf_monitor_late(r, "relaxed order");
        return -1;
    }
    return unsupported(r, "out of memory");
}

int lf_relaxed_supported(const lf_history *h, lf_deadline *dl, lf_result *r) {
    if (dl && lf_deadline_passed(dl)) return lf_relaxed_gave_up(dl, r); /* before any step */
    if ((h->type != LF_TYPE_QUEUE && h->type != LF_TYPE_STACK) || h->contract.order == LF_ORDER_EXACT ||
        h->contract.full_empty != LF_FULL_EMPTY_EXACT)
        return unsupported(r, "the monitors of relaxed orders decide stacks and queues under a relaxed order");
    if (h->capacity && lf_monitor_capacity_reachable(h, dl))
        return unsupported(r, "a bounded container that may be full: the monitors do not track the size");
    for (size_t i = 0; i < h->n; i++) {
        if (lf_deadline_every(dl, i)) break;
        const lf_op *op = &h->ops[i];
        bool remove = op->method == LF_M_DEQ || op->method == LF_M_POP;
        if (remove && lf_op_pending(op)) return unsupported(r, "a pending remove, whose effect is unknown");
        if (op->method == LF_M_PEEK && (op->res_kind == LF_K_INT || op->res_kind == LF_K_NIL))
            return unsupported(r, "a peek that returned a value");
    }
    return lf_deadline_expired(dl) ? lf_relaxed_gave_up(dl, r) : 1;
}

static bool is_insert(const lf_op *op) { return op->method == LF_M_ENQ || op->method == LF_M_PUSH; }
static bool is_removal(const lf_op *op) {
    return (op->method == LF_M_DEQ || op->method == LF_M_POP) && op->res_kind != LF_K_EMPTY;
}

/* One value's ops (g[0..len): its inserts, then its removes, each in op order): pairs them, or the violation. */
static int match_value(const lf_history *h, const lf_keyed *g, size_t len, uint32_t *remover, lf_result *r) {
    bool inserted = is_insert(&h->ops[g[0].payload]);
    if (inserted && len > 1 && is_insert(&h->ops[g[1].payload]))
        return unsupported(r, "a value inserted twice: the history is ambiguous");
    size_t removes = len - inserted;
    if (!removes) return 1;
    uint32_t ins = g[0].payload, rm = g[inserted].payload;
    char da[200], db[200];
    lf_relaxed_describe(h, rm, da, sizeof da);
    if (!inserted) {
        lf_result_set(r, LF_VIOLATION, "monitor", "%s returns a value that is never inserted", da);
        lf_result_add_culprit(r, rm);
        return 0;
    }
    if (removes > 1) {
        lf_relaxed_describe(h, g[2].payload, db, sizeof db);
        lf_result_set(r, LF_VIOLATION, "monitor", "the value is removed twice, by %s and %s, but inserted once", da, db);
        lf_result_add_culprit(r, rm);
        lf_result_add_culprit(r, g[2].payload);
        return 0;
    }
    if (h->ops[rm].ret < h->ops[ins].call) {
        lf_relaxed_describe(h, ins, db, sizeof db);
        lf_result_set(r, LF_VIOLATION, "monitor", "%s returns the value of %s before it was inserted", da, db);
        lf_result_add_culprit(r, rm);
        lf_result_add_culprit(r, ins);
        return 0;
    }
    remover[ins] = rm;
    return 1;
}

int lf_relaxed_match(const lf_history *h, lf_deadline *dl, uint32_t *remover, lf_result *r) {
    size_t n = h->n, m = 0, m_nil = 0;
    /* The values' ops, inserts first, then removes, each in op order: sorted stably by value (nil apart), the ops
     * of a value come inserts first. */
    lf_keyed *refs = malloc((n ? n : 1) * sizeof *refs), *nils = malloc((n ? n : 1) * sizeof *nils);
    if (!refs || !nils) {
        free(refs), free(nils);
        return lf_relaxed_gave_up(dl, r);
    }
    for (int pass = 0; pass < 2; pass++)
        LF_FOR_CHUNKS(lo, hi, 0, n, dl) {
            for (size_t i = lo; i < hi; i++) {
                const lf_op *op = &h->ops[i];
                if (pass == 0) remover[i] = UINT32_MAX;
                bool nil;
                int64_t v;
                if (pass == 0 && is_insert(op))
                    nil = lf_arg_is_nil(op, 0), v = op->arg[0];
                else if (pass == 1 && is_removal(op))
                    nil = op->res_kind == LF_K_NIL, v = op->res;
                else
                    continue;
                if (nil)
                    nils[m_nil++] = (lf_keyed){0, (uint32_t)i};
                else /* signed order */
                    refs[m++] = (lf_keyed){(uint64_t)v ^ ((uint64_t)1 << 63), (uint32_t)i};
            }
        }
    bool stopped = lf_deadline_expired(dl) || !lf_sort_within(refs, m, dl); /* out of time or memory */
    int ok = 1;
    for (size_t a = 0, b; !stopped && ok > 0 && a < m; a = b) {
        stopped = lf_deadline_every(dl, a);
        for (b = a + 1; b < m && refs[b].key == refs[a].key; b++) {
        }
        if (!stopped) ok = match_value(h, refs + a, b - a, remover, r);
    }
    if (!stopped && ok > 0 && m_nil) ok = match_value(h, nils, m_nil, remover, r);
    free(refs), free(nils);
    return stopped ? lf_relaxed_gave_up(dl, r) : ok;
}

int lf_relaxed_empties(const lf_history *h, lf_deadline *dl, const uint32_t *remover, const uint64_t *rem,
                       lf_result *r) {
    size_t n = h->n, ns = 0;
    span *spans = malloc((n ? n : 1) * sizeof *spans);
    lf_keyed *by_lo = malloc((n ? n : 1) * sizeof *by_lo);
    uint64_t *run_hi = malloc((n ? n : 1) * sizeof *run_hi); /* the ends of the runs; by_lo's keys their starts */
    if (!spans || !by_lo || !run_hi) {
        free(spans), free(by_lo), free(run_hi);
        return lf_relaxed_gave_up(dl, r);
    }
    /* The stretch of each value: strictly after its insert returned, strictly before its earliest removal point. */
    LF_FOR_CHUNKS(lo, hi, 0, n, dl) {
        for (size_t i = lo; i < hi; i++) {
            const lf_op *op = &h->ops[i];
            if (!is_insert(op) || lf_op_pending(op) || op->ret == UINT64_MAX) continue;
            if (remover[i] != UINT32_MAX && rem[i] == 0) continue;
            uint64_t last = remover[i] == UINT32_MAX ? UINT64_MAX : rem[i] - 1;
            if (op->ret + 1 > last) continue;
            by_lo[ns] = (lf_keyed){op->ret + 1, (uint32_t)ns};
            spans[ns++] = (span){op->ret + 1, last};
        }
    }
    if (lf_deadline_expired(dl) || !lf_sort_within(by_lo, ns, dl)) {
        free(spans), free(by_lo), free(run_hi);
        return lf_relaxed_gave_up(dl, r);
    }
    /* merged, in order, into maximal runs of covered stamps */
    size_t merged = 0;
    for (size_t j = 0; j < ns && !lf_deadline_every(dl, j); j++) {
        const span *sp = &spans[by_lo[j].payload];
        uint64_t lo = sp->lo, hi = sp->hi;
        if (merged && (run_hi[merged - 1] == UINT64_MAX || lo <= run_hi[merged - 1] + 1)) {
            if (hi > run_hi[merged - 1]) run_hi[merged - 1] = hi;
            continue;
        }
        by_lo[merged].key = lo;
        run_hi[merged++] = hi;
    }
    size_t worst = SIZE_MAX;
    for (size_t i = 0; i < n && !lf_deadline_every(dl, i); i++) {
        const lf_op *op = &h->ops[i];
        if (op->res_kind != LF_K_EMPTY || lf_op_pending(op)) continue;
        size_t lo = 0, hi = merged; /* the last run starting at or before the call */
        while (lo < hi) {
            size_t mid = lo + (hi - lo) / 2;
            if (by_lo[mid].key <= op->call)
                lo = mid + 1;
            else
                hi = mid;
        }
        if (lo == 0 || run_hi[lo - 1] < op->ret) continue;
        if (worst == SIZE_MAX || op->ret < h->ops[worst].ret) worst = i;
    }
    free(spans), free(by_lo), free(run_hi);
    if (lf_deadline_expired(dl)) return lf_relaxed_gave_up(dl, r);
    if (worst == SIZE_MAX) return 1;
    /* a value inside at the call (the runs were merged: find one that covers it) */
    const lf_op *e = &h->ops[worst];
    uint32_t ins = (uint32_t)worst;
    for (size_t i = 0; i < n; i++) { /* once, for the message */
        const lf_op *op = &h->ops[i];
        if (!is_insert(op) || lf_op_pending(op)) continue;
        if (op->ret < e->call && (remover[i] == UINT32_MAX || rem[i] > e->call)) {
            ins = (uint32_t)i;
            break;
        }
    }
    char da[200], db[200];
    lf_relaxed_describe(h, (uint32_t)worst, da, sizeof da);
    lf_relaxed_describe(h, ins, db, sizeof db);
    lf_result_set(r, LF_VIOLATION, "monitor", "%s answered empty, but at every moment of it some value was certainly "
                  "inside (at its call, the value of %s, which had returned%s)", da, db,
                  remover[ins] == UINT32_MAX ? " and is never removed" : " and whose remove could not have taken "
                  "effect yet");
    lf_result_add_culprit(r, (uint32_t)worst);
    lf_result_add_culprit(r, ins);
    return 0;
}
