/* The self-spec through adapters (runtime/include/runtime/adapter_oracle.h, adapter_check.h): the serial behaviour of the
 * mutex references and of the correct bundled adapters agrees with the built-in specs on random histories
 * (verdicts; witnesses replayed on the built-in specs); an adapter wrongly marked deterministic is caught as
 * SERIAL_NONDETERMINISM by the checker, the fuzz-case replays (in process and isolated) and triage, never as a
 * violation; a thread-affine adapter is replayed on one worker per recorded thread; a blocking method is asked
 * first; the committed custom-type entries reproduce on their buggy adapters and not on their correct twins;
 * minimisation against a self-spec uses only the spec-independent reductions (no counter shifts) and keeps the
 * first impossible return. */
#include <inttypes.h>
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "findings/capture.h"
#include "findings/entry.h"
#include "findings/entry_html.h"
#include "findings/triage.h"
#include "linfuzz/format.h"
#include "linfuzz/generate.h"
#include "linfuzz/minimize.h"
#include "runtime/adapter_check.h"
#include "runtime/adapter_oracle.h"
#include "runtime/adapter_type.h"
#include "testcase/fuzz_case.h"
#include "testcase/case_replay.h"
#include "corpus_test_util.h"
#include "test_util.h"
#include "witness_util.h"

#ifndef LINFUZZ_SOURCE_DIR
#define LINFUZZ_SOURCE_DIR LINFUZZ_TEST_DATA "/../.."
#endif

/* ---- test adapters (registered in this test program only) ---- */

/* "ticket": take -> int hands out numbers from a counter shared by every instance: serial runs from a fresh
 * object differ, although the adapter (wrongly) says it is deterministic. */
static const lf_method_decl ticket_methods[] = {{"take", 0, LF_KBIT(LF_K_INT), 0},
                                                {"peek", 0, LF_KBIT(LF_K_INT), LF_MF_OBSERVER}};
static const lf_type_desc ticket_type = {"ticket", ticket_methods, 2, NULL};
static _Atomic int64_t ticket_next;
static void *ticket_create(size_t max_ops) {
    (void)max_ops;
    return malloc(1);
}
static void ticket_destroy(void *obj) { free(obj); }
static lf_kind ticket_op(void *obj, lf_method m, const int64_t *args, int64_t *value) {
    (void)obj;
    (void)args;
    *value = m == 0 ? ++ticket_next : ticket_next;
    return LF_K_INT;
}
static const lf_adapter ticket_adapter = {
    .name = "test_ticket_static",
    .summary = "test: tickets from a counter shared by all instances (serially nondeterministic)",
    .type = LF_TYPE_CUSTOM,
    .custom = &ticket_type,
    .linearizable = true,
    .deterministic = true, /* the lie the determinism check must catch */
    .create = ticket_create,
    .destroy = ticket_destroy,
    .op = ticket_op,
};
LF_REGISTER_ADAPTER(ticket_adapter);

/* "tcounter": inc T -> ok, get T -> int, where T is the recorded thread (the tests make it so). Ops answer
 * only to threads that entered the object (thread_enter), and each T must always run on one OS thread. */
static const lf_method_decl tcounter_methods[] = {{"inc", 1, LF_KBIT(LF_K_OK) | LF_KBIT(LF_K_FAIL), 0},
                                                  {"get", 1, LF_KBIT(LF_K_INT), LF_MF_OBSERVER}};
