/* The canonical text of a violating history (report.h, lf_violation_canonical): what two findings must share
 * to show the same thing happening, whatever the run called its threads and values and whatever its clock
 * read. Triage lists a group's variants by it (`linfuzz triage`, docs/triage.md). */
#include "linfuzz/report.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- output into a bounded buffer, counting what did not fit ---- */

typedef struct out {
    char *buf;
    size_t len, n; /* n: the whole length so far */
} out;

__attribute__((format(printf, 2, 3))) static void put(out *o, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    size_t room = o->n < o->len ? o->len - o->n : 0;
    int w = vsnprintf(room ? o->buf + o->n : NULL, room, fmt, ap);
    va_end(ap);
    if (w > 0) o->n += (size_t)w;
}

/* ---- names by first appearance ---- */

typedef struct names {
    int64_t *v;
    uint8_t *nil;
    size_t n;
} names;

/* The 1-based name of value (v, nil), given at its first appearance. */
static size_t name_of(names *ns, int64_t v, bool nil) {
    for (size_t i = 0; i < ns->n; i++)
        if (ns->v[i] == v && ns->nil[i] == nil) return i + 1;
    ns->v[ns->n] = v;
    ns->nil[ns->n] = nil;
    return ++ns->n;
}

static int cmp_i64(const void *pa, const void *pb) {
    int64_t a = *(const int64_t *)pa, b = *(const int64_t *)pb;
    return a < b ? -1 : a > b;
}

static int cmp_u64(const void *pa, const void *pb) {
    uint64_t a = *(const uint64_t *)pa, b = *(const uint64_t *)pb;
    return a < b ? -1 : a > b;
}

/* Ops in call order; ties by what an op is (never by thread or value names), then by index. */
typedef struct op_ref {
    uint64_t call, ret; /* ret UINT64_MAX: pending */
    uint8_t method, res_kind;
    size_t index;
} op_ref;

static int cmp_call(const void *pa, const void *pb) {
    const op_ref *a = pa, *b = pb;
    if (a->call != b->call) return a->call < b->call ? -1 : 1;
    if (a->ret != b->ret) return a->ret < b->ret ? -1 : 1;
    if (a->method != b->method) return a->method < b->method ? -1 : 1;
    if (a->res_kind != b->res_kind) return a->res_kind < b->res_kind ? -1 : 1;
    return a->index < b->index ? -1 : a->index > b->index;
}

/* How a value is written: v<name>, p<rank> (priorities), the number itself (counts, and every value of a
 * custom type but the key of a keyed method: what its numbers mean is the type's own, so renaming them could
 * make two different things look the same), init (a register's initial value), nil. */
typedef struct valuer {
    lf_type type;
    names values, keys;
    int64_t *prio; /* pqueue: the distinct priorities, sorted */
    size_t n_prio;
    bool init_nil;
    int64_t init;
} valuer;

static void put_value(out *o, valuer *vr, int64_t v, bool nil, bool key) {
    if (vr->type == LF_TYPE_CUSTOM && !key) {
        if (nil)
            put(o, " nil");
        else
            put(o, " %" PRId64, v);
    } else if (vr->type == LF_TYPE_COUNTER) {
        put(o, " %" PRId64, v);
    } else if ((vr->type == LF_TYPE_REGISTER || vr->type == LF_TYPE_CAS_REGISTER) &&
               (vr->init_nil ? nil : !nil && v == vr->init)) {
        put(o, " init");
    } else if (nil) {
        put(o, " nil");
    } else if (vr->type == LF_TYPE_PQUEUE) {
        int64_t *hit = bsearch(&v, vr->prio, vr->n_prio, sizeof *vr->prio, cmp_i64);
        put(o, " p%zu", hit ? (size_t)(hit - vr->prio) + 1 : 0);
    } else if (key) {
        put(o, " k%zu", name_of(&vr->keys, v, false));
    } else {
        put(o, " v%zu", name_of(&vr->values, v, false));
    }
}

