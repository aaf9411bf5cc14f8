/* lf_history_validate under a time budget, for the checking pipeline (engines/check/pipeline.c): the same
 * checks, results and messages, with the deadline charged once per op (docs/budgets.md). */
#ifndef LINFUZZ_HISTORY_VALIDATE_H
#define LINFUZZ_HISTORY_VALIDATE_H

#include <stdbool.h>
#include <stddef.h>

#include "budget/deadline.h"
#include "linfuzz/history.h"

/* As lf_history_validate (SIZE_MAX: well formed; else the index of the first bad op, explained in err), with
 * dl (NULL: none) charged per op: when it passes, returns SIZE_MAX with *late set and err saying so. */
size_t lf_history_validate_within(const lf_history *h, lf_deadline *dl, bool *late, char *err, size_t errlen);

#endif
