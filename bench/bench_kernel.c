/* The loop whose loads and stores the access-overhead benchmark measures (bench_sched.c). Compiled several
 * times under different names: without instrumentation (BENCH_KERNEL = bench_kernel_plain), with the
 * ThreadSanitizer ABI instrumentation linfuzz uses (bench_kernel_tsan), and with SanitizerCoverage's
 * trace-loads/trace-stores (bench_kernel_sancov, clang only), the alternative the issue asked to compare.
 * Two accesses per iteration (a load and a store of a[i]), with a loop-carried dependency so that no build
 * can vectorise it away; the atomic variant does one fetch-add per iteration (what trace-loads/stores cannot
 * see at all). */
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#ifndef BENCH_KERNEL
#error "compile with -DBENCH_KERNEL=name -DBENCH_ATOMIC_KERNEL=name"
#endif

uint64_t BENCH_KERNEL(uint64_t *a, size_t n, size_t rounds);
uint64_t BENCH_ATOMIC_KERNEL(_Atomic uint64_t *a, size_t n, size_t rounds);

uint64_t BENCH_KERNEL(uint64_t *a, size_t n, size_t rounds) {
    uint64_t s = 0;
    for (size_t r = 0; r < rounds; r++)
        for (size_t i = 0; i < n; i++) {
            s += a[i];
            a[i] = s ^ r;
        }
    return s;
}

uint64_t BENCH_ATOMIC_KERNEL(_Atomic uint64_t *a, size_t n, size_t rounds) {
    uint64_t s = 0;
    for (size_t r = 0; r < rounds; r++)
        for (size_t i = 0; i < n; i++) s += atomic_fetch_add_explicit(&a[i], r, memory_order_relaxed);
    return s;
}
