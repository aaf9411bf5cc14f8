/* Range minima over a fixed array (a sparse table: O(n log n) to build, O(1) a query), for the sweeps of the
 * contracts' checkers (engines/contract/count_rule.c, krelaxed_monitor.c). Values are unsigned; signed ones go
 * through lf_range_min_key / lf_range_min_signed, which keep their order. */
#ifndef LINFUZZ_RANGE_MIN_H
#define LINFUZZ_RANGE_MIN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct lf_range_min {
    uint64_t *t; /* level l at t + l * n: the minimum of the 2^l values from each index */
    size_t n, levels;
} lf_range_min;

/* Builds the table of v[0..n) (copied). False when out of memory. */
bool lf_range_min_init(lf_range_min *r, const uint64_t *v, size_t n);
void lf_range_min_free(lf_range_min *r);
/* The minimum of v[lo..hi), hi > lo. */
uint64_t lf_range_min_query(const lf_range_min *r, size_t lo, size_t hi);

/* The index range [*first, *last) of the sorted keys[0..n) that lie in (lo, hi]. */
void lf_keys_between(const uint64_t *keys, size_t n, uint64_t lo, uint64_t hi, size_t *first, size_t *last);

static inline uint64_t lf_range_min_key(int64_t x) { return (uint64_t)x ^ (UINT64_C(1) << 63); }
static inline int64_t lf_range_min_signed(uint64_t k) { return (int64_t)(k ^ (UINT64_C(1) << 63)); }

#endif
