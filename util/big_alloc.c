/* Large arrays backed by transparent huge pages where available (see big_alloc.h). */
#include "util/big_alloc.h"

#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>

#define HUGE_PAGE ((uintptr_t)2 << 20)
#define MIN_ADVISED ((size_t)4 << 20)

/* Asks for huge pages behind the 2 MiB-aligned pages of the block of n bytes at p (big_alloc.h). */
static void big_advise(void *p, size_t n) {
#ifdef MADV_HUGEPAGE
    if (!p || n < MIN_ADVISED) return;
    uintptr_t lo = ((uintptr_t)p + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1), hi = ((uintptr_t)p + n) & ~(HUGE_PAGE - 1);
    if (lo < hi) (void)madvise((void *)lo, hi - lo, MADV_HUGEPAGE); /* advice only: failure changes nothing */
#else
    (void)p;
    (void)n;
#endif
}

void *lf_big_malloc(size_t n) {
    void *p = malloc(n);
    big_advise(p, n);
    return p;
}

void *lf_big_calloc(size_t count, size_t size) {
    void *p = calloc(count, size);
    if (p) big_advise(p, count * size); /* calloc checked count * size for overflow */
    return p;
}

void *lf_big_realloc(void *p, size_t n) {
    void *q = realloc(p, n);
    big_advise(q, n);
    return q;
}
