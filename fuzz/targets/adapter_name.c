/* The adapter of one fuzz_<adapter> binary: this file is compiled once per target with LINFUZZ_FUZZ_ADAPTER
 * set to the adapter's name (fuzz/targets/CMakeLists.txt); the harness itself is shared (fuzz_adapter.c). */
extern const char lf_fuzz_adapter_name[];
const char lf_fuzz_adapter_name[] = LINFUZZ_FUZZ_ADAPTER;
