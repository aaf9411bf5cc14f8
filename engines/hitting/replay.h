/* Replaying schedules against the sequential spec (lf_spec), for the hitting-family prover.
 *
 * A schedule matches when replaying its ops in order on a fresh state returns every recorded result. The
 * replay stops at the first mismatch, and consecutive schedules share work: the states after each
 * position of the previous schedule are kept, so a schedule resumes after its longest common prefix with
 * the previous one, and one that repeats the previous schedule's failing prefix is rejected without a step
 * (the spec is deterministic, so the same prefix fails the same way).
 *
 * Pending ops may take effect at their place in the schedule or never: the replay carries a small set (a
 * "frontier") of states per position — after a pending op, the states with and without its effect,
 * merged when equal. A completed op keeps the states where its recorded result is legal. The frontier is
 * capped; states beyond the cap are dropped, which can only cost a proof, never make a wrong one. */
#ifndef LINFUZZ_HIT_REPLAY_H
#define LINFUZZ_HIT_REPLAY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "hitting/poset.h"
#include "spec/spec.h"

typedef enum hit_replay_status {
    HIT_REPLAY_MATCH,
    HIT_REPLAY_MISMATCH,
    HIT_REPLAY_ERROR, /* the spec ran out of memory: its answers can no longer be trusted */
} hit_replay_status;

typedef struct hit_replay {
    const lf_spec_inst *spec;
    const lf_op *ops; /* the caller's ops; schedules hold local indices, mapped through p->op_of */
    const hit_poset *p;
    size_t n, ssz, cap;     /* ops, bytes per state slot (the state size rounded up to 8), frontier cap */
    unsigned char *states;  /* frontier i (states after i ops) occupies slots [i*cap, (i+1)*cap) */
    uint64_t *hashes;       /* per slot, for merging equal states (frontiers of more than one state) */
    uint32_t *parent;       /* per slot: (slot index in the previous frontier << 1) | (pending op applied) */
    uint32_t *count;        /* per frontier: how many slots are in use */
    unsigned char *scratch; /* one state */
    uint32_t *prev;         /* the previous schedule */
    size_t valid;           /* frontiers 0..valid are those of prev[0..valid) */
    size_t fail_pos;        /* prev failed at this position; SIZE_MAX when it matched or none yet */
    uint64_t steps;         /* spec steps taken */
    uint64_t reused;        /* positions skipped thanks to the previous schedule */
    uint64_t dropped;       /* states dropped by the frontier cap */
} hit_replay;

/* frontier_cap is used only when p has pending ops (otherwise one state per position suffices). */
bool hit_replay_init(hit_replay *r, const lf_spec_inst *spec, const lf_op *ops, const hit_poset *p,
                     size_t frontier_cap);
void hit_replay_free(hit_replay *r);

/* Replays sch[0..n) (local op indices). */
hit_replay_status hit_replay_run(hit_replay *r, const uint32_t *sch);

/* After a MATCH: writes the witness to out (caller op indices, in order; pending ops that the matching
 * path left without effect are omitted) and returns its length. */
size_t hit_replay_witness(const hit_replay *r, uint32_t *out);

#endif
