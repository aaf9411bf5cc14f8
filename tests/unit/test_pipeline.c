/* Tests of the checking pipeline (engines/check/pipeline.c, `--engine auto` and `--engine hitting`):
 *  - which engine decides: monitor for unambiguous histories, hitting (with its depth) for small ambiguous
 *    ones with a shallow witness, WGL for deeper witnesses, big parts and every violation;
 *  - split histories (set, kv): per-part decisions, violations named in global op indices, merged
 *    witnesses;
 *  - randomized differential tests against the brute-force oracle on ambiguous histories of every type
 *    (repeated values, empty results, pending ops, corrupted and random histories): same verdict, valid
 *    witnesses, and `--engine hitting` never claims what the oracle refutes. */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "brute/brute.h"
#include "linfuzz/check.h"
#include "check/pipeline.h"
#include "linfuzz/format.h"
#include "linfuzz/generate.h"
#include "test_util.h"
#include "witness_util.h"

static bool parse(const char *text, lf_history *h) {
    char err[256];
    lf_status st = lf_text_read_buffer(text, strlen(text), "inline", h, err, sizeof err);
    if (st != LF_OK) fprintf(stderr, "parse error: %s\n", err);
    return st == LF_OK;
}

static void check_with(const lf_history *h, lf_engine e, bool witness, lf_result *r) {
    lf_check_options o;
    lf_check_options_default(&o);
    o.engine = e;
    o.want_witness = witness;
    lf_result_init(r);
    lf_check(h, &o, r);
}

/* ---- which engine decides ---- */

typedef struct {
    const char *name, *text;
    lf_verdict verdict;
    const char *engine;
    int depth;
} attribution;

static const attribution CASES[] = {
    /* Unambiguous: the monitor. */
    {"unambiguous queue", "type queue\n0 1 5 enq 1\n1 2 6 enq 2\n0 7 8 deq -> 2\n", LF_LINEARIZABLE, "monitor", -1},
    {"unambiguous violation", "type queue\n0 1 2 enq 1\n1 3 4 enq 2\n0 5 6 deq -> 2\n1 7 8 deq -> 1\n",
     LF_VIOLATION, "monitor", -1},
    /* Ambiguous (1 written twice), witness at depth 1. */
    {"ambiguous d1", "type register\n0 0 10 write 1\n1 1 11 write 1\n2 2 12 read -> 1\n", LF_LINEARIZABLE,
     "hitting", 1},
    /* E2 of [Ozkan19]'s examples plus a later write of 1 that makes it ambiguous: depth 2. */
    {"ambiguous d2", "type register\n0 0 10 read -> 0\n1 1 11 write 1\n2 2 12 read -> 1\n0 20 21 write 1\n",
     LF_LINEARIZABLE, "hitting", 2},
    /* E3b (depth 4) made ambiguous: beyond the pipeline's depth 2, so WGL proves it. */
    {"ambiguous d4", "type register\n0 0 10 read -> 0\n1 1 11 write 1\n2 2 12 read -> 1\n3 3 13 write 2\n"
                     "4 4 14 read -> 2\n0 20 21 write 2\n",
     LF_LINEARIZABLE, "wgl", -1},
    /* E4 made ambiguous: a violation, found by WGL. */
    {"ambiguous violation", "type register\n0 0 10 write 1\n1 1 2 read -> 1\n1 3 4 read -> 0\n2 11 12 write 1\n",
     LF_VIOLATION, "wgl", -1},
    /* cas-register is never monitored. Depth 2: the extensions ending with the second cas are not all
     * witnesses, the only witness strongly hits <read, second cas>. */
    {"cas", "type cas-register\n0 0 5 cas 0 1 -> ok\n1 1 6 read -> 1\n2 2 7 cas 1 2 -> ok\n", LF_LINEARIZABLE,
     "hitting", 2},
};

