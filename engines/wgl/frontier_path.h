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

#define FR_PATH_ROOT 0u /* the empty path */

typedef struct fr_path_node {
    uint32_t op, parent;
} fr_path_node;

typedef struct fr_paths {
    fr_path_node *nodes; /* nodes[0] is the root */
    size_t n, cap;
    size_t bytes;
    size_t *limit;       /* bytes still available, shared with the sweep's sets */
    uint32_t *fwd;       /* scratch of the compaction */
    size_t fwd_cap;
} fr_paths;

bool fr_paths_init(fr_paths *p, size_t *limit);
void fr_paths_free(fr_paths *p);
/* The path parent + op; UINT32_MAX when out of memory. */
uint32_t fr_paths_add(fr_paths *p, uint32_t parent, uint32_t op);
/* Length of a path. */
size_t fr_paths_len(const fr_paths *p, uint32_t path);
/* Writes the ops of path, first to last, into out[0..fr_paths_len). */
void fr_paths_read(const fr_paths *p, uint32_t path, uint32_t *out);

/* Compaction: mark every live path with fr_paths_mark (after fr_paths_gc_begin), then fr_paths_gc_end
 * renumbers, and fr_paths_moved gives each live path's new index. False when the scratch cannot be had
 * (then nothing changes and fr_paths_moved is the identity). */
bool fr_paths_gc_begin(fr_paths *p);
void fr_paths_mark(fr_paths *p, uint32_t path);
void fr_paths_gc_end(fr_paths *p);
static inline uint32_t fr_paths_moved(const fr_paths *p, uint32_t path) { return p->fwd ? p->fwd[path] : path; }
/* Releases the compaction scratch once the live paths are renumbered. */
void fr_paths_gc_done(fr_paths *p);

#endif
