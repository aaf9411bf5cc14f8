/* The time budget of a check, as one object every stage consults (docs/budgets.md).
 *
 * A deadline is an absolute time on the one monotonic clock (util/clock.h). Reading that clock costs about
 * 20-30 ns, too much for the inner loops of the monitors and the searches' setups, so a loop over the history
 * reads it once every LF_DEADLINE_STRIDE iterations (lf_deadline_every, by the loop's own index), and code whose
 * steps are not alike charges its work in units (one unit: about one element visited, a few nanoseconds;
 * lf_deadline_spend), the clock being read when STRIDE units have been charged since the last read. A stage
 * that checks at its start and in every loop over the history therefore notices a passed deadline within about
 * STRIDE iterations of work, a fraction of a millisecond; docs/budgets.md has the measured lateness per stage.
 * Once passed, a deadline stays passed (no second clock read). No deadline (at = 0) never passes.
 *
 * An lf_deadline belongs to one thread (its credit is plain memory); a search that runs on a second thread
 * gets its own copy of the same absolute time. */
#ifndef LINFUZZ_BUDGET_DEADLINE_H
#define LINFUZZ_BUDGET_DEADLINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/radix_sort.h"

/* Work units charged between two clock reads. At 1-10 ns a unit: a read every 4-40 us of work, which costs
 * under 1% of the tightest loop that charges one unit per element, and nothing measurable elsewhere. */
#define LF_DEADLINE_STRIDE 4096u

typedef struct lf_deadline {
    double at;       /* lf_now_s() time at which it passes; 0: never */
    uint32_t credit; /* units left before the next clock read */
    bool passed;     /* sticky */
} lf_deadline;

/* A deadline at the absolute time at (0: none). */
void lf_deadline_init(lf_deadline *d, double at);
/* A deadline timeout_s seconds from now (timeout_s <= 0: none). */
void lf_deadline_start(lf_deadline *d, double timeout_s);
/* The absolute time timeout_s seconds from now, or 0 for none: what options carry to the stages. */
double lf_deadline_from_timeout(double timeout_s);

/* Reads the clock now: whether the deadline has passed (and resets the credit). */
bool lf_deadline_passed(lf_deadline *d);
/* The same for d that may be NULL (no deadline: false): the slow path of lf_deadline_every, kept out of line so
 * that the loop's own test is all a loop pays. */
bool lf_deadline_passed_or_none(lf_deadline *d);

/* Charges `units` units of work; reads the clock when the credit runs out. True when the deadline has passed.
 * d may be NULL (no deadline). */
static inline bool lf_deadline_spend(lf_deadline *d, uint32_t units) {
    if (!d) return false;
    if (d->credit > units) {
        d->credit -= units;
        return false;
    }
    return lf_deadline_passed(d);
}

/* One unit: the check of a loop that has no index to go by (or whose iterations are not all alike). */
static inline bool lf_deadline_tick(lf_deadline *d) { return lf_deadline_spend(d, 1); }

/* The check at the top of iteration i of a loop over the history: the clock is read at iterations STRIDE - 1,
 * 2 STRIDE - 1, ..., so the loop itself pays one test of its own index (no memory traffic, nothing that keeps
 * the compiler from vectorising it), and a loop shorter than STRIDE never reads the clock: the check at the
 * start of its stage covers it. A loop whose iterations cost more than a few nanoseconds charges them with
 * lf_deadline_spend instead. d may be NULL. */
static inline bool lf_deadline_every(lf_deadline *d, size_t i) {
    if (__builtin_expect(((i + 1) & (LF_DEADLINE_STRIDE - 1)) != 0, 1)) return false;
    return lf_deadline_passed_or_none(d);
}

/* Tight loops (a few instructions an iteration, where even lf_deadline_every's test would show) run in chunks
 * of LF_DEADLINE_STRIDE iterations with the deadline looked at between them, so the body carries no check:
 *     LF_FOR_CHUNKS(lo, hi, 0, n, dl)
 *         for (size_t i = lo; i < hi; i++) body;      (no break in body: it would end only the chunk)
 *     if (lf_deadline_expired(dl)) ...the deadline passed...
 * lf_deadline_chunk gives the end of the chunk at lo, or lo itself (ending the loop) at the end or once the
 * deadline has passed; the first chunk starts without a look at the clock. */
static inline size_t lf_deadline_chunk(lf_deadline *d, size_t lo, size_t end, bool first) {
    if (lo >= end || (!first && d && lf_deadline_passed(d))) return lo;
    return end - lo > LF_DEADLINE_STRIDE ? lo + LF_DEADLINE_STRIDE : end;
}
#define LF_FOR_CHUNKS(lo, hi, start, end, d) \
    for (size_t lo = (start), hi; (hi = lf_deadline_chunk((d), lo, (end), lo == (start))) > lo; lo = hi)

/* Whether d (NULL: none) has been seen to pass, without reading the clock: after a loop or a call stopped
 * early, this tells running out of time from running out of memory. */
static inline bool lf_deadline_expired(const lf_deadline *d) { return d && d->passed; }

/* The radix sorts (util/radix_sort.h) under d (NULL: none), which look at the clock every LF_SORT_CHUNK
 * elements: false when out of memory or out of time (then d is expired and a[] in an unspecified order). */
bool lf_sort_within(lf_keyed *a, size_t n, lf_deadline *d);
bool lf_sort_u64_within(uint64_t *a, size_t n, int first_byte, lf_deadline *d);

#endif