static void test_attribution(void) {
    for (size_t c = 0; c < sizeof CASES / sizeof CASES[0]; c++) {
        const attribution *x = &CASES[c];
        lf_history h;
        if (!parse(x->text, &h)) {
            CHECK(false);
            continue;
        }
        for (int witness = 0; witness < 2; witness++) {
            lf_result r;
            check_with(&h, LF_ENGINE_AUTO, witness, &r);
            CHECKF(r.verdict == x->verdict && strcmp(r.engine, x->engine) == 0 && r.depth == x->depth,
                   "%s%s: %s by %s at depth %d (%s)", x->name, witness ? " (witness)" : "",
                   lf_verdict_name(r.verdict), r.engine, r.depth, r.reason);
            if (witness && r.verdict == LF_LINEARIZABLE)
                CHECKF(r.witness_len && witness_valid(&h, r.witness, r.witness_len), "%s: witness", x->name);
            if (r.verdict == LF_VIOLATION) CHECKF(r.n_culprits > 0, "%s: no culprits", x->name);
            lf_result_free(&r);
        }
        lf_history_free(&h);
    }
}

/* A part whose ops x width exceeds LF_PIPELINE_HITTING_MAX_SIZE skips the families. */
static void test_big_parts(void) {
    char text[4096] = "type register\n";
    size_t len = strlen(text);
    for (int i = 0; i < 20; i++) /* 20 concurrent writes of 1 or 2, then a read of 2 */
        len += (size_t)snprintf(text + len, sizeof text - len, "%d %d %d write %d\n", i, i, 100 + i, 1 + i % 2);
    snprintf(text + len, sizeof text - len, "0 200 201 read -> 2\n");
    lf_history h;
    CHECK(parse(text, &h));
    CHECK(h.n * 20 > LF_PIPELINE_HITTING_MAX_SIZE);
    lf_result r;
    lf_pipeline_stats st;
    lf_pipeline_options po;
    lf_pipeline_options_default(&po);
    lf_result_init(&r);
    lf_pipeline_check(&h, &po, &r, &st);
    CHECK(r.verdict == LF_LINEARIZABLE && strcmp(r.engine, "wgl") == 0 && st.hitting_schedules == 0);
    lf_result_free(&r);
    /* --engine hitting has no size cap of that kind, and proves it at depth 1. */
    check_with(&h, LF_ENGINE_HITTING, true, &r);
    CHECKF(r.verdict == LF_LINEARIZABLE && strcmp(r.engine, "hitting") == 0 && r.depth == 1, "%s by %s d=%d",
           lf_verdict_name(r.verdict), r.engine, r.depth);
    CHECK(witness_valid(&h, r.witness, r.witness_len));
    lf_result_free(&r);
    lf_history_free(&h);
}

