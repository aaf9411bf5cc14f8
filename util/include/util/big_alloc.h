/* Large arrays of the engines: a million-op history's ops, the monitors' per-op and per-stamp tables.
 *
 * Filling tens of megabytes costs more in the kernel's page-fault path than in the code that writes them
 * (a 10^6-op check spent about half its CPU time in the kernel, most of it faulting in fresh 4 KiB pages).
 * These allocate as malloc does and then ask the kernel to back the 2 MiB-aligned pages inside the block
 * with transparent huge pages (madvise MADV_HUGEPAGE, where the system has it): one fault per 2 MiB instead
 * of 512. Blocks under 4 MiB are left alone. The memory is ordinary malloc memory: free() releases it. */
#ifndef LINFUZZ_BIG_ALLOC_H
#define LINFUZZ_BIG_ALLOC_H

#include <stddef.h>

void *lf_big_malloc(size_t n);
void *lf_big_calloc(size_t count, size_t size);
void *lf_big_realloc(void *p, size_t n);

#endif
