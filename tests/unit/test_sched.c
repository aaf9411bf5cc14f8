/* Tests of controlled mode (runtime/sched, docs/scheduling.md), through the fuzz-case executor as the fuzz
 * targets and `linfuzz repro` use it:
 *  - every bundled adapter gives the same history byte for byte 100 times in a row for one input (PCT), and
 *    10 times for each other strategy's (the last replay in a second executor), deterministically, with
 *    real interleavings (switches, preemptions);
 *  - lock-based and library adapters run many threads under a switch-happy schedule without hanging;
 *  - POS and SURW preempt in every run of a lock-free stack, SURW less when fewer sites are interesting;
 *    one thread is never preempted;
 *  - a thread spinning on LF_YIELD() or sched_yield while the lock holder is parked is demoted, and the run
 *    stays deterministic;
 *  - a spin the scheduler cannot see (no scheduling point in the loop) is released by the watchdog: the run
 *    ends, marked not deterministic, and its history is still right;
 *  - two locks taken in opposite orders deadlock deterministically: STUCK, with the blocked operations;
 *    the executor goes on with the next run;
 *  - condition variables and semaphores block and wake as scheduling points; a timed wait times out,
 *    deterministically, when nothing else can run;
 *  - a run past its point budget is released and ends;
 *  - the event hook sees every scheduling point in trace order, the same trace every time, and the atomic
 *    regions stop preemptions (k1's lost update disappears);
 *  - the schedule feedback counts reads-from pairs (and preemption sites) of controlled runs, the same
 *    counters for the same run;
 *  - a controlled run's workers share one CPU (sched/one_cpu.h) and have their own CPUs again afterwards.
 * The test's own adapters are compiled without the access instrumentation, as prebuilt library code would
 * be: their points are the harness's, LF_YIELD() and the lf_sync.h calls. */
#define LINFUZZ_HARNESS 1 /* LF_YIELD() is a point */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <semaphore.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/wait.h>

#include "linfuzz/adapter.h"
#include "linfuzz/check.h"
#include "runtime/adapter_type.h"
#include "sched/baton.h"
#include "runtime/feedback.h"
#include "runtime/sched.h"
#include "runtime/stuck_watch.h"
#include "test_util.h"
#include "testcase/case_runner.h"
#include "testcase/fuzz_case.h"
#include "testcase/case_replay.h"

/* ---- helpers ---- */

/* A controlled case: `threads` threads with bodies of `body` calls cycling through the adapter's methods,
 * `rounds` rounds, a small prefix and the drain; schedule: strategy with two change points / choices. */
static lf_fuzz_case controlled_case(unsigned n_methods, unsigned threads, unsigned body, unsigned rounds,
                                    lf_sched_strategy strategy, uint64_t seed) {
    lf_fuzz_case c;
    memset(&c, 0, sizeof c);
    c.threads = (uint8_t)threads;
    c.rounds = (uint8_t)rounds;
    c.repeats = 2;
    c.key_domain = 3;
    c.drain = true;
    c.prefix_len = 2;
    c.prefix[0] = (lf_fc_call){0, 1};
    c.prefix[1] = (lf_fc_call){0, 2};
    for (unsigned t = 0; t < threads; t++) {
        c.body_len[t] = (uint8_t)body;
        for (unsigned i = 0; i < body; i++)
            c.body[t][i] = (lf_fc_call){(uint8_t)((t + i) % n_methods), (uint8_t)(t * 5 + i * 3 + 1)};
    }
    c.mode = LF_FC_CONTROLLED;
    lf_schedule *s = &c.schedule;
    s->strategy = (uint8_t)strategy;
    s->bound = 2;
    s->walk_chance = 200;
    s->seed = seed;
    for (unsigned t = 0; t < threads; t++) s->priority[t] = (uint8_t)(seed * 37 + t * 101);
    s->change[0] = (lf_sched_position){0, 1, 3};
    s->change[1] = (lf_sched_position){1, 2, 5};
    s->n_choices = 4;
    for (unsigned i = 0; i < 4; i++) s->choices[i] = (lf_sched_choice){(uint8_t)(2 + 7 * i), (uint8_t)i};
    lf_fuzz_case_normalize(&c, n_methods);
    return c;
}

static lf_verdict check_history(const lf_history *h) {
    lf_check_options o;
    lf_check_options_default(&o);
    o.timeout_s = 10;
    lf_result r;
    lf_result_init(&r);
    lf_check(h, &o, &r);
    lf_verdict v = r.verdict;
    lf_result_free(&r);
    return v;
}

/* ---- 1. determinism of every bundled adapter ---- */

static void every_adapter_replays_exactly(void) {
    lf_fc_executor x, y;
    CHECK(lf_fc_executor_init(&x, LF_CLOCK_TICKET) && lf_fc_executor_init(&y, LF_CLOCK_TICKET));
    lf_history ref, h;
    lf_history_init(&ref, LF_TYPE_REGISTER);
    lf_history_init(&h, LF_TYPE_REGISTER);
    for (size_t ai = 0; ai < lf_adapter_count(); ai++) {
        const lf_adapter *a = lf_adapter_at(ai);
        /* treiber_uaf's bug is a use after free: its concurrent runs read freed memory (garbage, or a sanitizer's
         * report that ends the process): no history to compare (tests/fuzz/test_crash_entry.sh) */
        if (!strcmp(a->name, "treiber_uaf")) continue;
        lf_method ms[LF_M_COUNT];
        unsigned nm = lf_fuzz_case_methods(a, ms);
        size_t same = 0, runs = 0, nondeterministic = 0, stuck = 0;
        uint64_t switches = 0, preemptions = 0;
        for (unsigned st = 0; st < LF_SCHED_STRATEGY_COUNT; st++) {
            lf_fuzz_case c = controlled_case(nm, 3, 4, 3, (lf_sched_strategy)st, 11 + ai);
            lf_fc_plan p;
            CHECK(lf_fc_plan_build(&p, &c, a));
            if (lf_adapter_blocking(a)) lf_fc_plan_balance_blocking(&p); /* as the fuzz targets plan them by default */
            unsigned run = st % 2; /* run 0: the schedule as given; run 1: one derived from it */
            CHECK(lf_fc_execute(&x, &p, run, &ref));
            switches += x.last.stats.switches;
            preemptions += x.last.stats.preemptions;
            int replays = st == LF_SCHED_PCT ? 100 : 10;
            for (int k = 0; k < replays; k++) {
                lf_fc_executor *e = k == replays - 1 ? &y : &x; /* the last replay in a fresh executor */
                CHECK(lf_fc_execute(e, &p, run, &h));
                runs++;
                same += lf_histories_identical(&ref, &h);
                nondeterministic += !e->last.stats.deterministic;
                stuck += e->last.stuck;
            }
            if (a->linearizable) CHECKF(check_history(&ref) != LF_VIOLATION, "%s: correct adapter violated", a->name);
            lf_fc_plan_free(&p);
        }
        CHECKF(same == runs && runs == 100 + 10 * (LF_SCHED_STRATEGY_COUNT - 1), "%s: %zu of %zu controlled runs gave the same history", a->name, same, runs);
        /* (a known lost wakeup may deadlock even in balanced runs, and a known lock-order bug deadlocks:
         * deterministically, as the same history says) */
        CHECKF(nondeterministic == 0 && (stuck == 0 || !a->linearizable),
               "%s: %zu runs not deterministic, %zu stuck", a->name, nondeterministic, stuck);
        CHECKF(switches > 8 && preemptions > 0, "%s: %llu switches, %llu preemptions: no real interleaving", a->name,
               (unsigned long long)switches, (unsigned long long)preemptions);
    }
    lf_history_free(&ref);
    lf_history_free(&h);
    lf_fc_executor_free(&x);
    lf_fc_executor_free(&y);
}

