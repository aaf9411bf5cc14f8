/* Segment trees used by the stack and priority-queue monitors:
 *  - lf_mintree: range add, range min, global argmin (coverage counts of critical intervals over partitions);
 *  - lf_maxtree: point set, leftmost index in a range whose value exceeds x (stabbing queries: which live ops,
 *    sorted by invocation, still extend past a partition).
 * Both are iterative, array-only and sized to the next power of two. */
#ifndef LINFUZZ_SEGMENT_TREE_H
#define LINFUZZ_SEGMENT_TREE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct lf_mintree {
    int32_t *t; /* t[x] = min over the subtree, including the adds pending at x itself */
    int32_t *a; /* a[x] = add applied to the whole subtree of internal node x */
    size_t size;
    int height;
} lf_mintree;

/* All n leaves start at 0 (or at leaves[i] when leaves is not NULL); leaves beyond n are padding that
 * never wins a min. */
bool lf_mintree_init(lf_mintree *m, size_t n, const int32_t *leaves);
void lf_mintree_free(lf_mintree *m);
/* The leaves, to be written in place (n of them; then lf_mintree_rebuild before any other call). */
static inline int32_t *lf_mintree_leaves(lf_mintree *m) { return m->t + m->size; }
/* Recomputes every internal node from the leaves (no pending adds may exist: right after init). */
void lf_mintree_rebuild(lf_mintree *m);
void lf_mintree_add(lf_mintree *m, size_t l, size_t r, int32_t v); /* leaves [l, r) += v */
int32_t lf_mintree_min(lf_mintree *m, size_t l, size_t r);         /* min of leaves [l, r), r > l */
/* Global minimum and the leftmost leaf holding it. */
int32_t lf_mintree_argmin(const lf_mintree *m, size_t *pos);
/* Adds v to up to limit leaves whose value equals the global minimum, writing their indices to out
 * (ascending). Returns how many. One walk instead of one pass per leaf. */
size_t lf_mintree_take_min(lf_mintree *m, int32_t v, uint32_t *out, size_t limit);

typedef struct lf_maxtree {
    uint32_t *t;
    size_t size;
} lf_maxtree;

bool lf_maxtree_init(lf_maxtree *m, const uint32_t *values, size_t n);
void lf_maxtree_free(lf_maxtree *m);
void lf_maxtree_set(lf_maxtree *m, size_t i, uint32_t v);
/* Every i in [l, r) with value > x: written to out (ascending) and set to 0. Returns how many. */
size_t lf_maxtree_take_above(lf_maxtree *m, size_t l, size_t r, uint32_t x, uint32_t *out);

#endif
