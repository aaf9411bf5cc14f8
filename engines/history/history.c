/* History model: type/method tables, building, validation and description of histories (built-in and custom
 * types; custom declarations themselves are in type_desc.c). */
#include "linfuzz/history.h"
#include "history/seq_check.h"
#include "history/validate.h"
#include "util/appendf.h"
#include "util/grow.h"
#include "util/radix_sort.h"
#include "util/big_alloc.h"
#include "util/hash.h"

#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define R(k) LF_KBIT(LF_K_##k)
#define NORES R(NONE)
/* Inserts of the containers that may be bounded: nothing, or "full" when the container had no room. */
#define BOUNDED_INS (R(NONE) | R(FULL))

static const lf_method_info METHODS[] = {
    {LF_TYPE_REGISTER, LF_M_WRITE, "write", 1, NORES, LF_ROLE_INSERT},
    {LF_TYPE_REGISTER, LF_M_READ, "read", 0, R(INT) | R(NIL), LF_ROLE_OBSERVE},

    {LF_TYPE_CAS_REGISTER, LF_M_WRITE, "write", 1, NORES, LF_ROLE_INSERT},
    {LF_TYPE_CAS_REGISTER, LF_M_READ, "read", 0, R(INT) | R(NIL), LF_ROLE_OBSERVE},
    {LF_TYPE_CAS_REGISTER, LF_M_CAS, "cas", 2, R(OK) | R(FAIL), LF_ROLE_UPDATE},

    {LF_TYPE_SET, LF_M_ADD, "add", 1, R(TRUE) | R(FALSE), LF_ROLE_INSERT},
    {LF_TYPE_SET, LF_M_REMOVE, "remove", 1, R(TRUE) | R(FALSE), LF_ROLE_REMOVE},
    {LF_TYPE_SET, LF_M_CONTAINS, "contains", 1, R(TRUE) | R(FALSE), LF_ROLE_OBSERVE},

    {LF_TYPE_STACK, LF_M_PUSH, "push", 1, BOUNDED_INS, LF_ROLE_INSERT},
    {LF_TYPE_STACK, LF_M_POP, "pop", 0, R(INT) | R(NIL) | R(EMPTY), LF_ROLE_REMOVE},
    {LF_TYPE_STACK, LF_M_PEEK, "peek", 0, R(INT) | R(NIL) | R(EMPTY), LF_ROLE_OBSERVE},
    /* bulk and burst ops: their values and n are in lf_op.count and arg (history.h), not plain arguments */
    {LF_TYPE_STACK, LF_M_PUSH_BULK, "push_bulk", 0, BOUNDED_INS, LF_ROLE_INSERT},
    {LF_TYPE_STACK, LF_M_PUSH_BURST, "push_burst", 0, R(INT), LF_ROLE_INSERT},
    {LF_TYPE_STACK, LF_M_POP_BULK, "pop_bulk", 0, R(INT) | R(EMPTY), LF_ROLE_REMOVE},
    {LF_TYPE_STACK, LF_M_POP_BURST, "pop_burst", 0, R(INT) | R(EMPTY), LF_ROLE_REMOVE},

    {LF_TYPE_QUEUE, LF_M_ENQ, "enq", 1, BOUNDED_INS, LF_ROLE_INSERT},
    {LF_TYPE_QUEUE, LF_M_DEQ, "deq", 0, R(INT) | R(NIL) | R(EMPTY), LF_ROLE_REMOVE},
    {LF_TYPE_QUEUE, LF_M_PEEK, "peek", 0, R(INT) | R(NIL) | R(EMPTY), LF_ROLE_OBSERVE},
    {LF_TYPE_QUEUE, LF_M_ENQ_BULK, "enq_bulk", 0, BOUNDED_INS, LF_ROLE_INSERT},
    {LF_TYPE_QUEUE, LF_M_ENQ_BURST, "enq_burst", 0, R(INT), LF_ROLE_INSERT},
    {LF_TYPE_QUEUE, LF_M_DEQ_BULK, "deq_bulk", 0, R(INT) | R(EMPTY), LF_ROLE_REMOVE},
    {LF_TYPE_QUEUE, LF_M_DEQ_BURST, "deq_burst", 0, R(INT) | R(EMPTY), LF_ROLE_REMOVE},

    {LF_TYPE_PQUEUE, LF_M_INSERT, "insert", 1, BOUNDED_INS, LF_ROLE_INSERT},
    {LF_TYPE_PQUEUE, LF_M_POLL, "poll", 0, R(INT) | R(NIL) | R(EMPTY), LF_ROLE_REMOVE},
    {LF_TYPE_PQUEUE, LF_M_PEEK, "peek", 0, R(INT) | R(NIL) | R(EMPTY), LF_ROLE_OBSERVE},

    {LF_TYPE_KV, LF_M_PUT, "put", 2, NORES, LF_ROLE_INSERT},
    {LF_TYPE_KV, LF_M_GET, "get", 1, R(INT) | R(NIL), LF_ROLE_OBSERVE},
    {LF_TYPE_KV, LF_M_DELETE, "delete", 1, R(TRUE) | R(FALSE), LF_ROLE_REMOVE},

    {LF_TYPE_COUNTER, LF_M_INC, "inc", 0, NORES, LF_ROLE_INSERT},
    {LF_TYPE_COUNTER, LF_M_GET, "get", 0, R(INT), LF_ROLE_OBSERVE},

    {LF_TYPE_DEQUE, LF_M_PUSH_FRONT, "push_front", 1, BOUNDED_INS, LF_ROLE_INSERT},
    {LF_TYPE_DEQUE, LF_M_PUSH_BACK, "push_back", 1, BOUNDED_INS, LF_ROLE_INSERT},
    {LF_TYPE_DEQUE, LF_M_POP_FRONT, "pop_front", 0, R(INT) | R(NIL) | R(EMPTY), LF_ROLE_REMOVE},
    {LF_TYPE_DEQUE, LF_M_POP_BACK, "pop_back", 0, R(INT) | R(NIL) | R(EMPTY), LF_ROLE_REMOVE},
    {LF_TYPE_DEQUE, LF_M_PEEK_FRONT, "peek_front", 0, R(INT) | R(NIL) | R(EMPTY), LF_ROLE_OBSERVE},
    {LF_TYPE_DEQUE, LF_M_PEEK_BACK, "peek_back", 0, R(INT) | R(NIL) | R(EMPTY), LF_ROLE_OBSERVE},
};
#define N_METHODS (sizeof METHODS / sizeof METHODS[0])

