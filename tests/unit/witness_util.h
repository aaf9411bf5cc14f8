/* Test helper: is an order a valid linearization witness of a history? It must hold every completed op
 * once (and only pending ops besides), respect real-time order, and replay on the type's spec with every
 * recorded result reproduced. Used by the hitting and pipeline tests. */
#ifndef LINFUZZ_TEST_WITNESS_UTIL_H
#define LINFUZZ_TEST_WITNESS_UTIL_H

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

#include "linfuzz/history.h"
#include "linfuzz/spec.h"

static bool witness_valid(const lf_history *h, const uint32_t *w, size_t len) {
    size_t n = h->n;
    bool *in = calloc(n ? n : 1, 1);
    bool ok = in != NULL;
    for (size_t i = 0; ok && i < len; i++) {
        ok = w[i] < n && !in[w[i]];
        if (ok) in[w[i]] = true;
    }
    for (size_t i = 0; ok && i < n; i++) ok = in[i] || lf_op_pending(&h->ops[i]);
    for (size_t i = 0; ok && i < len; i++)
        for (size_t j = i + 1; ok && j < len; j++) ok = !lf_precedes(&h->ops[w[j]], &h->ops[w[i]]);
    free(in);
    if (!ok) return false;
    const lf_spec *spec = lf_spec_builtin(h->type);
    lf_spec_env env;
    lf_spec_env_of_history(h, &env);
    lf_spec_inst inst;
    if (!lf_spec_open(spec, &env, &inst)) return false;
    unsigned char *a = calloc(1, inst.state_size + 8), *b = calloc(1, inst.state_size + 8);
    ok = a && b;
    if (ok) lf_spec_init(&inst, a);
    for (size_t i = 0; ok && i < len; i++) {
        ok = lf_spec_step(&inst, a, &h->ops[w[i]], b);
        unsigned char *t = a;
        a = b;
        b = t;
    }
    free(a);
    free(b);
    lf_spec_close(&inst);
    return ok;
}

#endif
