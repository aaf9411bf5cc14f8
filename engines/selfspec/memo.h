/* The memo of the self-spec (internal to engines/selfspec/): the serial prefixes run on the implementation,
 * as a trie of nodes keyed by (state, method, arguments), each node holding the result the op gave and the
 * fingerprint of the state after it. A node is a state of the self-spec; with fingerprints, a node whose
 * fingerprint was seen before is merged into the first node with it (its canonical node), so the trie
 * becomes a graph of abstract states.
 *
 * There is one live instance of the implementation, positioned at some node. To run an op from node X, the
 * live instance is brought to X: continued if it sits on X's path, else reset and the path replayed. Every
 * replayed op must give its stored result (and fingerprint) again; a difference on a method not declared
 * LF_MF_NONDET is serial nondeterminism, which stops the check (ss_memo.failure). So every prefix is run once
 * as new (lf_ss_step on an unknown edge), and again only to reach a state. */
#ifndef LINFUZZ_SS_MEMO_H
#define LINFUZZ_SS_MEMO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "linfuzz/history.h"
#include "linfuzz/selfspec.h"

#define SS_NONE UINT32_MAX
#define SS_BLOCKED 0xFE /* res_kind of a node whose op blocks in its parent's state (not a state itself) */
#define SS_ROOT 0

typedef struct ss_node {
    int64_t arg[LF_CUSTOM_MAX_ARGS];
    int64_t res;
    uint64_t fp;      /* fingerprint of the state after the op (when fingerprints are used) */
    uint32_t parent;  /* the (canonical) node the op was run from; SS_NONE for the root */
    uint32_t canon;   /* the node standing for the state after the op: itself, or an earlier one of equal fp */
    uint32_t sibling; /* the next node of the same edge (another result of a nondeterministic method) */
    uint32_t depth;   /* ops from the root */
    uint32_t thread;  /* the recorded thread of the op that made it (a thread-affine oracle runs it there) */
    uint8_t method, arg_nil, res_kind;
    uint8_t tries;    /* on an edge's first node: serial runs of the edge so far */
} ss_node;

typedef enum ss_failure {
    SS_FINE,
    SS_NONDETERMINISM, /* a replay gave another result or fingerprint than the stored one */
    SS_ORACLE_ERROR,   /* the oracle failed (reset, or LF_ORACLE_ERROR) */
    SS_TOO_BIG,        /* more nodes than options.max_nodes */
    SS_NOMEM,
    SS_BAD_OBSERVER,   /* an LF_MF_OBSERVER method changed the fingerprint */
    SS_BAD_BLOCK,      /* the oracle said BLOCKED for a method not declared LF_MF_BLOCKS */
} ss_failure;

typedef struct ss_memo {
    const lf_oracle *oracle;
    lf_selfspec_options opts;
    lf_selfspec_stats *stats;
    bool use_fp;
    /* the type: method arities and flags by method index, and a view for describing ops */
    lf_history type;
    uint8_t nargs[64], flags[64];
    bool bound;
    ss_node *nodes;
    size_t n_nodes, cap_nodes;
    uint32_t *edge_node; /* open addressing: first node of the edge, SS_NONE when free */
    uint64_t *edge_hash;
    size_t edge_cap, edge_count;
    uint64_t *fp_key;    /* open addressing: fingerprint -> canonical node */
    uint32_t *fp_node;
    size_t fp_cap, fp_count;
    uint32_t live;       /* the node the live instance stands at; SS_NONE: unknown (reset needed) */
    uint32_t *path;
    size_t path_cap;
    /* per check */
    ss_failure failure;
    char why[480];
    uint32_t nd_node;    /* SS_NONDETERMINISM: the node whose op answered differently (SS_ROOT: the fresh state) */
    bool uncertain;      /* a result of a nondeterministic method was rejected after nondet_tries runs */
    bool incomplete;     /* a pending op of a nondeterministic method took one of its possible outcomes only */
    char uncertain_why[400];
} ss_memo;

bool lf_ss_memo_init(ss_memo *m, const lf_oracle *oracle, const lf_selfspec_options *opts, lf_selfspec_stats *stats);
void lf_ss_memo_free(ss_memo *m);
/* Forgets every node but the root. */
void lf_ss_memo_clear(ss_memo *m);
/* Prepares a check of h: binds the memo to h's type (clearing it when the type changes, when the previous
 * check failed, or when it grew beyond half its node budget) and resets the per-check flags. False when
 * out of memory. */
bool lf_ss_memo_begin(ss_memo *m, const lf_history *h);

/* Runs op (its method and arguments; its recorded result when it has one) from state x. Returns whether the
 * result can be the recorded one there (a pending op: whether it can take effect there), with *next the
 * state after it. False also when the memo failed (m->failure) or the op blocks. */
bool lf_ss_step(ss_memo *m, uint32_t x, const lf_op *op, uint32_t *next);

/* Runs ops[order[0..n)] serially from a fresh instance through the memo (stopping at an op that blocks), then
 * replays that path again from a fresh instance `extra` times, comparing results and fingerprints. False
 * when the memo failed (nondeterminism or otherwise). */
bool lf_ss_probe(ss_memo *m, const lf_op *ops, const uint32_t *order, size_t n, unsigned extra);

/* Whether the memo failed during this check. */
static inline bool ss_failed(const ss_memo *m) { return m->failure != SS_FINE; }

/* The serial evidence of SS_NONDETERMINISM: the path from the root to m->nd_node as ops (thread 0, stamps
 * 2i+1, 2i+2, the stored results) into out (initialised here with m's type). */
bool lf_ss_memo_path_history(const ss_memo *m, uint32_t node, lf_history *out);

/* "transfer 0 5 -> ok" for a node's op. */
int lf_ss_describe_node(const ss_memo *m, uint32_t node, char *buf, size_t len);

#endif
