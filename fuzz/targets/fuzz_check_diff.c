/* libFuzzer target: differential testing of the checking engines. The bytes decode (bytes_history.h) into a
 * small well-formed history of any type, often ambiguous, sometimes wrong, sometimes with pending ops; the
 * brute-force oracle decides it and every other engine must agree wherever it decides:
 *   monitor: linearizable/violation equal to brute force (unknown allowed: ambiguity, pending removes);
 *   wgl and auto: always decide, equal to brute force;
 *   hitting: never a violation, and linearizable only when brute force says so.
 * A disagreement prints the history and aborts. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "linfuzz/check.h"
#include "linfuzz/format.h"
#include "bytes_history.h"

static lf_verdict run(const lf_history *h, lf_engine e, lf_result *r) {
    lf_check_options o;
    lf_check_options_default(&o);
    o.engine = e;
    o.timeout_s = 10;
    lf_result_init(r);
    lf_check(h, &o, r);
    return r->verdict;
}

static void disagree(const lf_history *h, const char *engine, lf_verdict got, lf_verdict want, const char *why) {
    fprintf(stderr, "fuzz_check_diff: %s says %s, brute force says %s (%s)\nhistory:\n", engine,
            lf_verdict_name(got), lf_verdict_name(want), why);
    lf_text_write_stream(stderr, h);
    abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    lf_history h;
    if (!lf_history_from_bytes(data, size, &h)) return 0;
    char err[512];
    if (lf_history_validate(&h, err, sizeof err) != SIZE_MAX) {
        fprintf(stderr, "fuzz_check_diff: the decoder produced a malformed history: %s\n", err);
        abort();
    }
    lf_result truth, r;
    lf_verdict want = run(&h, LF_ENGINE_BRUTE, &truth);
    lf_result_free(&truth);
    if (want != LF_UNKNOWN) {
        lf_verdict got = run(&h, LF_ENGINE_MONITOR, &r);
        if (got != LF_UNKNOWN && got != want) disagree(&h, "monitor", got, want, r.reason);
        lf_result_free(&r);
        got = run(&h, LF_ENGINE_WGL, &r);
        if (got != want) disagree(&h, "wgl", got, want, r.reason);
        lf_result_free(&r);
        got = run(&h, LF_ENGINE_AUTO, &r);
        if (got != want) disagree(&h, "auto", got, want, r.reason);
        lf_result_free(&r);
        got = run(&h, LF_ENGINE_HITTING, &r);
        if (got == LF_VIOLATION || (got == LF_LINEARIZABLE && want != LF_LINEARIZABLE))
            disagree(&h, "hitting", got, want, r.reason);
        lf_result_free(&r);
    }
    lf_history_free(&h);
    return 0;
}
