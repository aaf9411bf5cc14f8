/* Test helper: sequential models of the nine built-in types written from docs/formats.md alone (arrays of
 * (value, nil) pairs, no code shared with engines/spec), exposed as lf_oracle, optionally with a state
 * fingerprint. The self-spec tests check histories against them and compare with the built-in specs. */
#ifndef LINFUZZ_TEST_MODEL_ORACLE_H
#define LINFUZZ_TEST_MODEL_ORACLE_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "linfuzz/selfspec.h"

#define MODEL_CAP 256

typedef struct mval {
    int64_t v;
    bool nil;
} mval;

typedef struct model {
    lf_type type;
    mval scalar;          /* register, cas-register: the value; counter: v is the count */
    mval items[MODEL_CAP]; /* set, stack (bottom..top), queue/deque (front..back), pqueue (any order) */
    mval vals[MODEL_CAP];  /* kv: the value of items[i] */
    size_t n;
    uint64_t applies, resets;
    bool fingerprint;
} model;

static bool mval_eq(mval a, mval b) { return a.nil == b.nil && (a.nil || a.v == b.v); }
/* nil sorts below every integer (the pqueue order of docs/formats.md) */
static bool mval_less(mval a, mval b) { return a.nil != b.nil ? a.nil : !a.nil && a.v < b.v; }

static mval arg_of(const lf_op *op, int i) { return (mval){lf_arg_is_nil(op, i) ? 0 : op->arg[i], lf_arg_is_nil(op, i)}; }

static lf_kind give(mval x, int64_t *value) {
    if (x.nil) return LF_K_NIL;
    *value = x.v;
    return LF_K_INT;
}

static size_t find(const mval *a, size_t n, mval x) {
    for (size_t i = 0; i < n; i++)
        if (mval_eq(a[i], x)) return i;
    return n;
}

static void remove_at(mval *a, size_t *n, size_t i) {
    memmove(&a[i], &a[i + 1], (*n - i - 1) * sizeof *a);
    (*n)--;
}

static bool model_reset(void *self) {
    model *m = self;
    m->scalar = (mval){0, false};
    m->n = 0;
    m->resets++;
    return true;
}