static const lf_type_desc tcounter_type = {"tcounter", tcounter_methods, 2, NULL};
typedef struct tcounter {
    pthread_mutex_t lock;
    int64_t count;
    pthread_t entered[16];
    size_t n_entered;
} tcounter;
static pthread_t owner_of[64];
static bool owner_known[64];
static int affinity_errors, entries;
static pthread_mutex_t owners = PTHREAD_MUTEX_INITIALIZER;
static void *tcounter_create(size_t max_ops) {
    (void)max_ops;
    tcounter *c = calloc(1, sizeof *c);
    pthread_mutex_init(&c->lock, NULL);
    return c;
}
static void tcounter_destroy(void *obj) {
    tcounter *c = obj;
    pthread_mutex_destroy(&c->lock);
    free(c);
}
static void tcounter_enter(void *obj) {
    tcounter *c = obj;
    pthread_mutex_lock(&c->lock);
    if (c->n_entered < 16) c->entered[c->n_entered++] = pthread_self();
    entries++;
    pthread_mutex_unlock(&c->lock);
}
static lf_kind tcounter_op(void *obj, lf_method m, const int64_t *args, int64_t *value) {
    tcounter *c = obj;
    pthread_mutex_lock(&owners);
    int64_t t = args[0] & 63;
    if (owner_known[t] && !pthread_equal(owner_of[t], pthread_self())) affinity_errors++;
    owner_of[t] = pthread_self();
    owner_known[t] = true;
    pthread_mutex_unlock(&owners);
    pthread_mutex_lock(&c->lock);
    bool registered = false;
    for (size_t i = 0; i < c->n_entered; i++) registered |= pthread_equal(c->entered[i], pthread_self()) != 0;
    lf_kind k = LF_K_OK;
    if (m == 0) {
        if (registered) c->count++;
        k = registered ? LF_K_OK : LF_K_FAIL;
    } else {
        *value = registered ? c->count : -1;
        k = LF_K_INT;
    }
    pthread_mutex_unlock(&c->lock);
    return k;
}
static const lf_adapter tcounter_adapter = {
    .name = "test_thread_affine_counter",
    .summary = "test: a counter answering only threads that entered it",
    .type = LF_TYPE_CUSTOM,
    .custom = &tcounter_type,
    .linearizable = true,
    .deterministic = true,
    .thread_affine = true,
    .create = tcounter_create,
    .destroy = tcounter_destroy,
    .op = tcounter_op,
    .thread_enter = tcounter_enter,
};
LF_REGISTER_ADAPTER(tcounter_adapter);

/* "sem": acquire (blocks at 0), release. */
static const lf_method_decl semaphore_methods[] = {{"acquire", 0, LF_KBIT(LF_K_NONE), LF_MF_BLOCKS},
                                             {"release", 0, LF_KBIT(LF_K_NONE), 0}};
static const lf_type_desc semaphore_type = {"sem", semaphore_methods, 2, NULL};
static int would_block_calls;
static void *semaphore_create(size_t max_ops) {
    (void)max_ops;
    return calloc(1, sizeof(int64_t));
}
static void semaphore_destroy(void *obj) { free(obj); }
static lf_kind semaphore_op(void *obj, lf_method m, const int64_t *args, int64_t *value) {
    (void)args;
    (void)value;
    int64_t *count = obj;
    if (m == 1)
        ++*count;
    else if (*count == 0)
        abort(); /* never called when it would block */
    else
        --*count;
    return LF_K_NONE;
}
static bool semaphore_would_block(void *obj, lf_method m, const int64_t *args) {
    (void)args;
    would_block_calls++;
    return m == 0 && *(int64_t *)obj == 0;
}
static uint64_t semaphore_fp(void *obj) { return (uint64_t) * (int64_t *)obj + 1; }
static const lf_adapter semaphore_adapter = {
    .name = "test_semaphore",
    .summary = "test: a semaphore whose acquire blocks at 0",
    .type = LF_TYPE_CUSTOM,
    .custom = &semaphore_type,
    .linearizable = true,
    .deterministic = true,
    .create = semaphore_create,
    .destroy = semaphore_destroy,
    .op = semaphore_op,
    .would_block = semaphore_would_block,
    .fingerprint = semaphore_fp,
};
LF_REGISTER_ADAPTER(semaphore_adapter);

/* ---- helpers ---- */

