/* Iterative segment trees (see segment_tree.h). */
#include "monitor/segment_tree.h"
#include "util/big_alloc.h"

#include <stdlib.h>
#include <string.h>

#define PAD_VALUE (INT32_MAX / 2)

static inline int32_t min32(int32_t a, int32_t b) { return a < b ? a : b; }

bool lf_mintree_init(lf_mintree *m, size_t n, const int32_t *leaves) {
    memset(m, 0, sizeof *m);
    size_t size = 1;
    int h = 0;
    while (size < (n ? n : 1)) {
        size *= 2;
        h++;
    }
    m->t = lf_big_malloc(2 * size * sizeof *m->t);
    m->a = lf_big_calloc(size, sizeof *m->a);
    if (!m->t || !m->a) {
        lf_mintree_free(m);
        return false;
    }
    m->size = size;
    m->height = h;
    for (size_t i = 0; i < size; i++) m->t[size + i] = i < n ? (leaves ? leaves[i] : 0) : PAD_VALUE;
    lf_mintree_rebuild(m);
    return true;
}

void lf_mintree_rebuild(lf_mintree *m) {
    for (size_t x = m->size - 1; x >= 1; x--) m->t[x] = min32(m->t[2 * x], m->t[2 * x + 1]);
}

void lf_mintree_free(lf_mintree *m) {
    free(m->t);
    free(m->a);
    memset(m, 0, sizeof *m);
}

static inline void apply(lf_mintree *m, size_t x, int32_t v) {
    m->t[x] += v;
    if (x < m->size) m->a[x] += v;
}

static void rebuild_up(lf_mintree *m, size_t x) {
    for (x >>= 1; x >= 1; x >>= 1) m->t[x] = min32(m->t[2 * x], m->t[2 * x + 1]) + m->a[x];
}

void lf_mintree_add(lf_mintree *m, size_t l, size_t r, int32_t v) {
    if (l >= r) return;
    if (r == l + 1) {
        size_t x = l + m->size;
        m->t[x] += v;
        for (x >>= 1; x >= 1; x >>= 1) {
            int32_t nv = min32(m->t[2 * x], m->t[2 * x + 1]) + m->a[x];
            if (nv == m->t[x]) break;
            m->t[x] = nv;
        }
        return;
    }
    size_t l0 = l + m->size, r0 = r - 1 + m->size;
    for (l += m->size, r += m->size; l < r; l >>= 1, r >>= 1) {
        if (l & 1) apply(m, l++, v);
        if (r & 1) apply(m, --r, v);
    }
    rebuild_up(m, l0);
    rebuild_up(m, r0);
}

/* Pushes the adds on the root-to-leaf path of leaf x down one level each, so that after it every node hanging
 * off that path holds an absolute value. */
static void push_path(lf_mintree *m, size_t x) {
    for (int s = m->height; s > 0; s--) {
        size_t i = x >> s;
        if (m->a[i]) {
            apply(m, 2 * i, m->a[i]);
            apply(m, 2 * i + 1, m->a[i]);
            m->a[i] = 0;
        }
    }
}

int32_t lf_mintree_min(lf_mintree *m, size_t l, size_t r) {
    push_path(m, l + m->size);
    push_path(m, r - 1 + m->size);
    int32_t best = PAD_VALUE;
    for (l += m->size, r += m->size; l < r; l >>= 1, r >>= 1) {
        if (l & 1) best = min32(best, m->t[l++]);
        if (r & 1) best = min32(best, m->t[--r]);
    }
    return best;
}

int32_t lf_mintree_argmin(const lf_mintree *m, size_t *pos) {
    size_t x = 1;
    while (x < m->size) x = m->t[2 * x] <= m->t[2 * x + 1] ? 2 * x : 2 * x + 1;
    *pos = x - m->size;
    return m->t[1];
}

/* Leaves of the subtree of x (whose strict ancestors add acc) with absolute value `target`. */
static void take_min_rec(lf_mintree *m, size_t x, int32_t acc, int32_t target, int32_t v, uint32_t *out,
                         size_t *n, size_t limit) {
    if (*n == limit) return;
    if (x >= m->size) {
        m->t[x] += v;
        out[(*n)++] = (uint32_t)(x - m->size);
        return;
    }
    int32_t below = acc + m->a[x];
    if (m->t[2 * x] + below == target) take_min_rec(m, 2 * x, below, target, v, out, n, limit);
    if (m->t[2 * x + 1] + below == target) take_min_rec(m, 2 * x + 1, below, target, v, out, n, limit);
    m->t[x] = min32(m->t[2 * x], m->t[2 * x + 1]) + m->a[x];
}

size_t lf_mintree_take_min(lf_mintree *m, int32_t v, uint32_t *out, size_t limit) {
    size_t n = 0;
    take_min_rec(m, 1, 0, m->t[1], v, out, &n, limit);
    return n;
}

bool lf_maxtree_init(lf_maxtree *m, const uint32_t *values, size_t n) {
    memset(m, 0, sizeof *m);
    size_t size = 1;
    while (size < (n ? n : 1)) size *= 2;
    m->t = lf_big_calloc(2 * size, sizeof *m->t);
    if (!m->t) return false;
    m->size = size;
    if (n) memcpy(m->t + size, values, n * sizeof *values);
    for (size_t x = size - 1; x >= 1; x--) m->t[x] = m->t[2 * x] > m->t[2 * x + 1] ? m->t[2 * x] : m->t[2 * x + 1];
    return true;
}

void lf_maxtree_free(lf_maxtree *m) {
    free(m->t);
    memset(m, 0, sizeof *m);
}

void lf_maxtree_set(lf_maxtree *m, size_t i, uint32_t v) {
    size_t x = i + m->size;
    m->t[x] = v;
    for (x >>= 1; x >= 1; x >>= 1) {
        uint32_t nv = m->t[2 * x] > m->t[2 * x + 1] ? m->t[2 * x] : m->t[2 * x + 1];
        if (m->t[x] == nv) break;
        m->t[x] = nv;
    }
}

static void take_above_rec(lf_maxtree *m, size_t x, size_t lo, size_t hi, size_t l, size_t r, uint32_t v,
                           uint32_t *out, size_t *n) {
    if (m->t[x] <= v || hi <= l || r <= lo) return;
    if (x >= m->size) {
        m->t[x] = 0;
        out[(*n)++] = (uint32_t)(x - m->size);
        return;
    }
    size_t mid = lo + (hi - lo) / 2;
    take_above_rec(m, 2 * x, lo, mid, l, r, v, out, n);
    take_above_rec(m, 2 * x + 1, mid, hi, l, r, v, out, n);
    m->t[x] = m->t[2 * x] > m->t[2 * x + 1] ? m->t[2 * x] : m->t[2 * x + 1];
}

size_t lf_maxtree_take_above(lf_maxtree *m, size_t l, size_t r, uint32_t x, uint32_t *out) {
    size_t n = 0;
    if (l < r) take_above_rec(m, 1, 0, m->size, l, r, x, out, &n);
    return n;
}
