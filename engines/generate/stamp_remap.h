/* Order-preserving remapping of a history's stamps, for the tests and the differential fuzz target.
 *
 * Stamps only matter by order (docs/formats.md): A precedes B iff A.ret < B.call, equal stamps are
 * concurrent. Any map that is strictly increasing on the history's distinct stamps (calls and returns
 * together) keeps every precedence and every tie, so every engine must give the same verdict on the copy.
 * The maps here push stamps to the edges of the range, where sentinels and overflow hide: the largest stamp
 * at 2^64-1, the smallest at 0, both at once, or all of them dense at either end. */
#ifndef LINFUZZ_STAMP_REMAP_H
#define LINFUZZ_STAMP_REMAP_H

#include <stdbool.h>
#include <stdint.h>

#include "linfuzz/history.h"

typedef enum lf_stamp_map {
    LF_STAMPS_SHIFT_TOP,    /* every stamp + (2^64-1 - largest): the largest becomes 2^64-1 */
    LF_STAMPS_SHIFT_BOTTOM, /* every stamp - smallest: the smallest becomes 0 */
    LF_STAMPS_DENSE_BOTTOM, /* the k distinct stamps become 0..k-1 */
    LF_STAMPS_DENSE_TOP,    /* the k distinct stamps become 2^64-k..2^64-1 */
    LF_STAMPS_SPREAD,       /* random strictly increasing map with the smallest at 0 and the largest at 2^64-1
                             * (when there are two or more distinct stamps), gaps of every size between */
    LF_STAMPS_MAP_COUNT
} lf_stamp_map;

const char *lf_stamp_map_name(lf_stamp_map m);

/* Rewrites h's stamps in place with map m (seed drives LF_STAMPS_SPREAD). Pending ops keep their call only.
 * Returns false when out of memory (h is then unchanged). */
bool lf_history_remap_stamps(lf_history *h, lf_stamp_map m, uint64_t seed);

#endif
