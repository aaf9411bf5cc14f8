/* Turning a path of the frontier sweep into a linearization order (internal to engines/wgl/): the witness
 * of a linearizable history, the prefix of a violation. A path lists the ops in the order the sweep took
 * them, with two kinds of marks: an op killed (an overwrite nothing observed) goes just before the
 * overwrite it preceded; and with block states (queues, stacks: spec/spec_blocks.h) the inserts of one
 * block are put in the order their values were later removed or peeked, which the block state left open.
 * docs/frontier.md explains both. Linear in the path's length (times a block's size when values repeat). */
#ifndef LINFUZZ_FRONTIER_ORDER_H
#define LINFUZZ_FRONTIER_ORDER_H

#include <stddef.h>
#include <stdint.h>

#include "linfuzz/history.h"
#include "wgl/frontier_path.h"

#define LF_FPATH_KILLED ((uint32_t)1 << 31) /* op | this: the op was killed (placed before its overwriter) */
#define LF_FPATH_SEALED ((uint32_t)1 << 30) /* a mark: the end of a step of the sweep (blocks close) */

typedef enum { LF_FORDER_PLAIN, LF_FORDER_QUEUE_BLOCKS, LF_FORDER_STACK_BLOCKS } lf_forder_kind;

/* Writes the order of path into out (room for lf_fpaths_len(path) ops); returns its length, or SIZE_MAX
 * when out of memory. overwrites[op]: the op overwrites (a killed op goes before the last such op before
 * its kill mark). */
size_t lf_frontier_order(const lf_fpaths *paths, uint32_t path, const lf_op *ops, const unsigned char *overwrites,
                         lf_forder_kind kind, uint32_t *out);

#endif
