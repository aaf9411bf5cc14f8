/* Structured decoding of arbitrary bytes into a small well-formed history, for the differential fuzz target of
 * the checkers (tests/fuzz/fuzz_check_diff.c): every byte string decodes to some valid history, and a
 * mutation of a byte changes one op's thread, method, value, result or timing, so libFuzzer's mutations mean
 * something. Values come from a tiny domain (collisions make ambiguous histories), results are sometimes
 * wrong on purpose, ops may be pending, and containers may be bounded (capacity 1..3, answering full).
 *
 * The setup byte also picks where the numbers lie, because sentinels and overflows hide at the edges: values
 * from {0, 1, 2, 3} or from {INT64_MIN, INT64_MAX, -1, 0} (nil either way), thread ids from {0, 1, 2, 3} or
 * from {2^32-1, 2^32-2, 0, 65536}, and stamps as decoded (from 1), shifted so the largest is 2^64-1, shifted
 * so the smallest is 0, or coarse (many ties) and then shifted to the top. */
#ifndef LINFUZZ_BYTES_HISTORY_H
#define LINFUZZ_BYTES_HISTORY_H

#include <stddef.h>
#include <stdint.h>

#include "linfuzz/history.h"

#define LF_BYTES_MAX_OPS 12 /* small enough for the brute-force oracle */

/* Decodes data into h (initialised here; free with lf_history_free). Returns false only when out of memory. */
bool lf_history_from_bytes(const uint8_t *data, size_t size, lf_history *h);

#endif
