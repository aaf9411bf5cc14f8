/* linfuzz-bench-sched: microbenchmarks of controlled mode (ci/bench_sched.sh runs them; docs/scheduling.md
 * quotes the figures). Not a test.
 *
 *   access   nanoseconds per instrumented access of one loop (bench_kernel.c), in the thread's CPU time
 *            (the machine may be shared: wall time would count other processes), median of 7 interleaved
 *            rounds: with no instrumentation; with the ThreadSanitizer ABI that linfuzz uses, free-running
 *            (the callbacks' fast path: one thread-local load) and controlled (every access a scheduling point
 *            of a one-thread run that never switches), with and without the reads-from feedback, and under
 *            the weak memory models tso and c11 (weak chance 64/256; docs/memory-models.md); and with
 *            SanitizerCoverage's trace-loads/trace-stores (clang builds), free and controlled, the
 *            alternative instrumentation. One fetch-add per iteration for the atomic rows (trace-loads/stores
 *            does not see read-modify-writes at all).
 *   switch   nanoseconds per baton handoff, in wall time and in the process's CPU time: two threads pass
 *            LF_YIELD() points under a random walk that switches at one point in 16, against the same run
 *            with no switch; with the workers on one CPU (the default, sched/one_cpu.h), and on any CPU for
 *            several lengths of the waiter's spin before it sleeps in the kernel. Wall time includes waiting
 *            for the woken thread to get a core, which a loaded machine stretches.
 *
 * Usage: linfuzz-bench-sched [access|switch|all] */
#include <pthread.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "runtime/sched.h"
#include "sched/sched_internal.h"
#include "util/clock.h"

uint64_t bench_kernel_plain(uint64_t *a, size_t n, size_t rounds);
uint64_t bench_atomic_kernel_plain(_Atomic uint64_t *a, size_t n, size_t rounds);
#ifdef LINFUZZ_ACCESS_POINTS
uint64_t bench_kernel_tsan(uint64_t *a, size_t n, size_t rounds);
uint64_t bench_atomic_kernel_tsan(_Atomic uint64_t *a, size_t n, size_t rounds);
#endif
#ifdef BENCH_SANCOV
uint64_t bench_kernel_sancov(uint64_t *a, size_t n, size_t rounds);
uint64_t bench_atomic_kernel_sancov(_Atomic uint64_t *a, size_t n, size_t rounds);

/* SanitizerCoverage's load/store callbacks as scheduling points, as an implementation on that
 * instrumentation would have them (they see plain loads and stores only). */
#define SANCOV(N)                                                                                             \
    void __sanitizer_cov_load##N(void *addr);                                                                 \
    void __sanitizer_cov_store##N(void *addr);                                                                \
    void __sanitizer_cov_load##N(void *addr) {                                                                \
        lf_sched_thread *th = lf_sched_self;                                                                  \
        if (th) lf_sched_point(th, LF_EV_READ, addr, N, (uintptr_t)__builtin_return_address(0));              \
    }                                                                                                         \
    void __sanitizer_cov_store##N(void *addr) {                                                               \
        lf_sched_thread *th = lf_sched_self;                                                                  \
        if (th) {                                                                                             \
            lf_sched_point(th, LF_EV_WRITE, addr, N, (uintptr_t)__builtin_return_address(0));                 \
            lf_sched_progressed(th, addr);                                                                    \
        }                                                                                                     \
    }
SANCOV(1) SANCOV(2) SANCOV(4) SANCOV(8) SANCOV(16)
#endif

#define N_ELEMS 1024
#define ROUNDS 500
#define SAMPLES 7

typedef uint64_t (*kernel_fn)(uint64_t *, size_t, size_t);
typedef uint64_t (*atomic_kernel_fn)(_Atomic uint64_t *, size_t, size_t);

static lf_sched *S;

