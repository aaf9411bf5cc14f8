/* Root causing, step 2: conflict cycles of a recorded trace and their critical segments ([Cirisci20] §5-6,
 * docs/rootcause.md).
 *
 * Conflict edges join accesses of two threads to overlapping bytes, at least one a write (read-modify-writes
 * and lock operations count as writes), in trace order. Only the nearest edges are kept: from each access,
 * to the first later and from the last earlier conflicting access of every other thread (a cycle through a
 * farther access has a longer segment, which a nearer one subsumes). A cycle visits two threads (most
 * linearizability bugs need two [Burckhardt10]): it leaves thread i's op at access x1 for thread j (x1 -> y1),
 * and comes back from j (x2 -> y2). Where it comes back to an earlier access of the same op than it left from
 * (y2 after x1 in program order), the span [x1 .. y2] of that op is a *critical segment*: the trace, and
 * every trace equivalent to it, exists only because that span was interrupted. A candidate is the set of
 * critical segments of one cycle (one or two); candidates that subsume another are dropped.
 *
 * Three-thread cycles are not enumerated (a documented limit). */
#ifndef LINFUZZ_RC_CYCLES_H
#define LINFUZZ_RC_CYCLES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "trace.h"

typedef struct lf_rc_segment {
    uint32_t thread, op;
    size_t first, last; /* indices into the trace's events (first before last, same thread and op) */
} lf_rc_segment;

typedef struct lf_rc_cycle {
    lf_rc_segment seg[2];
    unsigned n; /* 1 or 2 */
} lf_rc_cycle;

typedef struct lf_rc_cycles {
    lf_rc_cycle *c;
    size_t n;
    size_t edges;     /* conflict edges kept */
    bool truncated;   /* a limit on edges or cycles was reached */
} lf_rc_cycles;

/* The minimal candidates of trace t. False when out of memory. */
bool lf_rc_find_cycles(const lf_rc_trace *t, lf_rc_cycles *out);
void lf_rc_cycles_free(lf_rc_cycles *c);

/* Whether making the pairs (begin_pc[k] .. end_pc[k], within one op) atomic would forbid trace t: some
 * instance of a pair (an access at begin_pc, then the same op's next access at end_pc) is interrupted by
 * another thread's accesses u ... v, u conflicting with an access of the instance before it and v with one
 * after it (a two-thread conflict cycle through the instance). */
bool lf_rc_pairs_forbid(const lf_rc_trace *t, const uintptr_t *begin_pc, const uintptr_t *end_pc, size_t n);

#endif
