/* Hash-consing store of fixed-length word vectors (see blobstore.h). */
#include "spec/blobstore.h"

#include <stdlib.h>
#include <string.h>

#include "spec/spec_util.h"
#include "util/grow.h"

bool lf_blobstore_init(lf_blobstore *b, size_t words) {
    memset(b, 0, sizeof *b);
    b->words = words ? words : 1;
    return true;
}

void lf_blobstore_free(lf_blobstore *b) {
    free(b->data);
    free(b->hashes);
    free(b->table);
    memset(b, 0, sizeof *b);
}

size_t lf_blobstore_bytes(const lf_blobstore *b) {
    return (size_t)b->cap * (b->words + 1) * sizeof(uint64_t) + b->table_cap * sizeof *b->table;
}

static uint64_t hash_words(const uint64_t *v, size_t n) {
    uint64_t h = 0x9e3779b97f4a7c15ULL * (n + 1);
    for (size_t i = 0; i < n; i++) h = lf_mix64(h ^ v[i]) + i;
    return h;
}

static bool grow_table(lf_blobstore *b) {
    size_t cap = b->table_cap ? 2 * b->table_cap : 256;
    uint32_t *t = malloc(cap * sizeof *t);
    if (!t) return false;
    memset(t, 0xff, cap * sizeof *t);
    for (uint32_t i = 0; i < b->n; i++) {
        size_t j = b->hashes[i] & (cap - 1);
        while (t[j] != UINT32_MAX) j = (j + 1) & (cap - 1);
        t[j] = i;
    }
    free(b->table);
    b->table = t;
    b->table_cap = cap;
    return true;
}

uint32_t lf_blobstore_intern(lf_blobstore *b, const uint64_t *v) {
    uint64_t h = hash_words(v, b->words);
    if (b->table_cap) {
        size_t mask = b->table_cap - 1;
        for (size_t j = h & mask; b->table[j] != UINT32_MAX; j = (j + 1) & mask) {
            uint32_t k = b->table[j];
            if (b->hashes[k] == h && memcmp(lf_blobstore_get(b, k), v, b->words * sizeof *v) == 0) return k;
        }
    }
    if (b->failed) return UINT32_MAX;
    if (2 * ((size_t)b->n + 1) > b->table_cap && !grow_table(b)) goto oom;
    if (b->n == b->cap) {
        size_t cap = lf_grow_capacity(b->cap, (size_t)b->n + 1, b->words * sizeof *b->data, 64);
        if (!cap || cap > UINT32_MAX) goto oom;
        uint64_t *data = realloc(b->data, (size_t)cap * b->words * sizeof *data);
        if (!data) goto oom;
        b->data = data;
        uint64_t *hashes = realloc(b->hashes, (size_t)cap * sizeof *hashes);
        if (!hashes) goto oom;
        b->hashes = hashes;
        b->cap = (uint32_t)cap;
    }
    uint32_t id = b->n++;
    memcpy(b->data + (size_t)id * b->words, v, b->words * sizeof *v);
    b->hashes[id] = h;
    size_t mask = b->table_cap - 1, j = h & mask;
    while (b->table[j] != UINT32_MAX) j = (j + 1) & mask;
    b->table[j] = id;
    return id;
oom:
    b->failed = true;
    return UINT32_MAX;
}
