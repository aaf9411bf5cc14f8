/* Hash-consed persistent sequences of value ids, for the states of stack, queue, deque and pqueue.
 *
 * A sequence is a uint32 handle to a node (parent = the sequence without its last element, last value).
 * Equal sequences always get the same handle, so a state is 4 bytes that are copied, hashed and compared
 * as an integer (Horn's "version tree", generalised). Adding at the back and removing from the back are
 * O(1); removing from the front (tail), adding at the front (cons) and inserting in sorted position are
 * memoised per node, so each distinct transition is computed once and costs O(1) amortised. */
#ifndef LINFUZZ_SEQSTORE_H
#define LINFUZZ_SEQSTORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "spec/spec_util.h"

#define LF_SEQ_EMPTY 0u
#define LF_SEQ_NONE UINT32_MAX /* out of memory */

typedef struct lf_seq_node {
    uint32_t parent; /* the sequence without the last element */
    uint32_t last;   /* value id of the last element */
    uint32_t first;  /* value id of the first element */
    uint32_t len;
    uint32_t tail;   /* memo: the sequence without its first element, or LF_SEQ_NONE */
} lf_seq_node;

typedef struct lf_seqstore {
    lf_seq_node *nodes;
    uint32_t n, cap;
    lf_u64map child; /* (parent, value) -> node */
    lf_u64map cons;  /* (node, value) -> value . node */
    lf_u64map ins;   /* (node, value) -> node with value inserted in sorted position */
    uint32_t *chain; /* scratch for the iterative walks */
    size_t chain_cap;
    bool failed;     /* ran out of memory: answers may be wrong from now on */
} lf_seqstore;

bool lf_seqstore_init(lf_seqstore *s);
void lf_seqstore_free(lf_seqstore *s);
size_t lf_seqstore_bytes(const lf_seqstore *s);

/* The sequence seq + [v]. */
uint32_t lf_seq_push_back(lf_seqstore *s, uint32_t seq, uint32_t v);
/* [v] + seq. */
uint32_t lf_seq_push_front(lf_seqstore *s, uint32_t seq, uint32_t v);
/* seq without its first element (seq must not be empty). */
uint32_t lf_seq_pop_front(lf_seqstore *s, uint32_t seq);
/* seq (sorted ascending) with v inserted so that it stays sorted. */
uint32_t lf_seq_insert_sorted(lf_seqstore *s, uint32_t seq, uint32_t v);

static inline uint32_t lf_seq_pop_back(const lf_seqstore *s, uint32_t seq) { return s->nodes[seq].parent; }
static inline uint32_t lf_seq_last(const lf_seqstore *s, uint32_t seq) { return s->nodes[seq].last; }
static inline uint32_t lf_seq_first(const lf_seqstore *s, uint32_t seq) { return s->nodes[seq].first; }
static inline uint32_t lf_seq_len(const lf_seqstore *s, uint32_t seq) { return s->nodes[seq].len; }

/* Writes "[a b c]" (front to back) with value names from t; long sequences are elided in the middle. */
int lf_seq_describe(const lf_seqstore *s, uint32_t seq, const lf_value_table *t, char *buf, size_t len);

#endif
