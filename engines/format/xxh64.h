/* XXH64 (xxHash, 64-bit): the checksum of the .lfz container's header and payload.
 *
 * Implemented here from the public xxHash specification because libzstd does not export its copy. It is
 * the same function zstd uses for its frame checksum (zstd stores the low 32 bits, seed 0). */
#ifndef LINFUZZ_XXH64_H
#define LINFUZZ_XXH64_H

#include <stddef.h>
#include <stdint.h>

uint64_t lf_xxh64(const void *data, size_t len, uint64_t seed);

#endif
