/* Block states of queues and stacks, for the frontier sweep (internal: engines/wgl/frontier.c).
 *
 * A queue or stack in which several values were inserted one after the other while all their inserting ops
 * were open (at one return of the sweep) could hold them in any order: the sweep would keep one state per
 * order. A *block state* keeps one: a sequence of blocks (multisets), front to back for a queue and bottom
 * to top for a stack, standing for every sequence that orders each block any way. Inserting into the open
 * last block adds to it; removing or peeking a value takes it from the front (queue) or top (stack) block;
 * a peek fixes its value first in that block. The sweep closes the last block at the end of every step
 * (lf_spec_blocks_seal): an op inserted at a later return comes after it. docs/frontier.md ("Block states")
 * explains why this is exact and how a witness is rebuilt from a path. */
#ifndef LINFUZZ_SPEC_BLOCKS_H
#define LINFUZZ_SPEC_BLOCKS_H

#include <stdbool.h>
#include <stdint.h>

#include "linfuzz/spec.h"

/* The block variant of the built-in queue or stack spec for the ops of env, or NULL: another spec, or a
 * history with a pending remove (which of a block's values it took would not be one state). */
const lf_spec *lf_spec_blocks_variant(const lf_spec *spec, const lf_spec_env *env);
bool lf_spec_is_blocks(const lf_spec *spec);

/* Closes the open block of state (in place). */
void lf_spec_blocks_seal(void *ctx, void *state);
/* Whether every sequence that b stands for is one that a stands for (a covers b). Both sealed. */
bool lf_spec_blocks_covers(void *ctx, const void *a, const void *b);
/* An order-independent hash of the values a state holds (equal for a state and any state covering it). */
uint64_t lf_spec_blocks_content(void *ctx, const void *state);
/* Whether the spec is a stack (blocks are taken from the back) or a queue (from the front). */
bool lf_spec_blocks_is_stack(const lf_spec *spec);

#endif
