/* Root causing, step 3: access sites (program counters) to source lines, with their inline chains.
 *
 * The adapters are built with -g; a site is symbolized by llvm-symbolizer, else addr2line (binutils), run
 * once for all the sites of an analysis on the file that holds them (found with dl_iterate_phdr, at its
 * offset in that file). LINFUZZ_SYMBOLIZER=PATH chooses the tool, =none turns symbolizing off. Without a
 * tool, or for a site the tool cannot resolve, sites stay raw addresses and the analysis says so. */
#ifndef LINFUZZ_RC_SYMBOLIZE_H
#define LINFUZZ_RC_SYMBOLIZE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct lf_rc_frame {
    char *function;
    char *file;
    unsigned line;
} lf_rc_frame;

typedef struct lf_rc_site {
    uintptr_t pc;
    lf_rc_frame *frames; /* innermost first (the inlined callee), then its callers; n = 0: unresolved */
    size_t n;
} lf_rc_site;

typedef struct lf_rc_symbols {
    lf_rc_site *sites; /* ascending by pc */
    size_t n;
    char tool[64];     /* "llvm-symbolizer", "addr2line", or "" */
    char note[256];    /* why sites are raw, when they are */
} lf_rc_symbols;

/* Symbolizes pcs[0..n-1] (duplicates allowed). False only when out of memory; a missing tool leaves the
 * sites unresolved with a note. */
bool lf_rc_symbolize(lf_rc_symbols *s, const uintptr_t *pcs, size_t n);
void lf_rc_symbols_free(lf_rc_symbols *s);
const lf_rc_site *lf_rc_symbols_find(const lf_rc_symbols *s, uintptr_t pc);

/* The source region of a segment from site a to site b: the deepest function both inline chains share (the
 * op's function for an access made in an inlined helper), with the lines of a and b in it; else the
 * innermost frames when in one file. False when either site is unresolved or they lie in different files. */
bool lf_rc_region(const lf_rc_site *a, const lf_rc_site *b, const char **file, const char **function,
                  unsigned *lo, unsigned *hi);

#endif