/* ---- 2. lock-based and library adapters under many switches ---- */

static void lock_and_library_adapters_do_not_hang(void) {
    static const char *const names[] = {"mutex_queue", "lock_queue", "rwlock_list_set", "k3_trylock_queue",
                                        "ck_hs_set", "ck_fifo_mpmc", "urcu_wfcqueue", "urcu_lfstack",
                                        "urcu_lfht_set"};
    lf_fc_executor x;
    CHECK(lf_fc_executor_init(&x, LF_CLOCK_TICKET));
    lf_history h;
    lf_history_init(&h, LF_TYPE_REGISTER);
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        const lf_adapter *a = lf_adapter_find(names[i]);
        if (!a) continue; /* ck / urcu not in this build */
        lf_method ms[LF_M_COUNT];
        unsigned nm = lf_fuzz_case_methods(a, ms);
        uint64_t blocks = 0, switches = 0;
        for (unsigned run = 0; run < 8; run++) {
            /* 8 threads, 16 rounds; a random walk switching at one point in 16, or POS (switching at most) */
            lf_fuzz_case c = controlled_case(nm, 8, 4, 16, run % 2 ? LF_SCHED_POS : LF_SCHED_WALK, 99 + run);
            c.schedule.walk_chance = 255;
            lf_fc_plan p;
            CHECK(lf_fc_plan_build(&p, &c, a));
            CHECK(lf_fc_execute(&x, &p, run, &h));
            CHECKF(!x.last.stuck && x.last.stats.deterministic, "%s run %u: stuck %d, deterministic %d", a->name, run,
                   x.last.stuck, x.last.stats.deterministic);
            CHECKF(h.n >= 8 * 4 * 16, "%s: %zu ops recorded", a->name, h.n);
            if (a->linearizable) CHECKF(check_history(&h) != LF_VIOLATION, "%s violated", a->name);
            blocks += x.last.stats.blocks;
            switches += x.last.stats.switches;
            lf_fc_plan_free(&p);
        }
        CHECKF(switches > 100, "%s: only %llu switches", a->name, (unsigned long long)switches);
        if (!strncmp(a->name, "mutex", 5) || !strcmp(a->name, "lock_queue") || !strcmp(a->name, "rwlock_list_set"))
            CHECKF(blocks > 0, "%s: no thread ever blocked on the lock", a->name);
    }
    lf_history_free(&h);
    lf_fc_executor_free(&x);
}

/* ---- 2a. ABA: parked at a compare-and-swap until its word comes back ---- */

/* treiber_tag_wrap's pop compares a head word of an 8-bit tag and a node index: thread 0 pops once a round,
 * thread 1 pops and pushes 16 times a round, 16 rounds, so that its pops and pushes recycle the top node and
 * its 512 updates wrap the tag twice. Under ABA with thread 0 first and a park at nearly every RMW, thread 0
 * parks at its pop's CAS, and resumes the moment thread 1 has made the head word what it was (the same node,
 * the tag 256 updates on): its CAS succeeds and returns the value thread 1 popped already. A violation, in a
 * run that replays; with the 32-bit tag (treiber_tag32) the same schedule finds none (the word never comes
 * back: thread 0 resumes when thread 1 is done), and PCT with one change point at thread 0's first op finds
 * none either. */
static lf_fuzz_case tag_wrap_case(const lf_adapter *a, lf_sched_strategy strategy) {
    lf_method ms[LF_M_COUNT];
    unsigned nm = lf_fuzz_case_methods(a, ms), push = 0, pop = 0;
    for (unsigned m = 0; m < nm; m++) {
        if (ms[m] == LF_M_PUSH) push = m;
        if (ms[m] == LF_M_POP) pop = m;
    }
    lf_fuzz_case c;
    memset(&c, 0, sizeof c);
    c.threads = 2;
    c.rounds = 16;
    c.repeats = 1;
    c.key_domain = 1;
    c.prefix_len = 2;
    c.prefix[0] = (lf_fc_call){(uint8_t)push, 1};
    c.prefix[1] = (lf_fc_call){(uint8_t)push, 2};
    c.body_len[0] = 1;
    c.body[0][0] = (lf_fc_call){(uint8_t)pop, 0};
    c.body_len[1] = 32;
    for (unsigned i = 0; i < 32; i++) c.body[1][i] = (lf_fc_call){(uint8_t)(i % 2 ? push : pop), (uint8_t)(i + 3)};
    c.mode = LF_FC_CONTROLLED;
    c.schedule.strategy = (uint8_t)strategy;
    c.schedule.walk_chance = 255; /* ABA: park at nearly every RMW */
    c.schedule.bound = 1;         /* PCT: one change point, at thread 0's first op */
    c.schedule.change[0] = (lf_sched_position){0, 0, 2};
    c.schedule.priority[0] = 200;
    c.schedule.priority[1] = 100;
    c.schedule.seed = 5;
    c.schedule.memory_model = LF_MM_SC;
    lf_fuzz_case_normalize(&c, nm);
    return c;
}

static void aba_resumes_when_the_word_comes_back(void) {
    const lf_adapter *wrap = lf_adapter_find("treiber_tag_wrap"), *tag32 = lf_adapter_find("treiber_tag32");
    CHECK(wrap && tag32);
    if (!wrap || !tag32) return;
    lf_fc_executor x;
    CHECK(lf_fc_executor_init(&x, LF_CLOCK_TICKET));
    lf_history h, again;
    lf_history_init(&h, LF_TYPE_STACK);
    lf_history_init(&again, LF_TYPE_STACK);
    struct {
        const lf_adapter *a;
        lf_sched_strategy strategy;
        bool violates;
    } rows[] = {{wrap, LF_SCHED_ABA, true}, {tag32, LF_SCHED_ABA, false}, {wrap, LF_SCHED_PCT, false}};
    for (unsigned k = 0; k < sizeof rows / sizeof rows[0]; k++) {
        lf_fuzz_case c = tag_wrap_case(rows[k].a, rows[k].strategy);
        lf_fc_plan p;
        CHECK(lf_fc_plan_build(&p, &c, rows[k].a));
        CHECK(lf_fc_execute(&x, &p, 0, &h));
        CHECKF(x.last.stats.deterministic && !x.last.stuck && h.n == 2 + 16 + 512, "%s under %s: %zu ops",
               rows[k].a->name, rows[k].strategy == LF_SCHED_ABA ? "aba" : "pct", h.n);
        bool violated = check_history(&h) == LF_VIOLATION;
        CHECKF(violated == rows[k].violates, "%s under %s: %s", rows[k].a->name,
               rows[k].strategy == LF_SCHED_ABA ? "aba" : "pct", violated ? "a violation" : "no violation");
        /* (a park; and where the word comes back, a resume that preempts thread 1) */
        if (rows[k].strategy == LF_SCHED_ABA)
            CHECKF(x.last.stats.preemptions >= (rows[k].violates ? 2u : 1u), "%s: %llu preemptions", rows[k].a->name,
                   (unsigned long long)x.last.stats.preemptions);
        CHECK(lf_fc_execute(&x, &p, 0, &again));
        CHECKF(lf_histories_identical(&h, &again), "%s: the run did not replay", rows[k].a->name);
        lf_fc_plan_free(&p);
    }
    lf_history_free(&h);
    lf_history_free(&again);
    lf_fc_executor_free(&x);
}

/* ---- 2b. POS and SURW: switches at many points ---- */

