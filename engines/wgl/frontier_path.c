/* The path arena of the frontier sweep (see frontier_path.h). */
#include "wgl/frontier_path.h"

#include <stdlib.h>
#include <string.h>

#include "util/grow.h"

#define MARK UINT32_MAX

bool lf_fpaths_init(lf_fpaths *p, size_t *limit) {
    memset(p, 0, sizeof *p);
    p->limit = limit;
    p->cap = 1024;
    if (*limit < p->cap * sizeof *p->nodes) return false;
    p->nodes = malloc(p->cap * sizeof *p->nodes);
    if (!p->nodes) return false;
    p->bytes = p->cap * sizeof *p->nodes;
    *limit -= p->bytes;
    p->nodes[0] = (lf_fpath_node){UINT32_MAX, 0};
    p->n = 1;
    return true;
}

void lf_fpaths_free(lf_fpaths *p) {
    free(p->nodes);
    free(p->fwd);
    if (p->limit) *p->limit += p->bytes; /* (an arena never initialised has nothing) */
    size_t *limit = p->limit;
    memset(p, 0, sizeof *p);
    p->limit = limit;
}

uint32_t lf_fpaths_add(lf_fpaths *p, uint32_t parent, uint32_t op) {
    if (p->n == p->cap) {
        size_t cap = lf_grow_capacity(p->cap, p->n + 1, sizeof *p->nodes, 1), add = (cap - p->cap) * sizeof *p->nodes;
        /* realloc may copy: the old block lives until the copy is done */
        if (!cap || cap >= UINT32_MAX || add + p->bytes > *p->limit) return UINT32_MAX;
        lf_fpath_node *nn = realloc(p->nodes, cap * sizeof *nn);
        if (!nn) return UINT32_MAX;
        p->nodes = nn;
        p->cap = cap;
        p->bytes += add;
        *p->limit -= add;
    }
    p->nodes[p->n] = (lf_fpath_node){op, parent};
    return (uint32_t)p->n++;
}

size_t lf_fpaths_len(const lf_fpaths *p, uint32_t path) {
    size_t len = 0;
    for (; path != LF_FPATH_ROOT; path = p->nodes[path].parent) len++;
    return len;
}

void lf_fpaths_read(const lf_fpaths *p, uint32_t path, uint32_t *out) {
    size_t len = lf_fpaths_len(p, path);
    for (; path != LF_FPATH_ROOT; path = p->nodes[path].parent) out[--len] = p->nodes[path].op;
}

bool lf_fpaths_gc_begin(lf_fpaths *p) {
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

void lf_fpaths_mark(lf_fpaths *p, uint32_t path) {
    if (!p->fwd) return;
    while (p->fwd[path] != MARK) {
        p->fwd[path] = MARK;
        path = p->nodes[path].parent;
    }
}

void lf_fpaths_gc_end(lf_fpaths *p) {
    if (!p->fwd) return;
    size_t k = 0;
    for (size_t i = 0; i < p->n; i++) {
        if (p->fwd[i] != MARK) continue;
        lf_fpath_node nd = p->nodes[i];
        if (i) nd.parent = p->fwd[nd.parent]; /* parents come first: already renumbered */
        p->nodes[k] = nd;
        p->fwd[i] = (uint32_t)k++;
    }
    p->n = k;
}

void lf_fpaths_gc_done(lf_fpaths *p) {
    if (!p->fwd) return;
    free(p->fwd);
    *p->limit += p->fwd_cap * sizeof *p->fwd;
    p->fwd = NULL;
    p->fwd_cap = 0;
}
