/* Contracts (docs/contracts.md): the text and .lfz formats of the contract line (and that histories without one
 * read and write exactly as before), the checkers against the brute-force oracle on thousands of small histories
 * of every contract (constructed, corrupted, random; bounded or not; pending ops; repeated values), the relaxed
 * specs against the built-in ones where they must agree (k-relaxed 1 is the type's own order), the count rule on
 * the behaviours it is made for (DPDK rings and stacks, Vyukov's queue), the monitors on large generated histories,
 * and the minimiser's output under every contract. Each randomized part runs a fixed number of cases (fewer under
 * the sanitizers) and prints the seed of a failure. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "brute/brute.h"
#include "linfuzz/check.h"
#include "linfuzz/format.h"
#include "linfuzz/generate.h"
#include "linfuzz/lfz.h"
#include "linfuzz/minimize.h"
#include "contract_test_util.h"
#include "history_test_util.h"
#include "test_util.h"

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define SANITIZED 1
#endif
#endif
#ifndef SANITIZED
#define SANITIZED 0
#endif

/* Why a comparison failed, with its seed and the history. */
static void report_failure(const char *why, uint64_t seed, const lf_history *h) {
    fprintf(stderr, "%s (seed %llu):\n", why, (unsigned long long)seed);
    print_history(h);
}

/* ---- the words and the formats ---- */

static void test_words(void) {
    static const char *const canonical[] = {"linearizable", "k-relaxed 1", "k-relaxed 65536", "per-producer", "bag",
                                            "lagging-full-empty", "quiescent-full-empty", "weak-full-empty",
                                            "bag unchecked-full-empty",
                                            "k-relaxed 3 lagging-full-empty",
                                            "bag quiescent-full-empty", "per-producer lagging-full-empty"};
    for (size_t i = 0; i < sizeof canonical / sizeof *canonical; i++) {
        lf_contract c = contract_of(canonical[i]);
        char text[96];
        lf_contract_format(text, sizeof text, &c);
        CHECKF(!strcmp(text, canonical[i]), "'%s' formats as '%s'", canonical[i], text);
    }
    /* the order of the words does not matter; the canonical text puts the order first */
    lf_contract c = contract_of("  lagging-full-empty   k-relaxed 2 ");
    CHECK(c.order == LF_ORDER_K_RELAXED && c.k == 2 && c.full_empty == LF_FULL_EMPTY_LAGGING);
    c = contract_of("linearizable");
    CHECK(lf_contract_is_default(&c));
    static const struct {
        const char *text, *why;
    } bad[] = {{"", "expected 'contract <words>'"},
               {"k-relaxed", "k-relaxed needs its K"},
               {"k-relaxed 0", "k-relaxed needs its K"},
               {"k-relaxed 65537", "k-relaxed needs its K"},
               {"k-relaxed x", "k-relaxed needs its K"},
               {"bag bag", "a second order word"},
               {"bag per-producer", "a second order word"},
               {"lagging-full-empty quiescent-full-empty", "a second full/empty word"},
               {"weak-full-empty lagging-full-empty", "a second full/empty word"},
               {"fifo", "unknown word 'fifo'"},
               {"linearizable bag", "'linearizable' stands alone"}};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        char err[256] = "";
        lf_contract x;
        CHECKF(!lf_contract_parse(bad[i].text, &x, err, sizeof err) && strstr(err, bad[i].why), "'%s': '%s'",
               bad[i].text, err);
    }
    char err[256];
    c = contract_of("per-producer");
    CHECK(lf_contract_valid(LF_TYPE_QUEUE, &c, err, sizeof err));
    CHECK(!lf_contract_valid(LF_TYPE_STACK, &c, err, sizeof err) && strstr(err, "only for queue"));
    c = contract_of("bag");
    CHECK(lf_contract_valid(LF_TYPE_STACK, &c, err, sizeof err));
    CHECK(!lf_contract_valid(LF_TYPE_DEQUE, &c, err, sizeof err) && strstr(err, "only for stack and queue"));
    CHECK(!lf_contract_valid(LF_TYPE_SET, &c, err, sizeof err));
    lf_contract none = {0, 0, 0};
    CHECK(lf_contract_valid(LF_TYPE_KV, &none, err, sizeof err));
}