static double cpu_seconds(clockid_t which) {
    struct timespec ts;
    clock_gettime(which, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}
static uint8_t feedback_counters[8192];
static volatile uint64_t sink;

/* The calling thread becomes worker 0 of a one-thread controlled run under memory model m, inside its op 0. */
static void controlled_begin(lf_memory_model m) {
    size_t ops[1] = {1};
    lf_schedule sch;
    memset(&sch, 0, sizeof sch);
    if (m != LF_MM_SC) lf_schedule_set_memory(&sch, m, 1);
    sch.weak_chance = m != LF_MM_SC ? 64 : 0;
    lf_sched_run_begin(S, 1, ops, &sch);
    jmp_buf *escape = lf_sched_thread_attach(S, 0);
    if (setjmp(*escape)) abort(); /* one thread cannot deadlock with itself on no lock */
    lf_sched_thread_start(S, 0);
    lf_sched_op_begin(S, 0);
}

static void controlled_end(void) {
    lf_sched_op_end(S);
    lf_sched_thread_end(S);
    lf_sched_stats st;
    lf_sched_run_end(S, &st);
    if (!st.deterministic) fprintf(stderr, "bench: a run was released (watchdog or budget): figures are off\n");
}

typedef enum { FREE, CONTROLLED, CONTROLLED_FEEDBACK, CONTROLLED_TSO, CONTROLLED_C11 } ctx_kind;

/* Seconds for one pass of the kernel in the given context. */
static double time_kernel(kernel_fn k, atomic_kernel_fn ak, ctx_kind ctx, uint64_t *a) {
    if (ctx == CONTROLLED_FEEDBACK) lf_sched_set_feedback(S, feedback_counters, sizeof feedback_counters, LF_FEEDBACK_RF);
    if (ctx != FREE)
        controlled_begin(ctx == CONTROLLED_TSO ? LF_MM_TSO : ctx == CONTROLLED_C11 ? LF_MM_C11 : LF_MM_SC);
    double t0 = cpu_seconds(CLOCK_THREAD_CPUTIME_ID);
    sink += k ? k(a, N_ELEMS, ROUNDS) : ak((_Atomic uint64_t *)a, N_ELEMS, ROUNDS);
    double t = cpu_seconds(CLOCK_THREAD_CPUTIME_ID) - t0;
    if (ctx != FREE) controlled_end();
    if (ctx == CONTROLLED_FEEDBACK) lf_sched_set_feedback(S, NULL, 0, 0);
    return t;
}

static int cmp_double(const void *x, const void *y) {
    double a = *(const double *)x, b = *(const double *)y;
    return a < b ? -1 : a > b;
}

typedef struct variant {
    const char *name;
    kernel_fn kernel;
    atomic_kernel_fn atomic;
    ctx_kind ctx;
    double samples[SAMPLES];
} variant;

static void bench_access(void) {
    uint64_t *a = calloc(N_ELEMS, sizeof *a);
    if (!a) return;
    variant v[24];
    size_t nv = 0;
#define ADD(NAME, K, AK, CTX) v[nv++] = (variant){NAME, K, AK, CTX, {0}}
    ADD("no instrumentation", bench_kernel_plain, NULL, FREE);
#ifdef LINFUZZ_ACCESS_POINTS
    ADD("TSan ABI, free-running", bench_kernel_tsan, NULL, FREE);
    ADD("TSan ABI, controlled", bench_kernel_tsan, NULL, CONTROLLED);
    ADD("TSan ABI, controlled + reads-from feedback", bench_kernel_tsan, NULL, CONTROLLED_FEEDBACK);
    ADD("TSan ABI, controlled, tso", bench_kernel_tsan, NULL, CONTROLLED_TSO);
    ADD("TSan ABI, controlled, c11", bench_kernel_tsan, NULL, CONTROLLED_C11);
#endif
#ifdef BENCH_SANCOV
    ADD("trace-loads/stores, free-running", bench_kernel_sancov, NULL, FREE);
    ADD("trace-loads/stores, controlled", bench_kernel_sancov, NULL, CONTROLLED);
#endif
    size_t first_atomic = nv;
    ADD("atomic: no instrumentation", NULL, bench_atomic_kernel_plain, FREE);
#ifdef LINFUZZ_ACCESS_POINTS
    ADD("atomic: TSan ABI, free-running", NULL, bench_atomic_kernel_tsan, FREE);
    ADD("atomic: TSan ABI, controlled", NULL, bench_atomic_kernel_tsan, CONTROLLED);
    ADD("atomic: TSan ABI, controlled, tso", NULL, bench_atomic_kernel_tsan, CONTROLLED_TSO);
    ADD("atomic: TSan ABI, controlled, c11", NULL, bench_atomic_kernel_tsan, CONTROLLED_C11);
#endif
#ifdef BENCH_SANCOV
    ADD("atomic: trace-loads/stores (sees nothing)", NULL, bench_atomic_kernel_sancov, FREE);
#endif
#undef ADD
    for (size_t i = 0; i < nv; i++) time_kernel(v[i].kernel, v[i].atomic, v[i].ctx, a); /* warm up */
    for (int s = 0; s < SAMPLES; s++)
        for (size_t i = 0; i < nv; i++) v[i].samples[s] = time_kernel(v[i].kernel, v[i].atomic, v[i].ctx, a);
    printf("## Cost per access (ns of thread CPU time; median of %d rounds of %d accesses)\n\n", SAMPLES,
           2 * N_ELEMS * ROUNDS);
    printf("| %-46s | %9s | %13s |\n", "variant", "ns/access", "over baseline");
    printf("|%s|%s|%s|\n", "------------------------------------------------", "-----------", "---------------");
    double base = 0;
    for (size_t i = 0; i < nv; i++) {
        qsort(v[i].samples, SAMPLES, sizeof(double), cmp_double);
        double accesses = (i < first_atomic ? 2.0 : 1.0) * N_ELEMS * ROUNDS;
        double ns = v[i].samples[SAMPLES / 2] / accesses * 1e9;
        if (i == 0 || i == first_atomic) base = ns;
        printf("| %-46s | %9.2f | %13.2f |\n", v[i].name, ns, ns - base);
    }
    printf("\n");
    free(a);
}

/* ---- switches ---- */

typedef struct switch_arg {
    unsigned t;
    unsigned points;
} switch_arg;

static void *switch_worker(void *p) {
    switch_arg *w = p;
    jmp_buf *escape = lf_sched_thread_attach(S, w->t);
    if (setjmp(*escape)) abort();
    lf_sched_thread_start(S, w->t);
    lf_sched_op_begin(S, 0);
    for (unsigned i = 0; i < w->points; i++) lf_sched_yield_point((uintptr_t)i + 1);
    lf_sched_op_end(S);
    lf_sched_thread_end(S);
    return NULL;
}

/* One two-thread run; returns its wall seconds, its process CPU seconds into *cpu, the switches into
 * *switches. */
static double switch_run(lf_sched_strategy strategy, unsigned points, uint64_t *switches, double *cpu) {
    size_t ops[2] = {1, 1};
    lf_schedule sch;
    memset(&sch, 0, sizeof sch);
    sch.strategy = (uint8_t)strategy;
    sch.walk_chance = 255; /* one point in 16 */
    sch.seed = 42;
    lf_sched_run_begin(S, 2, ops, &sch);
    pthread_t th[2];
    switch_arg args[2] = {{0, points}, {1, points}};
    double t0 = lf_now_s(), c0 = cpu_seconds(CLOCK_PROCESS_CPUTIME_ID);
    for (int i = 0; i < 2; i++) pthread_create(&th[i], NULL, switch_worker, &args[i]);
    for (int i = 0; i < 2; i++) pthread_join(th[i], NULL);
    double t = lf_now_s() - t0;
    *cpu = cpu_seconds(CLOCK_PROCESS_CPUTIME_ID) - c0;
    lf_sched_stats st;
    lf_sched_run_end(S, &st);
    *switches = st.switches;
    return t;
}

static void bench_switch(void) {
    /* one CPU (the default: the waiter sleeps at once), then any CPU with several spins before sleeping */
    static const struct {
        bool one_cpu;
        unsigned spins;
        const char *name;
    } rows[] = {{true, 0, "one CPU (default)"}, {false, 0, "any CPU, 0 spins"}, {false, 50, "any CPU, 50 spins"},
                {false, 500, "any CPU, 500 spins"}, {false, 2000, "any CPU, 2000 spins"}};
    printf("## Cost of a baton handoff (2 threads on %ld cores; median of %d; a random walk switching at one point "
           "in 16)\n\n", sysconf(_SC_NPROCESSORS_ONLN), SAMPLES);
    printf("| %-30s | %9s | %15s | %14s |\n", "workers, waiter's spins", "switches", "wall ns/switch",
           "CPU ns/switch");
    printf("|%s|%s|%s|%s|\n", "--------------------------------", "-----------", "-----------------",
           "----------------");
    const unsigned points = 20000;
    for (size_t k = 0; k < sizeof rows / sizeof rows[0]; k++) {
        lf_sched_destroy(S);
        lf_sched_options o;
        lf_sched_options_default(&o);
        o.one_cpu = rows[k].one_cpu;
        o.spin_iterations = rows[k].spins;
        o.point_budget = UINT64_MAX;
        S = lf_sched_create(&o);
        if (!S) return;
        double walk[SAMPLES], none[SAMPLES], walk_cpu[SAMPLES], none_cpu[SAMPLES];
        uint64_t sw_walk = 0, sw_none = 0;
        for (int s = 0; s < SAMPLES; s++) {
            walk[s] = switch_run(LF_SCHED_WALK, points, &sw_walk, &walk_cpu[s]);
            none[s] = switch_run(LF_SCHED_PCT, points, &sw_none, &none_cpu[s]);
        }
        qsort(walk, SAMPLES, sizeof(double), cmp_double);
        qsort(none, SAMPLES, sizeof(double), cmp_double);
        qsort(walk_cpu, SAMPLES, sizeof(double), cmp_double);
        qsort(none_cpu, SAMPLES, sizeof(double), cmp_double);
        double n = sw_walk > sw_none ? (double)(sw_walk - sw_none) : 1;
        printf("| %-30s | %9llu | %15.0f | %14.0f |\n", rows[k].name, (unsigned long long)sw_walk,
               (walk[SAMPLES / 2] - none[SAMPLES / 2]) / n * 1e9, (walk_cpu[SAMPLES / 2] - none_cpu[SAMPLES / 2]) / n * 1e9);
    }
    printf("\n");
}

int main(int argc, char **argv) {
    const char *what = argc > 1 ? argv[1] : "all";
    if (strcmp(what, "access") && strcmp(what, "switch") && strcmp(what, "all")) {
        fprintf(stderr, "usage: linfuzz-bench-sched [access|switch|all]\n");
        return 2;
    }
    lf_sched_options o;
    lf_sched_options_default(&o);
    o.point_budget = UINT64_MAX;
    S = lf_sched_create(&o);
    if (!S) {
        fprintf(stderr, "linfuzz-bench-sched: cannot create the scheduler\n");
        return 1;
    }
    if (strcmp(what, "switch")) bench_access();
    if (strcmp(what, "access")) bench_switch();
    lf_sched_destroy(S);
    return 0;
}