static lf_verdict check_with(const lf_adapter *a, lf_spec_mode mode, const lf_history *h, lf_result *r) {
    lf_adapter_checker c;
    char err[256];
    lf_check_options o;
    lf_check_options_default(&o);
    o.want_witness = true;
    o.timeout_s = 20;
    lf_result_init(r);
    if (!lf_adapter_checker_init(&c, a, mode, &o, err, sizeof err)) {
        lf_result_set(r, LF_UNKNOWN, "none", "%s", err);
        return LF_UNKNOWN;
    }
    lf_adapter_checker_check(&c, h, r);
    lf_adapter_checker_free(&c);
    return r->verdict;
}

static bool read_history(const char *text, lf_history *h) {
    char err[256];
    lf_status s = lf_text_read_buffer(text, strlen(text), "t.hist", h, err, sizeof err);
    if (s != LF_OK) fprintf(stderr, "%s\n", err);
    return s == LF_OK;
}

/* ---- agreement of adapters' serial behaviour with the built-in specs ---- */

static void test_adapter_agreement(void) {
    static const char *names[] = {"mutex_register", "mutex_cas_register", "mutex_counter", "mutex_set",
                                  "mutex_stack", "mutex_queue", "mutex_pqueue", "mutex_kv", "treiber_stack",
                                  "ms_queue", "harris_list_set", "heap_pqueue", "atomic_cas_register",
                                  "cas_counter", "afek_stack", "lock_queue", "single_writer_table"};
    static const lf_gen_small_mode modes[] = {LF_GEN_CONSTRUCTED, LF_GEN_CORRUPTED, LF_GEN_RANDOM};
    size_t total = 0, lin = 0, vio = 0;
    for (size_t k = 0; k < sizeof names / sizeof names[0]; k++) {
        const lf_adapter *a = lf_adapter_find(names[k]);
        CHECKF(a != NULL, "%s", names[k]);
        if (!a) continue;
        lf_adapter_checker c;
        char err[256];
        lf_check_options o;
        lf_check_options_default(&o);
        o.want_witness = true;
        CHECKF(lf_adapter_checker_init(&c, a, LF_SPEC_SELF, &o, err, sizeof err), "%s", err);
        unsigned per = k < 8 ? 150 : 60;
        for (uint64_t seed = 1; seed <= per; seed++) {
            lf_gen_small_options go;
            lf_gen_small_options_default(&go, a->type, modes[seed % 3]);
            go.max_ops = 8;
            go.max_threads = 3;
            go.pending = seed % 6 == 0 ? 0.5 : 0;
            lf_history h;
            if (!lf_gen_small(seed * 104729 + k, &go, &h)) continue;
            bool methods_ok = true; /* adapters may implement a subset of the type's methods */
            for (size_t i = 0; i < h.n; i++) methods_ok &= (a->methods & LF_METHOD_BIT(h.ops[i].method)) != 0;
            if (!methods_ok) {
                lf_history_free(&h);
                continue;
            }
            lf_result want, got;
            lf_result_init(&want);
            lf_check_options bo;
            lf_check_options_default(&bo);
            lf_check(&h, &bo, &want);
            lf_result_init(&got);
            if (seed % 10 == 0) lf_adapter_checker_new_case(&c);
            lf_adapter_checker_check(&c, &h, &got);
            total++;
            CHECKF(got.verdict == want.verdict && !got.serial_nondeterminism,
                   "%s seed %" PRIu64 ": self %s (%s), built-in %s (%s)", a->name, seed, lf_verdict_name(got.verdict),
                   got.reason, lf_verdict_name(want.verdict), want.reason);
            lin += got.verdict == LF_LINEARIZABLE;
            vio += got.verdict == LF_VIOLATION;
            if (got.verdict == LF_LINEARIZABLE)
                CHECKF(witness_valid(&h, got.witness, got.witness_len), "%s seed %" PRIu64 ": witness", a->name, seed);
            lf_result_free(&want);
            lf_result_free(&got);
            lf_history_free(&h);
        }
        lf_adapter_checker_free(&c);
    }
    printf("adapters as their own spec: %zu histories, %zu linearizable, %zu violations, all as the built-in specs\n",
           total, lin, vio);
    CHECK(total > 1300 && lin > 300 && vio > 300);
}

