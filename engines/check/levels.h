/* Line-Up's two levels of a violation ([Burckhardt10], internal to engines/): a history that is not
 * linearizable is checked again with real-time order dropped (every op concurrent with every other). If that
 * is a violation too, no serial order of the ops gives the recorded results at all (LF_LEVEL_NO_SERIAL_ORDER:
 * the results themselves are impossible); otherwise some serial order gives them and real time rules every
 * such order out (LF_LEVEL_REAL_TIME), and the report names a pair of ops that such an order puts against
 * real time. The second check runs under its own small budget; when it cannot finish, the violation stays
 * unclassified (LF_LEVEL_NONE). Used for custom types and self-spec checks, where the built-in shapes
 * (VALUE_RETURNED_TWICE, FIFO_ORDER, ...) do not apply. */
#ifndef LINFUZZ_LEVELS_H
#define LINFUZZ_LEVELS_H

#include "linfuzz/check.h"
#include "linfuzz/spec.h"

#define LF_CLASSIFY_MAX_OPS 64        /* longer violations are not classified (fuzzing: only the minimised one) */
#define LF_CLASSIFY_MAX_STEPS 2000000 /* search steps of the relaxed check (and what is left of the check's budget):
                                       * steps, not seconds, so that a loaded machine classifies the same */

/* r holds a violation of env's ops against spec: sets r->level, puts the level's explanation in front of
 * r->reason and adds the ops it names to r->culprits. deadline: the check's own (an absolute lf_now_s() time,
 * 0: none); the classification ends by it. */
void lf_classify_violation(const lf_spec *spec, const lf_spec_env *env, double deadline, lf_result *r);

#endif
