/* The engine dispatch behind lf_check (checker.c), for the checks that prepare a history first (contracts,
 * engines/contract): runs o->engine on h against o->spec (or h's type's spec), without the contract and
 * self-spec steps of lf_check; classify_levels adds Line-Up's levels to violations of custom types and of an
 * o->spec, as lf_check does. deadline: the check's absolute deadline (lf_deadline_from_timeout; 0: none). */
#ifndef LINFUZZ_CHECK_DISPATCH_H
#define LINFUZZ_CHECK_DISPATCH_H

#include <stdbool.h>

#include "linfuzz/check.h"

void lf_check_dispatch(const lf_history *h, const lf_check_options *o, double deadline, lf_result *r,
                       bool classify_levels);

#endif
