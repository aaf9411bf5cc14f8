/* The hash the hash-table adapters give their library for a key (ck_hs, ck_ht, cds_lfht): splitmix64's finalizer,
 * so that small consecutive keys spread over the buckets. */
#ifndef LINFUZZ_ADAPTER_KEY_HASH_H
#define LINFUZZ_ADAPTER_KEY_HASH_H

#include <stdint.h>

static inline uint64_t lf_key_hash(uint64_t x) {
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

#endif
