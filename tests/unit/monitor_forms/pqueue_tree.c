/* Priority-queue monitor, the direct form ([Lee25], Corollary 8.3): the history is linearizable iff every peek
 * and poll of a value v has a moment at which no value of higher priority (smaller; nil is smallest) is
 * certainly present. One sweep in priority order over a range-add/range-min segment tree. O(n log n).
 *
 * lf_monitor_check uses the time sweep of engines/monitor/pqueue_monitor.c, which decides the same condition with sequential
 * memory access; this form stays as its cross-check (tests/unit/test_monitor_forms.c): both must give the
 * same verdict, reason and culprits. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "monitor/monitors.h"
#include "monitor_forms.h"
#include "monitor/segment_tree.h"

#define NONE UINT32_MAX

lf_verdict lf_monitor_pqueue_tree(const lf_history *h, const lf_std *s, lf_result *r) {
    if (s->n_stamps < 2) return LF_LINEARIZABLE;
    uint32_t nv = s->n_values, n = s->n_total;
    uint32_t *order = lf_pqueue_priority_order(s);
    uint32_t *start = calloc((size_t)nv + 1, sizeof *start);
    uint32_t *ops = malloc((n ? n : 1) * sizeof *ops);
    lf_mintree tree;
    bool tree_ok = lf_mintree_init(&tree, s->n_stamps - 1, NULL);
    lf_verdict verdict = LF_UNKNOWN;
    if (!order || !start || !ops || !tree_ok) {
        lf_result_set(r, LF_UNKNOWN, "monitor", "out of memory in the priority-queue monitor");
        goto done;
    }
    /* Group the observing ops (peeks and polls) by value. */
    for (uint32_t i = 0; i < n; i++)
        if (s->kind[i] == STD_REM || s->kind[i] == STD_OTHER) start[s->val[i] + 1]++;
    for (uint32_t v = 0; v < nv; v++) start[v + 1] += start[v];
    for (uint32_t i = 0; i < n; i++)
        if (s->kind[i] == STD_REM || s->kind[i] == STD_OTHER) ops[start[s->val[i]]++] = i;
    for (uint32_t v = nv; v > 0; v--) start[v] = start[v - 1];
    start[0] = 0;

    for (uint32_t rank = 0; rank < nv; rank++) {
        uint32_t v = order[rank];
        for (uint32_t j = start[v]; j < start[v + 1]; j++) {
            uint32_t o = ops[j];
            if (lf_mintree_min(&tree, s->inv[o] - 1, s->res[o] - 1) == 0) continue;
            verdict = lf_pqueue_report_hidden(h, s, order, rank, o, r);
            goto done;
        }
        uint32_t lo, hi;
        if (lf_std_ci(s, v, &lo, &hi)) lf_mintree_add(&tree, lo - 1, hi - 1, 1);
    }
    verdict = LF_LINEARIZABLE;
done:
    if (tree_ok) lf_mintree_free(&tree);
    free(order);
    free(start);
    free(ops);
    return verdict;
}
