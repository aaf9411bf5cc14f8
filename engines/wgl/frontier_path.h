/* Paths of the frontier sweep (internal to engines/wgl/): every configuration the sweep keeps remembers the
 * linearization that reached it, as a node (op, parent) in an append-only arena, so the prefixes shared by
 * many configurations are stored once. The arena is compacted between two steps of the sweep: only nodes
 * reachable from the configurations still alive are kept (parents always precede their children, so one
 * forward pass renumbers them). A path is read back in order when the sweep needs a witness or a prefix. */
#ifndef LINFUZZ_FRONTIER_PATH_H
#define LINFUZZ_FRONTIER_PATH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define LF_FPATH_ROOT 0u /* the empty path */

typedef struct lf_fpath_node {
    uint32_t op, parent;
} lf_fpath_node;

typedef struct lf_fpaths {
    lf_fpath_node *nodes; /* nodes[0] is the root */
    size_t n, cap;
    size_t bytes;
    size_t *limit;       /* bytes still available, shared with the sweep's sets */
    uint32_t *fwd;       /* scratch of the compaction */
    size_t fwd_cap;
} lf_fpaths;

bool lf_fpaths_init(lf_fpaths *p, size_t *limit);
void lf_fpaths_free(lf_fpaths *p);
/* The path parent + op; UINT32_MAX when out of memory. */
uint32_t lf_fpaths_add(lf_fpaths *p, uint32_t parent, uint32_t op);
/* Length of a path. */
size_t lf_fpaths_len(const lf_fpaths *p, uint32_t path);
/* Writes the ops of path, first to last, into out[0..lf_fpaths_len). */
void lf_fpaths_read(const lf_fpaths *p, uint32_t path, uint32_t *out);

/* Compaction: mark every live path with lf_fpaths_mark (after lf_fpaths_gc_begin), then lf_fpaths_gc_end
 * renumbers, and lf_fpaths_moved gives each live path's new index. False when the scratch cannot be had
 * (then nothing changes and lf_fpaths_moved is the identity). */
bool lf_fpaths_gc_begin(lf_fpaths *p);
void lf_fpaths_mark(lf_fpaths *p, uint32_t path);
void lf_fpaths_gc_end(lf_fpaths *p);
static inline uint32_t lf_fpaths_moved(const lf_fpaths *p, uint32_t path) { return p->fwd ? p->fwd[path] : path; }
/* Releases the compaction scratch once the live paths are renumbered. */
void lf_fpaths_gc_done(lf_fpaths *p);

#endif
