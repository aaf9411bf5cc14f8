/* The configuration sets of the frontier sweep (see frontier_set.h). */
#include "wgl/frontier_set.h"

#include <stdlib.h>
#include <string.h>

#include "util/grow.h"

#define CHUNK_RECS ((size_t)1 << LF_FSET_CHUNK_SHIFT)

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
    if (s->limit) *s->limit += s->bytes; /* (a set never initialised has nothing) */
    size_t *limit = s->limit;
    memset(s, 0, sizeof *s);
    s->limit = limit;
}

void lf_fset_clear(lf_fset *s) {
    if (s->n_slots) {
        memset(s->slots, 0, s->n_slots * sizeof *s->slots);
        /* A table much larger than what it held last time is given back (the next one regrows). */
        if (s->n_slots > 4096 && 8 * s->n < s->n_slots) {
            *s->limit += s->n_slots * sizeof *s->slots;
            s->bytes -= s->n_slots * sizeof *s->slots;
            free(s->slots);
            s->slots = NULL;
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
    if (!take(s, n * sizeof *s->slots)) return false; /* the old table is still alive while rehashing */
    uint64_t *sl = calloc(n, sizeof *sl);
    if (!sl) {
        give(s, n * sizeof *s->slots);
        return false;
    }
    for (size_t i = 0; i < s->n_slots; i++) {
        uint64_t v = s->slots[i];
        if (!v) continue;
        size_t j = lf_fset_rec(s, (uint32_t)v - 1)[0] & (n - 1);
        while (sl[j]) j = (j + 1) & (n - 1);
        sl[j] = v;
    }
    free(s->slots);
    give(s, s->n_slots * sizeof *s->slots);
    s->slots = sl;
    s->n_slots = n;
    return true;
}

static bool grow_records(lf_fset *s) {
    if (s->n_chunks == s->chunks_cap) {
        size_t cap = lf_grow_capacity(s->chunks_cap, s->n_chunks + 1, sizeof *s->chunks, 16);
        if (!cap || !take(s, (cap - s->chunks_cap) * sizeof *s->chunks)) return false;
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

/* Whether record r holds (mask, state): words first, the state's tail bytes by memcmp. */
static inline bool same(const lf_fset *s, const uint64_t *r, const uint64_t *mask, const void *state) {
    for (size_t i = 0; i < s->mask_words; i++)
        if (r[1 + i] != mask[i]) return false;
    const void *rs = r + 1 + s->mask_words;
    if (s->custom_equal) return lf_spec_equal(s->spec, rs, state);
    size_t full = s->state_size / 8;
    const unsigned char *a = rs, *b = state;
    for (size_t i = 0; i < full; i++) {
        uint64_t x, y;
        memcpy(&x, a + 8 * i, 8);
        memcpy(&y, b + 8 * i, 8);
        if (x != y) return false;
    }
    size_t rest = s->state_size - 8 * full;
    return rest == 0 || memcmp(a + 8 * full, b + 8 * full, rest) == 0;
}

lf_fset_outcome lf_fset_insert(lf_fset *s, uint64_t h, const uint64_t *mask, const void *state, uint64_t payload,
                               size_t *idx) {
    if (2 * (s->n + 1) > s->n_slots && !grow_slots(s)) return LF_FSET_NOMEM;
    uint64_t frag = h & ~(uint64_t)UINT32_MAX;
    size_t m = s->n_slots - 1, j = h & m;
    for (uint64_t v; (v = s->slots[j]) != 0; j = (j + 1) & m) {
        if ((v & ~(uint64_t)UINT32_MAX) != frag) continue;
        const uint64_t *r = lf_fset_rec(s, (uint32_t)v - 1);
        if (r[0] == h && same(s, r, mask, state)) {
            *idx = (uint32_t)v - 1;
            return LF_FSET_HIT;
        }
    }
    if (s->n >= UINT32_MAX - 1) return LF_FSET_NOMEM;
    if (s->n == s->n_chunks * CHUNK_RECS && !grow_records(s)) return LF_FSET_NOMEM;
    uint64_t *r = lf_fset_rec(s, s->n);
    r[s->rec_words - 2] = 0; /* the state's padding: no uninitialised bytes are kept */
    r[0] = h;
    memcpy(r + 1, mask, s->mask_words * sizeof *mask);
    memcpy(r + 1 + s->mask_words, state, s->state_size);
    r[s->rec_words - 1] = payload;
    s->slots[j] = frag | (uint64_t)(s->n + 1);
    *idx = s->n++;
    return LF_FSET_NEW;
}

size_t lf_fset_find(const lf_fset *s, uint64_t h, const uint64_t *mask, const void *state) {
    if (!s->n_slots) return SIZE_MAX;
    uint64_t frag = h & ~(uint64_t)UINT32_MAX;
    size_t m = s->n_slots - 1, j = h & m;
    for (uint64_t v; (v = s->slots[j]) != 0; j = (j + 1) & m) {
        if ((v & ~(uint64_t)UINT32_MAX) != frag) continue;
        const uint64_t *r = lf_fset_rec(s, (uint32_t)v - 1);
        if (r[0] == h && same(s, r, mask, state)) return (uint32_t)v - 1;
    }
    return SIZE_MAX;
}
