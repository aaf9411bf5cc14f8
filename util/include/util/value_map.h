/* Dense numbering of history values: maps each distinct value (a 64-bit integer or nil) to 0..k-1. */
#ifndef LINFUZZ_VALUE_MAP_H
#define LINFUZZ_VALUE_MAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/hash.h"

/* One slot of the hash table: key and id side by side, so a lookup touches one place (a 10^6-op history
 * with spread values misses the cache on almost every lookup). The key is split so the slot is 12 bytes. */
typedef struct lf_value_slot {
    uint32_t key_lo, key_hi;
    uint32_t id; /* UINT32_MAX = empty slot */
} lf_value_slot;

typedef struct lf_value_map {
    uint32_t *dense; /* optional direct table for integers in [dense_lo, dense_lo + dense_n) */
    int64_t dense_lo;
    uint64_t dense_n;
    lf_value_slot *slots;
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

/* A hint that v will be looked up soon: starts loading its slot (callers issue it a few ops ahead). */
static inline void lf_value_map_prefetch(const lf_value_map *m, int64_t v) {
    if (m->cap && (!m->dense || (uint64_t)v - (uint64_t)m->dense_lo >= m->dense_n))
        __builtin_prefetch(&m->slots[lf_mix64((uint64_t)v) & (m->cap - 1)]);
}

#endif