size_t lf_violation_canonical(const lf_history *h, bool has_cut, uint64_t cut_stamp, const uint32_t *serial,
                              char *buf, size_t len) {
    out o = {buf, len, 0};
    size_t n = h->n;
    if (len) buf[0] = 0;
    op_ref *order = malloc((n ? n : 1) * sizeof *order);
    uint64_t *stamps = malloc((2 * n + 1) * sizeof *stamps);
    uint32_t *threads = malloc((n ? n : 1) * sizeof *threads);
    valuer vr = {.type = h->type, .init_nil = h->has_init && h->init_kind == LF_K_NIL, .init = h->has_init ? h->init : 0};
    vr.values.v = malloc((3 * n + 1) * sizeof *vr.values.v);
    vr.values.nil = malloc(3 * n + 1);
    vr.keys.v = malloc((n + 1) * sizeof *vr.keys.v);
    vr.keys.nil = malloc(n + 1);
    vr.prio = malloc((2 * n + 1) * sizeof *vr.prio);
    if (!order || !stamps || !threads || !vr.values.v || !vr.values.nil || !vr.keys.v || !vr.keys.nil || !vr.prio) {
        put(&o, "%s: (out of memory)", lf_history_type_name(h));
        goto done;
    }
    size_t n_stamps = 0, n_threads = 0;
    for (size_t i = 0; i < n; i++) {
        const lf_op *op = &h->ops[i];
        order[i] = (op_ref){op->call, lf_op_pending(op) ? UINT64_MAX : op->ret, op->method, op->res_kind, i};
        stamps[n_stamps++] = h->ops[i].call;
        if (!lf_op_pending(&h->ops[i])) stamps[n_stamps++] = h->ops[i].ret;
        if (h->type == LF_TYPE_PQUEUE) {
            const lf_method_info *mi = lf_method_info_of(h->type, (lf_method)h->ops[i].method);
            if (mi && mi->nargs && !lf_arg_is_nil(&h->ops[i], 0)) vr.prio[vr.n_prio++] = h->ops[i].arg[0];
            if (h->ops[i].res_kind == LF_K_INT) vr.prio[vr.n_prio++] = h->ops[i].res;
        }
    }
    qsort(stamps, n_stamps, sizeof *stamps, cmp_u64);
    size_t u = 0;
    for (size_t i = 0; i < n_stamps; i++)
        if (i == 0 || stamps[i] != stamps[u - 1]) stamps[u++] = stamps[i];
    n_stamps = u;
    qsort(vr.prio, vr.n_prio, sizeof *vr.prio, cmp_i64);
    u = 0;
    for (size_t i = 0; i < vr.n_prio; i++)
        if (i == 0 || vr.prio[i] != vr.prio[u - 1]) vr.prio[u++] = vr.prio[i];
    vr.n_prio = u;
    qsort(order, n, sizeof *order, cmp_call);

    put(&o, "%s:", lf_history_type_name(h));
    for (size_t k = 0; k < n; k++) {
        const lf_op *op = &h->ops[order[k].index];
        const lf_method_decl *mi = lf_history_method(h, op->method);
        uint64_t *c = bsearch(&op->call, stamps, n_stamps, sizeof *stamps, cmp_u64);
        put(&o, "%s ", k ? ";" : "");
        if (serial && op->thread == *serial) {
            put(&o, "s");
        } else {
            size_t t = 0;
            while (t < n_threads && threads[t] != op->thread) t++;
            if (t == n_threads) threads[n_threads++] = op->thread;
            put(&o, "t%zu", t);
        }
        if (lf_op_pending(op)) {
            put(&o, " [%zu,?]", (size_t)(c - stamps));
        } else {
            uint64_t *r = bsearch(&op->ret, stamps, n_stamps, sizeof *stamps, cmp_u64);
            put(&o, " [%zu,%zu]", (size_t)(c - stamps), (size_t)(r - stamps));
        }
        put(&o, " %s", mi ? mi->name : "?");
        bool keyed = h->type == LF_TYPE_SET || h->type == LF_TYPE_KV ||
                     (h->type == LF_TYPE_CUSTOM && mi && (mi->flags & LF_MF_KEYED));
        for (int a = 0; mi && a < mi->nargs; a++) put_value(&o, &vr, op->arg[a], lf_arg_is_nil(op, a), keyed && a == 0);
        if (op->res_kind == LF_K_INT || op->res_kind == LF_K_NIL) {
            put(&o, " ->");
            put_value(&o, &vr, op->res, op->res_kind == LF_K_NIL, false);
        } else if (op->res_kind != LF_K_NONE && !lf_op_pending(op)) {
            put(&o, " -> %s", lf_kind_name((lf_kind)op->res_kind));
        }
        if (has_cut && !lf_op_pending(op) && op->ret == cut_stamp) put(&o, "!");
    }
done:
    free(order);
    free(stamps);
    free(threads);
    free(vr.values.v);
    free(vr.values.nil);
    free(vr.keys.v);
    free(vr.keys.nil);
    free(vr.prio);
    return o.n;
}