static lf_oracle_status model_apply(void *self, const lf_op *op, lf_kind *kind, int64_t *value) {
    model *m = self;
    m->applies++;
    mval a = arg_of(op, 0);
    *kind = LF_K_NONE;
    switch (m->type) {
    case LF_TYPE_REGISTER:
    case LF_TYPE_CAS_REGISTER:
        if (op->method == LF_M_WRITE) m->scalar = a;
        else if (op->method == LF_M_READ) *kind = give(m->scalar, value);
        else if (mval_eq(m->scalar, a)) m->scalar = arg_of(op, 1), *kind = LF_K_OK;
        else *kind = LF_K_FAIL;
        break;
    case LF_TYPE_COUNTER:
        if (op->method == LF_M_INC) m->scalar.v++;
        else *kind = LF_K_INT, *value = m->scalar.v;
        break;
    case LF_TYPE_SET: {
        size_t i = find(m->items, m->n, a);
        bool present = i < m->n;
        if (op->method == LF_M_ADD && !present && m->n < MODEL_CAP) m->items[m->n++] = a;
        if (op->method == LF_M_REMOVE && present) remove_at(m->items, &m->n, i);
        *kind = (op->method == LF_M_ADD ? !present : present) ? LF_K_TRUE : LF_K_FALSE;
        break;
    }
    case LF_TYPE_KV: {
        size_t i = find(m->items, m->n, a);
        bool present = i < m->n;
        if (op->method == LF_M_PUT) {
            if (!present && m->n < MODEL_CAP) m->items[i = m->n++] = a;
            if (i < m->n) m->vals[i] = arg_of(op, 1);
        } else if (op->method == LF_M_GET) {
            *kind = present ? give(m->vals[i], value) : LF_K_NIL;
        } else {
            if (present) {
                remove_at(m->vals, &(size_t){m->n}, i);
                remove_at(m->items, &m->n, i);
            }
            *kind = present ? LF_K_TRUE : LF_K_FALSE;
        }
        break;
    }
    case LF_TYPE_STACK:
        if (op->method == LF_M_PUSH) {
            if (m->n < MODEL_CAP) m->items[m->n++] = a;
        } else if (m->n == 0) {
            *kind = LF_K_EMPTY;
        } else {
            *kind = give(m->items[m->n - 1], value);
            if (op->method == LF_M_POP) m->n--;
        }
        break;
    case LF_TYPE_QUEUE:
        if (op->method == LF_M_ENQ) {
            if (m->n < MODEL_CAP) m->items[m->n++] = a;
        } else if (m->n == 0) {
            *kind = LF_K_EMPTY;
        } else {
            *kind = give(m->items[0], value);
            if (op->method == LF_M_DEQ) remove_at(m->items, &m->n, 0);
        }
        break;
    case LF_TYPE_PQUEUE:
        if (op->method == LF_M_INSERT) {
            if (m->n < MODEL_CAP) m->items[m->n++] = a;
        } else if (m->n == 0) {
            *kind = LF_K_EMPTY;
        } else {
            size_t best = 0;
            for (size_t i = 1; i < m->n; i++)
                if (mval_less(m->items[i], m->items[best])) best = i;
            *kind = give(m->items[best], value);
            if (op->method == LF_M_POLL) remove_at(m->items, &m->n, best);
        }
        break;
    case LF_TYPE_DEQUE: {
        bool front = op->method == LF_M_PUSH_FRONT || op->method == LF_M_POP_FRONT || op->method == LF_M_PEEK_FRONT;
        if (op->method == LF_M_PUSH_FRONT || op->method == LF_M_PUSH_BACK) {
            if (m->n == MODEL_CAP) break;
            if (front) memmove(&m->items[1], &m->items[0], m->n * sizeof m->items[0]);
            m->items[front ? 0 : m->n] = a;
            m->n++;
        } else if (m->n == 0) {
            *kind = LF_K_EMPTY;
        } else {
            size_t i = front ? 0 : m->n - 1;
            *kind = give(m->items[i], value);
            if (op->method == LF_M_POP_FRONT || op->method == LF_M_POP_BACK) remove_at(m->items, &m->n, i);
        }
        break;
    }
    default: return LF_ORACLE_ERROR;
    }
    return LF_ORACLE_OK;
}

static uint64_t mix_in(uint64_t h, mval x) {
    h ^= (uint64_t)x.v + (x.nil ? 0x9e3779b97f4a7c15ull : 0);
    h *= 0x100000001b3ull;
    return h ^ (h >> 29);
}

/* Order-insensitive for set, kv and pqueue (their states are sets / multisets), in order otherwise. */
static uint64_t model_fingerprint(void *self) {
    model *m = self;
    uint64_t h = 0xcbf29ce484222325ull ^ (uint64_t)m->n;
    h = mix_in(h, m->scalar);
    bool unordered = m->type == LF_TYPE_SET || m->type == LF_TYPE_KV || m->type == LF_TYPE_PQUEUE;
    uint64_t sum = 0;
    for (size_t i = 0; i < m->n; i++) {
        uint64_t e = mix_in(0x1234567ull, m->items[i]);
        if (m->type == LF_TYPE_KV) e = mix_in(e, m->vals[i]);
        if (unordered) {
            e *= 0xff51afd7ed558ccdull;
            sum += e ^ (e >> 31);
        } else {
            h = mix_in(h ^ e, (mval){(int64_t)i, false});
        }
    }
    return h ^ sum;
}

static lf_oracle model_oracle(model *m, lf_type type, bool fingerprint) {
    memset(m, 0, sizeof *m);
    m->type = type;
    m->fingerprint = fingerprint;
    return (lf_oracle){m, model_reset, model_apply, fingerprint ? model_fingerprint : NULL};
}

#endif