static void test_text_format(void) {
    const char *text = "# linfuzz history 1\ntype queue\ncapacity 2\ncontract k-relaxed 2 lagging-full-empty\n"
                       "0 1 2 enq 1\n1 3 4 deq -> empty\n";
    lf_history h;
    char err[512];
    CHECK(read_text(text, &h, err, sizeof err) == LF_OK);
    CHECK(h.contract.order == LF_ORDER_K_RELAXED && h.contract.k == 2 &&
          h.contract.full_empty == LF_FULL_EMPTY_LAGGING && h.capacity == 2);
    char *again = history_text(&h);
    CHECKF(again && !strcmp(again, text), "canonical text differs:\n%s", again ? again : "(null)");
    free(again);
    lf_history_free(&h);
    /* the contract line may come before the capacity line; "contract linearizable" is the default */
    CHECK(read_text("type stack\ncontract bag\ncapacity 1\n", &h, err, sizeof err) == LF_OK);
    CHECK(h.contract.order == LF_ORDER_BAG && h.capacity == 1);
    lf_history_free(&h);
    CHECK(read_text("type queue\ncontract linearizable\n0 1 2 enq 1\n", &h, err, sizeof err) == LF_OK);
    CHECK(lf_contract_is_default(&h.contract));
    again = history_text(&h);
    CHECK(again && !strstr(again, "contract"));
    free(again);
    lf_history_free(&h);

    expect_refused("contract bag\ntype queue\n", "t.hist:1: 'contract' before the 'type' line");
    expect_refused("type queue\ncontract bag\ncontract bag\n", "t.hist:3: a second 'contract' line");
    expect_refused("type queue\n0 1 2 enq 1\ncontract bag\n", "t.hist:3: 'contract' after the first operation");
    expect_refused("type queue\ncontract\n", "t.hist:2: expected 'contract <words>'");
    expect_refused("type queue\ncontract k-relaxed\n", "t.hist:2: contract: k-relaxed needs its K");
    expect_refused("type set\ncontract bag\n", "t.hist:2: contract 'bag' is only for stack and queue, not set");
    expect_refused("type stack\ncontract per-producer\n", "t.hist:2: contract 'per-producer': per-producer order is "
                                                         "only for queue, not stack");
    expect_refused("type queue\ncontract bag # a pool\ncontract bag\n", "t.hist:3: a second 'contract' line");

    /* in-memory histories are validated too */
    lf_history_init(&h, LF_TYPE_KV);
    h.contract = contract_of("bag");
    CHECK(lf_history_validate(&h, err, sizeof err) != SIZE_MAX && strstr(err, "only for stack and queue"));
    lf_history_free(&h);
}

static void test_lfz_format(void) {
    lf_history h, back;
    char err[512];
    /* every contract survives .lfz */
    static const char *const contracts[] = {"k-relaxed 7", "per-producer", "bag lagging-full-empty",
                                            "quiescent-full-empty"};
    for (size_t i = 0; i < sizeof contracts / sizeof *contracts; i++) {
        char text[256];
        snprintf(text, sizeof text, "type queue\ncapacity %zu\ncontract %s\n0 1 2 enq 1\n1 3 4 deq -> 1\n", i,
                 contracts[i]);
        if (i == 0) snprintf(text, sizeof text, "type queue\ncontract %s\n0 1 2 enq 1\n1 3 4 deq -> 1\n", contracts[i]);
        CHECK(read_text(text, &h, err, sizeof err) == LF_OK);
        uint8_t *buf = NULL;
        size_t len = 0;
        lf_lfz_writer w;
        lf_lfz_writer_init(&w);
        CHECK(lf_lfz_add_history(&w, "history", &h, err, sizeof err) == LF_OK);
        CHECK(lf_lfz_encode(&w, LF_LFZ_DEFAULT_LEVEL, &buf, &len, err, sizeof err) == LF_OK);
        lf_lfz_writer_free(&w);
        lf_lfz_reader r;
        CHECK(lf_lfz_decode(&r, buf, len, "x.lfz", err, sizeof err) == LF_OK);
        CHECK(lf_lfz_get_history(&r, lf_lfz_history_section(&r, 0), &back, err, sizeof err) == LF_OK);
        CHECK(back.capacity == h.capacity && lf_contract_equal(&back.contract, &h.contract) && back.n == 2);
        lf_history_free(&back);
        lf_lfz_reader_free(&r);
        free(buf);
        lf_history_free(&h);
    }
}

