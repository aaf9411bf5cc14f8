/* Building blocks shared by the built-in specs (internal to engines/spec/): hashing, a growable
 * uint64 -> uint32 map, and sorted value tables that give the values of a history dense ids. */
#ifndef LINFUZZ_SPEC_UTIL_H
#define LINFUZZ_SPEC_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "linfuzz/history.h"
#include "util/hash.h"


/* ---- uint64 -> uint32 map (open addressing; values must not be UINT32_MAX) ---- */

typedef struct lf_u64map {
    uint64_t *keys;
    uint32_t *vals; /* UINT32_MAX marks an empty slot */
    size_t cap, count;
} lf_u64map;

void lf_u64map_free(lf_u64map *m);
/* The value of key, or UINT32_MAX. */
uint32_t lf_u64map_get(const lf_u64map *m, uint64_t key);
/* Sets key -> val; false when out of memory. */
bool lf_u64map_put(lf_u64map *m, uint64_t key, uint32_t val);
size_t lf_u64map_bytes(const lf_u64map *m);

/* ---- sorted value tables ---- */

/* The distinct values (integers or nil) seen in some positions of a history, sorted "nil below every
 * integer, integers ascending" (the order of pqueue and of the brute-force oracle). Dense ids follow
 * that order: nil (when present) is 0. */
typedef struct lf_value_table {
    int64_t *ints;
    size_t n_ints;
    bool has_nil;
} lf_value_table;

/* Which op fields to collect. */
enum { LF_VT_ARG0 = 1, LF_VT_ARG1 = 2, LF_VT_RES = 4 };

/* Collects, from every op whose method is in methods_mask (bit = 1u << method), the fields in `fields` (a bulk or
 * burst insert: with LF_VT_ARG0, every value it offers). */
bool lf_value_table_build(lf_value_table *t, const lf_op *ops, size_t n, uint32_t methods_mask, unsigned fields);
void lf_value_table_free(lf_value_table *t);
static inline size_t lf_value_table_size(const lf_value_table *t) { return t->n_ints + (t->has_nil ? 1 : 0); }
/* Id of a value, or UINT32_MAX when the table does not hold it. */
uint32_t lf_value_table_id(const lf_value_table *t, bool is_nil, int64_t v);
/* Writes the value of id as text ("nil" or the integer). */
int lf_value_table_describe(const lf_value_table *t, uint32_t id, char *buf, size_t len);

static inline uint32_t lf_value_table_arg(const lf_value_table *t, const lf_op *op, int i) {
    return lf_value_table_id(t, lf_arg_is_nil(op, i), op->arg[i]);
}

#endif
