/* Mutex references: for every type, its sequential specification behind one pthread mutex.
 *
 * These are linearizable by construction (the linearization point is anywhere inside the critical section),
 * so they are the negative controls that every other adapter of the same type is compared with: any violation
 * reported on them is a bug in the recorder, the runner or a checker, never in the data structure. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "common/fingerprint.h"
#include "common/variants.h"
#include "linfuzz/adapter.h"

typedef struct mutex_object {
    pthread_mutex_t lock;
    lf_type type;
    int64_t scalar;  /* register, cas-register, counter */
    int64_t *keys;   /* set, kv: sorted; stack: bottom..top; queue: [head, n); pqueue: sorted descending */
    int64_t *values; /* kv: the value of keys[i] */
    size_t n, head, cap;
} mutex_object;

static void *create_typed(size_t max_ops, lf_type type) {
    mutex_object *o = calloc(1, sizeof *o);
    if (!o) return NULL;
    o->type = type;
    o->cap = max_ops + 1; /* at most one element per call ever lives in the structure */
    o->keys = calloc(o->cap, sizeof *o->keys);
    o->values = type == LF_TYPE_KV ? calloc(o->cap, sizeof *o->values) : NULL;
    if (!o->keys || (type == LF_TYPE_KV && !o->values) || pthread_mutex_init(&o->lock, NULL) != 0) {
        free(o->keys);
        free(o->values);
        free(o);
        return NULL;
    }
    return o;
}

static void mutex_destroy(void *obj) {
    mutex_object *o = obj;
    pthread_mutex_destroy(&o->lock);
    free(o->keys);
    free(o->values);
    free(o);
}

