/* Hash-consing store of fixed-length word vectors, for big set and kv states: a state is then a uint32
 * handle (equal vectors get equal handles), so the checkers copy, hash and compare 4 bytes instead of
 * the whole vector. Only ops that change the vector pay O(length) to build and intern the new one. */
#ifndef LINFUZZ_BLOBSTORE_H
#define LINFUZZ_BLOBSTORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct lf_blobstore {
    size_t words;      /* length of every vector */
    uint64_t *data;    /* vector i at data + i * words */
    uint64_t *hashes;  /* hash of vector i */
    uint32_t n, cap;
    uint32_t *table;   /* open addressing over handles; UINT32_MAX = empty */
    size_t table_cap;
    bool failed;       /* ran out of memory */
} lf_blobstore;

bool lf_blobstore_init(lf_blobstore *b, size_t words);
void lf_blobstore_free(lf_blobstore *b);
size_t lf_blobstore_bytes(const lf_blobstore *b);
/* Handle of the vector v (words long), adding it when new; UINT32_MAX when out of memory. v must not
 * point into the store. */
uint32_t lf_blobstore_intern(lf_blobstore *b, const uint64_t *v);
static inline const uint64_t *lf_blobstore_get(const lf_blobstore *b, uint32_t h) {
    return b->data + (size_t)h * b->words;
}

#endif
