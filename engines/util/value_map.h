/* Dense numbering of history values: maps each distinct value (a 64-bit integer or nil) to 0..k-1. */
#ifndef LINFUZZ_VALUE_MAP_H
#define LINFUZZ_VALUE_MAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct lf_value_map {
    uint32_t *dense; /* optional direct table for integers in [dense_lo, dense_lo + dense_n) */
    int64_t dense_lo;
    uint64_t dense_n;
    int64_t *keys;
    uint32_t *ids; /* UINT32_MAX = empty slot */
    size_t cap;    /* power of two; 0 until the first value outside the dense range */
    size_t expected;
    uint32_t nil_id;
    uint32_t count;
} lf_value_map;

/* expected: a hint for the number of distinct values. */
bool lf_value_map_init(lf_value_map *m, size_t expected);
void lf_value_map_free(lf_value_map *m);
/* Adds a direct table for the integers in [lo, hi]: those skip hashing (for densely numbered values).
 * Returns false (and leaves the map usable) when the table cannot be allocated. */
bool lf_value_map_add_dense_range(lf_value_map *m, int64_t lo, int64_t hi);
/* The id of (v, is_nil), assigning the next id when new; UINT32_MAX when out of memory. */
uint32_t lf_value_map_id(lf_value_map *m, int64_t v, bool is_nil);

#endif