/* ---- every checker against brute force ---- */

typedef struct combo {
    lf_type type;
    const char *contract;
} combo;

static const combo COMBOS[] = {
    {LF_TYPE_QUEUE, "k-relaxed 1"},          {LF_TYPE_QUEUE, "k-relaxed 2"},
    {LF_TYPE_QUEUE, "k-relaxed 3"},          {LF_TYPE_STACK, "k-relaxed 1"},
    {LF_TYPE_STACK, "k-relaxed 2"},          {LF_TYPE_QUEUE, "per-producer"},
    {LF_TYPE_QUEUE, "bag"},                  {LF_TYPE_STACK, "bag"},
    {LF_TYPE_QUEUE, "lagging-full-empty"},   {LF_TYPE_STACK, "lagging-full-empty"},
    {LF_TYPE_QUEUE, "quiescent-full-empty"}, {LF_TYPE_STACK, "quiescent-full-empty"},
    {LF_TYPE_QUEUE, "k-relaxed 2 lagging-full-empty"}, {LF_TYPE_QUEUE, "per-producer quiescent-full-empty"},
    {LF_TYPE_STACK, "bag lagging-full-empty"},   {LF_TYPE_QUEUE, "weak-full-empty"},
    {LF_TYPE_STACK, "k-relaxed 2 weak-full-empty"}, {LF_TYPE_QUEUE, "bag unchecked-full-empty"},
};
#define N_COMBOS (sizeof COMBOS / sizeof *COMBOS)

static void test_engines_agree(void) {
    static const lf_gen_small_mode modes[] = {LF_GEN_CONSTRUCTED, LF_GEN_CORRUPTED, LF_GEN_RANDOM};
    static const lf_engine engines[] = {LF_ENGINE_AUTO, LF_ENGINE_WGL, LF_ENGINE_HITTING, LF_ENGINE_MONITOR};
    uint64_t cases = SANITIZED ? 40 : 160;
    size_t counts[2] = {0, 0}, monitor_decided = 0, minimized = 0, relaxed_only = 0;
    for (size_t c = 0; c < N_COMBOS; c++)
        for (size_t m = 0; m < 3; m++)
            for (uint64_t seed = 1; seed <= cases; seed++) {
                lf_gen_small_options so;
                lf_gen_small_options_default(&so, COMBOS[c].type, modes[m]);
                so.contract = contract_of(COMBOS[c].contract);
                so.capacity = seed % 3 == 0 ? 0 : 1 + seed % 3;
                so.max_ops = 9;
                so.max_threads = 3 + seed % 2;
                so.pending = seed % 4 == 0 ? 0.3 : 0;
                so.values = seed % 5 == 0 ? 3 : 0;
                lf_history h;
                CHECK(lf_gen_small(seed * 131 + c * 7 + m, &so, &h));
                lf_verdict truth = brute_verdict(&h, 0);
                CHECK(truth != LF_UNKNOWN);
                counts[truth == LF_VIOLATION]++;
                if (modes[m] == LF_GEN_CONSTRUCTED && truth != LF_LINEARIZABLE)
                    report_failure("constructed but not under its contract", seed, &h);
                CHECK(modes[m] != LF_GEN_CONSTRUCTED || truth == LF_LINEARIZABLE);
                for (size_t e = 0; e < 4; e++) {
                    lf_verdict v = verdict_of(&h, engines[e], 10);
                    if (v != LF_UNKNOWN && v != truth) {
                        char why[160];
                        snprintf(why, sizeof why, "%s says %s, brute force %s (%s)", lf_engine_name(engines[e]),
                                 lf_verdict_name(v), lf_verdict_name(truth), COMBOS[c].contract);
                        report_failure(why, seed, &h);
                    }
                    CHECK(v == LF_UNKNOWN || v == truth);
                    if (engines[e] == LF_ENGINE_AUTO) CHECK(v == truth);
                    if (engines[e] == LF_ENGINE_MONITOR && v != LF_UNKNOWN) monitor_decided++;
                }
                /* the contract is weaker than linearizability: what is linearizable satisfies it */
                lf_history strict = h;
                strict.contract = (lf_contract){0, 0, 0};
                lf_verdict lin = brute_verdict(&strict, 0);
                CHECK(!(lin == LF_LINEARIZABLE && truth == LF_VIOLATION));
                relaxed_only += lin == LF_VIOLATION && truth == LF_LINEARIZABLE;
                if (truth == LF_VIOLATION) {
                    lf_minimize_options mo;
                    lf_minimize_options_default(&mo);
                    lf_history small;
                    CHECK(lf_minimize(&h, &mo, &small, NULL) == LF_VIOLATION);
                    CHECK(small.n <= h.n && lf_contract_equal(&small.contract, &h.contract));
                    lf_verdict sv = brute_verdict(&small, 0);
                    if (sv != LF_VIOLATION) report_failure("minimised into a non-violation", seed, &h);
                    CHECK(sv == LF_VIOLATION);
                    minimized += small.n < h.n;
                    lf_history_free(&small);
                }
                lf_history_free(&h);
            }
    printf("contracts: %zu satisfied, %zu violations, %zu satisfied only under the contract, monitor decided %zu, "
           "%zu minimised\n",
           counts[0], counts[1], relaxed_only, monitor_decided, minimized);
    CHECK(counts[0] > cases * N_COMBOS / 2 && counts[1] > cases * N_COMBOS / 2);
    CHECK(relaxed_only > cases && monitor_decided > cases && minimized > cases);
}

