/* The configuration sets of the frontier sweep (see frontier_set.h). */
#include "wgl/frontier_set.h"

#include <stdlib.h>
#include <string.h>

#define CHUNK_SHIFT 14
#define CHUNK_RECS ((size_t)1 << CHUNK_SHIFT)

void lf_fset_init(lf_fset *s, size_t mask_words, const lf_spec_inst *spec, size_t *limit) {
    memset(s, 0, sizeof *s);
    s->mask_words = mask_words;
    s->state_size = spec->state_size;
    s->state_words = (spec->state_size + 7) / 8;
    s->rec_words = 1 + mask_words + s->state_words + 1;
    s->limit = limit;
    s->spec = spec;
    s->custom_equal = spec->spec->equal != NULL;
}

void lf_fset_free(lf_fset *s) {
    for (size_t i = 0; i < s->n_chunks; i++) free(s->chunks[i]);
    free(s->chunks);
    free(s->slots);
    free(s->frags);
    *s->limit += s->bytes;
    size_t *limit = s->limit;
    memset(s, 0, sizeof *s);
    s->limit = limit;
}

void lf_fset_clear(lf_fset *s) {
    if (s->n_slots) {
        memset(s->slots, 0, s->n_slots * sizeof *s->slots);
        /* A table much larger than what it held last time is given back (the next one regrows). */
        if (s->n_slots > 4096 && 8 * s->n < s->n_slots) {
            *s->limit += s->n_slots * (sizeof *s->slots + sizeof *s->frags);
            s->bytes -= s->n_slots * (sizeof *s->slots + sizeof *s->frags);
            free(s->slots);
            free(s->frags);
            s->slots = NULL;
            s->frags = NULL;
            s->n_slots = 0;
        }
    }
    s->n = 0;
}

static bool take(lf_fset *s, size_t bytes) {
    if (bytes > *s->limit) return false;
    *s->limit -= bytes;
    s->bytes += bytes;
    return true;
}

static void give(lf_fset *s, size_t bytes) {
    *s->limit += bytes;
    s->bytes -= bytes;
}

static bool grow_slots(lf_fset *s) {
    size_t n = s->n_slots ? 2 * s->n_slots : 1024;
    size_t per = sizeof *s->slots + sizeof *s->frags;
    if (!take(s, n * per)) return false; /* the old table is still alive while rehashing */
    uint32_t *sl = calloc(n, sizeof *sl);
    uint32_t *fr = malloc(n * sizeof *fr);
    if (!sl || !fr) {
        free(sl);
        free(fr);
        give(s, n * per);
        return false;
    }
    for (size_t i = 0; i < s->n_slots; i++) {
        uint32_t v = s->slots[i];
        if (!v) continue;
        uint64_t h = lf_fset_rec(s, v - 1)[0];
        size_t j = h & (n - 1);
        while (sl[j]) j = (j + 1) & (n - 1);
        sl[j] = v;
        fr[j] = (uint32_t)(h >> 32);
    }
    free(s->slots);
    free(s->frags);
    give(s, s->n_slots * per);
    s->slots = sl;
    s->frags = fr;
    s->n_slots = n;
    return true;
}

static bool grow_records(lf_fset *s) {
    if (s->n_chunks == s->chunks_cap) {
        size_t cap = s->chunks_cap ? 2 * s->chunks_cap : 16;
        if (!take(s, (cap - s->chunks_cap) * sizeof *s->chunks)) return false;
        uint64_t **ch = realloc(s->chunks, cap * sizeof *ch);
        if (!ch) {
            give(s, (cap - s->chunks_cap) * sizeof *s->chunks);
            return false;
        }
        s->chunks = ch;
        s->chunks_cap = cap;
    }
    size_t add = CHUNK_RECS * s->rec_words * sizeof(uint64_t);
    if (!take(s, add)) return false;
    uint64_t *chunk = malloc(add);
    if (!chunk) {
        give(s, add);
        return false;
    }
    s->chunks[s->n_chunks++] = chunk;
    return true;
}

lf_fset_outcome lf_fset_insert(lf_fset *s, uint64_t h, const uint64_t *mask, const void *state, uint64_t payload,
                             size_t *idx) {
    if (2 * (s->n + 1) > s->n_slots && !grow_slots(s)) return LF_FSET_NOMEM;
    uint32_t frag = (uint32_t)(h >> 32);
    size_t m = s->n_slots - 1, j = h & m;
    size_t mask_bytes = s->mask_words * sizeof *mask;
    for (uint32_t v; (v = s->slots[j]) != 0; j = (j + 1) & m) {
        if (s->frags[j] != frag) continue;
        uint64_t *r = lf_fset_rec(s, v - 1);
        if (r[0] != h || memcmp(r + 1, mask, mask_bytes) != 0) continue;
        const void *rs = r + 1 + s->mask_words;
        if (s->custom_equal ? lf_spec_equal(s->spec, rs, state) : memcmp(rs, state, s->state_size) == 0) {
            *idx = v - 1;
            return LF_FSET_HIT;
        }
    }
    if (s->n >= UINT32_MAX - 1) return LF_FSET_NOMEM;
    if (s->n == s->n_chunks * CHUNK_RECS && !grow_records(s)) return LF_FSET_NOMEM;
    uint64_t *r = lf_fset_rec(s, s->n);
    r[s->rec_words - 2] = 0; /* the state's padding: no uninitialised bytes are kept */
    r[0] = h;
    memcpy(r + 1, mask, mask_bytes);
    memcpy(r + 1 + s->mask_words, state, s->state_size);
    r[s->rec_words - 1] = payload;
    s->slots[j] = (uint32_t)(s->n + 1);
    s->frags[j] = frag;
    *idx = s->n++;
    return LF_FSET_NEW;
}

size_t lf_fset_find(const lf_fset *s, uint64_t h, const uint64_t *mask, const void *state) {
    if (!s->n_slots) return SIZE_MAX;
    uint32_t frag = (uint32_t)(h >> 32);
    size_t m = s->n_slots - 1, j = h & m;
    size_t mask_bytes = s->mask_words * sizeof *mask;
    for (uint32_t v; (v = s->slots[j]) != 0; j = (j + 1) & m) {
        if (s->frags[j] != frag) continue;
        uint64_t *r = lf_fset_rec(s, v - 1);
        if (r[0] != h || memcmp(r + 1, mask, mask_bytes) != 0) continue;
        const void *rs = r + 1 + s->mask_words;
        if (s->custom_equal ? lf_spec_equal(s->spec, rs, state) : memcmp(rs, state, s->state_size) == 0)
            return v - 1;
    }
    return SIZE_MAX;
}
