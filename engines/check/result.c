/* Verdicts and explanations shared by every engine, and snapshots of a running check's progress. */
#include "linfuzz/check.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check/reason.h"

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

void lf_reason_map_ops(const char *in, const uint32_t *map, size_t n_map, char *out, size_t len) {
    size_t k = 0;
    for (const char *p = in; *p && k + 1 < len;) {
        if (strncmp(p, "op ", 3) == 0 && p[3] >= '0' && p[3] <= '9') {
            char *end;
            unsigned long idx = strtoul(p + 3, &end, 10);
            int w = idx < n_map ? snprintf(out + k, len - k, "op %" PRIu32, map[idx])
                                : snprintf(out + k, len - k, "op ?");
            if (w < 0 || (size_t)w >= len - k) break;
            k += (size_t)w;
            p = end;
        } else {
            out[k++] = *p++;
        }
    }
    out[k] = '\0';
}