/* k-relaxed 1 is the type's own order: the relaxed spec and the built-in one agree on every history. */
static void test_k1_is_exact(void) {
    uint64_t cases = SANITIZED ? 300 : 1500;
    size_t both[2] = {0, 0};
    for (uint64_t seed = 1; seed <= cases; seed++) {
        lf_type t = seed % 2 ? LF_TYPE_QUEUE : LF_TYPE_STACK;
        lf_gen_small_options so;
        lf_gen_small_options_default(&so, t, seed % 3 == 0 ? LF_GEN_RANDOM : LF_GEN_CORRUPTED);
        so.max_ops = 14;
        so.values = seed % 4 == 0 ? 4 : 0;
        so.pending = seed % 3 == 0 ? 0.3 : 0;
        so.capacity = seed % 5 == 0 ? 2 : 0;
        lf_history h;
        CHECK(lf_gen_small(seed, &so, &h));
        lf_verdict exact = verdict_of(&h, LF_ENGINE_WGL, 10);
        h.contract = contract_of("k-relaxed 1");
        lf_verdict relaxed = verdict_of(&h, LF_ENGINE_WGL, 10);
        if (exact != relaxed) report_failure("k-relaxed 1 and linearizable disagree", seed, &h);
        CHECK(exact == relaxed);
        if (exact != LF_UNKNOWN) both[exact == LF_VIOLATION]++;
        lf_history_free(&h);
    }
    CHECK(both[0] > cases / 10 && both[1] > cases / 10);
}

/* ---- what the full/empty contracts are for ---- */

typedef struct expect {
    const char *name, *text;
    lf_verdict exact, lagging, quiescent, weak;
} expect;

