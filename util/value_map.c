/* Open-addressing hash map from values to dense ids (see value_map.h). */
#include "util/value_map.h"

#include "util/big_alloc.h"
#include "util/hash.h"

#include <stdlib.h>
#include <string.h>

static inline int64_t slot_key(const lf_value_slot *s) { return (int64_t)((uint64_t)s->key_hi << 32 | s->key_lo); }

static bool alloc_table(lf_value_map *m, size_t cap) {
    m->slots = lf_big_malloc(cap * sizeof *m->slots);
    if (!m->slots) return false;
    for (size_t i = 0; i < cap; i++) m->slots[i].id = UINT32_MAX;
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
    free(m->slots);
    memset(m, 0, sizeof *m);
}

static void put(lf_value_map *m, int64_t v, uint32_t id) {
    size_t s = lf_mix64((uint64_t)v) & (m->cap - 1);
    while (m->slots[s].id != UINT32_MAX) s = (s + 1) & (m->cap - 1);
    m->slots[s] = (lf_value_slot){(uint32_t)(uint64_t)v, (uint32_t)((uint64_t)v >> 32), id};
}

static bool grow(lf_value_map *m) {
    lf_value_map old = *m;
    if (!alloc_table(m, old.cap * 2)) {
        *m = old;
        return false;
    }
    for (size_t i = 0; i < old.cap; i++)
        if (old.slots[i].id != UINT32_MAX) put(m, slot_key(&old.slots[i]), old.slots[i].id);
    free(old.slots);
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
    uint32_t lo = (uint32_t)(uint64_t)v, hi = (uint32_t)((uint64_t)v >> 32);
    size_t s = lf_mix64((uint64_t)v) & (m->cap - 1);
    while (m->slots[s].id != UINT32_MAX) {
        if (m->slots[s].key_lo == lo && m->slots[s].key_hi == hi) return m->slots[s].id;
        s = (s + 1) & (m->cap - 1);
    }
    uint32_t id = m->count++;
    m->slots[s] = (lf_value_slot){lo, hi, id};
    if ((size_t)m->count * 2 > m->cap && !grow(m)) return UINT32_MAX;
    return id;
}
