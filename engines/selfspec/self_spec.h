/* The self-spec as an lf_spec (internal to engines/selfspec/): states are nodes of the memo of serial
 * prefixes (selfspec/memo.h), a step runs the op on the implementation unless the memo knows its outcome, so
 * the hitting-family prover, WGL and the classification of violations check against the implementation
 * exactly as against a written specification. env.user is the ss_memo. Methods declared keyed (LF_MF_KEYED;
 * the built-in set and kv methods are) give the partition key, so histories of keyed types are checked key
 * by key ([Horn15]), each part on fresh instances. The spec's observer and describe_op
 * take no context, so they read the memo of the check running on this thread (ss_current). */
#ifndef LINFUZZ_SELF_SPEC_H
#define LINFUZZ_SELF_SPEC_H

#include "linfuzz/spec.h"
#include "selfspec/memo.h"

extern const lf_spec lf_self_spec;

/* Makes m the memo of this thread's check (NULL when done); returns the previous one. */
const ss_memo *lf_ss_set_current(const ss_memo *m);

#endif
