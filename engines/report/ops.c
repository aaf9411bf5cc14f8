/* Op labels, tags, call order and thread lists: what the text report, the HTML page and the canonical form
 * of a violation all name ops and threads with, so that they agree. */
#include "report/ops.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

/* Op indices of h sorted by call stamp (then index): tags follow this order. */
size_t *lf_rep_call_order(const lf_history *h) {
    size_t *order = malloc((h->n ? h->n : 1) * sizeof *order);
    if (!order) return NULL;
    for (size_t i = 0; i < h->n; i++) order[i] = i;
    /* insertion sort: reports show small histories, and recorded ones are nearly sorted already */
    for (size_t i = 1; i < h->n; i++) {
        size_t v = order[i], j = i;
        while (j > 0 && h->ops[order[j - 1]].call > h->ops[v].call) {
            order[j] = order[j - 1];
            j--;
        }
        order[j] = v;
    }
    return order;
}

/* Tag of the op with call rank k: A..Z for up to 26 ops, else 1, 2, ... */
void lf_rep_tag(size_t k, size_t n, char out[24]) {
    if (n <= 26)
        snprintf(out, 24, "%c", (char)('A' + k));
    else
        snprintf(out, 24, "%zu", k + 1);
}

/* "push 7", "pop -> 7", "pop -> ?" (pending), with the method's name and arity in h's type (custom types:
 * their declaration's). */
void lf_rep_op_label(char *buf, size_t len, const lf_history *h, const lf_op *op) {
    const lf_method_decl *mi = lf_history_method(h, op->method);
    int w = snprintf(buf, len, "%s", mi ? mi->name : "?");
    for (int i = 0; mi && i < mi->nargs && w > 0 && (size_t)w < len; i++) {
        if (lf_arg_is_nil(op, i))
            w += snprintf(buf + w, len - (size_t)w, " nil");
        else
            w += snprintf(buf + w, len - (size_t)w, " %" PRId64, op->arg[i]);
    }
    if (w <= 0 || (size_t)w >= len) return;
    if (lf_op_pending(op))
        snprintf(buf + w, len - (size_t)w, " -> ?");
    else if (op->res_kind == LF_K_INT)
        snprintf(buf + w, len - (size_t)w, " -> %" PRId64, op->res);
    else if (op->res_kind != LF_K_NONE)
        snprintf(buf + w, len - (size_t)w, " -> %s", lf_kind_name((lf_kind)op->res_kind));
}

static int cmp_u32(const void *pa, const void *pb) {
    uint32_t a = *(const uint32_t *)pa, b = *(const uint32_t *)pb;
    return a < b ? -1 : a > b;
}

/* Distinct thread ids of h, ascending, into a malloc'ed array. */
uint32_t *lf_rep_threads(const lf_history *h, size_t *n_out) {
    uint32_t *t = malloc((h->n ? h->n : 1) * sizeof *t);
    size_t n = 0;
    if (!t) return NULL;
    for (size_t i = 0; i < h->n; i++) t[i] = h->ops[i].thread;
    qsort(t, h->n, sizeof *t, cmp_u32);
    for (size_t i = 0; i < h->n; i++)
        if (i == 0 || t[i] != t[n - 1]) t[n++] = t[i];
    *n_out = n;
    return t;
}