/* Four controlled runs of treiber_stack (4 threads) under strategy (its bound as given, seeds seed0..): each
 * deterministic, replayed exactly, linearizable. Adds their points and preemptions to *points and
 * *preemptions; every_run: each run must preempt. */
static void four_stack_runs(const lf_adapter *a, unsigned nm, lf_fc_executor *x, lf_sched_strategy strategy,
                            unsigned bound, uint64_t seed0, bool every_run, uint64_t *points, uint64_t *preemptions) {
    const char *name = strategy == LF_SCHED_POS ? "POS" : "SURW";
    lf_history h, again;
    lf_history_init(&h, a->type);
    lf_history_init(&again, a->type);
    for (unsigned run = 0; run < 4; run++) {
        lf_fuzz_case c = controlled_case(nm, 4, 4, 8, strategy, seed0 + run);
        c.schedule.bound = (uint8_t)bound;
        lf_fc_plan p;
        CHECK(lf_fc_plan_build(&p, &c, a));
        CHECK(lf_fc_execute(x, &p, 0, &h));
        CHECK(x->last.stats.deterministic && !x->last.stuck);
        CHECKF(!every_run || x->last.stats.preemptions > 0, "%s run %u (bound %u) did not preempt", name, run, bound);
        *points += x->last.stats.points;
        *preemptions += x->last.stats.preemptions;
        CHECK(lf_fc_execute(x, &p, 0, &again));
        CHECKF(lf_histories_identical(&h, &again), "%s run %u (bound %u) did not replay", name, run, bound);
        CHECKF(check_history(&h) != LF_VIOLATION, "%s violated under %s (run %u)", a->name, name, run);
        lf_fc_plan_free(&p);
    }
    lf_history_free(&h);
    lf_history_free(&again);
}

/* One thread under strategy: never preempted. */
static void one_thread_never_preempted(const lf_adapter *a, unsigned nm, lf_fc_executor *x,
                                       lf_sched_strategy strategy) {
    lf_fuzz_case one = controlled_case(nm, 1, 4, 8, strategy, 3);
    one.schedule.bound = 0;
    lf_fc_plan p;
    lf_history h;
    lf_history_init(&h, a->type);
    CHECK(lf_fc_plan_build(&p, &one, a));
    CHECK(lf_fc_execute(x, &p, 0, &h));
    CHECKF(x->last.stats.preemptions == 0, "one thread, %llu preemptions",
           (unsigned long long)x->last.stats.preemptions);
    lf_fc_plan_free(&p);
    lf_history_free(&h);
}

/* Partial order sampling switches wherever the events' priorities say, mostly where threads conflict (an
 * event made redraws the priorities of the events that race with it): on a lock-free stack it preempts at
 * least 8 times a run. SURW switches at interesting events only, each thread drawn with the weight of its
 * remaining events: with every code site interesting (bound 0) it preempts in every run, with only 1 site in
 * 8 interesting (bound 3) less often. Under both a run replays exactly (also checked for every adapter
 * above), a correct stack stays linearizable and one thread is never preempted. */
static void pos_and_surw_switch_at_many_points(void) {
    const lf_adapter *a = lf_adapter_find("treiber_stack");
    CHECK(a != NULL);
    if (!a) return;
    lf_method ms[LF_M_COUNT];
    unsigned nm = lf_fuzz_case_methods(a, ms);
    lf_fc_executor x;
    CHECK(lf_fc_executor_init(&x, LF_CLOCK_TICKET));
    uint64_t points = 0, preemptions = 0;
    four_stack_runs(a, nm, &x, LF_SCHED_POS, 2, 7, false, &points, &preemptions);
    CHECKF(preemptions >= 4 * 8 && points > 1000, "POS preempted at %llu of %llu points (expected at least 8 a run)",
           (unsigned long long)preemptions, (unsigned long long)points);
    one_thread_never_preempted(a, nm, &x, LF_SCHED_POS);
    uint64_t all = 0, eighth = 0;
    four_stack_runs(a, nm, &x, LF_SCHED_SURW, 0, 11, true, &points, &all);
    four_stack_runs(a, nm, &x, LF_SCHED_SURW, 3, 11, false, &points, &eighth);
    CHECKF(all >= 4 * 8 && eighth < all, "SURW preempted %llu times with every site interesting, %llu with 1 in 8",
           (unsigned long long)all, (unsigned long long)eighth);
    one_thread_never_preempted(a, nm, &x, LF_SCHED_SURW);
    lf_fc_executor_free(&x);
}

/* ---- test adapters: a counter behind various locks ---- */

typedef enum { LOCK_YIELD_SPIN, LOCK_PAUSE_SPIN, LOCK_HIDDEN_SPIN, LOCK_CONDITION, LOCK_SEMAPHORE } lock_kind;

typedef struct locked_counter {
    lock_kind kind;
    _Atomic int lock; /* the spinlocks */
    pthread_mutex_t m;
    pthread_cond_t cv;
    bool busy; /* LOCK_CONDITION: a lock built from a mutex and a condition */
    sem_t sem;
    int64_t count;
} locked_counter;

static void *counter_create_with(lock_kind kind) {
    locked_counter *c = calloc(1, sizeof *c);
    if (!c) return NULL;
    c->kind = kind;
    atomic_init(&c->lock, 0);
    pthread_mutex_init(&c->m, NULL);
    pthread_cond_init(&c->cv, NULL);
    sem_init(&c->sem, 0, 1);
    return c;
}
static void *yield_spin_create(size_t n) { (void)n; return counter_create_with(LOCK_YIELD_SPIN); }
static void *pause_spin_create(size_t n) { (void)n; return counter_create_with(LOCK_PAUSE_SPIN); }
static void *hidden_spin_create(size_t n) { (void)n; return counter_create_with(LOCK_HIDDEN_SPIN); }
static void *condition_create(size_t n) { (void)n; return counter_create_with(LOCK_CONDITION); }
static void *semaphore_create(size_t n) { (void)n; return counter_create_with(LOCK_SEMAPHORE); }

static void counter_destroy(void *obj) {
    locked_counter *c = obj;
    pthread_mutex_destroy(&c->m);
    pthread_cond_destroy(&c->cv);
    sem_destroy(&c->sem);
    free(c);
}

static void counter_lock(locked_counter *c) {
    switch (c->kind) {
    case LOCK_YIELD_SPIN: /* a spin the scheduler sees: one LF_YIELD() point per attempt */
        while (atomic_exchange(&c->lock, 1)) LF_YIELD();
        break;
    case LOCK_PAUSE_SPIN: /* the same with sched_yield: a pause point */
        while (atomic_exchange(&c->lock, 1)) lf_sched_yield();
        break;
    case LOCK_HIDDEN_SPIN: /* no scheduling point at all in the loop, as in a prebuilt library */
        while (atomic_exchange(&c->lock, 1)) lf_cpu_relax();
        break;
    case LOCK_CONDITION:
        lf_mutex_lock(&c->m);
        while (c->busy) lf_cond_wait(&c->cv, &c->m);
        c->busy = true;
        lf_mutex_unlock(&c->m);
        break;
    case LOCK_SEMAPHORE:
        while (lf_sem_wait(&c->sem) != 0) {
        }
        break;
    }
}

static void counter_unlock(locked_counter *c) {
    switch (c->kind) {
    case LOCK_CONDITION:
        lf_mutex_lock(&c->m);
        c->busy = false;
        lf_cond_signal(&c->cv);
        lf_mutex_unlock(&c->m);
        break;
    case LOCK_SEMAPHORE: lf_sem_post(&c->sem); break;
    default: atomic_store(&c->lock, 0); break;
    }
}

