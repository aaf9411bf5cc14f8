/* Edge variants of an accepted history, for the parser fuzz targets: whatever input the fuzzer found, the same
 * history is also written and read back with its numbers pushed to the edges of their ranges, where
 * sentinels and overflows hide (a stamp of 2^64-1, a value of INT64_MIN, a thread id of 2^32-1). */
#ifndef LINFUZZ_EDGE_VARIANT_H
#define LINFUZZ_EDGE_VARIANT_H

#include <stdbool.h>
#include <stdint.h>

#include "linfuzz/history.h"

#define LF_EDGE_VARIANTS 3

/* out := variant `which` (0..LF_EDGE_VARIANTS-1) of h, still well formed:
 *   0: stamps shifted so the largest is 2^64-1, thread ids reflected to 2^32-1 - id;
 *   1: stamps shifted so the smallest is 0, every integer value and result with its sign bit flipped (0 becomes
 *      INT64_MIN, -1 becomes INT64_MAX; a register's init too), so distinct values stay distinct;
 *   2: stamps dense at the top (the k distinct stamps become 2^64-k..2^64-1), both of the above.
 * False when out of memory. */
bool lf_fuzz_edge_variant(const lf_history *h, int which, lf_history *out);

#endif
