/* The built-in specs, one file each (internal to engines/spec/; users reach them via lf_spec_builtin). */
#ifndef LINFUZZ_SPEC_BUILTIN_H
#define LINFUZZ_SPEC_BUILTIN_H

#include "linfuzz/spec.h"
#include "spec/spec_util.h"

extern const lf_spec lf_spec_register;     /* register and cas-register */
extern const lf_spec lf_spec_counter;
extern const lf_spec lf_spec_set;
extern const lf_spec lf_spec_kv;
extern const lf_spec lf_spec_stack;
extern const lf_spec lf_spec_queue;
extern const lf_spec lf_spec_deque;
extern const lf_spec lf_spec_pqueue;

/* Whether op's recorded result equals the value `id` of table t (LF_K_INT or LF_K_NIL results). */
bool lf_spec_result_is_value(const lf_op *op, const lf_value_table *t, uint32_t id);

#endif
