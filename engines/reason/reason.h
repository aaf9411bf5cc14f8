/* Explanations that name ops by index ("op 17 (t2 [3,4] pop -> 1)"), when a check ran on a part or a reduced
 * copy of a history: the indices are rewritten to the history's own. */
#ifndef LINFUZZ_REASON_H
#define LINFUZZ_REASON_H

#include <stddef.h>
#include <stdint.h>

/* Copies in to out (len bytes, NUL-terminated) with every "op N" replaced by "op map[N]" ("op ?" when N is not
 * below n_map). */
void lf_reason_map_ops(const char *in, const uint32_t *map, size_t n_map, char *out, size_t len);

#endif
