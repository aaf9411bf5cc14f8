/* Test helper: is an order a valid linearization witness of a history? It must hold every completed op
 * once (and only pending ops besides), respect real-time order, and replay on the type's spec with every
 * recorded result reproduced. Used by the hitting and pipeline tests; the check itself is the WGL tests'
 * order_is_valid (wgl_test_util.h). */
#ifndef LINFUZZ_TEST_WITNESS_UTIL_H
#define LINFUZZ_TEST_WITNESS_UTIL_H

#include <stdbool.h>
#include <stdint.h>

#include "linfuzz/history.h"
#include "linfuzz/spec.h"
#include "wgl_test_util.h"

static bool witness_valid(const lf_history *h, const uint32_t *w, size_t len) {
    lf_spec_env env;
    lf_spec_env_of_history(h, &env);
    char why[256];
    return order_is_valid(lf_spec_of_history(h), &env, w, len, true, why, sizeof why);
}

#endif