static const char *const TYPE_NAMES[LF_TYPE_COUNT] = {
    "register", "cas-register", "set", "stack", "queue", "pqueue", "kv", "counter", "deque",
};

static const char *const METHOD_NAMES[LF_M_COUNT] = {
    "write", "read", "cas", "add", "remove", "contains", "push", "pop", "peek", "enq", "deq",
    "insert", "poll", "put", "get", "delete", "inc", "push_front", "push_back", "pop_front",
    "pop_back", "peek_front", "peek_back", "enq_bulk", "enq_burst", "deq_bulk", "deq_burst", "push_bulk",
    "push_burst", "pop_bulk", "pop_burst",
};

static const char *const KIND_NAMES[LF_K_COUNT] = {
    "none", "int", "nil", "empty", "true", "false", "ok", "fail", "?", "full",
};

bool lf_type_boundable(lf_type t) {
    return t == LF_TYPE_STACK || t == LF_TYPE_QUEUE || t == LF_TYPE_PQUEUE || t == LF_TYPE_DEQUE;
}

const char *lf_type_name(lf_type t) { return (unsigned)t < LF_TYPE_COUNT ? TYPE_NAMES[t] : "?"; }

bool lf_type_from_name(const char *name, size_t len, lf_type *out) {
    for (int t = 0; t < LF_TYPE_COUNT; t++) {
        if (strlen(TYPE_NAMES[t]) == len && memcmp(TYPE_NAMES[t], name, len) == 0) {
            *out = (lf_type)t;
            return true;
        }
    }
    return false;
}

const lf_method_info *lf_method_lookup(lf_type t, const char *name, size_t len) {
    for (size_t i = 0; i < N_METHODS; i++) {
        if (METHODS[i].type == t && strlen(METHODS[i].name) == len && memcmp(METHODS[i].name, name, len) == 0)
            return &METHODS[i];
    }
    return NULL;
}

static const lf_method_info *method_table[LF_TYPE_COUNT][LF_M_COUNT];
/* The built-in methods as lf_method_decl, for code that handles built-in and custom types alike. */
static lf_method_decl decl_table[LF_TYPE_COUNT][LF_M_COUNT];
static pthread_once_t method_table_once = PTHREAD_ONCE_INIT;

