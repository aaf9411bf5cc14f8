/* The frontier sweep (internal to engines/wgl/): a complete linearizability decision that walks the
 * history's events in time order and keeps, at each return, every distinct configuration (which of the
 * ops still open are already linearized, spec state) from which the history so far can be linearized.
 * An op is linearized only when its return forces it (just in time), an observer as soon as it is legal,
 * and of identical open ops only the one that returns first. docs/wgl.md ("The frontier sweep") has the
 * algorithm and its soundness argument. Same inputs, budget and outputs as lf_wgl_search. */
#ifndef LINFUZZ_FRONTIER_H
#define LINFUZZ_FRONTIER_H

#include "wgl/wgl_search.h"

/* beam = 0: the exact sweep (linearizable, violation, or unknown when the budget runs out). beam > 0: a
 * prover that keeps at most `beam` configurations per step, those that have linearized the most open ops:
 * it answers linearizable (with a real witness) or unknown, never violation. */
void lf_wgl_frontier(const lf_spec *spec, const lf_spec_env *env, const uint32_t *orig, const wgl_search_opts *opts,
                  size_t beam, wgl_budget *budget, wgl_part_result *out);

#endif