/* A short history, then a much longer one, through one checker: objects sized for the short one (the mutex stack
 * holds max_ops values) must not serve the long one's replays (ASan would see the overflow). */
static void test_growing_histories(void) {
    const lf_adapter *a = lf_adapter_find("mutex_stack");
    lf_adapter_checker c;
    char err[256];
    CHECK(lf_adapter_checker_init(&c, a, LF_SPEC_SELF, NULL, err, sizeof err));
    for (size_t n = 4; n <= 400; n *= 10) {
        lf_history h;
        lf_history_init(&h, LF_TYPE_STACK);
        for (size_t i = 0; i < n; i++) { /* pushes only, sequential: replays go n deep */
            lf_op op = {.call = 2 * i + 1, .ret = 2 * i + 2, .method = LF_M_PUSH, .res_kind = LF_K_NONE};
            op.arg[0] = (int64_t)i + 1;
            lf_history_push(&h, &op);
        }
        lf_result r;
        lf_result_init(&r);
        lf_adapter_checker_check(&c, &h, &r);
        CHECKF(r.verdict == LF_LINEARIZABLE, "%zu pushes: %s", n, r.reason);
        lf_result_free(&r);
        lf_history_free(&h);
    }
    lf_adapter_checker_free(&c);
}

/* ---- serial nondeterminism, end to end ---- */

