/* LSD radix sort of 64-bit keys with 32-bit payloads: the event sort of the monitors (O(n), stable). */
#ifndef LINFUZZ_RADIX_SORT_H
#define LINFUZZ_RADIX_SORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct lf_keyed {
    uint64_t key;
    uint32_t payload;
} lf_keyed;

/* Sorts a[0..n) by key, stably. Byte positions on which all keys agree are skipped, so stamps that fit in
 * 3 bytes cost 3 passes. Returns false only when the scratch buffer cannot be allocated. */
bool lf_radix_sort(lf_keyed *a, size_t n);
/* Sorts packed 64-bit words (key in the high bits, payload in the low ones), stably, by bits
 * [8*first_byte, 64): the payload bytes below first_byte keep their input order. */
bool lf_radix_sort_u64(uint64_t *a, size_t n, int first_byte);

/* The same sorts under a time budget: deadline is an absolute lf_now_s() time (0: none), looked at every
 * LF_SORT_CHUNK elements of every pass (about 0.1 ms of work). Past it the sort stops, leaving a[] in an
 * unspecified order: the caller gives up on it. */
#define LF_SORT_CHUNK ((size_t)1 << 16)
typedef enum lf_sort_status { LF_SORT_OK, LF_SORT_NOMEM, LF_SORT_LATE } lf_sort_status;
lf_sort_status lf_radix_sort_until(lf_keyed *a, size_t n, double deadline);
lf_sort_status lf_radix_sort_u64_until(uint64_t *a, size_t n, int first_byte, double deadline);

#endif