static void test_behaviours(void) {
    static const expect cases[] = {
        /* DPDK rte_ring MP/MC, capacity 1: an enqueue reserved the slot and has not published it; another enqueue
         * sees the slot taken (full), a dequeue sees nothing published (empty). */
        {"ring: reserved, unpublished slot", "type queue\ncapacity 1\n0 1 20 enq 1\n1 2 3 enq 2 -> full\n"
                                             "2 4 5 deq -> empty\n2 21 22 deq -> 1\n",
         LF_VIOLATION, LF_LINEARIZABLE, LF_LINEARIZABLE, LF_LINEARIZABLE},
        /* the dequeue side: a dequeue reserved the only value and has not released its slot */
        {"ring: reserved, unreleased slot", "type queue\ncapacity 1\n0 1 2 enq 1\n1 3 20 deq -> 1\n2 4 5 deq -> empty\n"
                                            "2 6 7 enq 2 -> full\n",
         LF_VIOLATION, LF_LINEARIZABLE, LF_LINEARIZABLE, LF_LINEARIZABLE},
        /* rte_stack (lock-free): a push linked x and has not raised the length; a pop that reserved the length of a
         * took x; the next pop sees length 0 although a is in the stack, its push long done */
        {"rte_stack: length lags the list", "type stack\n0 1 2 push 1\n1 3 20 push 2\n2 4 5 pop -> 2\n"
                                            "3 6 7 pop -> empty\n",
         LF_VIOLATION, LF_LINEARIZABLE, LF_LINEARIZABLE, LF_LINEARIZABLE},
        /* Vyukov's bounded queue: the enqueuer of position 0 pauses after claiming it, a second enqueuer fills
         * position 1 and returns, a dequeue answers empty (position 0 not written) */
        {"Vyukov: stalled enqueuer", "type queue\ncapacity 4\n0 1 20 enq 1\n1 2 3 enq 2\n2 4 5 deq -> empty\n",
         LF_VIOLATION, LF_VIOLATION, LF_LINEARIZABLE, LF_VIOLATION},
        /* DPDK RTS ring: the tail moves only when the last of the overlapping enqueues finishes: both returned,
         * yet their values are not visible while a third one is in flight */
        {"RTS: overlapping enqueues", "type queue\n0 1 5 enq 1\n1 4 8 enq 2\n2 7 20 enq 3\n3 9 10 deq -> empty\n",
         LF_VIOLATION, LF_VIOLATION, LF_LINEARIZABLE, LF_VIOLATION},
        /* quiescent, but an insert in flight does not hide a value whose insert returned before it was called */
        {"quiescence came", "type queue\n0 1 2 enq 1\n1 4 20 enq 2\n2 5 6 deq -> empty\n", LF_VIOLATION,
         LF_VIOLATION, LF_VIOLATION, LF_VIOLATION},
        /* a full answer while nothing was in flight, one place free */
        {"full with room", "type stack\ncapacity 2\n0 1 2 push 1\n1 3 4 push 2 -> full\n", LF_VIOLATION, LF_VIOLATION,
         LF_VIOLATION, LF_VIOLATION},
        /* a remove in flight: the dequeue took the value and has not freed the place (the count of the full
         * side waits for its return) */
        {"full while a remove is in flight", "type queue\ncapacity 1\n0 1 2 enq 1\n1 3 10 deq -> 1\n"
                                             "2 4 5 enq 2 -> full\n",
         LF_LINEARIZABLE, LF_LINEARIZABLE, LF_LINEARIZABLE, LF_LINEARIZABLE},
        /* the rest must still be linearizable: a relaxed empty answer does not excuse a FIFO violation */
        {"FIFO still holds", "type queue\n0 1 2 enq 1\n0 3 4 enq 2\n1 5 6 deq -> 2\n", LF_VIOLATION, LF_VIOLATION,
         LF_VIOLATION, LF_VIOLATION},
        /* Scal's k-FIFO: a dequeue scans the slots one by one and finds each free or taken at the moment it looks,
         * while a value goes in behind it and another comes out before it: never an empty moment, but every value
         * was out at some moment of it */
        {"scan of slots", "type queue\n0 1 2 enq 1\n1 3 20 deq -> empty\n2 4 5 enq 2\n3 6 7 deq -> 1\n",
         LF_VIOLATION, LF_VIOLATION, LF_VIOLATION, LF_LINEARIZABLE},
        /* weak, but a value certainly inside throughout: inserted before the call, no remove called at all */
        {"inside throughout", "type queue\n0 1 2 enq 1\n1 3 20 deq -> empty\n2 4 5 enq 2\n", LF_VIOLATION,
         LF_VIOLATION, LF_VIOLATION, LF_VIOLATION},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        lf_history h;
        char err[512];
        CHECKF(read_text(cases[i].text, &h, err, sizeof err) == LF_OK, "%s", err);
        static const char *const fe[] = {"linearizable", "lagging-full-empty", "quiescent-full-empty",
                                         "weak-full-empty"};
        /* with unchecked answers only the values count: every case here but the FIFO one passes */
        h.contract = contract_of("unchecked-full-empty");
        lf_verdict un = verdict_of(&h, LF_ENGINE_AUTO, 10);
        CHECKF(un == (strstr(cases[i].name, "FIFO") ? LF_VIOLATION : LF_LINEARIZABLE) && un == brute_verdict(&h, 0),
               "%s under unchecked-full-empty: %s", cases[i].name, lf_verdict_name(un));
        const lf_verdict want[] = {cases[i].exact, cases[i].lagging, cases[i].quiescent, cases[i].weak};
        for (int m = 0; m < 4; m++) {
            h.contract = contract_of(fe[m]);
            lf_verdict got = verdict_of(&h, LF_ENGINE_AUTO, 10), brute = brute_verdict(&h, 0);
            CHECKF(got == want[m] && brute == want[m], "%s under %s: %s (brute force %s), expected %s", cases[i].name,
                   fe[m], lf_verdict_name(got), lf_verdict_name(brute), lf_verdict_name(want[m]));
        }
        lf_history_free(&h);
    }
}

