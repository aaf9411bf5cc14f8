/* Building blocks shared by the built-in specs: the uint64 -> uint32 map and sorted value tables. */
#include "spec/spec_util.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- uint64 -> uint32 map ---- */

void lf_u64map_free(lf_u64map *m) {
    free(m->keys);
    free(m->vals);
    memset(m, 0, sizeof *m);
}

uint32_t lf_u64map_get(const lf_u64map *m, uint64_t key) {
    if (!m->cap) return UINT32_MAX;
    size_t mask = m->cap - 1, i = lf_mix64(key) & mask;
    while (m->vals[i] != UINT32_MAX) {
        if (m->keys[i] == key) return m->vals[i];
        i = (i + 1) & mask;
    }
    return UINT32_MAX;
}

static bool u64map_grow(lf_u64map *m) {
    size_t cap = m->cap ? m->cap * 2 : 64;
    uint64_t *keys = malloc(cap * sizeof *keys);
    uint32_t *vals = malloc(cap * sizeof *vals);
    if (!keys || !vals) {
        free(keys);
        free(vals);
        return false;
    }
    memset(vals, 0xff, cap * sizeof *vals);
    for (size_t i = 0; i < m->cap; i++) {
        if (m->vals[i] == UINT32_MAX) continue;
        size_t j = lf_mix64(m->keys[i]) & (cap - 1);
        while (vals[j] != UINT32_MAX) j = (j + 1) & (cap - 1);
        keys[j] = m->keys[i];
        vals[j] = m->vals[i];
    }
    free(m->keys);
    free(m->vals);
    m->keys = keys;
    m->vals = vals;
    m->cap = cap;
    return true;
}

bool lf_u64map_put(lf_u64map *m, uint64_t key, uint32_t val) {
    if (2 * (m->count + 1) > m->cap && !u64map_grow(m)) return false;
    size_t mask = m->cap - 1, i = lf_mix64(key) & mask;
    while (m->vals[i] != UINT32_MAX) {
        if (m->keys[i] == key) {
            m->vals[i] = val;
            return true;
        }
        i = (i + 1) & mask;
    }
    m->keys[i] = key;
    m->vals[i] = val;
    m->count++;
    return true;
}

size_t lf_u64map_bytes(const lf_u64map *m) { return m->cap * (sizeof *m->keys + sizeof *m->vals); }

/* ---- sorted value tables ---- */

static int cmp_i64(const void *a, const void *b) {
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

bool lf_value_table_build(lf_value_table *t, const lf_op *ops, size_t n, uint32_t methods_mask, unsigned fields) {
    memset(t, 0, sizeof *t);
    t->ints = malloc((LF_BULK_MAX * n + 1) * sizeof *t->ints); /* at most LF_BULK_MAX values per op */
    if (!t->ints) return false;
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        const lf_op *op = &ops[i];
        if (!((methods_mask >> op->method) & 1u)) continue;
        if (lf_method_is_bulk_insert(op->method)) { /* every value it offers (history.h) */
            for (int a = 0; a < op->count && a < LF_BULK_MAX && (fields & LF_VT_ARG0); a++) t->ints[k++] = op->arg[a];
            continue;
        }
        for (int a = 0; a < 2; a++) {
            if (!(fields & (a ? LF_VT_ARG1 : LF_VT_ARG0))) continue;
            if (lf_arg_is_nil(op, a))
                t->has_nil = true;
            else
                t->ints[k++] = op->arg[a];
        }
        if (fields & LF_VT_RES) {
            if (op->res_kind == LF_K_INT)
                t->ints[k++] = op->res;
            else if (op->res_kind == LF_K_NIL)
                t->has_nil = true;
        }
    }
    qsort(t->ints, k, sizeof *t->ints, cmp_i64);
    size_t u = 0;
    for (size_t i = 0; i < k; i++)
        if (u == 0 || t->ints[u - 1] != t->ints[i]) t->ints[u++] = t->ints[i];
    t->n_ints = u;
    return true;
}

void lf_value_table_free(lf_value_table *t) {
    free(t->ints);
    memset(t, 0, sizeof *t);
}

uint32_t lf_value_table_id(const lf_value_table *t, bool is_nil, int64_t v) {
    if (is_nil) return t->has_nil ? 0 : UINT32_MAX;
    size_t lo = 0, hi = t->n_ints;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (t->ints[mid] < v)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo == t->n_ints || t->ints[lo] != v) return UINT32_MAX;
    return (uint32_t)lo + (t->has_nil ? 1u : 0u);
}

int lf_value_table_describe(const lf_value_table *t, uint32_t id, char *buf, size_t len) {
    if (t->has_nil) {
        if (id == 0) return snprintf(buf, len, "nil");
        id--;
    }
    if (id >= t->n_ints) return snprintf(buf, len, "?");
    return snprintf(buf, len, "%" PRId64, t->ints[id]);
}