static void test_nondeterminism_end_to_end(void) {
    const lf_adapter *a = lf_adapter_find("test_ticket_static");
    lf_history h;
    CHECK(read_history("type ticket\nmethod take 0 -> int\nmethod peek 0 -> int observer\n"
                       "0 1 2 take -> 1\n1 3 4 take -> 2\n0 5 6 peek -> 2\n", &h));
    ticket_next = 0;
    lf_adapter_checker c;
    char err[512];
    CHECK(lf_adapter_checker_init(&c, a, LF_SPEC_AUTO, NULL, err, sizeof err) && c.mode == LF_SPEC_SELF);
    lf_result r;
    lf_result_init(&r);
    lf_adapter_checker_check(&c, &h, &r);
    CHECKF(r.verdict == LF_UNKNOWN && r.serial_nondeterminism && strstr(r.reason, "take"), "%s: %s",
           lf_verdict_name(r.verdict), r.reason);
    /* the entry of its own category: saved, loaded, reported, triaged */
    lf_history ev;
    CHECK(lf_selfspec_nondeterminism(c.self, &h, &ev));
    lf_capture_input in = {.adapter = a->name, .expected_linearizable = true, .origin = "test", .full = &h,
                           .check = &c.check, .spec_mode = "self"};
    lf_violation_entry e;
    CHECK(lf_capture_nondeterminism(&in, &ev, r.reason, &e, err, sizeof err) == LF_OK);
    CHECK(lf_entry_category(&e) && !strcmp(lf_entry_meta(&e, "shape"), "SERIAL_NONDETERMINISM"));
    CHECKF(strstr(e.report, "=== SERIAL NONDETERMINISM  adapter=test_ticket_static") &&
               strstr(e.report, "method take 0 -> int") && strstr(e.report, "Not a linearizability violation"),
           "%s", e.report);
    char dir[] = "/tmp/linfuzz-nondet-XXXXXX", path[1024];
    CHECK(mkdtemp(dir) != NULL);
    CHECK(lf_entry_save(&e, dir, path, sizeof path, err, sizeof err) == LF_OK);
    lf_violation_entry back;
    CHECKF(lf_entry_load(path, &back, err, sizeof err) == LF_OK, "%s", err);
    FILE *f = fopen("/dev/null", "w");
    CHECK(lf_entry_write_report(f, &back, NULL) == LF_UNKNOWN);
    fclose(f);
    lf_triage t;
    lf_triage_init(&t, LF_TRIAGE_BY_SIGNATURE);
    long i = lf_triage_add_violation(&t, path, false, &back, NULL);
    CHECK(i >= 0 && t.items[i].category == LF_TRIAGE_SERIAL_NONDETERMINISM && !t.items[i].bucket_differs);
    CHECK(lf_triage_group_all(&t) && t.n_groups == 1 && lf_triage_category_unexpected(t.groups[0].category));
    /* signed by adapter, category and type (docs/triage.md); the bucket still names the method */
    CHECKF(!strcmp(t.groups[0].label, "ticket, serial runs differ"), "%s", t.groups[0].label);
    CHECK(t.groups[0].n_variants == 1 && t.items[i].variant && strstr(t.items[i].variant, "ticket: t0 [0,1] take -> "));
    lf_triage_free(&t);
    lf_triage_init(&t, LF_TRIAGE_BY_BUCKET);
    CHECK(lf_triage_add_violation(&t, path, false, &back, NULL) >= 0 && lf_triage_group_all(&t) && t.n_groups == 1);
    CHECKF(!strcmp(t.groups[0].label, "ticket SERIAL_NONDETERMINISM take*1, cut at take"), "%s", t.groups[0].label);
    /* its page shows the serial evidence and says it is no violation */
    char *page = NULL;
    size_t page_len = 0;
    FILE *pf = open_memstream(&page, &page_len);
    CHECK(pf && lf_entry_write_html(pf, &back, path, "", &c.check, err, sizeof err) == LF_OK);
    if (pf) fclose(pf);
    CHECKF(page && strstr(page, "not a linearizability violation: its serial runs differ") &&
               strstr(page, "Serial evidence history: ") && !strstr(page, "First impossible result") &&
               strstr(page, "take -&gt; "),
           "%.3000s", page ? page : "(no page)");
    free(page);
    CHECK(!strcmp(lf_triage_category_name(LF_TRIAGE_SERIAL_NONDETERMINISM), "SERIAL_NONDETERMINISM"));
    lf_triage_free(&t);
    lf_entry_free(&back);
    lf_entry_free(&e);
    lf_history_free(&ev);
    lf_result_free(&r);
    lf_adapter_checker_free(&c);
    lf_history_free(&h);

    /* a fuzz case of it: the replay counts nondeterminism, not violations; isolated, it comes back as an entry */
    lf_fuzz_case fc;
    uint8_t bytes[LF_FC_MAX_ENCODED];
    memset(&fc, 0, sizeof fc);
    fc.threads = 2, fc.rounds = 4, fc.repeats = 1, fc.key_domain = 1;
    fc.body_len[0] = fc.body_len[1] = 2;
    lf_fuzz_case_normalize(&fc, 2);
    size_t len = lf_fuzz_case_encode(&fc, bytes);
    lf_replay_options o;
    lf_replay_options_default(&o);
    o.runs = 5;
    lf_replay_result rr;
    lf_adapter_history_init(&rr.first, a);
    CHECK(lf_fc_replay(a, bytes, len, &o, &rr));
    CHECKF(rr.violations == 0 && rr.nondeterministic == rr.runs && rr.first_nondeterministic && rr.evidence.n > 0,
           "%" PRIu64 " violations, %" PRIu64 " nondeterministic of %" PRIu64, rr.violations, rr.nondeterministic,
           rr.runs);
    lf_history_free(&rr.first);
    lf_history_free(&rr.evidence);
    lf_isolated_replay ir;
    CHECK(lf_fc_replay_isolated(a, bytes, len, &o, 60, "test", &ir) == LF_REPLAY_VIOLATION);
    CHECK(lf_entry_category(&ir.entry) != NULL);
    lf_entry_free(&ir.entry);
    char cmd[1100];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    CHECK(system(cmd) == 0);
}

/* ---- a thread-affine adapter ---- */

