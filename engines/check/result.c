/* Verdicts and explanations shared by every engine, and snapshots of a running check's progress. */
#include "linfuzz/check.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void lf_result_init(lf_result *r) {
    memset(r, 0, sizeof *r);
    r->verdict = LF_UNKNOWN;
    r->engine = "none";
    r->depth = -1;
}

void lf_result_free(lf_result *r) {
    free(r->witness);
    free(r->prefix);
    free(r->culprits);
    r->witness = r->prefix = r->culprits = NULL;
    r->witness_len = r->prefix_len = r->n_culprits = 0;
}

void lf_result_set(lf_result *r, lf_verdict v, const char *engine, const char *fmt, ...) {
    r->verdict = v;
    r->engine = engine;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(r->reason, sizeof r->reason, fmt, ap);
    va_end(ap);
}

void lf_result_add_culprit(lf_result *r, uint32_t op) {
    for (size_t i = 0; i < r->n_culprits; i++)
        if (r->culprits[i] == op) return;
    uint32_t *c = realloc(r->culprits, (r->n_culprits + 1) * sizeof *c);
    if (!c) return;
    r->culprits = c;
    r->culprits[r->n_culprits++] = op;
}

const char *lf_verdict_name(lf_verdict v) {
    switch (v) {
    case LF_LINEARIZABLE: return "linearizable";
    case LF_VIOLATION: return "violation";
    case LF_UNKNOWN: return "unknown";
    }
    return "?";
}

void lf_progress_read(const lf_progress *p, lf_progress *snapshot) {
    snapshot->stage = __atomic_load_n(&p->stage, __ATOMIC_RELAXED);
    snapshot->steps = __atomic_load_n(&p->steps, __ATOMIC_RELAXED);
    snapshot->parts_done = __atomic_load_n(&p->parts_done, __ATOMIC_RELAXED);
    snapshot->parts_total = __atomic_load_n(&p->parts_total, __ATOMIC_RELAXED);
}