/* inc: lock, a point inside the critical section (where a schedule can preempt the holder), unlock. */
static lf_kind counter_op(void *obj, lf_method m, const int64_t *args, int64_t *value) {
    locked_counter *c = obj;
    (void)args;
    counter_lock(c);
    LF_YIELD();
    if (m == LF_M_INC)
        c->count++;
    else
        *value = c->count;
    counter_unlock(c);
    return m == LF_M_INC ? LF_K_NONE : LF_K_INT;
}

#define COUNTER(ident, create_fn)                                                                             \
    static const lf_adapter ident = {.name = #ident, .summary = "test", .type = LF_TYPE_COUNTER,             \
                                     .linearizable = true,                                                   \
                                     .methods = LF_METHOD_BIT(LF_M_INC) | LF_METHOD_BIT(LF_M_GET),           \
                                     .create = create_fn, .destroy = counter_destroy, .op = counter_op}
COUNTER(yield_spin_counter, yield_spin_create);
COUNTER(pause_spin_counter, pause_spin_create);
COUNTER(hidden_spin_counter, hidden_spin_create);
COUNTER(condition_counter, condition_create);
COUNTER(semaphore_counter, semaphore_create);

/* Two threads of incs (method 1 of a counter: get, inc), the holder preempted inside its first critical
 * section (thread 0, op 0, its point 2: the CALL is 0, the LF_YIELD() in the section follows the lock). */
static lf_fuzz_case preempt_in_section(unsigned lock_points) {
    lf_fuzz_case c;
    memset(&c, 0, sizeof c);
    c.threads = 2;
    c.rounds = 4;
    c.repeats = 1;
    c.key_domain = 1;
    c.drain = true;
    for (unsigned t = 0; t < 2; t++) {
        c.body_len[t] = 2;
        c.body[t][0] = c.body[t][1] = (lf_fc_call){1, 0};
    }
    c.mode = LF_FC_CONTROLLED;
    c.schedule.strategy = LF_SCHED_PCT;
    c.schedule.bound = 1;
    c.schedule.priority[0] = 200;
    c.schedule.priority[1] = 100;
    c.schedule.change[0] = (lf_sched_position){0, 0, (uint8_t)(1 + lock_points)};
    lf_fuzz_case_normalize(&c, 2);
    return c;
}

/* A case of one thread calling method `method` (of an adapter with two methods) `rounds` times, one run. */
static lf_fuzz_case one_thread_case(uint8_t rounds, uint8_t method, lf_fc_mode mode) {
    lf_fuzz_case c;
    memset(&c, 0, sizeof c);
    c.threads = 1;
    c.rounds = rounds;
    c.repeats = 1;
    c.key_domain = 1;
    c.body_len[0] = 1;
    c.body[0][0] = (lf_fc_call){method, 0};
    c.mode = (uint8_t)mode;
    lf_fuzz_case_normalize(&c, 2);
    return c;
}

/* Runs c once on a (run 0); returns the run info, h the history. */
static lf_fc_run_info run_once(lf_fc_executor *x, const lf_adapter *a, const lf_fuzz_case *c, lf_history *h) {
    lf_fc_plan p;
    CHECK(lf_fc_plan_build(&p, c, a));
    CHECK(lf_fc_execute(x, &p, 0, h));
    lf_fc_plan_free(&p);
    return x->last;
}

/* The final get of the drain returns every inc: 2 threads x 2 calls x 4 rounds. */
static int64_t final_count(const lf_history *h) { return h->n ? h->ops[h->n - 1].res : -1; }

/* ---- 2b. a bounded adapter's full answers reach the history ---- */

/* Two threads enqueue four values each into the 4-slot rings (correct and buggy): whatever the schedule,
 * exactly four enqs succeed and four answer full, and the history carries the capacity. (A fuzz campaign's
 * violation need not contain a full answer: the ring only has to be full once.) */
static void bounded_adapter_records_full_answers(void) {
    static const char *const names[] = {"ring_queue", "ring_queue_early_free"};
    lf_fc_executor x;
    CHECK(lf_fc_executor_init(&x, LF_CLOCK_TICKET));
    lf_history h;
    lf_history_init(&h, LF_TYPE_REGISTER);
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        const lf_adapter *a = lf_adapter_find(names[i]);
        CHECKF(a != NULL && a->capacity == 4, "%s: not bundled with capacity 4", names[i]);
        if (!a) continue;
        lf_method ms[LF_M_COUNT];
        unsigned nm = lf_fuzz_case_methods(a, ms), enq = nm;
        for (unsigned m = 0; m < nm; m++)
            if (ms[m] == LF_M_ENQ) enq = m;
        CHECK(enq < nm);
        for (unsigned st = 0; st < LF_SCHED_STRATEGY_COUNT; st++) {
            lf_fuzz_case c = controlled_case(nm, 2, 4, 1, (lf_sched_strategy)st, 7 + st);
            c.prefix_len = 0;
            c.drain = false;
            for (unsigned t = 0; t < 2; t++)
                for (unsigned k = 0; k < 4; k++) c.body[t][k] = (lf_fc_call){(uint8_t)enq, (uint8_t)(t * 4 + k)};
            lf_fuzz_case_normalize(&c, nm);
            lf_fc_plan p;
            CHECK(lf_fc_plan_build(&p, &c, a));
            CHECK(lf_fc_execute(&x, &p, 0, &h));
            size_t fulls = 0, enqs = 0;
            for (size_t k = 0; k < h.n; k++) {
                enqs += h.ops[k].method == LF_M_ENQ;
                fulls += h.ops[k].res_kind == LF_K_FULL;
            }
            CHECKF(h.capacity == 4 && enqs == 8 && fulls == 4, "%s, strategy %u: capacity %llu, %zu enqs, %zu full",
                   a->name, st, (unsigned long long)h.capacity, enqs, fulls);
            CHECKF(check_history(&h) == LF_LINEARIZABLE, "%s, strategy %u: enqs alone are linearizable", a->name, st);
            lf_fc_plan_free(&p);
        }
    }
    lf_history_free(&h);
    lf_fc_executor_free(&x);
}

/* ---- 3. spinning with points is demoted; 4. without points, the watchdog releases it ---- */

static void spinning_is_demoted(void) {
    lf_fc_executor x;
    CHECK(lf_fc_executor_init(&x, LF_CLOCK_TICKET));
    lf_history h, h2;
    lf_history_init(&h, LF_TYPE_COUNTER);
    lf_history_init(&h2, LF_TYPE_COUNTER);
    const lf_adapter *spinners[] = {&yield_spin_counter, &pause_spin_counter};
    for (int i = 0; i < 2; i++) {
        /* the lock is one RMW, invisible here (not instrumented): the section's LF_YIELD() is point 1 */
        lf_fuzz_case c = preempt_in_section(0);
        lf_fc_run_info info = run_once(&x, spinners[i], &c, &h);
        CHECKF(!info.stuck && info.stats.deterministic && !info.stats.watchdog, "%s: stuck %d deterministic %d",
               spinners[i]->name, info.stuck, info.stats.deterministic);
        CHECKF(info.stats.preemptions >= 1 && info.stats.demotions >= 1, "%s: %llu preemptions, %llu demotions",
               spinners[i]->name, (unsigned long long)info.stats.preemptions, (unsigned long long)info.stats.demotions);
        CHECK(final_count(&h) == 16 && check_history(&h) == LF_LINEARIZABLE);
        run_once(&x, spinners[i], &c, &h2);
        CHECK(lf_histories_identical(&h, &h2));
    }
    lf_history_free(&h);
    lf_history_free(&h2);
    lf_fc_executor_free(&x);
}

