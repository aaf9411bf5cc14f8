/* State fingerprints for adapters (lf_adapter.fingerprint, docs/custom-types.md): a hash of the abstract state
 * that the self-spec uses to merge equal states and to check serial determinism. Sequences (stacks, queues,
 * lists) hash their values in order; sets and multisets (a heap's array) add up a hash per element, so that
 * the order in memory does not matter. Only the abstract state goes in: never pointers, arena use or
 * counters that no result can show. Called serially, with no op in flight. */
#ifndef LINFUZZ_ADAPTERS_FINGERPRINT_H
#define LINFUZZ_ADAPTERS_FINGERPRINT_H

#include <stdint.h>

static inline uint64_t lf_fp_mix(uint64_t x) {
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdull;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ull;
    return x ^ (x >> 33);
}

/* Sequence: start with lf_fp_seq(0), then h = lf_fp_seq_add(h, v) per element in order. */
static inline uint64_t lf_fp_seq_add(uint64_t h, int64_t v) { return lf_fp_mix(h ^ (uint64_t)v) + 0x9e3779b97f4a7c15ull; }

/* Set or multiset: the sum of lf_fp_elem over the elements, plus their count. */
static inline uint64_t lf_fp_elem(int64_t v) { return lf_fp_mix((uint64_t)v * 0x9e3779b97f4a7c15ull + 1); }

#endif
