/* An adapter's type as the runner sees it (built-in or custom): the methods a workload may call, the
 * history of a run, and for custom types the arguments of calls (from the adapter's argument ranges) and
 * the drain that observes the object after the threads stop. The public half is in linfuzz/adapter.h. */
#ifndef LINFUZZ_ADAPTER_TYPE_H
#define LINFUZZ_ADAPTER_TYPE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "linfuzz/adapter.h"
#include "runtime/workload.h"

_Static_assert(LF_CUSTOM_MAX_METHODS <= LF_M_COUNT, "method lists are sized LF_M_COUNT");

/* The methods a implements, ascending (lf_method values for built-in types, declaration indices for custom
 * ones): what fuzz cases and workloads choose from. Returns their number. */
unsigned lf_adapter_methods(const lf_adapter *a, lf_method out[LF_M_COUNT]);
/* "push", or the custom method's name; "?" when m is no method of a's type. */
const char *lf_adapter_method_name(const lf_adapter *a, unsigned m);
/* Prepares h (reused across runs: its buffer is kept) for a run of a: a's type, no init, no ops. */
void lf_adapter_history_reset(lf_history *h, const lf_adapter *a);

/* Custom types: the arguments of a call of method m. From a fuzz case's selector byte: one argument takes
 * lo + sel % span, two take the low and the high nibble, three or four a hash of the byte each (every selector
 * is one combination); from a random generator: uniform in the range.
 * Without ranges every argument is in 0..keys-1. Unused argument slots are 0. */
void lf_custom_args_select(const lf_adapter *a, unsigned m, uint8_t sel, unsigned keys, int64_t args[LF_CUSTOM_MAX_ARGS]);
void lf_custom_args_random(const lf_adapter *a, unsigned m, uint64_t *rng, unsigned keys, int64_t args[LF_CUSTOM_MAX_ARGS]);
/* Custom types: the drain, one call of every observer method (LF_MF_OBSERVER) a implements per value of its
 * first argument (at most keys values of its range; the others at their low end). Returns the number
 * of calls written to out (at most cap). */
size_t lf_custom_drain(const lf_adapter *a, unsigned keys, lf_planned_op *out, size_t cap);

/* The type half of lf_adapter_check (linfuzz/adapter.h, which calls it): a custom type needs a valid
 * declaration and, when a method may block, a would_block hook; argument ranges must have lo <= hi. False
 * with a message. */
bool lf_adapter_check_type(const lf_adapter *a, char *err, size_t errlen);
/* The methods of a that may wait for another thread (LF_METHOD_BIT mask): its may_block, and for a custom type
 * the methods its declaration flags LF_MF_BLOCKS. What STUCK reports call declared blocking. */
uint32_t lf_adapter_blocking(const lf_adapter *a);
/* The methods a implements as a mask: a->methods, or every declared method of a custom type when it is 0. */
uint32_t lf_adapter_method_mask(const lf_adapter *a);

#endif
