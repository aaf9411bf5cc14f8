/* Brute-force oracle: exhaustive search over linearization orders with memoisation of
 * (linearized set, abstract state), for small histories of every type. Pending ops may take effect at any
 * point after their call, or never. Deliberately simple and independent of the other engines, so the
 * tests can use it as the reference. */
#ifndef LINFUZZ_BRUTE_H
#define LINFUZZ_BRUTE_H

#include <stdbool.h>
#include <stddef.h>

#include "linfuzz/check.h"
#include "linfuzz/history.h"

typedef struct lf_brute_options {
    size_t max_ops;          /* histories with more ops answer unknown (default 24) */
    double timeout_s;        /* 0 = no limit */
    size_t max_memory_bytes; /* memo table budget (default 1 GiB); exceeding it answers unknown */
    bool want_witness;
    lf_progress *progress;   /* search steps are published here (NULL: none) */
} lf_brute_options;

void lf_brute_options_default(lf_brute_options *o);
void lf_brute_check(const lf_history *h, const lf_brute_options *o, lf_result *r);

#endif
