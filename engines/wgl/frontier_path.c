/* The path arena of the frontier sweep (see frontier_path.h). */
#include "wgl/frontier_path.h"

#include <stdlib.h>
#include <string.h>

#define MARK UINT32_MAX

bool fr_paths_init(fr_paths *p, size_t *limit) {
    memset(p, 0, sizeof *p);
    p->limit = limit;
    p->cap = 1024;
    if (*limit < p->cap * sizeof *p->nodes) return false;
    p->nodes = malloc(p->cap * sizeof *p->nodes);
    if (!p->nodes) return false;
    p->bytes = p->cap * sizeof *p->nodes;
    *limit -= p->bytes;
    p->nodes[0] = (fr_path_node){UINT32_MAX, 0};
    p->n = 1;
    return true;
}

void fr_paths_free(fr_paths *p) {
    free(p->nodes);
    free(p->fwd);
    *p->limit += p->bytes;
    size_t *limit = p->limit;
    memset(p, 0, sizeof *p);
    p->limit = limit;
}

uint32_t fr_paths_add(fr_paths *p, uint32_t parent, uint32_t op) {
    if (p->n == p->cap) {
        size_t cap = 2 * p->cap, add = (cap - p->cap) * sizeof *p->nodes;
        /* realloc may copy: the old block lives until the copy is done */
        if (cap >= UINT32_MAX || add + p->bytes > *p->limit) return UINT32_MAX;
        fr_path_node *nn = realloc(p->nodes, cap * sizeof *nn);
        if (!nn) return UINT32_MAX;
        p->nodes = nn;
        p->cap = cap;
        p->bytes += add;
        *p->limit -= add;
    }
    p->nodes[p->n] = (fr_path_node){op, parent};
    return (uint32_t)p->n++;
}

size_t fr_paths_len(const fr_paths *p, uint32_t path) {
    size_t len = 0;
    for (; path != FR_PATH_ROOT; path = p->nodes[path].parent) len++;
    return len;
}

void fr_paths_read(const fr_paths *p, uint32_t path, uint32_t *out) {
    size_t len = fr_paths_len(p, path);
    for (; path != FR_PATH_ROOT; path = p->nodes[path].parent) out[--len] = p->nodes[path].op;
}

bool fr_paths_gc_begin(fr_paths *p) {
    size_t need = p->n * sizeof *p->fwd;
    if (need > *p->limit) return false;
    p->fwd = malloc(need);
    if (!p->fwd) return false;
    p->fwd_cap = p->n;
    *p->limit -= need;
    memset(p->fwd, 0, need); /* 0: dead */
    p->fwd[0] = MARK;
    return true;
}

void fr_paths_mark(fr_paths *p, uint32_t path) {
    if (!p->fwd) return;
    while (p->fwd[path] != MARK) {
        p->fwd[path] = MARK;
        path = p->nodes[path].parent;
    }
}

void fr_paths_gc_end(fr_paths *p) {
    if (!p->fwd) return;
    size_t k = 0;
    for (size_t i = 0; i < p->n; i++) {
        if (p->fwd[i] != MARK) continue;
        fr_path_node nd = p->nodes[i];
        if (i) nd.parent = p->fwd[nd.parent]; /* parents come first: already renumbered */
        p->nodes[k] = nd;
        p->fwd[i] = (uint32_t)k++;
    }
    p->n = k;
}

void fr_paths_gc_done(fr_paths *p) {
    if (!p->fwd) return;
    free(p->fwd);
    *p->limit += p->fwd_cap * sizeof *p->fwd;
    p->fwd = NULL;
    p->fwd_cap = 0;
}