static void watchdog_releases_a_hidden_spin(void) {
    lf_fc_executor x;
    CHECK(lf_fc_executor_init(&x, LF_CLOCK_TICKET));
    lf_history h;
    lf_history_init(&h, LF_TYPE_COUNTER);
    /* No preemption inside the section: the hidden spin never spins, the run is deterministic. */
    lf_fuzz_case c = preempt_in_section(0);
    c.schedule.bound = 0;
    lf_fc_run_info info = run_once(&x, &hidden_spin_counter, &c, &h);
    CHECK(!info.stuck && info.stats.deterministic && !info.stats.watchdog && final_count(&h) == 16);
    /* Preempted inside: thread 1 spins where the scheduler cannot see it; the watchdog lets everybody run. */
    c = preempt_in_section(0);
    info = run_once(&x, &hidden_spin_counter, &c, &h);
    CHECKF(!info.stuck && info.stats.watchdog && !info.stats.deterministic, "watchdog %d deterministic %d",
           info.stats.watchdog, info.stats.deterministic);
    CHECKF(final_count(&h) == 16 && check_history(&h) == LF_LINEARIZABLE, "after the release: count %lld",
           (long long)final_count(&h));
    /* The next run on the same executor is controlled again. */
    c.schedule.bound = 0;
    info = run_once(&x, &hidden_spin_counter, &c, &h);
    CHECK(info.stats.deterministic && final_count(&h) == 16);
    lf_history_free(&h);
    lf_fc_executor_free(&x);
}

/* ---- 5. deadlock: STUCK ---- */

typedef struct two_locks {
    pthread_mutex_t a, b;
    int64_t count;
} two_locks;

static void *two_locks_create(size_t n) {
    (void)n;
    two_locks *t = calloc(1, sizeof *t);
    if (!t) return NULL;
    pthread_mutex_init(&t->a, NULL);
    pthread_mutex_init(&t->b, NULL);
    return t;
}
static void two_locks_destroy(void *obj) {
    two_locks *t = obj;
    pthread_mutex_destroy(&t->a);
    pthread_mutex_destroy(&t->b);
    free(t);
}
/* inc takes a then b, get takes b then a: the classic lock-order inversion. */
static lf_kind two_locks_op(void *obj, lf_method m, const int64_t *args, int64_t *value) {
    two_locks *t = obj;
    (void)args;
    pthread_mutex_t *first = m == LF_M_INC ? &t->a : &t->b, *second = m == LF_M_INC ? &t->b : &t->a;
    lf_mutex_lock(first);
    LF_YIELD();
    lf_mutex_lock(second);
    if (m == LF_M_INC) t->count++;
    int64_t v = t->count;
    lf_mutex_unlock(second);
    lf_mutex_unlock(first);
    if (m == LF_M_GET) *value = v;
    return m == LF_M_INC ? LF_K_NONE : LF_K_INT;
}
static const lf_adapter lock_order_counter = {.name = "lock_order_counter", .summary = "test",
                                              .type = LF_TYPE_COUNTER, .linearizable = true,
                                              .methods = LF_METHOD_BIT(LF_M_INC) | LF_METHOD_BIT(LF_M_GET),
                                              .create = two_locks_create, .destroy = two_locks_destroy,
                                              .op = two_locks_op};

static void deadlock_is_stuck(void) {
    lf_fc_executor x;
    CHECK(lf_fc_executor_init(&x, LF_CLOCK_TICKET));
    lf_history h;
    lf_history_init(&h, LF_TYPE_COUNTER);
    /* Thread 0 incs (a then b), thread 1 gets (b then a); thread 0 is preempted holding a (its point 2: CALL,
     * lock a, then the LF_YIELD()). */
    lf_fuzz_case c = preempt_in_section(1);
    c.body[1][0] = c.body[1][1] = (lf_fc_call){0, 0}; /* method 0: get */
    lf_fc_plan p;
    CHECK(lf_fc_plan_build(&p, &c, &lock_order_counter));
    for (int k = 0; k < 3; k++) { /* the same deadlock every time */
        CHECK(lf_fc_execute(&x, &p, 0, &h));
        CHECK(x.last.stuck);
        char where[2048];
        lf_fc_describe_stuck(where, sizeof where, &x, &p);
        CHECKF(strstr(where, "T0: op 0 (inc): blocked on mutex") && strstr(where, "held by T1") &&
                   strstr(where, "T1: op 0 (get): blocked on mutex") && strstr(where, "held by T0"),
               "%s", where);
        CHECK(h.n == 0); /* nothing completed: both first ops are stuck */
    }
    /* The executor's threads came back: a run without that preemption completes. */
    c.schedule.bound = 0;
    lf_fc_plan_free(&p);
    CHECK(lf_fc_plan_build(&p, &c, &lock_order_counter));
    CHECK(lf_fc_execute(&x, &p, 0, &h) && !x.last.stuck && x.last.stats.deterministic);
    CHECK(check_history(&h) == LF_LINEARIZABLE);
    lf_fc_plan_free(&p);
    lf_history_free(&h);
    lf_fc_executor_free(&x);
}

/* ---- 6. condition variables, semaphores, timeouts ---- */

static void conditions_and_semaphores(void) {
    lf_fc_executor x;
    CHECK(lf_fc_executor_init(&x, LF_CLOCK_TICKET));
    lf_history h, h2;
    lf_history_init(&h, LF_TYPE_COUNTER);
    lf_history_init(&h2, LF_TYPE_COUNTER);
    const lf_adapter *blocking[] = {&condition_counter, &semaphore_counter};
    for (int i = 0; i < 2; i++) {
        /* points before the section's LF_YIELD(): condition: lock m, (wait), unlock m = CALL + 2;
         * semaphore: sem_wait = CALL + 1 */
        lf_fuzz_case c = preempt_in_section(i == 0 ? 2 : 1);
        lf_fc_run_info info = run_once(&x, blocking[i], &c, &h);
        CHECKF(!info.stuck && info.stats.deterministic && info.stats.blocks >= 1, "%s: stuck %d, %llu blocks",
               blocking[i]->name, info.stuck, (unsigned long long)info.stats.blocks);
        CHECK(final_count(&h) == 16 && check_history(&h) == LF_LINEARIZABLE);
        run_once(&x, blocking[i], &c, &h2);
        CHECK(lf_histories_identical(&h, &h2));
    }
    lf_history_free(&h);
    lf_history_free(&h2);
    lf_fc_executor_free(&x);
}

/* A register whose read waits (timed) on a condition nobody signals, and whose write signals it. */
typedef struct timed_register {
    pthread_mutex_t m;
    pthread_cond_t cv;
    int64_t value;
    int timeouts;
} timed_register;
static void *timed_create(size_t n) {
    (void)n;
    timed_register *r = calloc(1, sizeof *r);
    if (r) {
        pthread_mutex_init(&r->m, NULL);
        pthread_cond_init(&r->cv, NULL);
    }
    return r;
}
static void timed_destroy(void *obj) {
    timed_register *r = obj;
    pthread_mutex_destroy(&r->m);
    pthread_cond_destroy(&r->cv);
    free(r);
}
static lf_kind timed_op(void *obj, lf_method m, const int64_t *args, int64_t *value) {
    timed_register *r = obj;
    lf_mutex_lock(&r->m);
    if (m == LF_M_WRITE) {
        r->value = args[0];
        lf_cond_broadcast(&r->cv);
    } else {
        struct timespec deadline;
        clock_gettime(CLOCK_REALTIME, &deadline);
        deadline.tv_sec += 3600; /* an hour: only the scheduler's "nothing else can run" ends it */
        if (lf_cond_timedwait(&r->cv, &r->m, &deadline) == ETIMEDOUT) r->timeouts++;
        *value = r->value;
    }
    lf_mutex_unlock(&r->m);
    return m == LF_M_WRITE ? LF_K_NONE : LF_K_INT;
}
static const lf_adapter timed_register_adapter = {.name = "timed_register", .summary = "test",
                                                  .type = LF_TYPE_REGISTER, .linearizable = true,
                                                  .methods = LF_METHOD_BIT(LF_M_WRITE) | LF_METHOD_BIT(LF_M_READ),
                                                  .create = timed_create, .destroy = timed_destroy,
                                                  .op = timed_op};

