/* Order-preserving remapping of stamps (see stamp_remap.h). */
#include "generate/stamp_remap.h"

#include <stdlib.h>

#include "linfuzz/generate.h"
#include "util/radix_sort.h"

const char *lf_stamp_map_name(lf_stamp_map m) {
    switch (m) {
    case LF_STAMPS_SHIFT_TOP: return "shift-top";
    case LF_STAMPS_SHIFT_BOTTOM: return "shift-bottom";
    case LF_STAMPS_DENSE_BOTTOM: return "dense-bottom";
    case LF_STAMPS_DENSE_TOP: return "dense-top";
    case LF_STAMPS_SPREAD: return "spread";
    case LF_STAMPS_MAP_COUNT: break;
    }
    return "?";
}

/* Index of x in the sorted distinct stamps d[0..k). */
static size_t rank_of(const uint64_t *d, size_t k, uint64_t x) {
    size_t lo = 0, hi = k;
    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        if (d[mid] <= x)
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

/* k strictly increasing values from 0 to 2^64-1 (k >= 2): random gaps, some of them 1, some huge. */
static void spread_targets(uint64_t *t, size_t k, uint64_t seed) {
    lf_rng rng;
    lf_rng_seed(&rng, seed);
    t[0] = 0;
    t[k - 1] = UINT64_MAX;
    /* Fill the middle left to right, each value between its predecessor and what must remain for the rest. */
    for (size_t i = 1; i + 1 < k; i++) {
        uint64_t lo = t[i - 1] + 1, hi = UINT64_MAX - (uint64_t)(k - 1 - i); /* inclusive bounds */
        uint64_t room = hi - lo;
        uint64_t pick;
        switch (lf_rng_below(&rng, 4)) {
        case 0: pick = 0; break;                                          /* adjacent */
        case 1: pick = room < 16 ? room : lf_rng_below(&rng, 16); break;  /* close */
        case 2: pick = room == UINT64_MAX ? lf_rng_next(&rng) : lf_rng_below(&rng, room + 1) / (k - i); break;
        default: pick = room / (k - i); break;                            /* even share of what is left */
        }
        t[i] = lo + (pick <= room ? pick : room);
    }
}

bool lf_history_remap_stamps(lf_history *h, lf_stamp_map m, uint64_t seed) {
    size_t n = h->n, k = 0;
    if (n == 0) return true;
    uint64_t *d = malloc(2 * n * sizeof *d);
    if (!d) return false;
    for (size_t i = 0; i < n; i++) {
        d[k++] = h->ops[i].call;
        if (!lf_op_pending(&h->ops[i])) d[k++] = h->ops[i].ret;
    }
    if (!lf_radix_sort_u64(d, k, 0)) {
        free(d);
        return false;
    }
    size_t distinct = 0;
    for (size_t i = 0; i < k; i++)
        if (i == 0 || d[i] != d[distinct - 1]) d[distinct++] = d[i];
    uint64_t *target = NULL;
    if (m == LF_STAMPS_SPREAD && distinct >= 2) {
        target = malloc(distinct * sizeof *target);
        if (!target) {
            free(d);
            return false;
        }
        spread_targets(target, distinct, seed);
    }
    uint64_t lo = d[0], hi = d[distinct - 1];
    for (size_t i = 0; i < n; i++) {
        lf_op *op = &h->ops[i];
        for (int which = 0; which < 2; which++) {
            if (which == 1 && lf_op_pending(op)) break;
            uint64_t *x = which ? &op->ret : &op->call;
            size_t r = rank_of(d, distinct, *x);
            switch (m) {
            case LF_STAMPS_SHIFT_TOP: *x += UINT64_MAX - hi; break;
            case LF_STAMPS_SHIFT_BOTTOM: *x -= lo; break;
            case LF_STAMPS_DENSE_BOTTOM: *x = r; break;
            case LF_STAMPS_DENSE_TOP: *x = UINT64_MAX - (uint64_t)(distinct - 1 - r); break;
            case LF_STAMPS_SPREAD: *x = target ? target[r] : 0; break;
            case LF_STAMPS_MAP_COUNT: break;
            }
        }
    }
    free(target);
    free(d);
    return true;
}
