/* Lowe's configuration cache (see wgl_cache.h). */
#include "wgl/wgl_cache.h"

#include <stdlib.h>
#include <string.h>

#include "util/clock.h"
#include "util/grow.h"

#define CHUNK_SHIFT 14
#define CHUNK_RECS ((size_t)1 << CHUNK_SHIFT)

void lf_wgl_cache_init(wgl_cache *c, size_t key_words, const lf_spec_inst *spec, size_t limit) {
    memset(c, 0, sizeof *c);
    c->key_words = key_words;
    c->state_size = spec->state_size;
    c->rec_words = 1 + key_words + (spec->state_size + 7) / 8;
    c->limit = limit;
    c->spec = spec;
}

void lf_wgl_cache_free(wgl_cache *c) {
    for (size_t i = 0; i < c->n_chunks; i++) free(c->chunks[i]);
    free(c->chunks);
    free(c->slots);
    memset(c, 0, sizeof *c);
}

static uint64_t *record(const wgl_cache *c, size_t i) {
    return c->chunks[i >> CHUNK_SHIFT] + (i & (CHUNK_RECS - 1)) * c->rec_words;
}

static bool grow_slots(wgl_cache *c) {
    size_t n = c->n_slots ? 2 * c->n_slots : 1024;
    size_t add = n * sizeof *c->slots;
    if (c->bytes + add > c->limit) return false; /* the old table is still alive while rehashing */
    uint64_t *s = calloc(n, sizeof *s);
    if (!s) return false;
    for (size_t i = 0; i < c->n_slots; i++) {
        if ((i & (WGL_CACHE_REHASH_CHUNK - 1)) == WGL_CACHE_REHASH_CHUNK - 1 && c->deadline > 0 &&
            lf_now_s() > c->deadline) {
            free(s);
            c->late = true;
            return false;
        }
        uint64_t v = c->slots[i];
        if (!v) continue;
        uint64_t h = record(c, (uint32_t)v - 1)[0];
        size_t j = h & (n - 1);
        while (s[j]) j = (j + 1) & (n - 1);
        s[j] = v;
    }
    c->bytes += add - c->n_slots * sizeof *c->slots;
    free(c->slots);
    c->slots = s;
    c->n_slots = n;
    return true;
}

static bool grow_records(wgl_cache *c) {
    if (c->n_chunks == c->chunks_cap) {
        size_t cap = lf_grow_capacity(c->chunks_cap, c->n_chunks + 1, sizeof *c->chunks, 16);
        if (!cap || c->bytes + cap * sizeof *c->chunks > c->limit) return false;
        uint64_t **ch = realloc(c->chunks, cap * sizeof *ch);
        if (!ch) return false;
        c->bytes += (cap - c->chunks_cap) * sizeof *ch;
        c->chunks = ch;
        c->chunks_cap = cap;
    }
    size_t add = CHUNK_RECS * c->rec_words * sizeof(uint64_t);
    if (c->bytes + add > c->limit) return false;
    uint64_t *chunk = malloc(add);
    if (!chunk) return false;
    c->chunks[c->n_chunks++] = chunk;
    c->bytes += add;
    return true;
}

wgl_cache_outcome lf_wgl_cache_insert(wgl_cache *c, uint64_t h, const uint64_t *key, const void *state) {
    if (2 * (c->n_recs + 1) > c->n_slots && !grow_slots(c)) return c->late ? WGL_CACHE_LATE : WGL_CACHE_NOMEM;
    uint64_t frag = h & ~(uint64_t)0xffffffff;
    size_t mask = c->n_slots - 1, j = h & mask;
    size_t key_bytes = c->key_words * sizeof *key;
    bool custom_equal = c->spec->spec->equal != NULL;
    for (uint64_t v; (v = c->slots[j]) != 0; j = (j + 1) & mask) {
        if ((v & ~(uint64_t)0xffffffff) != frag) continue;
        const uint64_t *r = record(c, (uint32_t)v - 1);
        if (r[0] != h || memcmp(r + 1, key, key_bytes) != 0) continue;
        const void *rs = r + 1 + c->key_words;
        if (custom_equal ? lf_spec_equal(c->spec, rs, state) : memcmp(rs, state, c->state_size) == 0)
            return WGL_CACHE_HIT;
    }
    if (c->n_recs >= UINT32_MAX - 1) return WGL_CACHE_NOMEM;
    if (c->n_recs == c->n_chunks * CHUNK_RECS && !grow_records(c)) return WGL_CACHE_NOMEM;
    uint64_t *r = record(c, c->n_recs);
    r[c->rec_words - 1] = 0; /* padding of the state, so no uninitialised bytes are kept */
    r[0] = h;
    memcpy(r + 1, key, key_bytes);
    memcpy(r + 1 + c->key_words, state, c->state_size);
    c->slots[j] = frag | (uint64_t)(c->n_recs + 1);
    c->n_recs++;
    return WGL_CACHE_NEW;
}