/* ---- large generated histories: the monitors decide them ---- */

static void test_generated(void) {
    static const struct {
        lf_type type;
        const char *contract;
        bool monitor; /* expected to be decided by the monitors */
    } gens[] = {
        {LF_TYPE_QUEUE, "k-relaxed 4", true},      {LF_TYPE_QUEUE, "per-producer", true},
        {LF_TYPE_QUEUE, "bag", true},              {LF_TYPE_STACK, "bag", true},
        {LF_TYPE_QUEUE, "lagging-full-empty", true}, {LF_TYPE_STACK, "quiescent-full-empty", true},
        {LF_TYPE_QUEUE, "bag lagging-full-empty", true}, {LF_TYPE_QUEUE, "k-relaxed 4 weak-full-empty", true},
    };
    size_t n_ops = SANITIZED ? 4000 : 40000;
    for (size_t g = 0; g < sizeof gens / sizeof *gens; g++)
        for (uint64_t seed = 1; seed <= 3; seed++) {
            lf_gen_options o;
            lf_gen_options_default(&o);
            o.type = gens[g].type;
            o.n_ops = n_ops;
            o.threads = 4 + 4 * (uint32_t)seed;
            o.seed = seed;
            o.empty = 0.3;
            o.contract = contract_of(gens[g].contract);
            o.spurious = o.contract.full_empty ? 0.05 : 0;
            lf_history h;
            char err[256];
            CHECKF(lf_gen_history(&o, &h, err, sizeof err), "%s", err);
            lf_check_options co;
            lf_check_options_default(&co);
            co.timeout_s = 60;
            lf_result r;
            lf_result_init(&r);
            lf_check(&h, &co, &r);
            CHECKF(r.verdict == LF_LINEARIZABLE && (!gens[g].monitor || !strcmp(r.engine, "monitor")),
                   "%s %s seed %llu: %s [%s] %s", lf_type_name(gens[g].type), gens[g].contract,
                   (unsigned long long)seed, lf_verdict_name(r.verdict), r.engine, r.reason);
            lf_result_free(&r);
            lf_history_free(&h);
            /* the same with injected bugs: a forbidden answer is a violation for sure */
            o.bad = 8;
            CHECKF(lf_gen_history(&o, &h, err, sizeof err), "%s", err);
            lf_result_init(&r);
            lf_check(&h, &co, &r);
            CHECKF(r.verdict == LF_VIOLATION || !o.contract.full_empty, "%s %s seed %llu with bugs: %s [%s] %s",
                   lf_type_name(gens[g].type), gens[g].contract, (unsigned long long)seed, lf_verdict_name(r.verdict),
                   r.engine, r.reason);
            lf_result_free(&r);
            lf_history_free(&h);
        }
}

int main(void) {
    test_words();
    test_text_format();
    test_lfz_format();
    test_behaviours();
    test_k1_is_exact();
    test_engines_agree();
    test_generated();
    TEST_DONE();
}
