/* libFuzzer target: differential testing of the checking engines. The bytes decode (bytes_history.h) into a
 * small well-formed history of any type, often ambiguous, sometimes wrong, sometimes with pending ops, with
 * values, thread ids and stamps sometimes at the edges of their ranges; the brute-force oracle decides it and
 * every other engine must agree wherever it decides:
 *   monitor: linearizable/violation equal to brute force (unknown allowed: ambiguity, pending removes, types
 *            without a monitor);
 *   wgl and auto: always decide, equal to brute force;
 *   hitting: never a violation, and linearizable only when brute force says so.
 * Then the same history with its stamps remapped by every order-preserving map of stamp_remap.h (largest at
 * 2^64-1, smallest at 0, dense at either end, a random spread over the whole range) goes through every engine
 * again, brute force included: each must give exactly the verdict it gave on the original, since stamps only
 * matter by order. A disagreement prints the history and aborts. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bytes_history.h"
#include "generate/stamp_remap.h"
#include "linfuzz/check.h"
#include "linfuzz/format.h"

static const lf_engine ENGINES[] = {LF_ENGINE_BRUTE, LF_ENGINE_MONITOR, LF_ENGINE_WGL, LF_ENGINE_AUTO,
                                    LF_ENGINE_HITTING};
#define N_ENGINES (sizeof ENGINES / sizeof ENGINES[0])

static lf_verdict run(const lf_history *h, lf_engine e, char *why, size_t whylen) {
    lf_check_options o;
    lf_check_options_default(&o);
    o.engine = e;
    o.timeout_s = 10;
    lf_result r;
    lf_result_init(&r);
    lf_check(h, &o, &r);
    snprintf(why, whylen, "%s", r.reason);
    lf_result_free(&r);
    return r.verdict;
}

static void fail(const lf_history *h, const char *fmt, const char *a, const char *b, const char *c, const char *why) {
    fprintf(stderr, "fuzz_check_diff: ");
    fprintf(stderr, fmt, a, b, c);
    fprintf(stderr, " (%s)\nhistory:\n", why);
    lf_text_write_stream(stderr, h);
    abort();
}

/* Whether engine e's verdict got is acceptable next to brute force's want. */
static bool agrees(lf_engine e, lf_verdict got, lf_verdict want) {
    switch (e) {
    case LF_ENGINE_MONITOR: return got == LF_UNKNOWN || got == want;
    case LF_ENGINE_HITTING: return got == LF_UNKNOWN || (got == LF_LINEARIZABLE && want == LF_LINEARIZABLE);
    default: return got == want;
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    lf_history h;
    if (!lf_history_from_bytes(data, size, &h)) return 0;
    char err[512];
    if (lf_history_validate(&h, err, sizeof err) != SIZE_MAX) {
        fprintf(stderr, "fuzz_check_diff: the decoder produced a malformed history: %s\n", err);
        abort();
    }
    lf_verdict base[N_ENGINES];
    char why[512];
    for (size_t e = 0; e < N_ENGINES; e++) {
        base[e] = run(&h, ENGINES[e], why, sizeof why);
        if (base[0] != LF_UNKNOWN && !agrees(ENGINES[e], base[e], base[0]))
            fail(&h, "%s says %s, brute force says %s", lf_engine_name(ENGINES[e]), lf_verdict_name(base[e]),
                 lf_verdict_name(base[0]), why);
    }
    uint64_t seed = 0;
    for (size_t i = 0; i < size; i++) seed = seed * 131 + data[i];
    for (int m = 0; m < LF_STAMPS_MAP_COUNT; m++) {
        lf_history c;
        if (!lf_history_copy(&c, &h)) break;
        if (!lf_history_remap_stamps(&c, (lf_stamp_map)m, seed)) {
            lf_history_free(&c);
            break;
        }
        if (lf_history_validate(&c, err, sizeof err) != SIZE_MAX)
            fail(&c, "stamps %s%s%s: the remapped history is malformed", lf_stamp_map_name((lf_stamp_map)m), "", "",
                 err);
        for (size_t e = 0; e < N_ENGINES; e++) {
            lf_verdict got = run(&c, ENGINES[e], why, sizeof why);
            if (got != base[e])
                fail(&c, "stamps %s: %s says %s on the remapped copy (and something else on the original)",
                     lf_stamp_map_name((lf_stamp_map)m), lf_engine_name(ENGINES[e]), lf_verdict_name(got), why);
        }
        lf_history_free(&c);
    }
    lf_history_free(&h);
    return 0;
}
