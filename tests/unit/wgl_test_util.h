/* Helpers shared by the WGL tests: reading the "# expect:" line of a case file, variants of a history for the
 * differential tests (ties collapsed, nil for one value), and checking that a
 * witness or a linearizable prefix really is one (real-time order respected, every op at most once, a
 * witness covers every completed op, and the spec accepts the ops in that order). */
#ifndef LINFUZZ_WGL_TEST_UTIL_H
#define LINFUZZ_WGL_TEST_UTIL_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "brute/brute.h"
#include "linfuzz/check.h"
#include "linfuzz/format.h"
#include "linfuzz/history.h"
#include "linfuzz/spec.h"

/* The verdict named on a "# expect: linearizable|violation" first line; LF_UNKNOWN when absent. */
static inline lf_verdict expect_of_file(const char *path) {
    FILE *f = fopen(path, "r");
    if (!f) return LF_UNKNOWN;
    char line[256] = "";
    if (!fgets(line, sizeof line, f)) line[0] = '\0';
    fclose(f);
    if (strstr(line, "# expect: linearizable")) return LF_LINEARIZABLE;
    if (strstr(line, "# expect: violation")) return LF_VIOLATION;
    return LF_UNKNOWN;
}

/* Checks order[0..len) against ops: indices valid and distinct, real-time order respected, the spec
 * accepts the ops in that order, and, when complete, every completed op is present. Writes why not. */
static inline bool order_is_valid(const lf_spec *spec, const lf_spec_env *env, const uint32_t *order, size_t len,
                                  bool complete, char *why, size_t whylen) {
    size_t n = env->n;
    bool ok = true;
    unsigned char *seen = calloc(n ? n : 1, 1);
    if (!seen) return false;
    for (size_t i = 0; i < len && ok; i++) {
        if (order[i] >= n || seen[order[i]]) {
            snprintf(why, whylen, "position %zu: op %u repeated or out of range", i, order[i]);
            ok = false;
        } else {
            seen[order[i]] = 1;
        }
    }
    /* Real time: no later op may have returned before an earlier one was called. O(len^2) is fine here. */
    for (size_t i = 0; i < len && ok; i++)
        for (size_t j = i + 1; j < len && ok; j++)
            if (lf_precedes(&env->ops[order[j]], &env->ops[order[i]])) {
                snprintf(why, whylen, "op %u is placed before op %u, which returned before it was called", order[i],
                         order[j]);
                ok = false;
            }
    /* Every op that precedes a placed op must be placed (the prefix is downward closed), and a complete
     * order holds every completed op. */
    for (size_t i = 0; i < len && ok; i++)
        for (size_t o = 0; o < n && ok; o++)
            if (!seen[o] && lf_precedes(&env->ops[o], &env->ops[order[i]])) {
                snprintf(why, whylen, "op %zu returned before op %u was called but is missing", o, order[i]);
                ok = false;
            }
    if (complete)
        for (size_t o = 0; o < n && ok; o++)
            if (!seen[o] && !lf_op_pending(&env->ops[o])) {
                snprintf(why, whylen, "completed op %zu is missing from the witness", o);
                ok = false;
            }
    if (ok) {
        lf_spec_inst inst;
        if (!lf_spec_open(spec, env, &inst)) {
            free(seen);
            snprintf(why, whylen, "cannot open spec");
            return false;
        }
        size_t ss = inst.state_size ? inst.state_size : 1;
        unsigned char *a = calloc(1, ss), *b = calloc(1, ss);
        lf_spec_init(&inst, a);
        for (size_t i = 0; i < len && ok; i++) {
            if (!lf_spec_step(&inst, a, &env->ops[order[i]], b)) {
                char d[160];
                lf_op_describe(d, sizeof d, &env->ops[order[i]]);
                snprintf(why, whylen, "the spec rejects op %u (%s) at position %zu", order[i], d, i);
                ok = false;
            }
            unsigned char *t = a;
            a = b;
            b = t;
        }
        free(a);
        free(b);
        lf_spec_close(&inst);
    }
    free(seen);
    return ok;
}

/* Independent replay of a witness of a built-in-type history: rewrites the ops sequentially in witness
 * order (completed ops keep their results; a pending op stays pending) and asks the brute-force oracle,
 * which shares no code with the specs. */
static inline bool witness_replays_in_brute(const lf_history *h, const uint32_t *order, size_t len) {
    lf_history seq;
    lf_history_init(&seq, h->type);
    seq.has_init = h->has_init;
    seq.init_kind = h->init_kind;
    seq.init = h->init;
    for (size_t i = 0; i < len; i++) {
        lf_op op = h->ops[order[i]];
        op.thread = (uint32_t)i;
        op.call = 2 * i + 1;
        if (!lf_op_pending(&op)) op.ret = 2 * i + 2;
        lf_history_push(&seq, &op);
    }
    lf_brute_options bo;
    lf_brute_options_default(&bo);
    bo.max_ops = 63;
    lf_result r;
    lf_result_init(&r);
    lf_brute_check(&seq, &bo, &r);
    bool ok = r.verdict == LF_LINEARIZABLE;
    lf_result_free(&r);
    lf_history_free(&seq);
    return ok;
}

/* h as text on stderr (after what stdout holds), for a failing comparison. */
static inline void print_history(const lf_history *h) {
    fflush(stdout);
    lf_text_write_stream(stderr, h);
    fflush(stderr);
}

/* Halves every stamp, so that neighbours become equal (concurrent); false when a thread would overlap. */
static inline bool collapse_ties(lf_history *h) {
    for (size_t i = 0; i < h->n; i++) {
        h->ops[i].call /= 2;
        if (!lf_op_pending(&h->ops[i])) h->ops[i].ret /= 2;
    }
    char err[200];
    return lf_history_validate(h, err, sizeof err) == SIZE_MAX;
}

/* Turns the value 1 into nil wherever a value appears; false when that makes the history malformed. */
static inline bool nil_for_one(lf_history *h) {
    bool changed = false;
    for (size_t i = 0; i < h->n; i++) {
        lf_op *op = &h->ops[i];
        const lf_method_info *mi = lf_method_info_of(h->type, (lf_method)op->method);
        for (int a = 0; a < (mi ? mi->nargs : 0); a++)
            if (!lf_arg_is_nil(op, a) && op->arg[a] == 1) {
                op->arg_nil |= (uint8_t)(1u << a);
                op->arg[a] = 0;
                changed = true;
            }
        if (op->res_kind == LF_K_INT && op->res == 1) {
            op->res_kind = LF_K_NIL;
            op->res = 0;
            changed = true;
        }
    }
    char err[200];
    return changed && lf_history_validate(h, err, sizeof err) == SIZE_MAX;
}

#endif
