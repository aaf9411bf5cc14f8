/* No-op coverage callbacks for binaries without libFuzzer (linfuzz, the tests, the benchmarks).
 *
 * Where the fuzz targets are built, the adapters are compiled with libFuzzer's coverage instrumentation in
 * every binary (adapters/CMakeLists.txt: a controlled run must execute the same scheduling points in
 * `linfuzz repro` as in fuzz_<adapter>). The instrumented code calls these; libFuzzer (and the sanitizer
 * runtimes) define them too, and their definitions win over these weak ones. */
#include <stddef.h>
#include <stdint.h>

#define WEAK __attribute__((weak))

/* The stack-depth tracking of -fsanitize-coverage=stack-depth (part of fuzzer-no-link on Linux). */
WEAK _Thread_local uintptr_t __sancov_lowest_stack;

WEAK void __sanitizer_cov_8bit_counters_init(uint8_t *start, uint8_t *stop);
WEAK void __sanitizer_cov_pcs_init(const uintptr_t *start, const uintptr_t *stop);
WEAK void __sanitizer_cov_trace_cmp1(uint8_t a, uint8_t b);
WEAK void __sanitizer_cov_trace_cmp2(uint16_t a, uint16_t b);
WEAK void __sanitizer_cov_trace_cmp4(uint32_t a, uint32_t b);
WEAK void __sanitizer_cov_trace_cmp8(uint64_t a, uint64_t b);
WEAK void __sanitizer_cov_trace_const_cmp1(uint8_t a, uint8_t b);
WEAK void __sanitizer_cov_trace_const_cmp2(uint16_t a, uint16_t b);
WEAK void __sanitizer_cov_trace_const_cmp4(uint32_t a, uint32_t b);
WEAK void __sanitizer_cov_trace_const_cmp8(uint64_t a, uint64_t b);
WEAK void __sanitizer_cov_trace_switch(uint64_t val, uint64_t *cases);
WEAK void __sanitizer_cov_trace_div4(uint32_t val);
WEAK void __sanitizer_cov_trace_div8(uint64_t val);
WEAK void __sanitizer_cov_trace_gep(uintptr_t idx);
WEAK void __sanitizer_cov_trace_pc_indir(uintptr_t callee);

WEAK void __sanitizer_cov_8bit_counters_init(uint8_t *start, uint8_t *stop) { (void)start, (void)stop; }
WEAK void __sanitizer_cov_pcs_init(const uintptr_t *start, const uintptr_t *stop) { (void)start, (void)stop; }
WEAK void __sanitizer_cov_trace_cmp1(uint8_t a, uint8_t b) { (void)a, (void)b; }
WEAK void __sanitizer_cov_trace_cmp2(uint16_t a, uint16_t b) { (void)a, (void)b; }
WEAK void __sanitizer_cov_trace_cmp4(uint32_t a, uint32_t b) { (void)a, (void)b; }
WEAK void __sanitizer_cov_trace_cmp8(uint64_t a, uint64_t b) { (void)a, (void)b; }
WEAK void __sanitizer_cov_trace_const_cmp1(uint8_t a, uint8_t b) { (void)a, (void)b; }
WEAK void __sanitizer_cov_trace_const_cmp2(uint16_t a, uint16_t b) { (void)a, (void)b; }
WEAK void __sanitizer_cov_trace_const_cmp4(uint32_t a, uint32_t b) { (void)a, (void)b; }
WEAK void __sanitizer_cov_trace_const_cmp8(uint64_t a, uint64_t b) { (void)a, (void)b; }
WEAK void __sanitizer_cov_trace_switch(uint64_t val, uint64_t *cases) { (void)val, (void)cases; }
WEAK void __sanitizer_cov_trace_div4(uint32_t val) { (void)val; }
WEAK void __sanitizer_cov_trace_div8(uint64_t val) { (void)val; }
WEAK void __sanitizer_cov_trace_gep(uintptr_t idx) { (void)idx; }
WEAK void __sanitizer_cov_trace_pc_indir(uintptr_t callee) { (void)callee; }
