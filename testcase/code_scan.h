/* The program's own machine code, as the adapter probe (probe.h) looks at it: the functions of its symbol table
 * (read from /proc/self/exe, placed at the address the program was loaded at) and a count of the
 * lock-prefixed atomic instructions in a function's bytes. Linux, ELF64 only; elsewhere nothing loads. */
#ifndef LINFUZZ_TESTCASE_CODE_SCAN_H
#define LINFUZZ_TESTCASE_CODE_SCAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct lf_code_fn {
    uintptr_t lo, hi;  /* [lo, hi) in the running program */
    const char *name;  /* in the map's string table */
} lf_code_fn;

typedef struct lf_code_map {
    lf_code_fn *fn;    /* sorted by lo */
    size_t n;
    char *strings;
} lf_code_map;

/* Loads the running program's function symbols. False when they cannot be read (stripped, not ELF64). */
bool lf_code_map_load(lf_code_map *m);
void lf_code_map_free(lf_code_map *m);
/* The function whose code holds pc, or NULL. */
const lf_code_fn *lf_code_map_find(const lf_code_map *m, uintptr_t pc);
/* x86-64: how many lock-prefixed cmpxchg, cmpxchg8b/16b and xadd instructions code[0..len) holds (by their
 * byte pattern: F0, an optional REX prefix, 0F B0|B1|C0|C1|C7); 0 on other processors. */
unsigned lf_code_asm_atomics(const uint8_t *code, size_t len);

#endif
