/* A set of search configurations for the frontier sweep (internal to engines/wgl/): records of
 * (hash, mask words, spec state, 64-bit payload) in fixed-size chunks, found through an open-addressing
 * table of record indices with a hash fragment beside each. Unlike Lowe's cache (wgl_cache.h) the set is
 * emptied and refilled at every step of the sweep, so clearing keeps the memory for reuse, and records carry
 * a payload that the sweep updates (the path of the configuration, a merged bound). Every byte is counted:
 * an insertion that would exceed the limit answers LF_FSET_NOMEM. */
#ifndef LINFUZZ_FRONTIER_SET_H
#define LINFUZZ_FRONTIER_SET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "linfuzz/spec.h"

typedef enum { LF_FSET_NEW, LF_FSET_HIT, LF_FSET_NOMEM } lf_fset_outcome;

typedef struct lf_fset {
    size_t mask_words;  /* words of the configuration mask */
    size_t state_words; /* the spec state, padded to words */
    size_t state_size;
    size_t rec_words;   /* hash, mask, state, payload */
    uint64_t **chunks;
    size_t n_chunks, chunks_cap;
    size_t n;           /* records */
    uint64_t *slots;    /* upper half of the hash << 32 | (record + 1); 0 = empty */
    size_t n_slots;     /* power of two (0 before the first insertion) */
    size_t bytes;       /* everything allocated */
    size_t *limit;      /* shared with the other sets of the sweep: bytes all of them may still take */
    const lf_spec_inst *spec;
    bool custom_equal;
} lf_fset;

void lf_fset_init(lf_fset *s, size_t mask_words, const lf_spec_inst *spec, size_t *limit);
void lf_fset_free(lf_fset *s);
/* Empties the set, keeping its memory. */
void lf_fset_clear(lf_fset *s);

/* Records per chunk: 2^LF_FSET_CHUNK_SHIFT. Small, because most sets hold a few records: with chunks of 16384
 * records (hundreds of KiB each), AddressSanitizer's allocator mapped and unmapped a block at every set's first
 * insert, and test_frontier_diff spent 16 of its 22 s of CPU in the kernel (4 s in all with 1024; the same
 * in a plain build). */
#define LF_FSET_CHUNK_SHIFT 10

static inline uint64_t *lf_fset_rec(const lf_fset *s, size_t i) {
    return s->chunks[i >> LF_FSET_CHUNK_SHIFT] + (i & (((size_t)1 << LF_FSET_CHUNK_SHIFT) - 1)) * s->rec_words;
}
static inline uint64_t *lf_fset_mask(const lf_fset *s, uint64_t *rec) { (void)s; return rec + 1; }
static inline void *lf_fset_state(const lf_fset *s, uint64_t *rec) { return rec + 1 + s->mask_words; }
static inline uint64_t *lf_fset_payload(const lf_fset *s, uint64_t *rec) { return rec + s->rec_words - 1; }

/* Adds (mask, state) with hash h unless an equal configuration is there; *idx is the record either way
 * (a new record's payload is set to payload). */
lf_fset_outcome lf_fset_insert(lf_fset *s, uint64_t h, const uint64_t *mask, const void *state, uint64_t payload,
                             size_t *idx);

/* Asks the cache for the table slot of hash h (a lookup or insertion of h soon after will not wait). */
static inline void lf_fset_prefetch(const lf_fset *s, uint64_t h) {
    if (s->n_slots) __builtin_prefetch(&s->slots[h & (s->n_slots - 1)]);
}

/* The record of (mask, state) with hash h, or SIZE_MAX. */
size_t lf_fset_find(const lf_fset *s, uint64_t h, const uint64_t *mask, const void *state);

#endif
