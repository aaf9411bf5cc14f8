/* Range minima by a sparse table (see range_min.h). */
#include "monitor/range_min.h"

#include <stdlib.h>
#include <string.h>

bool lf_range_min_init(lf_range_min *r, const uint64_t *v, size_t n) {
    size_t levels = 1;
    while (((size_t)1 << levels) <= n) levels++;
    r->n = n;
    r->levels = levels;
    r->t = malloc((n ? n : 1) * levels * sizeof *r->t);
    if (!r->t) return false;
    if (n) memcpy(r->t, v, n * sizeof *v);
    for (size_t l = 1; l < levels; l++) {
        const uint64_t *prev = r->t + (l - 1) * n;
        uint64_t *cur = r->t + l * n;
        size_t half = (size_t)1 << (l - 1);
        for (size_t i = 0; i + 2 * half <= n; i++) cur[i] = prev[i] < prev[i + half] ? prev[i] : prev[i + half];
    }
    return true;
}

void lf_range_min_free(lf_range_min *r) {
    free(r->t);
    memset(r, 0, sizeof *r);
}

uint64_t lf_range_min_query(const lf_range_min *r, size_t lo, size_t hi) {
    size_t len = hi - lo, l = 0;
    while (((size_t)2 << l) <= len) l++;
    const uint64_t *row = r->t + l * r->n;
    uint64_t a = row[lo], b = row[hi - ((size_t)1 << l)];
    return a < b ? a : b;
}

/* The number of keys <= x. */
static size_t keys_upto(const uint64_t *keys, size_t n, uint64_t x) {
    size_t a = 0, b = n;
    while (a < b) {
        size_t mid = a + (b - a) / 2;
        if (keys[mid] <= x)
            a = mid + 1;
        else
            b = mid;
    }
    return a;
}

void lf_keys_between(const uint64_t *keys, size_t n, uint64_t lo, uint64_t hi, size_t *first, size_t *last) {
    *first = keys_upto(keys, n, lo);
    *last = hi > lo ? keys_upto(keys, n, hi) : *first;
}
