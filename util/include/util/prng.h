/* The project's small fast PRNG (splitmix64): workloads, perturbation, schedules, generated histories and the
 * searches' random choices all draw from it, so that a seed means the same sequence everywhere. Not for
 * anything that needs cryptographic or statistical quality beyond "well mixed". */
#ifndef LINFUZZ_UTIL_PRNG_H
#define LINFUZZ_UTIL_PRNG_H

#include <stdint.h>

/* The next number of the sequence whose state is *state (any value is a valid state). */
static inline uint64_t lf_rand_next(uint64_t *state) {
    uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}
/* Uniform in [0, n) for n >= 1 (the tiny modulo bias is irrelevant here). */
static inline uint64_t lf_rand_below(uint64_t *state, uint64_t n) { return lf_rand_next(state) % n; }

#endif