static void timed_waits_time_out_deterministically(void) {
    lf_fc_executor x;
    CHECK(lf_fc_executor_init(&x, LF_CLOCK_TICKET));
    lf_history h;
    lf_history_init(&h, LF_TYPE_REGISTER);
    /* One thread of reads only (method 1 of a register: read): every read waits, nobody else runs. */
    lf_fuzz_case c = one_thread_case(3, 1, LF_FC_CONTROLLED);
    double start = (double)time(NULL);
    lf_fc_run_info info = run_once(&x, &timed_register_adapter, &c, &h);
    CHECKF(!info.stuck && info.stats.deterministic && info.stats.timeouts == 3, "stuck %d, %llu timeouts", info.stuck,
           (unsigned long long)info.stats.timeouts);
    CHECK(h.n == 3 && check_history(&h) == LF_LINEARIZABLE);
    CHECK((double)time(NULL) - start < 60); /* never the hour */
    lf_history_free(&h);
    lf_fc_executor_free(&x);
}

/* ---- 7. the point budget ---- */

static void budget_releases_a_long_run(void) {
    lf_fc_executor x;
    CHECK(lf_fc_executor_init(&x, LF_CLOCK_TICKET));
    x.sched_options.point_budget = 40;
    const lf_adapter *a = lf_adapter_find("ms_queue");
    lf_method ms[LF_M_COUNT];
    lf_fuzz_case c = controlled_case(lf_fuzz_case_methods(a, ms), 3, 4, 8, LF_SCHED_PCT, 5);
    lf_history h;
    lf_history_init(&h, a->type);
    lf_fc_run_info info = run_once(&x, a, &c, &h);
    CHECKF(!info.stuck && info.stats.budget_exceeded && !info.stats.deterministic && !info.stats.watchdog,
           "budget %d deterministic %d", info.stats.budget_exceeded, info.stats.deterministic);
    CHECK(h.n >= 3 * 4 * 8 && check_history(&h) != LF_VIOLATION);
    lf_history_free(&h);
    lf_fc_executor_free(&x);
}

/* ---- 7b. the STUCK watch leaves a controlled run to the scheduler ---- */

/* A counter whose inc works 400 ms of CPU time between 400 LF_YIELD() points: longer than the STUCK deadline
 * set below (0.15 s without a call or a return), and no point budget runs out. */
static lf_kind slow_op(void *obj, lf_method m, const int64_t *args, int64_t *value) {
    (void)args;
    int64_t *count = obj;
    if (m == LF_M_GET) {
        *value = *count;
        return LF_K_INT;
    }
    for (int i = 0; i < 400; i++) {
        struct timespec t0, t;
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t0);
        do clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
        while ((t.tv_sec - t0.tv_sec) * 1000000000L + (t.tv_nsec - t0.tv_nsec) < 1000000L);
        LF_YIELD();
    }
    (*count)++;
    return LF_K_NONE;
}
static void *slow_create(size_t n) {
    (void)n;
    return calloc(1, sizeof(int64_t));
}
static const lf_adapter slow_counter = {.name = "slow_counter", .summary = "test", .type = LF_TYPE_COUNTER,
                                        .linearizable = true,
                                        .methods = LF_METHOD_BIT(LF_M_INC) | LF_METHOD_BIT(LF_M_GET),
                                        .create = slow_create, .destroy = free, .op = slow_op};

static int stuck_report_fd = -1;
static void report_stuck(void *ctx, const lf_stuck_event *ev) {
    (void)ctx;
    (void)ev;
    if (write(stuck_report_fd, "STUCK", 5) != 5) _exit(9);
    _exit(0);
}

/* One inc of slow_counter in a child, in the given mode, with a STUCK deadline of 0.15 s: what the child
 * reports ("DONE" or "STUCK"). */
static void run_slow_child(lf_fc_mode mode, char *out, size_t len) {
    int fds[2];
    CHECK(pipe(fds) == 0);
    pid_t pid = fork();
    if (pid == 0) {
        close(fds[0]);
        stuck_report_fd = fds[1];
        setenv("LINFUZZ_STUCK_SECONDS", "0.15", 1);
        lf_fc_executor x;
        if (!lf_fc_executor_init(&x, LF_CLOCK_TICKET)) _exit(8);
        lf_fc_executor_on_stuck(&x, report_stuck, NULL);
        lf_fuzz_case c = one_thread_case(1, 1, mode); /* inc (methods: get, inc) */
        lf_fc_plan p;
        lf_history h;
        lf_history_init(&h, LF_TYPE_COUNTER);
        if (!lf_fc_plan_build(&p, &c, &slow_counter) || !lf_fc_execute(&x, &p, 0, &h)) _exit(8);
        if (write(fds[1], "DONE", 4) != 4) _exit(9);
        _exit(0);
    }
    close(fds[1]);
    ssize_t got = read(fds[0], out, len - 1);
    out[got > 0 ? got : 0] = 0;
    int status = 0;
    waitpid(pid, &status, 0);
    close(fds[0]);
}

/* Controlled, the op's 0.4 s are the scheduler's to judge (a deadlock it ends, a livelock its point budget
 * releases): not STUCK. A seqlock reader that a scheduler kept spinning for 3 s was reported STUCK so, and the
 * run it released then finished. Free, the same op is STUCK at the deadline: the watch still works. */
static void stuck_watch_leaves_controlled_runs_to_the_scheduler(void) {
    char got[16];
    run_slow_child(LF_FC_CONTROLLED, got, sizeof got);
    CHECKF(!strcmp(got, "DONE"), "controlled: the child reported '%s'", got);
    run_slow_child(LF_FC_FREE, got, sizeof got);
    CHECKF(!strcmp(got, "STUCK"), "free: the child reported '%s'", got);
}

/* ---- 8. hooks: the event log and atomic regions ---- */

typedef struct event_log {
    lf_sched_event *events;
    size_t n, cap;
} event_log;

static void record_event(void *ctx, const lf_sched_event *e) {
    event_log *log = ctx;
    if (log->n == log->cap) {
        log->cap = log->cap ? 2 * log->cap : 1024;
        log->events = realloc(log->events, log->cap * sizeof *log->events);
    }
    log->events[log->n++] = *e;
}

/* k1 (lost update): two threads of incs, a drain. */
static lf_fuzz_case k1_case(lf_sched_strategy strategy, uint64_t seed) {
    lf_fuzz_case c = controlled_case(2, 2, 2, 4, strategy, seed);
    for (unsigned t = 0; t < 2; t++) c.body[t][0] = c.body[t][1] = (lf_fc_call){1, 0};
    c.prefix_len = 0;
    lf_fuzz_case_normalize(&c, 2);
    return c;
}

/* Violating runs of k1 among runs 0..n-1 of seeds 1..4 under PCT. */
static unsigned k1_violations(lf_fc_executor *x, unsigned n) {
    const lf_adapter *a = lf_adapter_find("k1_counter_lost_update");
    lf_history h;
    lf_history_init(&h, a->type);
    unsigned violations = 0;
    for (uint64_t seed = 1; seed <= 4; seed++) {
        lf_fuzz_case c = k1_case(LF_SCHED_PCT, seed);
        lf_fc_plan p;
        CHECK(lf_fc_plan_build(&p, &c, a));
        for (unsigned r = 0; r < n; r++) {
            CHECK(lf_fc_execute(x, &p, r, &h));
            violations += check_history(&h) == LF_VIOLATION;
        }
        lf_fc_plan_free(&p);
    }
    lf_history_free(&h);
    return violations;
}

