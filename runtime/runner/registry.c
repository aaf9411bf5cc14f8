/* The adapters linked into this program: the pointers LF_REGISTER_ADAPTER put into the linker section
 * "lf_adapters" (include/linfuzz/adapter.h), read through the section bounds the linker defines, sorted once
 * (expected-linearizable first, then by name) so that listings and indices are stable whatever the link order. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "linfuzz/adapter.h"

/* Weak: a program that links no adapter has no such section, and then no adapter. */
extern const lf_adapter *const __start_lf_adapters[] __attribute__((weak));
extern const lf_adapter *const __stop_lf_adapters[] __attribute__((weak));

static const lf_adapter **sorted;
static size_t count;
static pthread_once_t once = PTHREAD_ONCE_INIT;

static int by_kind_then_name(const void *pa, const void *pb) {
    const lf_adapter *a = *(const lf_adapter *const *)pa, *b = *(const lf_adapter *const *)pb;
    if (a->linearizable != b->linearizable) return a->linearizable ? -1 : 1;
    return strcmp(a->name, b->name);
}

static void collect(void) {
    const lf_adapter *const *first = __start_lf_adapters, *const *end = __stop_lf_adapters;
    if (!first || !end || end <= first) return;
    size_t n = (size_t)(end - first);
    sorted = malloc(n * sizeof *sorted);
    if (!sorted) return; /* out of memory at start-up: no adapters rather than a crash */
    for (size_t i = 0; i < n; i++)
        if (first[i]) sorted[count++] = first[i];
    qsort(sorted, count, sizeof *sorted, by_kind_then_name);
}

size_t lf_adapter_count(void) {
    pthread_once(&once, collect);
    return count;
}

const lf_adapter *lf_adapter_at(size_t i) { return i < lf_adapter_count() ? sorted[i] : NULL; }

const lf_adapter *lf_adapter_find(const char *name) {
    for (size_t i = 0; i < lf_adapter_count(); i++)
        if (!strcmp(sorted[i]->name, name)) return sorted[i];
    return NULL;
}
