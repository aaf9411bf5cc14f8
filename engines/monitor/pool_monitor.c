/* The pool monitor: bag and per-producer FIFO histories with distinct values (docs/contracts.md, "Checkers"), in
 * O(n log n).
 *
 * With every value inserted once and no pending remove, each value v has its insert I_v and at most one remove
 * R_v, and a linearization only has to choose the points ins_v in I_v and rem_v in R_v (ins_v < rem_v):
 *   bag           no other constraint between values, so rem_v = max(call R_v, call I_v) is the earliest
 *                 possible point for every value at once;
 *   per-producer  FIFO among the values of one thread, whose inserts are already ordered (one thread): the
 *                 values a thread inserted are removed in insertion order, so they must be removed as a prefix
 *                 (a value never removed keeps every later one in), and the earliest points are greedy:
 *                 rem_v = max(call R_v, call I_v, rem of the value before it).
 * An empty answer needs a moment when no value is inside. Value v is certainly inside strictly between the
 * return of I_v and rem_v (forever when never removed), and with the earliest removal points these stretches
 * are as short as they can be for every value at once; an empty answer is a violation exactly when the
 * stretches cover every moment of it. Values that are removed and inserted in ways no choice of points allows
 * are violations on their own (returned before inserted, returned twice, never inserted, out of order). */
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
    uint64_t lo, hi; /* integer stamps lo..hi at which value `ins` is certainly inside */
    uint32_t ins, rem; /* its insert, and its remove or UINT32_MAX */
} span;

static int cmp_span(const void *pa, const void *pb) {
    const span *a = pa, *b = pb;
    return (a->lo > b->lo) - (a->lo < b->lo);
}

typedef struct chain_ref {
    uint32_t thread;
    uint64_t call;
    uint32_t ins;
} chain_ref;

static int cmp_chain(const void *pa, const void *pb) {
    const chain_ref *a = pa, *b = pb;
    if (a->thread != b->thread) return a->thread < b->thread ? -1 : 1;
    return (a->call > b->call) - (a->call < b->call);
}

static void describe(const lf_history *h, uint32_t i, char *buf, size_t len) {
    char d[160];
    lf_history_describe_op(h, &h->ops[i], d, sizeof d);
    snprintf(buf, len, "op %" PRIu32 " (%s)", i, d);
}

static bool unsupported(lf_result *r, const char *why) {
    lf_result_set(r, LF_UNKNOWN, "monitor", "unsupported: %s", why);
    return false;
}

