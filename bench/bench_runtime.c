/* linfuzz-bench-runtime: what the recorder costs per event, and how many workloads per second the runner
 * executes and checks, for 2, 4 and 8 threads (run by ci/bench_runtime.sh; not a test).
 *
 * Recorder cost is measured in thread CPU time, not wall time, so that oversubscribed runs (more threads
 * than cores) report the cost of recording rather than time spent descheduled. An "event" is one call or
 * one return stamp: an op is two events plus one 48-byte log store. The baseline calls the same empty
 * operation without recording; the difference is the recorder's cost. */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "linfuzz/adapter.h"
#include "linfuzz/check.h"
#include "runtime/recorder.h"
#include "runtime/pool.h"
#include "runtime/runner.h"
#include "util/clock.h"

static double thread_cpu_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return ts.tv_sec * 1e9 + ts.tv_nsec;
}


/* The cheapest possible operation: the recorder's cost is everything else. */
static lf_kind empty_op(void *obj, lf_method m, const int64_t *args, int64_t *value) {
    (void)obj;
    (void)m;
    (void)args;
    *value = 0;
    return LF_K_NONE;
}
static const lf_adapter empty_adapter = {.name = "empty", .type = LF_TYPE_COUNTER, .op = empty_op};

enum { OPS_PER_THREAD = 200000 };

typedef struct recorder_bench {
    lf_recorder rec;
    bool record;
    _Atomic uint64_t cpu_ns_total;
} recorder_bench;

static void recorder_task(unsigned t, void *arg) {
    recorder_bench *b = arg;
    int64_t args[2] = {0, 0}, v;
    double start = thread_cpu_ns();
    if (b->record) {
        for (int i = 0; i < OPS_PER_THREAD; i++) lf_recorder_call(&b->rec, t, &empty_adapter, NULL, LF_M_INC, args, 0);
    } else {
        lf_adapter_op_fn op = empty_adapter.op;
        for (int i = 0; i < OPS_PER_THREAD; i++) {
            op(NULL, LF_M_INC, args, &v);
            __asm__ __volatile__("" ::: "memory"); /* keep the calls */
        }
    }
    atomic_fetch_add(&b->cpu_ns_total, (uint64_t)(thread_cpu_ns() - start));
}

/* CPU ns per op over all threads, recording with clock k or not at all. */
static double recorder_ns_per_op(lf_pool *pool, unsigned threads, lf_clock_kind k, bool record) {
    recorder_bench b = {.record = record};
    atomic_init(&b.cpu_ns_total, 0);
    if (!lf_recorder_init(&b.rec, k, threads, OPS_PER_THREAD)) abort();
    lf_pool_run(pool, threads, recorder_task, &b);
    lf_recorder_free(&b.rec);
    return (double)atomic_load(&b.cpu_ns_total) / ((double)threads * OPS_PER_THREAD);
}

static void bench_recorder(lf_pool *pool) {
    printf("recorder cost (thread CPU time; event = one stamp; %d ops per thread)\n", OPS_PER_THREAD);
    printf("  %-7s %-7s %12s %12s %12s\n", "threads", "clock", "ns/op", "baseline", "ns/event");
    for (unsigned threads = 2; threads <= 8; threads *= 2) {
        for (int k = 0; k < 2; k++) {
            if (!lf_clock_available((lf_clock_kind)k)) continue;
            double base = recorder_ns_per_op(pool, threads, (lf_clock_kind)k, false);
            double rec = recorder_ns_per_op(pool, threads, (lf_clock_kind)k, true);
            printf("  %-7u %-7s %12.1f %12.1f %12.1f\n", threads, lf_clock_name((lf_clock_kind)k), rec, base,
                   (rec - base) / 2);
        }
    }
}

static void bench_workloads(double seconds) {
    const char *names[] = {"atomic_counter", "treiber_stack", "ms_queue", "harris_list_set", "mutex_kv"};
    printf("\nworkloads per second (random workloads of 100 ops per thread, %.1fs each)\n", seconds);
    printf("  %-16s %-7s %12s %14s %12s\n", "adapter", "threads", "runs/s", "runs/s+check", "ops/s+check");
    lf_check_options o;
    lf_check_options_default(&o);
    o.timeout_s = 5;
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        const lf_adapter *a = lf_adapter_find(names[i]);
        if (!a) continue;
        for (unsigned threads = 2; threads <= 8; threads *= 2) {
            lf_runner r;
            if (!lf_runner_init(&r, threads, LF_CLOCK_TICKET)) abort();
            lf_history h;
            lf_history_init(&h, a->type);
            double rate[2];
            uint64_t ops_checked = 0;
            for (int check = 0; check < 2; check++) {
                uint64_t runs = 0;
                double start = lf_now_s();
                while (lf_now_s() - start < seconds) {
                    lf_workload w;
                    lf_workload_random(&w, 1000 + runs, threads, 100);
                    if (check) {
                        lf_result res;
                        lf_result_init(&res);
                        if (!lf_runner_run_checked(&r, a, &w, &o, &h, &res)) abort();
                        ops_checked += h.n;
                        lf_result_free(&res);
                    } else {
                        lf_plan p;
                        if (!lf_plan_build(&p, &w, a)) abort();
                        h.n = 0;
                        if (!lf_runner_run(&r, a, &w, &p, &h)) abort();
                        lf_plan_free(&p);
                    }
                    runs++;
                }
                rate[check] = runs / (lf_now_s() - start);
                if (check) ops_checked = (uint64_t)(ops_checked / (lf_now_s() - start));
            }
            printf("  %-16s %-7u %12.0f %14.0f %12llu\n", a->name, threads, rate[0], rate[1],
                   (unsigned long long)ops_checked);
            lf_history_free(&h);
            lf_runner_free(&r);
        }
    }
}

int main(int argc, char **argv) {
    double seconds = argc > 1 ? atof(argv[1]) : 2.0;
    if (!(seconds > 0)) {
        fprintf(stderr, "usage: linfuzz-bench-runtime [SECONDS_PER_MEASUREMENT]\n");
        return 2;
    }
    lf_pool *pool = lf_pool_create(8);
    if (!pool) return 1;
    bench_recorder(pool);
    lf_pool_destroy(pool);
    bench_workloads(seconds);
    return 0;
}