static void build_method_table(void) {
    for (size_t i = 0; i < N_METHODS; i++) {
        const lf_method_info *mi = &METHODS[i];
        method_table[mi->type][mi->method] = mi;
        /* set and kv methods touch only their key: the built-in specs split by it too */
        bool keyed = mi->type == LF_TYPE_SET || mi->type == LF_TYPE_KV;
        decl_table[mi->type][mi->method] = (lf_method_decl){
            mi->name, mi->nargs, mi->results,
            (uint8_t)((mi->role == LF_ROLE_OBSERVE ? LF_MF_OBSERVER : 0) | (keyed ? LF_MF_KEYED : 0))};
    }
}

const lf_method_info *lf_method_info_of(lf_type t, lf_method m) {
    /* Called per op on hot paths, so index a table instead of scanning METHODS. */
    pthread_once(&method_table_once, build_method_table);
    if ((unsigned)t >= LF_TYPE_COUNT || (unsigned)m >= LF_M_COUNT) return NULL;
    return method_table[t][m];
}

const char *lf_method_name(lf_method m) { return (unsigned)m < LF_M_COUNT ? METHOD_NAMES[m] : "?"; }

const char *lf_kind_name(lf_kind k) { return (unsigned)k < LF_K_COUNT ? KIND_NAMES[k] : "?"; }

void lf_history_init(lf_history *h, lf_type type) {
    memset(h, 0, sizeof *h);
    h->type = type;
    h->init_kind = LF_K_INT;
}

void lf_history_init_custom(lf_history *h, const lf_type_desc *d) {
    lf_history_init(h, LF_TYPE_CUSTOM);
    h->custom = d;
}

void lf_history_free(lf_history *h) {
    free(h->ops);
    h->ops = NULL;
    h->n = h->cap = 0;
    if (h->custom_owned) {
        lf_type_desc_free(h->custom_owned);
        h->custom = NULL;
        h->custom_owned = NULL;
    }
}

/* dst's type := src's (dst's own descriptor, if any, is released first). */
static bool take_type(lf_history *dst, const lf_history *src) {
    if (dst->custom_owned && dst->custom_owned != src->custom) lf_type_desc_free(dst->custom_owned);
    dst->custom_owned = NULL;
    dst->type = src->type;
    dst->custom = src->custom;
    if (src->custom_owned) {
        dst->custom_owned = lf_type_desc_dup(src->custom_owned);
        dst->custom = dst->custom_owned;
        if (!dst->custom_owned) return false;
    }
    return true;
}

bool lf_history_set_type_of(lf_history *h, const lf_history *src) {
    if (h == src) return true;
    return take_type(h, src);
}

const char *lf_history_type_name(const lf_history *h) {
    if (h->type == LF_TYPE_CUSTOM) return h->custom ? h->custom->name : "?";
    return lf_type_name(h->type);
}

const lf_method_decl *lf_history_method(const lf_history *h, unsigned m) {
    if (h->type == LF_TYPE_CUSTOM) return h->custom && m < h->custom->n_methods ? &h->custom->methods[m] : NULL;
    if ((unsigned)h->type >= LF_TYPE_COUNT || m >= LF_M_COUNT) return NULL;
    pthread_once(&method_table_once, build_method_table);
    return method_table[h->type][m] ? &decl_table[h->type][m] : NULL;
}

bool lf_history_method_lookup(const lf_history *h, const char *name, size_t len, unsigned *m) {
    unsigned n = lf_history_method_count(h);
    for (unsigned i = 0; i < n; i++) {
        const lf_method_decl *d = lf_history_method(h, i);
        if (d && strlen(d->name) == len && memcmp(d->name, name, len) == 0) {
            *m = i;
            return true;
        }
    }
    return false;
}

unsigned lf_history_method_count(const lf_history *h) {
    if (h->type == LF_TYPE_CUSTOM) return h->custom ? (unsigned)h->custom->n_methods : 0;
    return LF_M_COUNT;
}

static bool reserve(lf_history *h, size_t want) {
    if (want <= h->cap) return true;
    size_t cap = lf_grow_capacity(h->cap, want, sizeof *h->ops, 64);
    lf_op *ops = cap ? lf_big_realloc(h->ops, cap * sizeof *ops) : NULL; /* big_alloc.h: huge pages */
    if (!ops) return false;
    h->ops = ops;
    h->cap = cap;
    return true;
}

