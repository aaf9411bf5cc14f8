/* Line-Up's two levels of a violation: the relaxed re-check and the explanation (see levels.h). */
#include "check/levels.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "budget/deadline.h"
#include "wgl/wgl.h"

const char *lf_level_name(lf_level l) {
    switch (l) {
    case LF_LEVEL_NO_SERIAL_ORDER: return "NO_SERIAL_ORDER";
    case LF_LEVEL_REAL_TIME: return "REAL_TIME_ORDER";
    case LF_LEVEL_NONE: break;
    }
    return "";
}

/* Puts text in front of r->reason ("TEXT; OLD REASON"), truncating the old reason. */
static void prepend(lf_result *r, const char *text) {
    char old[sizeof r->reason];
    memcpy(old, r->reason, sizeof old);
    size_t n = strnlen(text, sizeof r->reason - 1);
    memcpy(r->reason, text, n);
    if (n + 2 < sizeof r->reason) {
        memcpy(r->reason + n, "; ", 2);
        size_t rest = strnlen(old, sizeof r->reason - 1);
        if (rest > sizeof r->reason - 1 - (n + 2)) rest = sizeof r->reason - 1 - (n + 2);
        memcpy(r->reason + n + 2, old, rest);
        n += 2 + rest;
    }
    r->reason[n] = '\0';
}

/* Which ops belong to the part the violation was found in: when the spec splits by key and the first culprit
 * has one, the ops of that key (the relaxed order's conflict with real time is named there: ops of other keys
 * are independent of them); else all. NULL when out of memory. */
static bool *violating_part(const lf_spec *spec, const lf_spec_env *env, const lf_result *r) {
    size_t n = env->n;
    bool *in = malloc((n ? n : 1) * sizeof *in);
    if (!in) return NULL;
    uint64_t key, k;
    bool split = spec->partition_key && r->n_culprits && r->culprits[0] < n &&
                 lf_spec_partition_key(spec, env, &env->ops[r->culprits[0]], &key);
    for (size_t i = 0; split && i < n; i++) split = lf_spec_partition_key(spec, env, &env->ops[i], &k);
    for (size_t i = 0; i < n; i++) in[i] = !split || (lf_spec_partition_key(spec, env, &env->ops[i], &k) && k == key);
    return in;
}

void lf_classify_violation(const lf_spec *spec, const lf_spec_env *env, double deadline, lf_result *r) {
    size_t n = env->n;
    if (n > LF_CLASSIFY_MAX_OPS) return;
    lf_op *relaxed = malloc((n ? n : 1) * sizeof *relaxed);
    bool *in_part = violating_part(spec, env, r);
    if (!relaxed || !in_part) {
        free(relaxed);
        free(in_part);
        return;
    }
    /* Every op from 1 to 2: all concurrent, each thread's ops overlapping (the search then keys its
     * configurations by op sets); pending ops stay pending. The whole history: it has a serial order giving
     * its results iff every part has one. */
    for (size_t i = 0; i < n; i++) {
        relaxed[i] = env->ops[i];
        relaxed[i].call = 1;
        if (!lf_op_pending(&relaxed[i])) relaxed[i].ret = 2;
    }
    lf_spec_env renv = *env;
    renv.ops = relaxed;
    lf_wgl_options wo;
    lf_wgl_options_default(&wo);
    wo.deadline = deadline;
    wo.max_steps = LF_CLASSIFY_MAX_STEPS;
    wo.want_witness = true;
    lf_result rr;
    lf_result_init(&rr);
    lf_wgl_check_spec(spec, &renv, &wo, &rr);
    lf_spec_inst describer = {spec, NULL, 0, env->custom}; /* describe_op needs no context */
    char text[sizeof r->reason], da[160], db[160];
    if (rr.verdict == LF_VIOLATION) {
        r->level = LF_LEVEL_NO_SERIAL_ORDER;
        int w = snprintf(text, sizeof text, "no serial order of these %zu ops gives these results", n);
        if (rr.n_culprits && w > 0 && (size_t)w < sizeof text) {
            /* the ops that no serial order could take next after the longest prefix it found */
            w += snprintf(text + w, sizeof text - (size_t)w, " (the longest serial order that works, %zu op%s, "
                          "cannot go on with", rr.prefix_len, rr.prefix_len == 1 ? "" : "s");
            for (size_t k = 0; k < rr.n_culprits && k < 3 && w > 0 && (size_t)w < sizeof text; k++) {
                size_t op = rr.culprits[k];
                lf_spec_describe_op(&describer, &env->ops[op], da, sizeof da);
                w += snprintf(text + w, sizeof text - (size_t)w, "%s op %zu (%s)", k ? "," : "", op, da);
                lf_result_add_culprit(r, (uint32_t)op);
            }
            if (w > 0 && (size_t)w < sizeof text)
                snprintf(text + w, sizeof text - (size_t)w, "%s)", rr.n_culprits > 3 ? ", ..." : "");
        }
        prepend(r, text);
    } else if (rr.verdict == LF_LINEARIZABLE && rr.witness) {
        /* An order that gives the results: name the earliest pair it puts against real time. */
        size_t *pos = malloc((n ? n : 1) * sizeof *pos);
        size_t best_b = SIZE_MAX, best_a = SIZE_MAX;
        if (pos) {
            for (size_t i = 0; i < n; i++) pos[i] = SIZE_MAX; /* pending ops left out of the order */
            for (size_t k = 0; k < rr.witness_len; k++) pos[rr.witness[k]] = k;
            for (size_t a = 0; a < n; a++)
                for (size_t b = 0; b < n; b++)
                    if (in_part[a] && in_part[b] && pos[a] != SIZE_MAX && pos[b] != SIZE_MAX && pos[b] < pos[a] &&
                        lf_precedes(&env->ops[a], &env->ops[b]) &&
                        (best_b == SIZE_MAX || pos[b] < pos[best_b] || (pos[b] == pos[best_b] && pos[a] < pos[best_a])))
                        best_b = b, best_a = a;
            free(pos);
        }
        r->level = LF_LEVEL_REAL_TIME;
        if (best_a != SIZE_MAX) {
            lf_spec_describe_op(&describer, &env->ops[best_a], da, sizeof da);
            lf_spec_describe_op(&describer, &env->ops[best_b], db, sizeof db);
            snprintf(text, sizeof text,
                     "only orders that real time rules out give these results: e.g. one that puts op %zu (%s) before "
                     "op %zu (%s), which returned before it was called",
                     best_b, db, best_a, da);
            lf_result_add_culprit(r, (uint32_t)best_a);
            lf_result_add_culprit(r, (uint32_t)best_b);
        } else {
            snprintf(text, sizeof text, "only orders that real time rules out give these results");
        }
        prepend(r, text);
    }
    lf_result_free(&rr);
    free(relaxed);
    free(in_part);
}