bool lf_pool_monitor_check(const lf_history *h, lf_result *r) {
    bool per_producer = h->contract.order == LF_ORDER_PER_PRODUCER;
    if ((h->type != LF_TYPE_QUEUE && h->type != LF_TYPE_STACK) ||
        (h->contract.order != LF_ORDER_BAG && !per_producer) || h->contract.full_empty != LF_FULL_EMPTY_EXACT)
        return unsupported(r, "the pool monitor decides bag and per-producer stacks and queues");
    if (h->capacity && lf_monitor_capacity_reachable(h, NULL))
        return unsupported(r, "a bounded container that may be full: the pool monitor does not track the size");
    size_t n = h->n, m = 0;
    for (size_t i = 0; i < n; i++) {
        const lf_op *op = &h->ops[i];
        bool remove = op->method == LF_M_DEQ || op->method == LF_M_POP;
        if (remove && lf_op_pending(op)) return unsupported(r, "a pending remove, whose effect is unknown");
        if (op->method == LF_M_PEEK && (op->res_kind == LF_K_INT || op->res_kind == LF_K_NIL))
            return unsupported(r, "a peek that returned a value");
    }
    if (!lf_history_unambiguous(h)) return unsupported(r, "a value inserted twice: the history is ambiguous");

    vref *refs = malloc((n ? n : 1) * sizeof *refs);
    uint64_t *rem = malloc((n ? n : 1) * sizeof *rem);      /* per insert op: the earliest removal point */
    uint32_t *remover = malloc((n ? n : 1) * sizeof *remover); /* per insert op: its remove, or UINT32_MAX */
    chain_ref *chain = malloc((n ? n : 1) * sizeof *chain);
    span *spans = malloc((n ? n : 1) * sizeof *spans);
    if (!refs || !rem || !remover || !chain || !spans) {
        free(refs), free(rem), free(remover), free(chain), free(spans);
        return unsupported(r, "out of memory");
    }
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
    bool bad = false;
    for (size_t a = 0, b; a < m && !bad; a = b) {
        for (b = a + 1; b < m && refs[b].nil == refs[a].nil && refs[b].value == refs[a].value; b++) {
        }
        bool inserted = refs[a].role == 0; /* unambiguous: at most one insert, sorted first */
        size_t removes = b - a - inserted;
        if (!removes) continue;
        uint32_t first_rem = refs[a + inserted].op;
        describe(h, first_rem, da, sizeof da);
        if (!inserted) {
            lf_result_set(r, LF_VIOLATION, "monitor", "%s returns a value that is never inserted", da);
            lf_result_add_culprit(r, first_rem);
            bad = true;
        } else if (removes > 1) {
            describe(h, refs[a + 2].op, db, sizeof db);
            lf_result_set(r, LF_VIOLATION, "monitor", "the value is removed twice, by %s and %s, but inserted once", da,
                          db);
            lf_result_add_culprit(r, first_rem);
            lf_result_add_culprit(r, refs[a + 2].op);
            bad = true;
        } else {
            remover[refs[a].op] = first_rem;
        }
    }
    /* The earliest removal points: per value (bag), along each thread's values (per-producer). */
    size_t nc = 0;
    for (size_t i = 0; i < n && !bad; i++)
        if (h->ops[i].method == LF_M_ENQ || h->ops[i].method == LF_M_PUSH)
            chain[nc++] = (chain_ref){per_producer ? h->ops[i].thread : (uint32_t)i, h->ops[i].call, (uint32_t)i};
    if (!bad) qsort(chain, nc, sizeof *chain, cmp_chain);
    for (size_t a = 0, b; a < nc && !bad; a = b) {
        uint64_t prev = 0;
        uint32_t kept = UINT32_MAX; /* a value of this thread that is never removed */
        for (b = a; b < nc && chain[b].thread == chain[a].thread && !bad; b++) {
            uint32_t ins = chain[b].ins, rm = remover[ins];
            if (rm == UINT32_MAX) {
                if (kept == UINT32_MAX) kept = ins;
                continue;
            }
            const lf_op *I = &h->ops[ins], *R = &h->ops[rm];
            describe(h, rm, da, sizeof da);
            if (kept != UINT32_MAX) {
                describe(h, kept, db, sizeof db);
                lf_result_set(r, LF_VIOLATION, "monitor", "%s takes a value of thread %" PRIu32 " although %s put an "
                              "older one in that is never removed (FIFO per producer)", da, I->thread, db);
                lf_result_add_culprit(r, rm);
                lf_result_add_culprit(r, kept);
                bad = true;
                break;
            }
            uint64_t lo = R->call > I->call ? R->call : I->call;
            if (R->ret < I->call) {
                describe(h, ins, db, sizeof db);
                lf_result_set(r, LF_VIOLATION, "monitor", "%s returns the value of %s before it was inserted", da, db);
                lf_result_add_culprit(r, rm);
                lf_result_add_culprit(r, ins);
                bad = true;
                break;
            }
            if (prev > lo) lo = prev;
            if (lo > R->ret) {
                describe(h, remover[chain[b - 1].ins], db, sizeof db);
                lf_result_set(r, LF_VIOLATION, "monitor", "%s returned before %s, which takes an older value of thread "
                              "%" PRIu32 ", could have taken effect (FIFO per producer)", da, db, I->thread);
                lf_result_add_culprit(r, rm);
                lf_result_add_culprit(r, remover[chain[b - 1].ins]);
                bad = true;
                break;
            }
            rem[ins] = prev = lo;
        }
    }
    /* Empty answers against the stretches when some value is certainly inside. */
    size_t ns = 0;
    for (size_t i = 0; i < n && !bad; i++) {
        const lf_op *op = &h->ops[i];
        if ((op->method != LF_M_ENQ && op->method != LF_M_PUSH) || lf_op_pending(op) || op->ret == UINT64_MAX) continue;
        uint64_t hi = remover[i] == UINT32_MAX ? UINT64_MAX : rem[i] - 1;
        if (remover[i] != UINT32_MAX && rem[i] == 0) continue;
        if (op->ret + 1 <= hi) spans[ns++] = (span){op->ret + 1, hi, (uint32_t)i, remover[i]};
    }
    if (!bad) qsort(spans, ns, sizeof *spans, cmp_span);
    size_t merged = 0; /* spans merged in place into maximal runs of covered stamps */
    for (size_t i = 0; i < ns; i++) {
        if (merged && (spans[merged - 1].hi == UINT64_MAX || spans[i].lo <= spans[merged - 1].hi + 1)) {
            if (spans[i].hi > spans[merged - 1].hi) spans[merged - 1].hi = spans[i].hi;
            continue;
        }
        spans[merged++] = spans[i];
    }
    size_t worst = SIZE_MAX;
    for (size_t i = 0; i < n && !bad; i++) {
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
    if (worst != SIZE_MAX) {
        describe(h, (uint32_t)worst, da, sizeof da);
        /* a value inside at the call (the runs were merged: find one that covers it) */
        uint32_t ins = UINT32_MAX;
        for (size_t i = 0; i < n; i++) {
            const lf_op *op = &h->ops[i];
            if ((op->method != LF_M_ENQ && op->method != LF_M_PUSH) || lf_op_pending(op)) continue;
            uint64_t hi = remover[i] == UINT32_MAX ? UINT64_MAX : rem[i] - 1;
            if (op->ret < h->ops[worst].call && h->ops[worst].call <= hi && (remover[i] == UINT32_MAX || rem[i] > 0)) {
                ins = (uint32_t)i;
                break;
            }
        }
        if (ins == UINT32_MAX) ins = (uint32_t)worst; /* cannot happen: the run covers the call */
        describe(h, ins, db, sizeof db);
        lf_result_set(r, LF_VIOLATION, "monitor", "%s answered empty, but at every moment of it some value was certainly "
                      "inside (at its call, the value of %s, which had returned%s)", da, db,
                      remover[ins] == UINT32_MAX ? " and is never removed" : " and whose remove could not have taken "
                      "effect yet");
        lf_result_add_culprit(r, (uint32_t)worst);
        lf_result_add_culprit(r, ins);
        bad = true;
    }
    free(refs), free(rem), free(remover), free(chain), free(spans);
    if (!bad) {
        lf_result_set(r, LF_LINEARIZABLE, "monitor", "%s", "");
        r->reason[0] = '\0';
    }
    return true;
}
