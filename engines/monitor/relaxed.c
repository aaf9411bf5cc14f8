/* What the monitors of relaxed orders share (relaxed.h): which histories they take, pairing each value's insert
 * with its remove, and the empty answers against the stretches when some value is certainly inside. */
#include "monitor/relaxed.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "monitor/monitor.h"

typedef struct vref {
    int64_t value;
    uint8_t nil;
    uint8_t role; /* 0 insert, 1 remove */
    uint32_t op;
} vref;

static int cmp_vref(const void *pa, const void *pb) {
    const vref *a = pa, *b = pb;
    if (a->nil != b->nil) return a->nil - b->nil;
    if (a->value != b->value) return a->value < b->value ? -1 : 1;
    if (a->role != b->role) return a->role - b->role;
    return (a->op > b->op) - (a->op < b->op);
}

typedef struct span {
    uint64_t lo, hi; /* integer stamps lo..hi at which the value of insert `ins` is certainly inside */
    uint32_t ins;
} span;

static int cmp_span(const void *pa, const void *pb) {
    const span *a = pa, *b = pb;
    return (a->lo > b->lo) - (a->lo < b->lo);
}

void lf_relaxed_describe(const lf_history *h, uint32_t i, char *buf, size_t len) {
    char d[160];
    lf_history_describe_op(h, &h->ops[i], d, sizeof d);
    snprintf(buf, len, "op %" PRIu32 " (%s)", i, d);
}

static bool unsupported(lf_result *r, const char *why) {
    lf_result_set(r, LF_UNKNOWN, "monitor", "unsupported: %s", why);
    return false;
}

bool lf_relaxed_supported(const lf_history *h, lf_result *r) {
    if ((h->type != LF_TYPE_QUEUE && h->type != LF_TYPE_STACK) || h->contract.order == LF_ORDER_EXACT ||
        h->contract.full_empty != LF_FULL_EMPTY_EXACT)
        return unsupported(r, "the monitors of relaxed orders decide stacks and queues under a relaxed order");
    if (h->capacity && lf_monitor_capacity_reachable(h, NULL))
        return unsupported(r, "a bounded container that may be full: the monitors do not track the size");
    for (size_t i = 0; i < h->n; i++) {
        const lf_op *op = &h->ops[i];
        bool remove = op->method == LF_M_DEQ || op->method == LF_M_POP;
        if (remove && lf_op_pending(op)) return unsupported(r, "a pending remove, whose effect is unknown");
        if (op->method == LF_M_PEEK && (op->res_kind == LF_K_INT || op->res_kind == LF_K_NIL))
            return unsupported(r, "a peek that returned a value");
    }
    if (!lf_history_unambiguous(h)) return unsupported(r, "a value inserted twice: the history is ambiguous");
    return true;
}

