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
 * stretches cover every moment of it (relaxed.c). Values that are removed and inserted in ways no choice of
 * points allows are violations on their own (returned before inserted, returned twice, never inserted, out of
 * order). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "monitor/monitor.h"
#include "monitor/relaxed.h"

/* The earliest removal points along the chains (each insert alone for a bag, a thread's inserts in order for
 * per-producer): 1, 0 with r the violation, -1 with r unknown. */
static int removal_points(const lf_history *h, lf_deadline *dl, bool per_producer, const uint32_t *remover,
                          uint64_t *rem, lf_result *r) {
    size_t nc = 0;
    char da[200], db[200];
    /* the inserts by thread, then call (per-producer: by call, then stably by thread); a bag's chains are single */
    lf_keyed *chain = malloc((h->n ? h->n : 1) * sizeof *chain);
    if (!chain) return lf_relaxed_gave_up(dl, r);
    LF_FOR_CHUNKS(lo, hi, 0, h->n, dl) {
        for (size_t i = lo; i < hi; i++)
            if (h->ops[i].method == LF_M_ENQ || h->ops[i].method == LF_M_PUSH)
                chain[nc++] = (lf_keyed){h->ops[i].call, (uint32_t)i};
    }
    bool sorted = !lf_deadline_expired(dl);
    if (sorted && per_producer) {
        sorted = lf_sort_within(chain, nc, dl);
        for (size_t c = 0; sorted && c < nc; c++) chain[c].key = h->ops[chain[c].payload].thread;
        sorted = sorted && lf_sort_within(chain, nc, dl);
    }
    if (!sorted) {
        free(chain);
        return lf_relaxed_gave_up(dl, r);
    }
    int ok = 1;
    for (size_t a = 0, b; ok > 0 && a < nc; a = b) {
        if (lf_deadline_spend(dl, 1)) {
            ok = lf_relaxed_gave_up(dl, r);
            break;
        }
        uint64_t prev = 0;
        uint32_t kept = UINT32_MAX; /* a value of this thread that is never removed */
        for (b = a; ok > 0 && b < nc && (per_producer ? chain[b].key == chain[a].key : b == a); b++) {
            uint32_t ins = chain[b].payload, rm = remover[ins];
            if (rm == UINT32_MAX) {
                if (kept == UINT32_MAX) kept = ins;
                continue;
            }
            const lf_op *I = &h->ops[ins], *R = &h->ops[rm];
            lf_relaxed_describe(h, rm, da, sizeof da);
            if (kept != UINT32_MAX) {
                lf_relaxed_describe(h, kept, db, sizeof db);
                lf_result_set(r, LF_VIOLATION, "monitor", "%s takes a value of thread %" PRIu32 " although %s put an "
                              "older one in that is never removed (FIFO per producer)", da, I->thread, db);
                lf_result_add_culprit(r, rm);
                lf_result_add_culprit(r, kept);
                ok = 0;
                break;
            }
            uint64_t lo = R->call > I->call ? R->call : I->call;
            if (prev > lo) lo = prev;
            if (lo > R->ret) { /* only a previous value of the chain can push it there */
                lf_relaxed_describe(h, remover[chain[b - 1].payload], db, sizeof db);
                lf_result_set(r, LF_VIOLATION, "monitor", "%s returned before %s, which takes an older value of thread "
                              "%" PRIu32 ", could have taken effect (FIFO per producer)", da, db, I->thread);
                lf_result_add_culprit(r, rm);
                lf_result_add_culprit(r, remover[chain[b - 1].payload]);
                ok = 0;
                break;
            }
            rem[ins] = prev = lo;
        }
    }
    free(chain);
    return ok;
}

bool lf_pool_monitor_check(const lf_history *h, lf_deadline *dl, lf_result *r) {
    if (h->contract.order != LF_ORDER_BAG && h->contract.order != LF_ORDER_PER_PRODUCER) {
        lf_result_set(r, LF_UNKNOWN, "monitor", "unsupported: the pool monitor decides bag and per-producer histories");
        return false;
    }
    int ok = lf_relaxed_supported(h, dl, r);
    size_t n = h->n;
    uint64_t *rem = malloc((n ? n : 1) * sizeof *rem);          /* per insert op: the earliest removal point */
    uint32_t *remover = malloc((n ? n : 1) * sizeof *remover); /* per insert op: its remove, or UINT32_MAX */
    if (ok > 0) ok = rem && remover ? lf_relaxed_match(h, dl, remover, r) : lf_relaxed_gave_up(dl, r);
    if (ok > 0) ok = removal_points(h, dl, h->contract.order == LF_ORDER_PER_PRODUCER, remover, rem, r);
    if (ok > 0) ok = lf_relaxed_empties(h, dl, remover, rem, r);
    free(rem), free(remover);
    if (ok > 0) lf_result_set(r, LF_LINEARIZABLE, "monitor", "%s", "");
    return ok >= 0;
}
