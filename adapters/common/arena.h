/* Node arena: lock-free allocation of fixed-size, zeroed nodes that are never reused while the object lives.
 *
 * This is the safe-memory-reclamation scheme of the correct lock-free adapters: a node unlinked during a run
 * stays valid until destroy, so a thread that still holds a stale pointer reads a retired node, never freed or
 * recycled memory. That rules out use-after-free and the ABA problem by construction; the cost is memory
 * proportional to the inserts of one run, which the runner bounds. */
#ifndef LINFUZZ_ARENA_H
#define LINFUZZ_ARENA_H

#include <stdatomic.h>
#include <stddef.h>

#define LF_ARENA_CHUNK_NODES 512
#define LF_ARENA_MAX_CHUNKS 4096 /* 2M nodes: far above any run the runner makes */

typedef struct lf_arena {
    size_t node_size; /* rounded up to 16 bytes, so nodes suit double-width CAS */
    atomic_size_t next;
    _Atomic(char *) chunks[LF_ARENA_MAX_CHUNKS];
} lf_arena;

void lf_arena_init(lf_arena *a, size_t node_size);
/* A zeroed node aligned to 16 bytes. Safe to call concurrently. Aborts with a message when the arena's
 * fixed capacity or memory is exhausted (a run far larger than the runner ever makes). */
void *lf_arena_alloc(lf_arena *a);
/* Nodes handed out so far; lf_arena_node(a, i) for i below it is the i-th one. Not for concurrent use. */
size_t lf_arena_count(const lf_arena *a);
void *lf_arena_node(const lf_arena *a, size_t i);
/* Frees every chunk; the arena can be initialised again. */
void lf_arena_destroy(lf_arena *a);

#endif