int lf_relaxed_match(const lf_history *h, uint32_t *remover, lf_result *r) {
    size_t n = h->n, m = 0;
    vref *refs = malloc((n ? n : 1) * sizeof *refs);
    if (!refs) return -1;
    for (size_t i = 0; i < n; i++) {
        const lf_op *op = &h->ops[i];
        remover[i] = UINT32_MAX;
        if (op->method == LF_M_ENQ || op->method == LF_M_PUSH)
            refs[m++] = (vref){op->arg[0], (uint8_t)lf_arg_is_nil(op, 0), 0, (uint32_t)i};
        else if ((op->method == LF_M_DEQ || op->method == LF_M_POP) && op->res_kind != LF_K_EMPTY)
            refs[m++] = (vref){op->res_kind == LF_K_NIL ? 0 : op->res, op->res_kind == LF_K_NIL, 1, (uint32_t)i};
    }
    qsort(refs, m, sizeof *refs, cmp_vref);
    char da[200], db[200];
    int ok = 1;
    for (size_t a = 0, b; a < m && ok; a = b) {
        for (b = a + 1; b < m && refs[b].nil == refs[a].nil && refs[b].value == refs[a].value; b++) {
        }
        bool inserted = refs[a].role == 0; /* unambiguous: at most one insert, sorted first */
        size_t removes = b - a - inserted;
        if (!removes) continue;
        uint32_t rm = refs[a + inserted].op;
        lf_relaxed_describe(h, rm, da, sizeof da);
        if (!inserted) {
            lf_result_set(r, LF_VIOLATION, "monitor", "%s returns a value that is never inserted", da);
            lf_result_add_culprit(r, rm);
            ok = 0;
        } else if (removes > 1) {
            lf_relaxed_describe(h, refs[a + 2].op, db, sizeof db);
            lf_result_set(r, LF_VIOLATION, "monitor", "the value is removed twice, by %s and %s, but inserted once", da,
                          db);
            lf_result_add_culprit(r, rm);
            lf_result_add_culprit(r, refs[a + 2].op);
            ok = 0;
        } else if (h->ops[rm].ret < h->ops[refs[a].op].call) {
            lf_relaxed_describe(h, refs[a].op, db, sizeof db);
            lf_result_set(r, LF_VIOLATION, "monitor", "%s returns the value of %s before it was inserted", da, db);
            lf_result_add_culprit(r, rm);
            lf_result_add_culprit(r, refs[a].op);
            ok = 0;
        } else {
            remover[refs[a].op] = rm;
        }
    }
    free(refs);
    return ok;
}

int lf_relaxed_empties(const lf_history *h, const uint32_t *remover, const uint64_t *rem, lf_result *r) {
    size_t n = h->n, ns = 0;
    span *spans = malloc((n ? n : 1) * sizeof *spans);
    if (!spans) return -1;
    /* The stretch of each value: strictly after its insert returned, strictly before its earliest removal point. */
    for (size_t i = 0; i < n; i++) {
        const lf_op *op = &h->ops[i];
        if ((op->method != LF_M_ENQ && op->method != LF_M_PUSH) || lf_op_pending(op) || op->ret == UINT64_MAX) continue;
        if (remover[i] != UINT32_MAX && rem[i] == 0) continue;
        uint64_t hi = remover[i] == UINT32_MAX ? UINT64_MAX : rem[i] - 1;
        if (op->ret + 1 <= hi) spans[ns++] = (span){op->ret + 1, hi, (uint32_t)i};
    }
    qsort(spans, ns, sizeof *spans, cmp_span);
    size_t merged = 0; /* merged in place into maximal runs of covered stamps */
    for (size_t i = 0; i < ns; i++) {
        if (merged && (spans[merged - 1].hi == UINT64_MAX || spans[i].lo <= spans[merged - 1].hi + 1)) {
            if (spans[i].hi > spans[merged - 1].hi) spans[merged - 1].hi = spans[i].hi;
            continue;
        }
        spans[merged++] = spans[i];
    }
    size_t worst = SIZE_MAX;
    for (size_t i = 0; i < n; i++) {
        const lf_op *op = &h->ops[i];
        if (op->res_kind != LF_K_EMPTY || lf_op_pending(op)) continue;
        size_t lo = 0, hi = merged; /* the last run starting at or before the call */
        while (lo < hi) {
            size_t mid = lo + (hi - lo) / 2;
            if (spans[mid].lo <= op->call)
                lo = mid + 1;
            else
                hi = mid;
        }
        if (lo == 0 || spans[lo - 1].hi < op->ret) continue;
        if (worst == SIZE_MAX || op->ret < h->ops[worst].ret) worst = i;
    }
    free(spans);
    if (worst == SIZE_MAX) return 1;
    /* a value inside at the call (the runs were merged: find one that covers it) */
    const lf_op *e = &h->ops[worst];
    uint32_t ins = (uint32_t)worst;
    for (size_t i = 0; i < n; i++) {
        const lf_op *op = &h->ops[i];
        if ((op->method != LF_M_ENQ && op->method != LF_M_PUSH) || lf_op_pending(op)) continue;
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