static void hooks_record_and_protect(void) {
    const lf_adapter *a = lf_adapter_find("k1_counter_lost_update");
    lf_fc_executor x;
    CHECK(lf_fc_executor_init(&x, LF_CLOCK_TICKET));
    lf_history h;
    lf_history_init(&h, a->type);
    lf_fuzz_case c = k1_case(LF_SCHED_PCT, 3);
    lf_fc_plan p;
    CHECK(lf_fc_plan_build(&p, &c, a));
    CHECK(lf_fc_execute(&x, &p, 1, &h)); /* creates the scheduler */
    event_log log1 = {0}, log2 = {0};
    lf_sched_set_event_hook(x.sched, record_event, &log1);
    CHECK(lf_fc_execute(&x, &p, 1, &h));
    lf_sched_set_event_hook(x.sched, record_event, &log2);
    CHECK(lf_fc_execute(&x, &p, 1, &h));
    lf_sched_set_event_hook(x.sched, NULL, NULL);
    CHECKF(log1.n == log2.n && log1.n == x.last.stats.points, "%zu and %zu events, %llu points", log1.n, log2.n,
           (unsigned long long)x.last.stats.points);
    size_t order_ok = 0, same = 0, accesses = 0, calls = 0, returns = 0;
    uintptr_t load_pc = 0, store_pc = 0;
    for (size_t i = 0; i < log1.n && i < log2.n; i++) {
        const lf_sched_event *e = &log1.events[i], *f = &log2.events[i];
        order_ok += e->seq == i;
        same += e->thread == f->thread && e->op == f->op && e->step == f->step && e->kind == f->kind &&
                e->pc == f->pc && e->size == f->size;
        calls += e->kind == LF_EV_CALL;
        returns += e->kind == LF_EV_RETURN;
        if (e->kind == LF_EV_READ || e->kind == LF_EV_WRITE || e->kind == LF_EV_RMW) {
            accesses++;
            CHECK(e->addr != NULL && e->pc != 0 && e->size == 8);
            /* k1's inc: a load then, after its LF_YIELD(), a store to the same counter */
            if (e->kind == LF_EV_READ && !load_pc && i + 2 < log1.n && log1.events[i + 1].kind == LF_EV_YIELD &&
                log1.events[i + 2].kind == LF_EV_WRITE && log1.events[i + 2].addr == e->addr) {
                load_pc = e->pc;
                store_pc = log1.events[i + 2].pc;
            }
        }
    }
    CHECK(order_ok == log1.n && same == log1.n);
    CHECKF(calls == 2 * 2 * 4 && returns == calls, "%zu calls, %zu returns", calls, returns);
    if (lf_sched_access_points_available()) {
        CHECKF(accesses >= calls * 2, "only %zu access events", accesses);
        CHECK(load_pc && store_pc);
    }
    free(log1.events);
    free(log2.events);
    lf_fc_plan_free(&p);

    /* Atomic regions: k1 loses updates under PCT; with its load-to-store window atomic it cannot. */
    unsigned without = k1_violations(&x, 8);
    CHECKF(without > 0, "k1 never violated in 32 controlled runs");
    if (load_pc) {
        CHECK(lf_sched_add_atomic_pair(x.sched, load_pc, store_pc));
        unsigned with_pair = k1_violations(&x, 8);
        CHECKF(with_pair == 0, "%u violations with the load-store pair atomic", with_pair);
        lf_sched_clear_atomic_regions(x.sched);
    }
    CHECK(lf_sched_add_atomic_region(x.sched, 0, UINTPTR_MAX)); /* no preemption at any access */
    unsigned with_region = k1_violations(&x, 8);
    CHECKF(with_region == 0, "%u violations with every pc in an atomic region", with_region);
    lf_sched_clear_atomic_regions(x.sched);
    CHECK(k1_violations(&x, 8) == without); /* and deterministic */
    lf_history_free(&h);
    lf_fc_executor_free(&x);
}

/* ---- 9. schedule feedback ---- */

static size_t nonzero(const uint8_t *c, size_t n) {
    size_t k = 0;
    for (size_t i = 0; i < n; i++) k += c[i] != 0;
    return k;
}

static void feedback_counts_reads_from(void) {
    static uint8_t a[4096], b[4096];
    const lf_adapter *ad = lf_adapter_find("treiber_stack");
    lf_method ms[LF_M_COUNT];
    lf_fuzz_case c = controlled_case(lf_fuzz_case_methods(ad, ms), 3, 4, 4, LF_SCHED_PCT, 21);
    lf_fc_plan p;
    CHECK(lf_fc_plan_build(&p, &c, ad));
    lf_fc_executor x;
    CHECK(lf_fc_executor_init(&x, LF_CLOCK_TICKET));
    lf_history h;
    lf_history_init(&h, ad->type);
    /* runs 0..3 (the counters add up, as over the repetitions of one fuzzer execution), twice */
    lf_fc_executor_set_feedback(&x, a, sizeof a, LF_FEEDBACK_RF | LF_FEEDBACK_PREEMPT);
    for (unsigned r = 0; r < 4; r++) CHECK(lf_fc_execute(&x, &p, r, &h));
    lf_fc_executor_set_feedback(&x, b, sizeof b, LF_FEEDBACK_RF | LF_FEEDBACK_PREEMPT);
    for (unsigned r = 0; r < 4; r++) CHECK(lf_fc_execute(&x, &p, r, &h));
    size_t rf = nonzero(a, sizeof a - sizeof a / 4), preempt = nonzero(a + sizeof a - sizeof a / 4, sizeof a / 4);
    CHECKF((!lf_sched_access_points_available() || rf > 0) && preempt > 0 && !memcmp(a, b, sizeof a),
           "%zu reads-from pairs, %zu preemption sites, same twice: %d", rf, preempt, !memcmp(a, b, sizeof a));
    /* interleaving pairs in the preemption part: deterministic too, and more of them than preemption sites
     * (a site is switched out of towards several others) */
    static uint8_t sw1[4096], sw2[4096];
    lf_fc_executor_set_feedback(&x, sw1, sizeof sw1, LF_FEEDBACK_RF | LF_FEEDBACK_SWITCH);
    for (unsigned r = 0; r < 4; r++) CHECK(lf_fc_execute(&x, &p, r, &h));
    lf_fc_executor_set_feedback(&x, sw2, sizeof sw2, LF_FEEDBACK_RF | LF_FEEDBACK_SWITCH);
    for (unsigned r = 0; r < 4; r++) CHECK(lf_fc_execute(&x, &p, r, &h));
    size_t pairs = nonzero(sw1 + sizeof sw1 - sizeof sw1 / 4, sizeof sw1 / 4);
    CHECKF(pairs >= preempt && pairs > 0 && !memcmp(sw1, sw2, sizeof sw1) && !memcmp(a, sw1, sizeof a - sizeof a / 4),
           "%zu interleaving pairs against %zu preemption sites, same twice: %d, the same reads-from pairs: %d", pairs,
           preempt, !memcmp(sw1, sw2, sizeof sw1), !memcmp(a, sw1, sizeof a - sizeof a / 4));
    /* a walk that switches at many points: more interleaving pairs than preemption sites */
    lf_fuzz_case walk = controlled_case(lf_fuzz_case_methods(ad, ms), 4, 12, 4, LF_SCHED_WALK, 5);
    lf_fc_plan wp;
    CHECK(lf_fc_plan_build(&wp, &walk, ad));
    memset(sw1, 0, sizeof sw1);
    memset(sw2, 0, sizeof sw2);
    lf_fc_executor_set_feedback(&x, sw1, sizeof sw1, LF_FEEDBACK_PREEMPT);
    for (unsigned r = 0; r < 4; r++) CHECK(lf_fc_execute(&x, &wp, r, &h));
    lf_fc_executor_set_feedback(&x, sw2, sizeof sw2, LF_FEEDBACK_SWITCH);
    for (unsigned r = 0; r < 4; r++) CHECK(lf_fc_execute(&x, &wp, r, &h));
    size_t walk_sites = nonzero(sw1, sizeof sw1), walk_pairs = nonzero(sw2, sizeof sw2);
    CHECKF(!lf_sched_access_points_available() || walk_pairs > walk_sites,
           "walk: %zu interleaving pairs, %zu preemption sites", walk_pairs, walk_sites);
    lf_fc_plan_free(&wp);
    /* off: nothing is written */
    memset(a, 0, sizeof a);
    lf_fc_executor_set_feedback(&x, NULL, 0, 0);
    CHECK(lf_fc_execute(&x, &p, 1, &h));
    CHECK(nonzero(a, sizeof a) == 0);
    lf_history_free(&h);
    lf_fc_executor_free(&x);
    lf_fc_plan_free(&p);
}

