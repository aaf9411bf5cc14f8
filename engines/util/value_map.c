/* Open-addressing hash map from values to dense ids (see value_map.h). */
#include "util/value_map.h"

#include "util/hash.h"
#include "util/big_alloc.h"

#include <stdlib.h>
#include <string.h>

static bool alloc_table(lf_value_map *m, size_t cap) {
    m->keys = lf_big_malloc(cap * sizeof *m->keys);
    m->ids = lf_big_malloc(cap * sizeof *m->ids);
    if (!m->keys || !m->ids) {
        free(m->keys);
        free(m->ids);
        m->keys = NULL;
        m->ids = NULL;
        return false;
    }
    memset(m->ids, 0xff, cap * sizeof *m->ids);
    m->cap = cap;
    return true;
}

bool lf_value_map_init(lf_value_map *m, size_t expected) {
    memset(m, 0, sizeof *m);
    m->nil_id = UINT32_MAX;
    m->expected = expected;
    return true;
}

bool lf_value_map_add_dense_range(lf_value_map *m, int64_t lo, int64_t hi) {
    uint64_t n = (uint64_t)hi - (uint64_t)lo + 1;
    if (hi < lo || n == 0 || n > (1ull << 32)) return false;
    uint32_t *d = lf_big_malloc(n * sizeof *d);
    if (!d) return false;
    memset(d, 0xff, n * sizeof *d);
    free(m->dense);
    m->dense = d;
    m->dense_lo = lo;
    m->dense_n = n;
    return true;
}

void lf_value_map_free(lf_value_map *m) {
    free(m->dense);
    free(m->keys);
    free(m->ids);
    memset(m, 0, sizeof *m);
}

static bool grow(lf_value_map *m) {
    lf_value_map old = *m;
    if (!alloc_table(m, old.cap * 2)) {
        *m = old;
        return false;
    }
    for (size_t i = 0; i < old.cap; i++) {
        if (old.ids[i] == UINT32_MAX) continue;
        size_t s = lf_mix64((uint64_t)old.keys[i]) & (m->cap - 1);
        while (m->ids[s] != UINT32_MAX) s = (s + 1) & (m->cap - 1);
        m->keys[s] = old.keys[i];
        m->ids[s] = old.ids[i];
    }
    free(old.keys);
    free(old.ids);
    return true;
}

uint32_t lf_value_map_id(lf_value_map *m, int64_t v, bool is_nil) {
    if (is_nil) {
        if (m->nil_id == UINT32_MAX) m->nil_id = m->count++;
        return m->nil_id;
    }
    if (m->dense) {
        uint64_t off = (uint64_t)v - (uint64_t)m->dense_lo;
        if (off < m->dense_n) {
            if (m->dense[off] == UINT32_MAX) m->dense[off] = m->count++;
            return m->dense[off];
        }
    }
    if (!m->cap) { /* allocated on first use: dense histories never need it */
        size_t cap = 64;
        while (cap < m->expected * 2) cap *= 2;
        if (!alloc_table(m, cap)) return UINT32_MAX;
    }
    size_t s = lf_mix64((uint64_t)v) & (m->cap - 1);
    while (m->ids[s] != UINT32_MAX) {
        if (m->keys[s] == v) return m->ids[s];
        s = (s + 1) & (m->cap - 1);
    }
    m->keys[s] = v;
    m->ids[s] = m->count++;
    if ((size_t)m->count * 2 > m->cap) {
        uint32_t id = m->count - 1;
        if (!grow(m)) return UINT32_MAX;
        return id;
    }
    return m->ids[s];
}
