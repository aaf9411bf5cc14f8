/* Lowe's configuration cache for the WGL search (internal to engines/wgl/): a hash set of
 * (linearized-set key, spec state) pairs already explored. Records live in fixed-size chunks (no
 * reallocation of the bulk, so growing never needs twice the memory); the open-addressing table keeps a
 * hash fragment next to each record index so most mismatches are rejected without touching the record.
 * Every byte is counted against a limit: an insertion that would exceed it reports WGL_CACHE_NOMEM. A table
 * doubling rehashes every record (up to hundreds of milliseconds near a 2 GiB budget), so it looks at the
 * search's deadline every WGL_CACHE_REHASH_CHUNK slots and gives up past it: WGL_CACHE_LATE. */
#ifndef LINFUZZ_WGL_CACHE_H
#define LINFUZZ_WGL_CACHE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "linfuzz/spec.h"

typedef enum { WGL_CACHE_NEW, WGL_CACHE_HIT, WGL_CACHE_NOMEM, WGL_CACHE_LATE } wgl_cache_outcome;

#define WGL_CACHE_REHASH_CHUNK ((size_t)1 << 16)

typedef struct wgl_cache {
    size_t key_words;    /* configuration key length */
    size_t state_size;   /* bytes of a state */
    size_t rec_words;    /* record: hash, key words, state padded to words */
    uint64_t **chunks;   /* WGL_CACHE_CHUNK records each */
    size_t n_chunks, chunks_cap;
    size_t n_recs;
    uint64_t *slots;     /* (hash >> 32) << 32 | (record + 1); 0 = empty */
    size_t n_slots;      /* power of two */
    size_t bytes;        /* everything allocated */
    size_t limit;        /* bytes the cache may hold; the search lowers it as its other parts grow */
    const lf_spec_inst *spec; /* for state equality when the spec defines one */
    double deadline;     /* lf_now_s() time a rehash gives up at (0: none); set after lf_wgl_cache_init */
    bool late;           /* a rehash gave up on the deadline */
} wgl_cache;

void lf_wgl_cache_init(wgl_cache *c, size_t key_words, const lf_spec_inst *spec, size_t limit);
void lf_wgl_cache_free(wgl_cache *c);
/* Adds (key, state) with hash h unless present. */
wgl_cache_outcome lf_wgl_cache_insert(wgl_cache *c, uint64_t h, const uint64_t *key, const void *state);

#endif
