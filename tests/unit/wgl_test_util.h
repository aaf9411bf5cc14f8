/* Helpers shared by the WGL tests: the configurations every history runs under, reading the "# expect:" line of
 * a case file and checking that a
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
#include "wgl/wgl.h"

/* The WGL configurations the tests run every history under: P-compositionality on or off, the cache on or
 * off, the cache keyed by bitsets. Each must give the same verdict. */
typedef struct wgl_variant {
    const char *name;
    bool partition, use_cache, bitset_key;
} wgl_variant;

static const wgl_variant WGL_VARIANTS[] = {
    {"default", true, true, false},
    {"unsplit", false, true, false},
    {"no-cache", true, false, false},
    {"bitset-key", false, true, true},
};
#define N_WGL_VARIANTS (sizeof WGL_VARIANTS / sizeof WGL_VARIANTS[0])

/* The options of variant v: the defaults otherwise, a witness wanted. */
static inline void wgl_variant_options(const wgl_variant *v, lf_wgl_options *o) {
    lf_wgl_options_default(o);
    o->partition = v->partition;
    o->use_cache = v->use_cache;
    o->bitset_key = v->bitset_key;
    o->want_witness = true;
}

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

#endif