bool lf_history_push(lf_history *h, const lf_op *op) {
    if (h->n == h->cap && !reserve(h, h->n + 1)) return false;
    h->ops[h->n++] = *op;
    return true;
}

bool lf_history_copy(lf_history *dst, const lf_history *src) {
    *dst = *src;
    dst->ops = NULL;
    dst->n = dst->cap = 0;
    dst->custom_owned = NULL;
    if (!take_type(dst, src) || !reserve(dst, src->n ? src->n : 1)) {
        lf_history_free(dst);
        return false;
    }
    if (src->n) memcpy(dst->ops, src->ops, src->n * sizeof *src->ops);
    dst->n = src->n;
    return true;
}

bool lf_history_select(lf_history *dst, const lf_history *src, const bool *keep) {
    *dst = *src;
    dst->ops = NULL;
    dst->n = dst->cap = 0;
    dst->custom_owned = NULL;
    if (!take_type(dst, src) || !reserve(dst, src->n ? src->n : 1)) {
        lf_history_free(dst);
        return false;
    }
    for (size_t i = 0; i < src->n; i++)
        if (keep[i]) dst->ops[dst->n++] = src->ops[i];
    return true;
}

static int describe(char *buf, size_t len, int nargs, bool bulk, const char *method, const lf_op *op) {
    size_t w = 0;
#define PUT(...) lf_appendf(buf, len, &w, __VA_ARGS__)
    if (lf_op_pending(op))
        PUT("t%" PRIu32 " [%" PRIu64 ",?] %s", op->thread, op->call, method);
    else
        PUT("t%" PRIu32 " [%" PRIu64 ",%" PRIu64 "] %s", op->thread, op->call, op->ret, method);
    if (bulk) { /* "enq_bulk 1 2 3 -> full", "deq_burst 3 -> 1 2" */
        bool insert = lf_method_is_bulk_insert(op->method);
        if (insert)
            for (int i = 0; i < op->count && i < LF_BULK_MAX; i++) PUT(" %" PRId64, op->arg[i]);
        else
            PUT(" %u", (unsigned)op->count);
        if (!insert && op->res_kind == LF_K_INT) {
            PUT(" ->");
            for (int64_t i = 0; i < op->res && i < LF_BULK_MAX; i++) PUT(" %" PRId64, op->arg[i]);
            return (int)w;
        }
        nargs = 0;
    }
    for (int i = 0; i < nargs; i++) {
        if (lf_arg_is_nil(op, i))
            PUT(" nil");
        else
            PUT(" %" PRId64, op->arg[i]);
    }
    if (op->res_kind == LF_K_INT)
        PUT(" -> %" PRId64, op->res);
    else if (op->res_kind != LF_K_NONE && op->res_kind != LF_K_PENDING)
        PUT(" -> %s", lf_kind_name((lf_kind)op->res_kind));
#undef PUT
    return (int)w;
}

int lf_op_describe_typed(char *buf, size_t len, lf_type t, const lf_op *op) {
    const lf_method_info *mi = lf_method_info_of(t, (lf_method)op->method);
    return describe(buf, len, mi ? mi->nargs : 0, mi && lf_method_is_bulk(op->method), lf_method_name((lf_method)op->method), op);
}

int lf_history_describe_op(const lf_history *h, const lf_op *op, char *buf, size_t len) {
    if (h->type != LF_TYPE_CUSTOM) return lf_op_describe_typed(buf, len, h->type, op);
    const lf_method_decl *d = lf_history_method(h, op->method);
    return describe(buf, len, d ? d->nargs : 0, false, d ? d->name : "?", op);
}

int lf_op_describe(char *buf, size_t len, const lf_op *op) {
    /* The first table entry with this method gives its arity; only "get" differs between types. */
    int nargs = 0;
    for (size_t i = 0; i < N_METHODS; i++)
        if (METHODS[i].method == op->method) {
            nargs = METHODS[i].nargs;
            break;
        }
    return describe(buf, len, nargs, lf_method_is_bulk(op->method), lf_method_name((lf_method)op->method), op);
}

/* ---- validation ---- */

