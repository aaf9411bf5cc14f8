/* Strong d-hitting families ([Ozkan19]): the chain-indexed construction, one
 * schedule per index <chain c, ordered (d-1)-tuple X>, with the fixes of §2.5 — ops are processed in
 * call-time order, only feasible tuples X are enumerated, and an op that must be hit is inserted before
 * the earliest (in the schedule) member of the suffix of hit ops it has to precede.
 *
 * Guarantee (tests/unit/test_hitting_family.c checks it by brute force): the schedule of <c, X> strongly
 * hits <x0, X...> for every op x0 of chain c, so the family of all indices of depth d strongly hits every
 * d-tuple; used cumulatively (d = 1, 2, ...), X may also skip isolated ops and d >= 2 may skip chains made
 * only of isolated ops (§2.8) without losing a tuple.
 *
 * Pending ops are in no chain and (in the prover) in no tuple: the guarantee is about the completed ops,
 * and each pending op outside X is placed as early as real-time order allows, where the replay makes it
 * available to take effect then or later (hitting/replay.h). */
#ifndef LINFUZZ_HIT_FAMILY_H
#define LINFUZZ_HIT_FAMILY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "budget/deadline.h"
#include "hitting/poset.h"

#define HIT_MAX_TUPLE 64 /* longest X (depth - 1) the enumeration accepts */

/* Scratch space for building schedules of one poset. */
typedef struct hit_builder {
    const hit_poset *p;
    uint32_t *tix;   /* per op: 1 + its position in X, 0 when not in X (all zero between builds) */
    uint32_t *hit;   /* the X members inserted so far, by ascending tuple index */
    uint32_t *mark;  /* per op: stamp of the suffix it belongs to */
    uint32_t stamp;
    uint64_t steps;  /* elementary steps (scans and moves), a cost measure for budgets */
    lf_deadline *dl; /* a build looks at it every HIT_BUILD_CHECK_STEPS steps (NULL: none; set after init) */
    bool late;       /* a build stopped on it: its schedule is incomplete */
} hit_builder;

/* A schedule of n ops costs O(n) to O(n^2) steps to build: the deadline is looked at within a build. */
#define HIT_BUILD_CHECK_STEPS 65536

bool lf_hit_builder_init(hit_builder *b, const hit_poset *p);
void lf_hit_builder_free(hit_builder *b);

/* Writes the schedule of index <c, X[0..k)> to sch[0..n) as local op indices (a linear extension of the
 * real-time order). X holds distinct local indices. topo is the processing order (a topological order;
 * NULL: call-time order 0..n-1, the production choice; the tests pass others). */
void lf_hit_build(hit_builder *b, uint32_t c, const uint32_t *X, size_t k, const uint32_t *topo, uint32_t *sch);

/* X is feasible when no later member precedes an earlier one in real time. */
bool lf_hit_tuple_feasible(const hit_poset *p, const uint32_t *X, size_t k);

/* The reductions the prover applies from depth 2 on (families used cumulatively): x_allowed[op] = 1 for
 * the completed ops that are not isolated, chain_allowed[c] = 1 for the chains holding one of them.
 * Returns how many ops are allowed in X. */
size_t lf_hit_reduction_filters(const hit_poset *p, uint8_t *x_allowed, uint8_t *chain_allowed);

/* Called per index; return false to stop the enumeration. */
typedef bool (*hit_index_fn)(void *arg, uint32_t c, const uint32_t *X, size_t k);

/* Enumerates the indices <c, X> with |X| = k, c ascending and X lexicographic over feasible tuples of
 * distinct ops (c = 0 alone when every op is pending, so that there are no chains). x_allowed (per op) and
 * chain_allowed (per chain) restrict them (NULL: no restriction).
 * Returns false when fn stopped the enumeration. k <= HIT_MAX_TUPLE. */
bool lf_hit_enum_indices(const hit_poset *p, size_t k, const uint8_t *x_allowed, const uint8_t *chain_allowed,
                      hit_index_fn fn, void *arg);

#endif