/* Split histories: the set and kv specs give every op a key. */
static void test_split(void) {
    /* Key 1 ambiguous (added twice) with a depth-1 witness, key 2 unambiguous and too big for the families
     * (13 ops of width 3), so the monitor's, key 3 ambiguous. */
    char text[4096] = "type set\n0 1 10 add 1 -> true\n1 2 11 remove 1 -> true\n2 3 12 add 1 -> true\n"
                      "3 4 13 contains 1 -> true\n";
    size_t len = strlen(text);
    len += (size_t)snprintf(text + len, sizeof text - len, "4 20 21 add 2 -> true\n");
    for (int i = 0; i < 12; i++)
        len += (size_t)snprintf(text + len, sizeof text - len, "%d %d %d contains 2 -> true\n", 5 + i % 3,
                                30 + 2 * i, 35 + 2 * i);
    snprintf(text + len, sizeof text - len, "0 100 101 add 3 -> true\n1 100 101 add 3 -> false\n");
    lf_history h;
    CHECK(parse(text, &h));
    lf_result r;
    lf_pipeline_stats st;
    lf_pipeline_options po;
    lf_pipeline_options_default(&po);
    po.want_witness = true;
    lf_result_init(&r);
    lf_pipeline_check(&h, &po, &r, &st);
    CHECKF(r.verdict == LF_LINEARIZABLE && st.parts == 3 && r.partitions == 3, "%s, %zu parts",
           lf_verdict_name(r.verdict), st.parts);
    CHECKF(st.by_monitor == 1 && st.by_hitting == 2 && st.by_wgl == 0, "monitor %zu hitting %zu wgl %zu",
           st.by_monitor, st.by_hitting, st.by_wgl);
    CHECKF(strcmp(r.engine, "hitting") == 0 && r.depth == 1, "%s d=%d", r.engine, r.depth);
    CHECK(witness_valid(&h, r.witness, r.witness_len)); /* merged from the parts' witnesses */
    lf_result_free(&r);
    lf_history_free(&h);

    /* A violation in the part of key 7 (ops 2 and 3 of the history): named in global indices. */
    CHECK(parse("type kv\n0 1 2 put 5 1\n1 3 4 get 5 -> 1\n0 5 6 put 7 1\n1 7 8 get 7 -> 2\n0 9 10 put 5 1\n", &h));
    check_with(&h, LF_ENGINE_AUTO, false, &r);
    CHECKF(r.verdict == LF_VIOLATION && strcmp(r.engine, "wgl") == 0 && strstr(r.reason, "key 7") &&
               strstr(r.reason, "op 3"),
           "%s", r.reason);
    bool culprit3 = false;
    for (size_t i = 0; i < r.n_culprits; i++) culprit3 |= r.culprits[i] == 3;
    CHECK(culprit3);
    lf_result_free(&r);
    lf_history_free(&h);
}

/* --engine hitting: linearizable or unknown, never a violation. */
static void test_hitting_engine(void) {
    lf_history h;
    CHECK(parse(CASES[1].text, &h)); /* a violation */
    lf_result r;
    check_with(&h, LF_ENGINE_HITTING, false, &r);
    CHECKF(r.verdict == LF_UNKNOWN && strcmp(r.engine, "hitting") == 0 && r.depth == -1, "%s",
           lf_verdict_name(r.verdict));
    lf_result_free(&r);
    lf_history_free(&h);
    CHECK(parse(CASES[4].text, &h)); /* depth 4: out of reach at the default depth 3, proven with 4 */
    check_with(&h, LF_ENGINE_HITTING, false, &r);
    CHECK(r.verdict == LF_UNKNOWN);
    lf_result_free(&r);
    lf_check_options o;
    lf_check_options_default(&o);
    o.engine = LF_ENGINE_HITTING;
    o.max_depth = 4;
    lf_result_init(&r);
    lf_check(&h, &o, &r);
    CHECK(r.verdict == LF_LINEARIZABLE && r.depth == 4);
    lf_result_free(&r);
    /* An explicit --max-depth replaces the pipeline's depth and work budget: auto proves it by hitting. */
    o.engine = LF_ENGINE_AUTO;
    lf_result_init(&r);
    lf_check(&h, &o, &r);
    CHECK(r.verdict == LF_LINEARIZABLE && strcmp(r.engine, "hitting") == 0 && r.depth == 4);
    lf_result_free(&r);
    lf_history_free(&h);
}

/* ---- differential tests against brute force ---- */