static size_t check_pair(const lf_history *h, size_t prev, size_t next, char *err, size_t errlen) {
    const lf_op *a = &h->ops[prev], *b = &h->ops[next];
    char da[160], db[160];
    if (lf_op_pending(a)) {
        lf_history_describe_op(h, a, da, sizeof da);
        lf_history_describe_op(h, b, db, sizeof db);
        snprintf(err, errlen, "thread %" PRIu32 " has op %zu (%s) after its pending op %zu (%s)", a->thread, next,
                 db, prev, da);
        return next;
    }
    if (!(a->ret < b->call)) {
        lf_history_describe_op(h, a, da, sizeof da);
        lf_history_describe_op(h, b, db, sizeof db);
        snprintf(err, errlen,
                 "ops of thread %" PRIu32 " overlap: op %zu (%s) and op %zu (%s); a thread's ops must be "
                 "sequential (ret < next call)",
                 a->thread, prev, da, next, db);
        return next;
    }
    return SIZE_MAX;
}

/* The checks of lf_history_validate on one op of a custom type. */
static size_t validate_custom_op(const lf_history *h, size_t i, char *err, size_t errlen) {
    const lf_op *op = &h->ops[i];
    const lf_method_decl *d = lf_history_method(h, op->method);
    if (!d) {
        snprintf(err, errlen, "op %zu: method %u does not belong to type %s", i, op->method, h->custom->name);
        return i;
    }
    if (op->arg_nil >> d->nargs) {
        snprintf(err, errlen, "op %zu: argument flags beyond the method's %d arguments", i, d->nargs);
        return i;
    }
    if (op->res_kind != LF_K_PENDING) {
        if (op->res_kind >= LF_K_COUNT || !(d->results & LF_KBIT(op->res_kind))) {
            snprintf(err, errlen, "op %zu: %s cannot return %s", i, d->name, lf_kind_name((lf_kind)op->res_kind));
            return i;
        }
        if (op->ret < op->call) {
            snprintf(err, errlen, "op %zu: return stamp %" PRIu64 " is before call stamp %" PRIu64, i, op->ret,
                     op->call);
            return i;
        }
    }
    return SIZE_MAX;
}

/* The shape of a bulk or burst op (history.h: count, values in arg, result), and no count on other ops. */
static bool validate_bulk_op(const lf_history *h, size_t i, const char *name, char *err, size_t errlen) {
    const lf_op *op = &h->ops[i];
    if (!lf_method_is_bulk(op->method)) {
        snprintf(err, errlen, "op %zu: %s has a value count (%u); only bulk and burst ops have one", i, name,
                 (unsigned)op->count);
        return false;
    }
    if (op->count < 1 || op->count > LF_BULK_MAX) {
        snprintf(err, errlen, "op %zu: %s of %u values; bulk and burst ops move 1 to %d", i, name,
                 (unsigned)op->count, LF_BULK_MAX);
        return false;
    }
    if (op->arg_nil) {
        snprintf(err, errlen, "op %zu: %s with a nil value; bulk and burst values are integers", i, name);
        return false;
    }
    bool insert = lf_method_is_bulk_insert(op->method);
    if (op->res_kind == LF_K_INT && (op->res < (insert ? 0 : 1) || op->res > op->count ||
                                     (!lf_method_is_burst(op->method) && op->res != op->count))) {
        snprintf(err, errlen, "op %zu: %s of %u values answers %" PRId64 "%s", i, name, (unsigned)op->count, op->res,
                 lf_method_is_burst(op->method) ? (insert ? "; a burst inserts 0 to n" : "; a burst returns 1 to n")
                                                : "; a bulk remove returns all n values or empty");
        return false;
    }
    /* the slots holding values: an insert's n offered, a remove's returned ones */
    int used = insert ? op->count : op->res_kind == LF_K_INT ? (int)op->res : 0;
    for (int a = used; a < LF_CUSTOM_MAX_ARGS; a++)
        if (op->arg[a]) {
            snprintf(err, errlen, "op %zu: %s has a value in slot %d beyond its %d", i, name, a, used);
            return false;
        }
    if (insert && op->res_kind == LF_K_INT && op->res < op->count && !h->capacity) {
        snprintf(err, errlen, "op %zu: %s inserted %" PRId64 " of %u values in a history without a capacity (an "
                 "unbounded container is never full)", i, name, op->res, (unsigned)op->count);
        return false;
    }
    return true;
}