/* ---- 10. a controlled run's workers share one CPU ---- */

/* A counter whose inc notes the CPUs its thread may run on: how many incs saw exactly one CPU, which one (the
 * same for all: -2 when two differed), and how many saw the process's own set. */
static cpu_set_t process_cpus;
static _Atomic unsigned incs_on_one_cpu, incs_on_own_cpus, incs_seen;
static _Atomic int the_one_cpu = -1;
static lf_kind cpu_noting_op(void *obj, lf_method m, const int64_t *args, int64_t *value) {
    (void)args;
    _Atomic int64_t *count = obj;
    if (m == LF_M_GET) {
        *value = atomic_load(count);
        return LF_K_INT;
    }
    cpu_set_t mine;
    CHECK(sched_getaffinity(0, sizeof mine, &mine) == 0);
    atomic_fetch_add(&incs_seen, 1);
    if (CPU_EQUAL(&mine, &process_cpus)) atomic_fetch_add(&incs_on_own_cpus, 1);
    if (CPU_COUNT(&mine) == 1) {
        atomic_fetch_add(&incs_on_one_cpu, 1);
        int cpu = 0;
        while (!CPU_ISSET(cpu, &mine)) cpu++;
        int none = -1;
        if (!atomic_compare_exchange_strong(&the_one_cpu, &none, cpu) && none != cpu) atomic_store(&the_one_cpu, -2);
    }
    LF_YIELD();
    atomic_fetch_add(count, 1);
    return LF_K_NONE;
}
static void *cpu_noting_create(size_t n) {
    (void)n;
    return calloc(1, sizeof(_Atomic int64_t));
}
static const lf_adapter cpu_noting_counter = {.name = "cpu_noting_counter", .summary = "test",
                                              .type = LF_TYPE_COUNTER, .linearizable = true,
                                              .methods = LF_METHOD_BIT(LF_M_INC) | LF_METHOD_BIT(LF_M_GET),
                                              .create = cpu_noting_create, .destroy = free, .op = cpu_noting_op};

static void forget_cpus_seen(void) {
    atomic_store(&incs_on_one_cpu, 0);
    atomic_store(&incs_on_own_cpus, 0);
    atomic_store(&incs_seen, 0);
    atomic_store(&the_one_cpu, -1);
}

/* Controlled (the default options): every inc of 3 threads runs confined to one CPU, the same for all, which
 * the process may use. Then a free run of the same executor (the same pooled threads): every inc has the
 * process's CPUs again (the workers left the CPU). With one_cpu off, controlled runs keep every CPU. On a
 * machine with one usable CPU the two cannot be told apart, and only the runs are checked. */
static void workers_share_one_cpu(void) {
    CHECK(sched_getaffinity(0, sizeof process_cpus, &process_cpus) == 0);
    bool several = CPU_COUNT(&process_cpus) > 1;
    if (!several) printf("  (one usable CPU: confinement not observable here)\n");
    lf_method ms[LF_M_COUNT];
    lf_fuzz_case c = controlled_case(lf_fuzz_case_methods(&cpu_noting_counter, ms), 3, 2, 2, LF_SCHED_WALK, 3);
    for (unsigned t = 0; t < 3; t++)
        for (unsigned i = 0; i < 2; i++) c.body[t][i].method = 1; /* inc (methods: get, inc) */
    lf_history h;
    lf_history_init(&h, LF_TYPE_COUNTER);
    lf_fc_executor x;
    CHECK(lf_fc_executor_init(&x, LF_CLOCK_TICKET));
    CHECK(x.sched_options.one_cpu);
    forget_cpus_seen();
    lf_fc_run_info info = run_once(&x, &cpu_noting_counter, &c, &h);
    unsigned seen = atomic_load(&incs_seen);
    int cpu = atomic_load(&the_one_cpu);
    CHECKF(!info.stuck && info.stats.deterministic && info.stats.switches > 0 && seen == 3 * 2 * 2,
           "controlled: stuck %d, deterministic %d, %llu switches, %u incs", info.stuck, info.stats.deterministic,
           (unsigned long long)info.stats.switches, seen);
    CHECKF(atomic_load(&incs_on_one_cpu) == seen && cpu >= 0 && CPU_ISSET(cpu, &process_cpus),
           "controlled: %u of %u incs on one CPU, which was %d", atomic_load(&incs_on_one_cpu), seen, cpu);
    c.mode = LF_FC_FREE;
    forget_cpus_seen();
    run_once(&x, &cpu_noting_counter, &c, &h);
    CHECKF(atomic_load(&incs_on_own_cpus) == atomic_load(&incs_seen) && atomic_load(&incs_seen) == 12,
           "free, after a controlled run: %u of %u incs had the process's CPUs", atomic_load(&incs_on_own_cpus),
           atomic_load(&incs_seen));
    lf_fc_executor_free(&x);
    CHECK(lf_fc_executor_init(&x, LF_CLOCK_TICKET));
    x.sched_options.one_cpu = false;
    c.mode = LF_FC_CONTROLLED;
    forget_cpus_seen();
    info = run_once(&x, &cpu_noting_counter, &c, &h);
    CHECKF(info.stats.switches > 0 && atomic_load(&incs_on_own_cpus) == 12 &&
               (!several || atomic_load(&incs_on_one_cpu) == 0),
           "one_cpu off: %u of %u incs had the process's CPUs, %u one CPU", atomic_load(&incs_on_own_cpus),
           atomic_load(&incs_seen), atomic_load(&incs_on_one_cpu));
    lf_fc_executor_free(&x);
    lf_history_free(&h);
}

int main(void) {
    every_adapter_replays_exactly();
    lock_and_library_adapters_do_not_hang();
    pos_and_surw_switch_at_many_points();
    aba_resumes_when_the_word_comes_back();
    bounded_adapter_records_full_answers();
    spinning_is_demoted();
    watchdog_releases_a_hidden_spin();
    deadlock_is_stuck();
    conditions_and_semaphores();
    timed_waits_time_out_deterministically();
    budget_releases_a_long_run();
    stuck_watch_leaves_controlled_runs_to_the_scheduler();
    hooks_record_and_protect();
    feedback_counts_reads_from();
    workers_share_one_cpu();
    TEST_DONE();
}
