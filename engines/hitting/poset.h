/* The real-time order of a (sub)history as the hitting families see it ([Ozkan19],
 * §2.7): ops renumbered 0..n-1 in call-time order (a topological order of the interval order), O(1)
 * precedence tests, a chain partition, and which ops are isolated (comparable with all others).
 *
 * Stamps only matter by order, so the poset keeps ranks, not stamps: every call and return is replaced by the
 * rank of (stamp, kind) among the part's events (calls before returns at equal stamps, equal keys equal
 * ranks), which keeps every comparison the families make (a.ret < b.call, call order, ties) and lies in
 * 0..2n-1. A pending op's return is HIT_PENDING_RET, above every rank: no real stamp, not even 2^64-1, can be
 * mistaken for it, and the verdict cannot depend on where the stamps lie.
 *
 * Pending ops never return: they precede nothing and are concurrent with every op called after them. They
 * belong to no chain and are never isolated: the families order the completed ops, and the replay lets each
 * pending op take effect at any later point or never (hitting/replay.h), so chains and isolation are those
 * of the completed ops alone. */
#ifndef LINFUZZ_HIT_POSET_H
#define LINFUZZ_HIT_POSET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "budget/deadline.h"
#include "linfuzz/history.h"

typedef enum hit_chain_mode {
    HIT_CHAINS_MIN,     /* greedy interval partitioning: exactly width-many chains (Dilworth-optimal) */
    HIT_CHAINS_THREADS, /* one chain per thread, numbered by ascending thread id (the paper's choice) */
} hit_chain_mode;

#define HIT_NO_CHAIN UINT32_MAX /* the chain of a pending op */
#define HIT_PENDING_RET UINT64_MAX /* the return rank of a pending op: above every rank (ranks are < 2n) */

typedef struct hit_poset {
    size_t n;
    uint32_t *op_of;   /* local index -> index into the caller's ops */
    uint64_t *call;    /* per local index: rank of the call */
    uint64_t *ret;     /* per local index: rank of the return; HIT_PENDING_RET for a pending op (precedes nothing) */
    uint32_t *chain;   /* per local index: chain id in 0..n_chains-1, HIT_NO_CHAIN for a pending op */
    uint32_t n_chains;
    uint8_t *isolated; /* per local index: 1 for a completed op comparable with every other completed op */
    size_t n_isolated;
    size_t n_pending;
} hit_poset;

/* Builds the poset of ops[0..n), looking at dl (NULL: none) in its sorts and loops. Returns false when out of
 * memory or out of time (dl expired; p is then empty and may be freed). */
bool lf_hit_poset_init(hit_poset *p, const lf_op *ops, size_t n, hit_chain_mode mode, lf_deadline *dl);
void lf_hit_poset_free(hit_poset *p);

static inline bool hit_pending(const hit_poset *p, uint32_t a) { return p->ret[a] == HIT_PENDING_RET; }
/* a precedes b in real time (a returned strictly before b was called). */
static inline bool hit_before(const hit_poset *p, uint32_t a, uint32_t b) { return p->ret[a] < p->call[b]; }
static inline bool hit_concurrent(const hit_poset *p, uint32_t a, uint32_t b) {
    return a != b && !hit_before(p, a, b) && !hit_before(p, b, a);
}

/* The width of the completed ops of ops[0..n): the most that are pending at one instant, i.e. how many
 * chains the min-chain partition has; once it is known to exceed `enough`, enough + 1. O(n^2): meant for
 * the small parts the pipeline sizes up. */
uint32_t lf_hit_width(const lf_op *ops, size_t n, size_t enough);

#endif