bool lf_history_has_bulk(const lf_history *h) {
    if (h->type != LF_TYPE_QUEUE && h->type != LF_TYPE_STACK) return false;
    for (size_t i = 0; i < h->n; i++)
        if (lf_method_is_bulk(h->ops[i].method)) return true;
    return false;
}

size_t lf_history_validate(const lf_history *h, char *err, size_t errlen) {
    bool late;
    return lf_history_validate_within(h, NULL, &late, err, errlen);
}

/* The ops' indices sorted by (thread, call, index): two stable radix sorts, by call and then by thread. */
static lf_sort_status sort_by_thread_call(const lf_history *h, lf_keyed *slots, double deadline) {
    for (size_t i = 0; i < h->n; i++) slots[i] = (lf_keyed){h->ops[i].call, (uint32_t)i};
    lf_sort_status st = lf_radix_sort_until(slots, h->n, deadline);
    if (st != LF_SORT_OK) return st;
    for (size_t i = 0; i < h->n; i++) slots[i].key = h->ops[slots[i].payload].thread;
    return lf_radix_sort_until(slots, h->n, deadline);
}

size_t lf_history_validate_within(const lf_history *h, lf_deadline *dl, bool *late, char *err, size_t errlen) {
    *late = false;
    if (h->type == LF_TYPE_CUSTOM) {
        if (!h->custom || !lf_type_desc_check(h->custom, err, errlen)) {
            if (!h->custom) snprintf(err, errlen, "custom type without a declaration");
            return 0;
        }
    } else if ((unsigned)h->type >= LF_TYPE_COUNT) {
        snprintf(err, errlen, "unknown type %d", (int)h->type);
        return 0;
    }
    if (h->capacity && !lf_type_boundable(h->type)) {
        snprintf(err, errlen, "a capacity is only allowed for stack, queue, pqueue and deque, not %s",
                 lf_type_name(h->type));
        return 0;
    }
    if (h->n > UINT32_MAX) {
        snprintf(err, errlen, "%zu ops: more than the 4294967295 a history may hold", h->n);
        return 0;
    }
    if (!lf_contract_is_default(&h->contract) && !lf_contract_valid(h->type, &h->contract, err, errlen)) return 0;
    for (size_t i = 0; i < h->n; i++) {
        const lf_op *op = &h->ops[i];
        if (lf_deadline_every(dl, i)) goto out_of_time;
        if (h->type == LF_TYPE_CUSTOM) {
            size_t bad = validate_custom_op(h, i, err, errlen);
            if (bad != SIZE_MAX) return bad;
            continue;
        }
        const lf_method_info *mi = lf_method_info_of(h->type, (lf_method)op->method);
        if (!mi) {
            snprintf(err, errlen, "op %zu: method %s does not belong to type %s", i,
                     lf_method_name((lf_method)op->method), lf_type_name(h->type));
            return i;
        }
        if (op->arg_nil >> mi->nargs) {
            snprintf(err, errlen, "op %zu: argument flags beyond the method's %d arguments", i, mi->nargs);
            return i;
        }
        if (op->res_kind != LF_K_PENDING) {
            if (op->res_kind >= LF_K_COUNT || !(mi->results & LF_KBIT(op->res_kind))) {
                snprintf(err, errlen, "op %zu: %s cannot return %s", i, mi->name,
                         lf_kind_name((lf_kind)op->res_kind));
                return i;
            }
        }
        if ((lf_method_is_bulk(op->method) || op->count) && !validate_bulk_op(h, i, mi->name, err, errlen)) return i;
        if (op->res_kind != LF_K_PENDING) {
            if (op->res_kind == LF_K_FULL && !h->capacity) {
                snprintf(err, errlen, "op %zu: %s -> full in a history without a capacity (an unbounded container "
                                      "is never full)", i, mi->name);
                return i;
            }
            if (op->ret < op->call) {
                snprintf(err, errlen, "op %zu: return stamp %" PRIu64 " is before call stamp %" PRIu64, i,
                         op->ret, op->call);
                return i;
            }
        }
    }
    /* Per-thread sequentiality. Histories almost always list each thread's ops in call order; the streaming
     * tracker vouches for those in one pass. Otherwise sort op indices by (thread, call) and compare
     * neighbours, which also finds and words the problem. */
    if (h->n < 2) return SIZE_MAX;
    lf_seq_check quick;
    lf_seq_check_init(&quick);
    bool vouched = true, stopped = false;
    for (size_t i = 0; i < h->n && vouched && !stopped; i++) {
        vouched = lf_seq_check_add(&quick, h, i) && !quick.need_full_validate;
        stopped = lf_deadline_every(dl, i);
    }
    lf_seq_check_free(&quick);
    if (stopped) goto out_of_time;
    if (vouched) return SIZE_MAX;
    lf_keyed *slots = lf_big_malloc(h->n * sizeof *slots);
    if (!slots) {
        snprintf(err, errlen, "out of memory validating %zu ops", h->n);
        return 0;
    }
    lf_sort_status sorted = sort_by_thread_call(h, slots, dl ? dl->at : 0);
    if (sorted != LF_SORT_OK) {
        free(slots);
        if (sorted == LF_SORT_LATE) goto out_of_time;
        snprintf(err, errlen, "out of memory validating %zu ops", h->n);
        return 0;
    }
    size_t bad = SIZE_MAX;
    for (size_t i = 1; i < h->n && bad == SIZE_MAX; i++) {
        if (lf_deadline_every(dl, i)) {
            free(slots);
            goto out_of_time;
        }
        if (slots[i].key != slots[i - 1].key) continue;
        bad = check_pair(h, slots[i - 1].payload, slots[i].payload, err, errlen);
    }
    free(slots);
    return bad;
out_of_time:
    *late = true;
    snprintf(err, errlen, "time budget exhausted validating %zu ops", h->n);
    return SIZE_MAX;
}