static void test_differential(void) {
    const lf_type types[] = {LF_TYPE_REGISTER, LF_TYPE_CAS_REGISTER, LF_TYPE_SET, LF_TYPE_STACK, LF_TYPE_QUEUE,
                             LF_TYPE_PQUEUE, LF_TYPE_KV, LF_TYPE_COUNTER, LF_TYPE_DEQUE};
    const lf_gen_small_mode modes[] = {LF_GEN_CONSTRUCTED, LF_GEN_CORRUPTED, LF_GEN_RANDOM};
    size_t histories = 0, disagree = 0, bad_witness = 0, hitting_unsound = 0, unknown = 0;
    size_t by_engine[4] = {0}; /* monitor, hitting, wgl, other */
    size_t lin = 0, viol = 0, hitting_engine_proofs = 0;
    for (uint64_t seed = 1; seed <= 9000; seed++) {
        lf_type type = types[seed % 9];
        lf_gen_small_options go;
        lf_gen_small_options_default(&go, type, modes[(seed / 9) % 3]);
        go.min_ops = 3;
        go.max_ops = seed % 5 == 0 ? 20 : 12; /* some parts above the families' size cap */
        go.max_threads = 2 + (uint32_t)(seed % 5);
        go.values = 1 + seed % 3; /* repeated values: ambiguous */
        go.pending = seed % 4 == 0 ? 0.4 : 0;
        lf_history h;
        if (!lf_gen_small(seed, &go, &h)) continue;
        histories++;
        lf_brute_options bo;
        lf_brute_options_default(&bo);
        lf_result br, ra, rh;
        lf_result_init(&br);
        lf_brute_check(&h, &bo, &br);
        check_with(&h, LF_ENGINE_AUTO, true, &ra);
        check_with(&h, LF_ENGINE_HITTING, true, &rh);
        if (br.verdict == LF_LINEARIZABLE) lin++;
        if (br.verdict == LF_VIOLATION) viol++;
        if (ra.verdict == LF_UNKNOWN || br.verdict == LF_UNKNOWN) unknown++;
        if (ra.verdict != br.verdict) {
            disagree++;
            if (disagree <= 5)
                fprintf(stderr, "seed %llu (%s, %zu ops): auto %s by %s (%s), brute %s\n", (unsigned long long)seed,
                        lf_type_name(type), h.n, lf_verdict_name(ra.verdict), ra.engine, ra.reason,
                        lf_verdict_name(br.verdict));
        }
        if (ra.verdict == LF_LINEARIZABLE) {
            bad_witness += !witness_valid(&h, ra.witness, ra.witness_len);
            int e = !strcmp(ra.engine, "monitor") ? 0 : !strcmp(ra.engine, "hitting") ? 1 : !strcmp(ra.engine, "wgl") ? 2 : 3;
            by_engine[e]++;
            CHECK((e == 1) == (ra.depth >= 1));
        } else if (ra.verdict == LF_VIOLATION) {
            CHECK(!strcmp(ra.engine, "monitor") || !strcmp(ra.engine, "wgl"));
        }
        if (rh.verdict == LF_LINEARIZABLE) {
            hitting_engine_proofs++;
            hitting_unsound += br.verdict != LF_LINEARIZABLE || !witness_valid(&h, rh.witness, rh.witness_len);
        } else {
            CHECK(rh.verdict == LF_UNKNOWN);
        }
        lf_result_free(&br);
        lf_result_free(&ra);
        lf_result_free(&rh);
        lf_history_free(&h);
    }
    CHECKF(disagree == 0, "%zu of %zu histories: auto and brute force disagree", disagree, histories);
    CHECKF(bad_witness == 0, "%zu invalid witnesses from auto", bad_witness);
    CHECKF(hitting_unsound == 0, "%zu bad proofs from --engine hitting", hitting_unsound);
    CHECKF(unknown == 0, "%zu unknown verdicts", unknown);
    CHECKF(by_engine[3] == 0, "%zu linearizable verdicts by an unexpected engine", by_engine[3]);
    /* The mix exercises every stage. */
    CHECK(lin > 1000 && viol > 1000 && by_engine[1] > 500 && by_engine[2] > 100);
    printf("differential: %zu histories (%zu linearizable, %zu violations); linearizable by monitor %zu, hitting "
           "%zu, wgl %zu; --engine hitting proved %zu\n",
           histories, lin, viol, by_engine[0], by_engine[1], by_engine[2], hitting_engine_proofs);
}

int main(void) {
    test_attribution();
    test_big_parts();
    test_split();
    test_hitting_engine();
    test_differential();
    TEST_DONE();
}