static void test_thread_affine(void) {
    const lf_adapter *a = lf_adapter_find("test_thread_affine_counter");
    /* ops of thread T carry T as their argument: the adapter checks that T always runs on one OS thread */
    lf_history h;
    CHECK(read_history("type tcounter\nmethod inc 1 -> ok|fail\nmethod get 1 -> int observer\n"
                       "0 1 5 inc 0 -> ok\n1 2 3 inc 1 -> ok\n2 4 6 get 2 -> 1\n1 7 8 get 1 -> 2\n0 9 10 inc 0 -> ok\n"
                       "2 11 12 get 2 -> 3\n", &h));
    affinity_errors = entries = 0;
    memset(owner_known, 0, sizeof owner_known);
    lf_result r;
    CHECKF(check_with(a, LF_SPEC_SELF, &h, &r) == LF_LINEARIZABLE, "%s", r.reason);
    CHECK(affinity_errors == 0 && entries >= 3);
    lf_result_free(&r);
    h.ops[5].res = 4; /* get -> 4 after three incs (a new checker: new worker threads) */
    memset(owner_known, 0, sizeof owner_known);
    CHECKF(check_with(a, LF_SPEC_SELF, &h, &r) == LF_VIOLATION && affinity_errors == 0, "%s: %s (%d)",
           lf_verdict_name(r.verdict), r.reason, affinity_errors);
    lf_result_free(&r);
    lf_history_free(&h);
    /* concurrent runs of fuzz cases, checked against the replays on worker threads */
    lf_fuzz_case fc;
    uint8_t bytes[LF_FC_MAX_ENCODED];
    memset(&fc, 0, sizeof fc);
    fc.threads = 3, fc.rounds = 3, fc.repeats = 1, fc.key_domain = 1;
    for (unsigned t = 0; t < 3; t++) fc.body_len[t] = 2, fc.body[t][1].method = 1;
    lf_fuzz_case_normalize(&fc, 2);
    size_t len = lf_fuzz_case_encode(&fc, bytes);
    lf_replay_options o;
    lf_replay_options_default(&o);
    o.runs = 10;
    lf_replay_result rr;
    lf_adapter_history_init(&rr.first, a);
    CHECK(lf_fc_replay(a, bytes, len, &o, &rr) && rr.violations == 0 && rr.nondeterministic == 0);
    lf_history_free(&rr.first);
    lf_history_free(&rr.evidence);
}

/* ---- a blocking method ---- */

static void test_blocking(void) {
    const lf_adapter *a = lf_adapter_find("test_semaphore");
    static const char *decl = "type sem\nmethod acquire 0 blocks\nmethod release 0\n";
    struct {
        const char *ops;
        lf_verdict want;
    } cases[] = {
        {"0 1 2 acquire\n1 3 4 release\n", LF_VIOLATION},             /* acquired before anything was released */
        {"0 1 5 acquire\n1 2 3 release\n", LF_LINEARIZABLE},          /* waited for the release */
        {"0 1 ? acquire\n1 2 3 release\n1 4 5 acquire\n", LF_LINEARIZABLE}, /* the pending one never got it */
        {"0 1 ? acquire\n1 2 3 acquire\n", LF_VIOLATION},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char text[512];
        snprintf(text, sizeof text, "%s%s", decl, cases[i].ops);
        lf_history h;
        CHECK(read_history(text, &h));
        would_block_calls = 0;
        lf_result r;
        CHECKF(check_with(a, LF_SPEC_AUTO, &h, &r) == cases[i].want, "case %zu: %s %s", i, lf_verdict_name(r.verdict),
               r.reason);
        CHECK(would_block_calls > 0);
        lf_result_free(&r);
        lf_history_free(&h);
    }
    /* a blocking method without would_block cannot be replayed */
    lf_adapter broken = *a;
    broken.would_block = NULL;
    lf_adapter_checker c;
    char err[256];
    CHECK(!lf_adapter_checker_init(&c, &broken, LF_SPEC_SELF, NULL, err, sizeof err) && strstr(err, "would_block"));
}

