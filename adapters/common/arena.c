/* Node arena: chunked bump allocation with a lock-free chunk table (see arena.h for why nothing is reused). */
#include "common/arena.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void lf_arena_init(lf_arena *a, size_t node_size) {
    a->node_size = (node_size + 15) & ~(size_t)15;
    atomic_init(&a->next, 0);
    for (size_t i = 0; i < LF_ARENA_MAX_CHUNKS; i++) atomic_init(&a->chunks[i], NULL);
}

/* The chunk with index c, allocating it if no thread has yet. Two threads may race to allocate: the loser
 * frees its copy and uses the winner's, so every index maps to exactly one chunk. */
static char *chunk_at(lf_arena *a, size_t c) {
    char *chunk = atomic_load_explicit(&a->chunks[c], memory_order_acquire);
    if (chunk) return chunk;
    size_t bytes = a->node_size * LF_ARENA_CHUNK_NODES;
    char *fresh = aligned_alloc(64, bytes);
    if (!fresh) {
        fprintf(stderr, "linfuzz: node arena: out of memory\n");
        abort();
    }
    memset(fresh, 0, bytes);
    if (atomic_compare_exchange_strong_explicit(&a->chunks[c], &chunk, fresh, memory_order_acq_rel,
                                                memory_order_acquire))
        return fresh;
    free(fresh);
    return chunk;
}

void *lf_arena_alloc(lf_arena *a) {
    size_t i = atomic_fetch_add_explicit(&a->next, 1, memory_order_relaxed);
    size_t c = i / LF_ARENA_CHUNK_NODES;
    if (c >= LF_ARENA_MAX_CHUNKS) {
        fprintf(stderr, "linfuzz: node arena: more than %d nodes in one run\n",
                LF_ARENA_MAX_CHUNKS * LF_ARENA_CHUNK_NODES);
        abort();
    }
    return chunk_at(a, c) + (i % LF_ARENA_CHUNK_NODES) * a->node_size;
}

size_t lf_arena_count(const lf_arena *a) {
    size_t n = atomic_load_explicit(&a->next, memory_order_relaxed);
    size_t cap = (size_t)LF_ARENA_MAX_CHUNKS * LF_ARENA_CHUNK_NODES;
    return n < cap ? n : cap;
}

void *lf_arena_node(const lf_arena *a, size_t i) {
    char *chunk = atomic_load_explicit(&a->chunks[i / LF_ARENA_CHUNK_NODES], memory_order_acquire);
    return chunk + (i % LF_ARENA_CHUNK_NODES) * a->node_size;
}

void lf_arena_destroy(lf_arena *a) {
    /* Every index handed out had its chunk allocated by the thread that got it, so the used chunks are
     * exactly 0 .. ceil(count / chunk size) - 1. */
    size_t used = (lf_arena_count(a) + LF_ARENA_CHUNK_NODES - 1) / LF_ARENA_CHUNK_NODES;
    for (size_t i = 0; i < used; i++) {
        free(atomic_load_explicit(&a->chunks[i], memory_order_relaxed));
        atomic_store_explicit(&a->chunks[i], NULL, memory_order_relaxed);
    }
    atomic_store_explicit(&a->next, 0, memory_order_relaxed);
}
