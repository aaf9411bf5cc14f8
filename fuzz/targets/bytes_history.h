/* Structured decoding of arbitrary bytes into a small well-formed history, for the differential fuzz target of
 * the checkers (fuzz/targets/fuzz_check_diff.c): every byte string decodes to some valid history, and a
 * mutation of a byte changes one op's thread, method, value, result or timing, so libFuzzer's mutations mean
 * something. Values come from a tiny domain (collisions make ambiguous histories), results are sometimes
 * wrong on purpose, and ops may be pending. */
#ifndef LINFUZZ_BYTES_HISTORY_H
#define LINFUZZ_BYTES_HISTORY_H

#include <stddef.h>
#include <stdint.h>

#include "linfuzz/history.h"

#define LF_BYTES_MAX_OPS 12 /* small enough for the brute-force oracle */

/* Decodes data into h (initialised here; free with lf_history_free). Returns false only when out of memory. */
bool lf_history_from_bytes(const uint8_t *data, size_t size, lf_history *h);

#endif
