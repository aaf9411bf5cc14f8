/* Whether a prefix of a history always ends where it began (internal to engines/minimize/): the minimiser's
 * generic counterpart of the built-in types' forced states. At a quiescent point of a history (no op in flight),
 * the ops before it come first in every linearisation; if every linearisation of those ops, from the initial
 * state, ends in the initial state again, the history is a violation whenever the ops after the point alone
 * are (they must then be linearizable from the initial state). This holds for any spec, the self-spec included,
 * so custom types get the prefix drop too. */
#ifndef LINFUZZ_INITIAL_PREFIX_H
#define LINFUZZ_INITIAL_PREFIX_H

#include <stdint.h>

#include "linfuzz/spec.h"

#define LF_PREFIX_MAX_OPS 64 /* prefixes are explored as sets of ops in a 64-bit mask */

/* env->ops[0..env->n) are the completed ops before the point. Explores every order of them that respects real
 * time and the spec, merging equal (set, state) configurations, within max_steps spec steps. Returns 1 when
 * every complete order ends in a state equal to the initial one (also when no order is complete: then the
 * prefix is a violation by itself), 0 when some order ends elsewhere, -1 when it cannot tell (more than
 * LF_PREFIX_MAX_OPS ops, the budget, memory, or the spec's context failed). */
int lf_prefix_returns_to_initial(const lf_spec *spec, const lf_spec_env *env, uint64_t max_steps);

#endif
