/* The 64-bit mixing function behind every hash table of the engines (value ids, specs' stores, schedule
 * fingerprints): a bijective finalizer, so distinct keys stay distinct and nearby keys spread out. */
#ifndef LINFUZZ_HASH_H
#define LINFUZZ_HASH_H

#include <stdint.h>

static inline uint64_t lf_mix64(uint64_t x) {
    x ^= x >> 32;
    x *= 0xd6e8feb86659fd93ULL;
    x ^= x >> 32;
    x *= 0xd6e8feb86659fd93ULL;
    x ^= x >> 32;
    return x;
}

#endif
