/* The time budget of a check (deadline.h): the slow path that reads the clock. */
#include "budget/deadline.h"

#include "util/clock.h"

void lf_deadline_init(lf_deadline *d, double at) {
    d->at = at > 0 ? at : 0;
    d->credit = LF_DEADLINE_STRIDE;
    d->passed = false;
}

double lf_deadline_from_timeout(double timeout_s) { return timeout_s > 0 ? lf_now_s() + timeout_s : 0; }

void lf_deadline_start(lf_deadline *d, double timeout_s) { lf_deadline_init(d, lf_deadline_from_timeout(timeout_s)); }

bool lf_deadline_passed(lf_deadline *d) {
    if (!d->passed && d->at > 0 && lf_now_s() > d->at) d->passed = true;
    d->credit = d->passed ? 0 : LF_DEADLINE_STRIDE; /* once passed, every charge says so without the clock */
    return d->passed;
}

bool lf_deadline_passed_or_none(lf_deadline *d) { return d && lf_deadline_passed(d); }

/* A sort that stopped on the deadline marks it passed, so that the caller's next charge says so too. */
static bool sorted(lf_sort_status st, lf_deadline *d) {
    if (st == LF_SORT_LATE && d) {
        d->passed = true;
        d->credit = 0;
    }
    return st == LF_SORT_OK;
}

bool lf_sort_within(lf_keyed *a, size_t n, lf_deadline *d) {
    return sorted(lf_radix_sort_until(a, n, d ? d->at : 0), d);
}

bool lf_sort_u64_within(uint64_t *a, size_t n, int first_byte, lf_deadline *d) {
    return sorted(lf_radix_sort_u64_until(a, n, first_byte, d ? d->at : 0), d);
}