/* Index of the first key >= k in the ascending keys[0..n). */
static size_t lower_bound(const int64_t *keys, size_t n, int64_t k) {
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (keys[mid] < k)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

static lf_kind bool_kind(bool b) { return b ? LF_K_TRUE : LF_K_FALSE; }

/* The sequential specification of each type; called with the lock held. */
static lf_kind apply(mutex_object *o, lf_method m, const int64_t *args, int64_t *value) {
    switch (o->type) {
    case LF_TYPE_REGISTER:
    case LF_TYPE_CAS_REGISTER:
        if (m == LF_M_WRITE) {
            o->scalar = args[0];
            return LF_K_NONE;
        }
        if (m == LF_M_CAS) {
            if (o->scalar != args[0]) return LF_K_FAIL;
            o->scalar = args[1];
            return LF_K_OK;
        }
        *value = o->scalar;
        return LF_K_INT;
    case LF_TYPE_COUNTER:
        if (m == LF_M_INC) {
            o->scalar++;
            return LF_K_NONE;
        }
        *value = o->scalar;
        return LF_K_INT;
    case LF_TYPE_SET: {
        size_t i = lower_bound(o->keys, o->n, args[0]);
        bool present = i < o->n && o->keys[i] == args[0];
        if (m == LF_M_ADD && !present) {
            memmove(&o->keys[i + 1], &o->keys[i], (o->n - i) * sizeof *o->keys);
            o->keys[i] = args[0];
            o->n++;
            return LF_K_TRUE;
        }
        if (m == LF_M_REMOVE && present) {
            memmove(&o->keys[i], &o->keys[i + 1], (o->n - i - 1) * sizeof *o->keys);
            o->n--;
            return LF_K_TRUE;
        }
        return bool_kind(m == LF_M_CONTAINS && present);
    }
    case LF_TYPE_STACK:
        if (m == LF_M_PUSH) {
            o->keys[o->n++] = args[0];
            return LF_K_NONE;
        }
        if (o->n == 0) return LF_K_EMPTY;
        *value = o->keys[o->n - 1];
        if (m == LF_M_POP) o->n--;
        return LF_K_INT;
    case LF_TYPE_QUEUE:
        if (m == LF_M_ENQ) {
            o->keys[o->n++] = args[0];
            return LF_K_NONE;
        }
        if (o->head == o->n) return LF_K_EMPTY;
        *value = o->keys[o->head];
        if (m == LF_M_DEQ) o->head++;
        return LF_K_INT;
    case LF_TYPE_PQUEUE:
        if (m == LF_M_INSERT) {
            /* Descending order keeps the minimum at the end, so poll is O(1). */
            size_t i = 0;
            while (i < o->n && o->keys[i] > args[0]) i++;
            memmove(&o->keys[i + 1], &o->keys[i], (o->n - i) * sizeof *o->keys);
            o->keys[i] = args[0];
            o->n++;
            return LF_K_NONE;
        }
        if (o->n == 0) return LF_K_EMPTY;
        *value = o->keys[o->n - 1];
        if (m == LF_M_POLL) o->n--;
        return LF_K_INT;
    case LF_TYPE_KV: {
        size_t i = lower_bound(o->keys, o->n, args[0]);
        bool present = i < o->n && o->keys[i] == args[0];
        if (m == LF_M_PUT) {
            if (!present) {
                memmove(&o->keys[i + 1], &o->keys[i], (o->n - i) * sizeof *o->keys);
                memmove(&o->values[i + 1], &o->values[i], (o->n - i) * sizeof *o->values);
                o->keys[i] = args[0];
                o->n++;
            }
            o->values[i] = args[1];
            return LF_K_NONE;
        }
        if (m == LF_M_GET) {
            if (!present) return LF_K_NIL;
            *value = o->values[i];
            return LF_K_INT;
        }
        if (present) {
            memmove(&o->keys[i], &o->keys[i + 1], (o->n - i - 1) * sizeof *o->keys);
            memmove(&o->values[i], &o->values[i + 1], (o->n - i - 1) * sizeof *o->values);
            o->n--;
        }
        return bool_kind(present);
    }
    default: return LF_K_NONE; /* deque: no reference adapter */
    }
}

static lf_kind mutex_op(void *obj, lf_method m, const int64_t *args, int64_t *value) {
    mutex_object *o = obj;
    pthread_mutex_lock(&o->lock);
    LF_YIELD(); /* perturbation inside the critical section makes the others contend for the lock */
    lf_kind k = apply(o, m, args, value);
    pthread_mutex_unlock(&o->lock);
    return k;
}

/* The state in canonical form: sets and kv are sorted, stacks, queues and (descending) pqueues in order. */
static uint64_t mutex_fingerprint(void *obj) {
    mutex_object *o = obj;
    uint64_t h = lf_fp_seq_add((uint64_t)o->type, o->scalar);
    size_t from = o->type == LF_TYPE_QUEUE ? o->head : 0;
    for (size_t i = from; i < o->n; i++) {
        h = lf_fp_seq_add(h, o->keys[i]);
        if (o->values) h = lf_fp_seq_add(h, o->values[i]);
    }
    return h;
}

#define MB LF_METHOD_BIT
#define MUTEX_ADAPTER(ident, TYPE, mask)                                                                               \
    LF_VARIANT_CREATE(create_##ident, create_typed, TYPE)                                                              \
    LF_DEFINE_DETERMINISTIC_ADAPTER(mutex_##ident, TYPE, true, mask, create_##ident, mutex_destroy, mutex_op,          \
                                    mutex_fingerprint,                                                                 \
                                    "reference: the sequential " #ident " specification under one pthread mutex");

MUTEX_ADAPTER(register, LF_TYPE_REGISTER, MB(LF_M_WRITE) | MB(LF_M_READ))
MUTEX_ADAPTER(cas_register, LF_TYPE_CAS_REGISTER, MB(LF_M_WRITE) | MB(LF_M_READ) | MB(LF_M_CAS))
MUTEX_ADAPTER(counter, LF_TYPE_COUNTER, MB(LF_M_INC) | MB(LF_M_GET))
MUTEX_ADAPTER(set, LF_TYPE_SET, MB(LF_M_ADD) | MB(LF_M_REMOVE) | MB(LF_M_CONTAINS))
MUTEX_ADAPTER(stack, LF_TYPE_STACK, MB(LF_M_PUSH) | MB(LF_M_POP) | MB(LF_M_PEEK))
MUTEX_ADAPTER(queue, LF_TYPE_QUEUE, MB(LF_M_ENQ) | MB(LF_M_DEQ) | MB(LF_M_PEEK))
MUTEX_ADAPTER(pqueue, LF_TYPE_PQUEUE, MB(LF_M_INSERT) | MB(LF_M_POLL) | MB(LF_M_PEEK))
MUTEX_ADAPTER(kv, LF_TYPE_KV, MB(LF_M_PUT) | MB(LF_M_GET) | MB(LF_M_DELETE))
