/* Replaying schedules against the sequential spec (lf_spec), for the hitting-family prover.
 *
 * A schedule matches when replaying its ops in order on a fresh state returns every recorded result. The
 * replay stops at the first mismatch, and consecutive schedules share work: the states after each
 * position of the previous schedule are kept, so a schedule resumes after its longest common prefix with
 * the previous one, and one that repeats the previous schedule's failing prefix is rejected without a step
 * (the spec is deterministic, so the same prefix fails the same way).
 *
 * Pending ops may take effect at any point after their call, or never. The families place a pending op as
 * early as real-time order allows (it is in no chain and no tuple), and from there on the replay treats it
 * as available: before each later completed op it may apply any available pending ops, in any order, or
 * keep them for later, or never apply them. So the replay of one schedule covers every placement of the
 * pending ops after their calls. It carries a set (a "frontier") of configurations per position — a state
 * and the pending ops still available — where a configuration is dropped when another has the same state
 * and a superset of available ops (it can do everything the first can). The frontier is capped;
 * configurations beyond the cap are dropped, which can only cost a proof, never make a wrong one. Without
 * pending ops a frontier is one state. */
#ifndef LINFUZZ_HIT_REPLAY_H
#define LINFUZZ_HIT_REPLAY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "hitting/poset.h"
#include "linfuzz/spec.h"

typedef enum hit_replay_status {
    HIT_REPLAY_MATCH,
    HIT_REPLAY_MISMATCH,
    HIT_REPLAY_ERROR, /* out of memory, in the spec or here: answers can no longer be trusted */
} hit_replay_status;

typedef struct hit_replay {
    const lf_spec_inst *spec;
    const lf_op *ops; /* the caller's ops; schedules hold local indices, mapped through p->op_of */
    const hit_poset *p;
    size_t n, ssz, cap;     /* ops, bytes per state slot (the state size rounded up to 8), frontier cap */
    size_t words;           /* 64-bit words of one availability mask; 0 when there is no pending op */
    uint32_t *pending_no;   /* per local op: its number among the pending ops, or UINT32_MAX */
    uint32_t *pending_op;   /* per pending number: the local op */
    /* Frontier i (the configurations after i ops) occupies slots [i*cap, (i+1)*cap). */
    unsigned char *states;
    uint64_t *hashes;       /* per slot: hash of the state (frontiers of more than one configuration) */
    uint64_t *avail;        /* per slot: `words` words, the pending ops still available */
    uint32_t *node;         /* per slot: the last op that took effect on the way there (witness nodes) */
    uint32_t *count;        /* per frontier: slots in use */
    size_t *node_end;       /* per frontier: witness nodes in use once it was computed */
    /* Closure workspace: the configurations reachable by applying available pending ops. */
    size_t tcap;
    unsigned char *t_states;
    uint64_t *t_hashes, *t_avail;
    uint32_t *t_node;
    /* Witness nodes (op that took effect, parent node), appended as configurations are made. */
    uint32_t *node_op, *node_parent;
    size_t nodes, node_cap;
    unsigned char *scratch; /* one state */
    uint32_t *prev;         /* the previous schedule */
    size_t valid;           /* frontiers 0..valid are those of prev[0..valid) */
    size_t fail_pos;        /* prev failed at this position; SIZE_MAX when it matched or none yet */
    uint64_t steps;         /* spec steps taken */
    uint64_t reused;        /* positions skipped thanks to the previous schedule */
    uint64_t dropped;       /* configurations dropped by the caps */
} hit_replay;

/* frontier_cap is used only when p has pending ops (otherwise one state per position suffices). */
bool lf_hit_replay_init(hit_replay *r, const lf_spec_inst *spec, const lf_op *ops, const hit_poset *p,
                     size_t frontier_cap);
void lf_hit_replay_free(hit_replay *r);

/* Replays sch[0..n) (local op indices). */
hit_replay_status lf_hit_replay_run(hit_replay *r, const uint32_t *sch);

/* After a MATCH: writes the witness to out (caller op indices, in the order they took effect; pending ops
 * that never took effect are omitted) and returns its length. */
size_t lf_hit_replay_witness(const hit_replay *r, uint32_t *out);

#endif