/* ---- minimisation against a self-spec ---- */

/* A counter adapter's self-spec is not the built-in counter spec as far as the minimiser knows: no inc shifts,
 * no lost-update witness, only the spec-independent reductions; the first impossible return stays. */
static void test_selfspec_minimize(void) {
    static const char text[] = "type counter\n0 1 4 inc\n1 2 3 inc\n1 5 6 inc\n0 7 8 inc\n1 9 10 inc\n"
                               "2 11 12 get -> 4\n2 13 14 get -> 5\n";
    lf_history h, out;
    CHECK(read_history(text, &h));
    lf_adapter_checker c;
    char err[512];
    CHECKF(lf_adapter_checker_init(&c, lf_adapter_find("cas_counter"), LF_SPEC_SELF, NULL, err, sizeof err), "%s",
           err);
    lf_minimize_options mo;
    lf_minimize_options_default(&mo);
    mo.check = c.check;
    lf_minimize_stats st;
    CHECK(lf_minimize(&h, &mo, &out, &st) == LF_VIOLATION);
    CHECKF(!st.lost_update && st.incs_dropped == 0 && st.first_bad && st.first_bad_stamp == 12 && out.n == 6,
           "lost update %d, %zu incs dropped, first bad %d, %zu ops", st.lost_update, st.incs_dropped, st.first_bad,
           out.n);
    for (size_t j = 0; j < out.n; j++) {
        bool from_input = false;
        for (size_t i = 0; i < h.n; i++)
            from_input |= !memcmp(&out.ops[j], &h.ops[i], sizeof(lf_op));
        CHECKF(from_input, "op %zu of the result is not an op of the input", j);
    }
    lf_history_free(&out);
    lf_adapter_checker_free(&c);
    lf_history_free(&h);
}

/* ---- the committed custom-type entries ---- */

static void test_committed_custom_entries(void) {
    static const char *pairs[][2] = {{"bank_read_before_lock", "bank"}, {"pia_map_unlocked_check", "pia_map"}};
    for (size_t k = 0; k < 2; k++) {
        /* the free-mode entry (fuzz-case 1), whose workload reproduces in any build */
        char dir[1024], path[2048];
        snprintf(dir, sizeof dir, "%s/corpus/%s/violations", LINFUZZ_SOURCE_DIR, pairs[k][0]);
        lf_violation_entry e;
        bool have = lf_test_load_entry_of_format(dir, LF_FUZZ_CASE_FORMAT_V1, &e, path, sizeof path);
        CHECKF(have, "%s: no free-mode (fuzz-case 1) entry in %s", pairs[k][0], dir);
        if (!have) continue;
        CHECK(e.minimized.type == LF_TYPE_CUSTOM);
        lf_replay_options o;
        lf_replay_options_default(&o);
        o.runs = 60;
        o.spec = LF_SPEC_AUTO;
        o.format = lf_entry_meta(&e, "workload_format"); /* the workload as it was recorded */
        for (int twin = 0; twin < 2; twin++) {
            const lf_adapter *a = lf_adapter_find(pairs[k][twin]);
            lf_replay_result rr;
            lf_adapter_history_init(&rr.first, a);
            CHECK(lf_fc_replay(a, e.workload, e.workload_len, &o, &rr));
            if (twin == 0)
                CHECKF(rr.violations > 0, "%s: its entry's workload does not reproduce", a->name);
            else
                CHECKF(rr.violations == 0 && rr.nondeterministic == 0, "%s: the correct twin violates", a->name);
            lf_history_free(&rr.first);
            lf_history_free(&rr.evidence);
        }
        lf_entry_free(&e);
    }
}

int main(void) {
    test_adapter_agreement();
    test_growing_histories();
    test_nondeterminism_end_to_end();
    test_thread_affine();
    test_blocking();
    test_selfspec_minimize();
    test_committed_custom_entries();
    TEST_DONE();
}