/* ---- unambiguity ---- */

bool lf_history_unambiguous(const lf_history *h) {
    if ((unsigned)h->type >= LF_TYPE_COUNT) return false; /* custom types have no notion of values */
    /* Inserted values are keyed as (value, nil-bit); a nil value gets a key no integer can collide with
     * because the set also stores a separate flag for it. */
    size_t n_ins = 0;
    for (size_t i = 0; i < h->n; i++) {
        const lf_method_info *mi = lf_method_info_of(h->type, (lf_method)h->ops[i].method);
        if (mi && mi->role == LF_ROLE_INSERT) n_ins += lf_method_is_bulk(h->ops[i].method) ? LF_BULK_MAX : 1;
    }
    if (h->type == LF_TYPE_CAS_REGISTER || h->type == LF_TYPE_KV || h->type == LF_TYPE_COUNTER) return false;
    size_t cap = 16;
    while (cap < 2 * (n_ins + 1)) cap *= 2;
    uint64_t *keys = malloc(cap * sizeof *keys);
    uint8_t *used = calloc(cap, 1);
    if (!keys || !used) {
        free(keys);
        free(used);
        return false;
    }
    bool nil_seen = false, ok = true;
    /* The register's initial value counts as one insertion. */
    if (h->type == LF_TYPE_REGISTER) {
        if (h->init_kind == LF_K_NIL)
            nil_seen = true;
        else {
            size_t s = lf_mix64((uint64_t)h->init) & (cap - 1);
            keys[s] = (uint64_t)h->init;
            used[s] = 1;
        }
    }
    for (size_t i = 0; i < h->n && ok; i++) {
        const lf_op *op = &h->ops[i];
        const lf_method_info *mi = lf_method_info_of(h->type, (lf_method)op->method);
        if (!mi || mi->role != LF_ROLE_INSERT) continue;
        /* A set add that returned false, an insert into a full container inserted nothing. */
        if ((h->type == LF_TYPE_SET && op->res_kind == LF_K_FALSE) || op->res_kind == LF_K_FULL) continue;
        if (lf_arg_is_nil(op, 0)) {
            if (nil_seen) ok = false;
            nil_seen = true;
            continue;
        }
        /* a bulk or burst insert: each value it offered (one it did not insert may still count: stricter) */
        int values = lf_method_is_bulk(op->method) ? (op->count < LF_BULK_MAX ? op->count : LF_BULK_MAX) : 1;
        for (int v = 0; v < values && ok; v++) {
            uint64_t k = (uint64_t)op->arg[v];
            size_t s = lf_mix64(k) & (cap - 1);
            while (used[s] && keys[s] != k) s = (s + 1) & (cap - 1);
            if (used[s]) ok = false;
            used[s] = 1;
            keys[s] = k;
        }
    }
    free(keys);
    free(used);
    return ok;
}
