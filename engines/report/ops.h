/* Op labels, tags, call order and thread lists shared by the files of engines/report (private). */
#ifndef LINFUZZ_REPORT_OPS_H
#define LINFUZZ_REPORT_OPS_H

#include <stddef.h>
#include <stdint.h>

#include "linfuzz/history.h"

/* Op indices of h sorted by call stamp (then index), malloc'ed (NULL when out of memory): tags follow it. */
size_t *lf_rep_call_order(const lf_history *h);
/* Tag of the op with call rank k of n: A..Z for up to 26 ops, else 1, 2, ... */
void lf_rep_tag(size_t k, size_t n, char out[24]);
/* "push 7", "pop -> 7", "pop -> ?" (pending), with the method's name and arity in h's type (custom types
 * included). */
void lf_rep_op_label(char *buf, size_t len, const lf_history *h, const lf_op *op);
/* Distinct thread ids of h, ascending, malloc'ed (NULL when out of memory); their number in *n_out. */
uint32_t *lf_rep_threads(const lf_history *h, size_t *n_out);

#endif
