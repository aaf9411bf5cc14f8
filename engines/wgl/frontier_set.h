/* A set of search configurations for the frontier sweep (internal to engines/wgl/): records of
 * (hash, mask words, spec state, 64-bit payload) in fixed-size chunks, found through an open-addressing
 * table of record indices with a hash fragment beside each. Unlike Lowe's cache (wgl_cache.h) the set is
 * emptied and refilled at every step of the sweep, so clearing keeps the memory for reuse, and records carry
 * a payload that the sweep updates (the path of the configuration, a merged bound). Every byte is counted:
 * an insertion that would exceed the limit answers FR_SET_NOMEM. */
#ifndef LINFUZZ_FRONTIER_SET_H
#define LINFUZZ_FRONTIER_SET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "spec/spec.h"

typedef enum { FR_SET_NEW, FR_SET_HIT, FR_SET_NOMEM } fr_set_outcome;

typedef struct fr_set {
    size_t mask_words;  /* words of the configuration mask */
    size_t state_words; /* the spec state, padded to words */
    size_t state_size;
    size_t rec_words;   /* hash, mask, state, payload */
    uint64_t **chunks;
    size_t n_chunks, chunks_cap;
    size_t n;           /* records */
    uint32_t *slots;    /* record + 1; 0 = empty */
    uint32_t *frags;    /* the upper half of each slot's hash */
    size_t n_slots;     /* power of two (0 before the first insertion) */
    size_t bytes;       /* everything allocated */
    size_t *limit;      /* shared with the other sets of the sweep: bytes all of them may still take */
    const lf_spec_inst *spec;
    bool custom_equal;
} fr_set;

void fr_set_init(fr_set *s, size_t mask_words, const lf_spec_inst *spec, size_t *limit);
void fr_set_free(fr_set *s);
/* Empties the set, keeping its memory. */
void fr_set_clear(fr_set *s);

static inline uint64_t *fr_set_rec(const fr_set *s, size_t i) {
    return s->chunks[i >> 14] + (i & ((1u << 14) - 1)) * s->rec_words;
}
static inline uint64_t *fr_set_mask(const fr_set *s, uint64_t *rec) { (void)s; return rec + 1; }
static inline void *fr_set_state(const fr_set *s, uint64_t *rec) { return rec + 1 + s->mask_words; }
static inline uint64_t *fr_set_payload(const fr_set *s, uint64_t *rec) { return rec + s->rec_words - 1; }

/* Adds (mask, state) with hash h unless an equal configuration is there; *idx is the record either way
 * (a new record's payload is set to payload). */
fr_set_outcome fr_set_insert(fr_set *s, uint64_t h, const uint64_t *mask, const void *state, uint64_t payload,
                             size_t *idx);

/* The record of (mask, state) with hash h, or SIZE_MAX. */
size_t fr_set_find(const fr_set *s, uint64_t h, const uint64_t *mask, const void *state);

#endif
