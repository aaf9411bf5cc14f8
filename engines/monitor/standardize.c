/* Standardisation of unambiguous container histories (see standardize.h; [Lee25]). */
#include "monitor/standardize.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "monitor/monitors.h"
#include "util/big_alloc.h"
#include "util/grow.h"
#include "util/radix_sort.h"
#include "util/value_map.h"

#define NONE UINT32_MAX

/* ---- stamp ranking ---- */

/* The events of the ops with keep[i] in time order (invocations before responses at equal stamps), written
 * to ev as op << 1 | is_response; pending ops have no response event. Returns the number of events, or
 * SIZE_MAX when out of memory or out of time (dl expired). ev must have room for 2 events per kept op. */
static size_t sort_events(const lf_history *h, const uint8_t *keep, lf_deadline *dl, uint32_t *ev) {
    size_t n_events = 0;
    uint64_t lo = UINT64_MAX, hi = 0;
    LF_FOR_CHUNKS(ck, ck_end, 0, h->n, dl) {
        for (size_t i = ck; i < ck_end; i++) {
            if (!keep[i]) continue;
            const lf_op *op = &h->ops[i];
            n_events++;
            if (op->call < lo) lo = op->call;
            if (op->call > hi) hi = op->call;
            if (!lf_op_pending(op)) {
                n_events++;
                if (op->ret > hi) hi = op->ret;
            }
        }
    }
    if (lf_deadline_expired(dl)) return SIZE_MAX;
    if (n_events == 0) return 0;
    if (hi - lo < 2 * (uint64_t)n_events) {
        /* Dense stamps (recorders' tickets, generated histories): a counting sort over (stamp, response bit)
         * places each event directly. Events with equal keys are interchangeable: same stamp and same kind,
         * so no precedence depends on their order. */
        size_t keys = 2 * (size_t)(hi - lo + 1);
        uint32_t *next = lf_big_calloc(keys + 1, sizeof *next);
        if (!next) return SIZE_MAX;
        LF_FOR_CHUNKS(ck, ck_end, 0, h->n, dl) {
            for (size_t i = ck; i < ck_end; i++) {
                if (!keep[i]) continue;
                const lf_op *op = &h->ops[i];
                next[2 * (op->call - lo) + 1]++;
                if (!lf_op_pending(op)) next[2 * (op->ret - lo) + 1 + 1]++;
            }
        }
        LF_FOR_CHUNKS(ck, ck_end, 1, keys + 1, dl) {
            for (size_t k = ck; k < ck_end; k++) next[k] += next[k - 1];
        }
        LF_FOR_CHUNKS(ck, ck_end, 0, h->n, dl) {
            for (size_t i = ck; i < ck_end; i++) {
                if (!keep[i]) continue;
                const lf_op *op = &h->ops[i];
                ev[next[2 * (op->call - lo)]++] = (uint32_t)i << 1;
                if (!lf_op_pending(op)) ev[next[2 * (op->ret - lo) + 1]++] = (uint32_t)i << 1 | 1;
            }
        }
        free(next);
        return lf_deadline_expired(dl) ? SIZE_MAX : n_events;
    }
    if (hi - lo < (1ull << 31)) {
        /* (stamp, response bit, op index) packed into one word; invocations sort first at ties. */
        uint64_t *w = lf_big_malloc(n_events * sizeof *w);
        if (!w) return SIZE_MAX;
        size_t k = 0;
        LF_FOR_CHUNKS(ck, ck_end, 0, h->n, dl) {
            for (size_t i = ck; i < ck_end; i++) {
                if (!keep[i]) continue;
                const lf_op *op = &h->ops[i];
                w[k++] = ((op->call - lo) << 33) | (uint64_t)i;
                if (!lf_op_pending(op)) w[k++] = ((op->ret - lo) << 33) | (1ull << 32) | (uint64_t)i;
            }
        }
        if (lf_deadline_expired(dl) || !lf_sort_u64_within(w, n_events, 4, dl)) {
            free(w);
            return SIZE_MAX;
        }
        LF_FOR_CHUNKS(ck, ck_end, 0, n_events, dl) {
            for (size_t e = ck; e < ck_end; e++) ev[e] = (uint32_t)w[e] << 1 | (uint32_t)(w[e] >> 32 & 1);
        }
        free(w);
        return lf_deadline_expired(dl) ? SIZE_MAX : n_events;
    }
    /* Wide stamps: sort (stamp, payload) records; all invocations are laid out before all responses so that
     * the stable sort keeps invocations first at equal stamps. */
    lf_keyed *r = lf_big_malloc(n_events * sizeof *r);
    if (!r) return SIZE_MAX;
    size_t k = 0;
    LF_FOR_CHUNKS(ck, ck_end, 0, h->n, dl) {
        for (size_t i = ck; i < ck_end; i++)
            if (keep[i]) r[k++] = (lf_keyed){h->ops[i].call, (uint32_t)i << 1};
    }
    LF_FOR_CHUNKS(ck, ck_end, 0, h->n, dl) {
        for (size_t i = ck; i < ck_end; i++)
            if (keep[i] && !lf_op_pending(&h->ops[i])) r[k++] = (lf_keyed){h->ops[i].ret, ((uint32_t)i << 1) | 1};
    }
    if (lf_deadline_expired(dl) || !lf_sort_within(r, n_events, dl)) {
        free(r);
        return SIZE_MAX;
    }
    LF_FOR_CHUNKS(ck, ck_end, 0, n_events, dl) {
        for (size_t e = ck; e < ck_end; e++) ev[e] = r[e].payload;
    }
    free(r);
    return lf_deadline_expired(dl) ? SIZE_MAX : n_events;
}

bool lf_rank_stamps(const lf_history *h, const uint8_t *keep, lf_deadline *dl, uint32_t *call_rank,
                    uint32_t *ret_rank) {
    size_t n_events = 0;
    LF_FOR_CHUNKS(ck, ck_end, 0, h->n, dl) {
        for (size_t i = ck; i < ck_end; i++)
            if (keep[i]) n_events += lf_op_pending(&h->ops[i]) ? 1 : 2;
    }
    if (lf_deadline_expired(dl)) return false;
    uint32_t *ev = lf_big_malloc((n_events ? n_events : 1) * sizeof *ev);
    if (!ev || sort_events(h, keep, dl, ev) == SIZE_MAX) {
        free(ev);
        return false;
    }
    LF_FOR_CHUNKS(ck, ck_end, 0, n_events, dl) {
        for (size_t e = ck; e < ck_end; e++) {
            uint32_t i = ev[e] >> 1;
            if (ev[e] & 1)
                ret_rank[i] = (uint32_t)e + 1;
            else
                call_rank[i] = (uint32_t)e + 1;
        }
    }
    free(ev);
    LF_FOR_CHUNKS(ck, ck_end, 0, h->n, dl) {
        for (size_t i = ck; i < ck_end; i++)
            if (keep[i] && lf_op_pending(&h->ops[i])) ret_rank[i] = UINT32_MAX;
    }
    return !lf_deadline_expired(dl);
}

/* ---- descriptions ---- */

void lf_std_value_str(const lf_std *s, uint32_t v, char *buf, size_t len) {
    if (s->value_nil[v])
        snprintf(buf, len, "nil");
    else
        snprintf(buf, len, "%" PRId64, s->value_of[v]);
}

void lf_std_describe(const lf_std *s, const lf_history *h, uint32_t i, char *buf, size_t len) {
    if (i >= s->n_ops) {
        char v[32];
        lf_std_value_str(s, s->val[i], v, sizeof v);
        snprintf(buf, len, "the implicit final removal of %s (it is never removed)", v);
        return;
    }
    char d[200];
    lf_op_describe(d, sizeof d, &h->ops[i]);
    snprintf(buf, len, "op %" PRIu32 " (%s)", i, d);
}

void lf_std_culprit(const lf_std *s, lf_result *r, uint32_t i) {
    if (i < s->n_ops) lf_result_add_culprit(r, i);
}

void lf_std_free(lf_std *s) {
    free(s->kind);
    free(s->val);
    free(s->inv);
    free(s->res);
    free(s->add_op);
    free(s->rem_op);
    free(s->others_next);
    free(s->at);
    free(s->value_of);
    free(s->value_nil);
    memset(s, 0, sizeof *s);
}

/* ---- classification ---- */

enum { PENDING_INSERT = 16, PENDING_REMOVE = 17 }; /* transient kinds during classification */

/* Kind and value of op for the container types. Returns the kind; *value / *nil describe its value. */
static uint8_t classify(lf_type type, const lf_method_info *const *methods, const lf_op *op, int64_t *value,
                        bool *nil) {
    const lf_method_info *mi = methods[op->method];
    bool pending = lf_op_pending(op);
    *value = 0;
    *nil = false;
    if (type == LF_TYPE_SET) {
        *value = op->arg[0];
        *nil = lf_arg_is_nil(op, 0);
        switch (mi->method) {
        case LF_M_ADD:
            return pending ? PENDING_INSERT : op->res_kind == LF_K_TRUE ? STD_ADD : STD_OTHER;
        case LF_M_REMOVE:
            return pending ? PENDING_REMOVE : op->res_kind == LF_K_TRUE ? STD_REM : STD_ABSENT;
        default: /* contains */
            return pending ? STD_DROP : op->res_kind == LF_K_TRUE ? STD_OTHER : STD_ABSENT;
        }
    }
    switch (mi->role) {
    case LF_ROLE_INSERT:
        *value = op->arg[0];
        *nil = lf_arg_is_nil(op, 0);
        return pending ? PENDING_INSERT : STD_ADD;
    case LF_ROLE_REMOVE:
        if (pending) return PENDING_REMOVE;
        break;
    default: /* peek */
        if (pending) return STD_DROP;
        break;
    }
    if (op->res_kind == LF_K_EMPTY) return STD_EMPTY;
    *value = op->res;
    *nil = op->res_kind == LF_K_NIL;
    return mi->role == LF_ROLE_REMOVE ? STD_REM : STD_OTHER;
}

static const char *insert_name(lf_type t) {
    switch (t) {
    case LF_TYPE_SET: return "added";
    case LF_TYPE_STACK:
    case LF_TYPE_DEQUE: return "pushed";
    case LF_TYPE_QUEUE: return "enqueued";
    default: return "inserted";
    }
}

static const char *remove_name(lf_type t) {
    switch (t) {
    case LF_TYPE_SET: return "removed";
    case LF_TYPE_STACK:
    case LF_TYPE_DEQUE: return "popped";
    case LF_TYPE_QUEUE: return "dequeued";
    default: return "polled";
    }
}

/* Classifies every op, assigns value ids, checks unambiguity and fills add_op/rem_op.
 * Returns LF_LINEARIZABLE to continue. */
/* Values numbered densely (as generators and recorders often do) skip hashing: when the integers of the history
 * span a range not much larger than it, map numbers that range directly (left as it is once the deadline
 * expired). */
static void number_dense_range(const lf_history *h, const lf_method_info *const *methods, lf_value_map *map,
                               lf_deadline *dl) {
    size_t n = h->n;
    int64_t lo = INT64_MAX, hi = INT64_MIN;
    LF_FOR_CHUNKS(ck, ck_end, 0, n, dl) {
        for (size_t i = ck; i < ck_end; i++) {
            const lf_op *op = &h->ops[i];
            if (methods[op->method]->nargs > 0 && !(op->arg_nil & 1)) {
                if (op->arg[0] < lo) lo = op->arg[0];
                if (op->arg[0] > hi) hi = op->arg[0];
            }
            if (op->res_kind == LF_K_INT) {
                if (op->res < lo) lo = op->res;
                if (op->res > hi) hi = op->res;
            }
        }
    }
    if (lf_deadline_expired(dl)) return;
    if (lo <= hi && (uint64_t)hi - (uint64_t)lo < 2 * (uint64_t)n + 64) (void)lf_value_map_add_dense_range(map, lo, hi);
}

/* Grows the per-value arrays (s's and the two of classify_all) from *vcap values to hold value v. False when out
 * of memory (the arrays that grew are kept, *vcap unchanged). */
static bool grow_value_arrays(lf_std *s, uint32_t **pending_insert, uint32_t **observed, size_t *vcap, uint32_t v,
                              size_t n) {
    /* Room for as many values as there are ops, at once: the arrays never move (a moved block loses its
     * huge pages, util/big_alloc.h), and what is never touched is only address space. */
    size_t nc = lf_grow_capacity(*vcap, (size_t)v + 1, sizeof *s->value_of, n + 1); /* widest of them */
    if (!nc) return false;
    int64_t *vo = lf_big_realloc(s->value_of, nc * sizeof *vo);
    if (vo) s->value_of = vo;
    uint8_t *vn = lf_big_realloc(s->value_nil, nc);
    if (vn) s->value_nil = vn;
    uint32_t *a = lf_big_realloc(s->add_op, nc * sizeof *a);
    if (a) s->add_op = a;
    uint32_t *b = lf_big_realloc(s->rem_op, nc * sizeof *b);
    if (b) s->rem_op = b;
    uint32_t *c = lf_big_realloc(*pending_insert, nc * sizeof *c);
    if (c) *pending_insert = c;
    uint32_t *d = lf_big_realloc(*observed, nc * sizeof *d);
    if (d) *observed = d;
    if (!vo || !vn || !a || !b || !c || !d) return false;
    *vcap = nc;
    return true;
}

/* Touching ops of a value that was never inserted: true when there is one (r says which), false when there is
 * none or the deadline expired. */
static bool observes_never_inserted(const lf_history *h, const lf_std *s, lf_deadline *dl, lf_result *r) {
    size_t n = h->n;
    LF_FOR_CHUNKS(ck, ck_end, 0, n, dl) {
        for (size_t i = ck; i < ck_end; i++) {
            uint8_t k = s->kind[i];
            if ((k == STD_REM || k == STD_OTHER) && s->add_op[s->val[i]] == NONE) {
                char d[200], vs[32];
                lf_op_describe(d, sizeof d, &h->ops[i]);
                lf_std_value_str(s, s->val[i], vs, sizeof vs);
                lf_result_set(r, LF_VIOLATION, "monitor", "op %zu (%s) observes value %s, which is never %s", i, d, vs,
                              insert_name(h->type));
                lf_result_add_culprit(r, (uint32_t)i);
                return true;
            }
        }
    }
    return false;
}

static lf_verdict classify_all(const lf_history *h, lf_std *s, lf_result *r) {
    size_t n = h->n;
    lf_value_map map;
    uint32_t *pending_insert = NULL; /* per value: a pending insert op, or NONE */
    uint32_t *observed = NULL;       /* per value: completed ops that need it present */
    if (!lf_value_map_init(&map, n / 2 + 1)) {
        lf_result_set(r, LF_UNKNOWN, "monitor", "out of memory classifying %zu ops", n);
        return LF_UNKNOWN;
    }
    /* The type's methods, looked up once (ops of a validated history only use these). */
    const lf_method_info *methods[LF_M_COUNT];
    for (int m = 0; m < LF_M_COUNT; m++) methods[m] = lf_method_info_of(h->type, (lf_method)m);
    number_dense_range(h, methods, &map, s->dl);
    size_t vcap = 0;
    /* The whole history is classified before anything is decided: a value inserted twice makes it ambiguous
     * (unknown), which overrides a value removed twice (a violation when it is inserted at most once), which
     * overrides a pending remove (unknown: its effect is unknown). */
    size_t pending_remove = SIZE_MAX;
    uint32_t twice_a = NONE, twice_b = NONE;
    for (size_t i = 0; i < n; i++) {
        int64_t value;
        bool nil;
        if (lf_deadline_every(s->dl, i)) goto late;
        if (i + 16 < n) { /* spread values miss the cache in the map: start loading a later op's slot */
            const lf_op *later = &h->ops[i + 16];
            lf_value_map_prefetch(&map, methods[later->method]->nargs ? later->arg[0] : later->res);
        }
        uint8_t k = classify(h->type, methods, &h->ops[i], &value, &nil);
        if (k == PENDING_REMOVE) {
            if (pending_remove == SIZE_MAX) pending_remove = i;
            s->kind[i] = STD_DROP;
            continue;
        }
        s->kind[i] = k;
        if (k == STD_DROP || k == STD_EMPTY) continue;
        uint32_t v = lf_value_map_id(&map, value, nil);
        if (v == NONE) goto oom;
        s->val[i] = v;
        if (v >= vcap && !grow_value_arrays(s, &pending_insert, &observed, &vcap, v, n)) goto oom;
        if (v == s->n_values) { /* first sighting: ids are handed out in order */
            s->value_of[v] = value;
            s->value_nil[v] = nil;
            s->add_op[v] = s->rem_op[v] = pending_insert[v] = NONE;
            observed[v] = 0;
            s->n_values++;
        }
        switch (k) {
        case STD_ADD:
        case PENDING_INSERT: {
            uint32_t prev = s->add_op[v] != NONE ? s->add_op[v] : pending_insert[v];
            if (prev != NONE) {
                char v1[200], v2[200], vs[32];
                lf_std_value_str(s, v, vs, sizeof vs);
                lf_op_describe(v1, sizeof v1, &h->ops[prev]);
                lf_op_describe(v2, sizeof v2, &h->ops[i]);
                lf_result_set(r, LF_UNKNOWN, "monitor",
                              "unsupported: value %s is %s twice (op %" PRIu32 ": %s; op %zu: %s): the history is "
                              "ambiguous",
                              vs, insert_name(h->type), prev, v1, i, v2);
                goto fail;
            }
            if (k == STD_ADD)
                s->add_op[v] = (uint32_t)i;
            else
                pending_insert[v] = (uint32_t)i;
            break;
        }
        case STD_REM:
            if (s->rem_op[v] != NONE) {
                if (twice_a == NONE) twice_a = s->rem_op[v], twice_b = (uint32_t)i;
                s->kind[i] = STD_DROP;
                continue;
            }
            s->rem_op[v] = (uint32_t)i;
            observed[v]++;
            break;
        case STD_OTHER:
            observed[v]++;
            break;
        default:
            break;
        }
    }
    if (twice_a != NONE) { /* removed twice, and no value is inserted twice */
        char v1[200], v2[200], vs[32];
        lf_std_value_str(s, s->val[twice_a], vs, sizeof vs);
        lf_op_describe(v1, sizeof v1, &h->ops[twice_a]);
        lf_op_describe(v2, sizeof v2, &h->ops[twice_b]);
        lf_result_set(r, LF_VIOLATION, "monitor",
                      "value %s is %s twice (op %" PRIu32 ": %s; op %" PRIu32 ": %s) but %s at most once", vs,
                      remove_name(h->type), twice_a, v1, twice_b, v2, insert_name(h->type));
        lf_result_add_culprit(r, twice_a);
        lf_result_add_culprit(r, twice_b);
        goto fail;
    }
    if (pending_remove != SIZE_MAX) {
        char d[200];
        lf_op_describe(d, sizeof d, &h->ops[pending_remove]);
        lf_result_set(r, LF_UNKNOWN, "monitor",
                      "unsupported: pending remove op %zu (%s): its effect is unknown, which the monitors "
                      "cannot decide",
                      pending_remove, d);
        goto fail;
    }
    /* Pending inserts: observed ones took effect at some point after their call (response at +inf);
     * unobserved ones may never have happened, which for a container changes nothing else: drop them. */
    LF_FOR_CHUNKS(ck, ck_end, 0, s->n_values, s->dl) {
        for (uint32_t v = (uint32_t)ck; v < ck_end; v++) {
            uint32_t p = pending_insert[v];
            if (p == NONE) continue;
            if (observed[v] > 0) {
                s->kind[p] = STD_ADD;
                s->add_op[v] = p;
            } else {
                s->kind[p] = STD_DROP;
            }
        }
    }
    if (lf_deadline_expired(s->dl)) goto late;
    /* Touching ops of a value that was never inserted. */
    if (observes_never_inserted(h, s, s->dl, r)) goto fail;
    if (lf_deadline_expired(s->dl)) goto late;
    free(pending_insert);
    free(observed);
    lf_value_map_free(&map);
    return LF_LINEARIZABLE;
oom:
    lf_result_set(r, LF_UNKNOWN, "monitor", "out of memory classifying %zu ops", n);
    goto fail;
late:
    lf_monitor_late(r, "classifying ops");
fail:
    free(pending_insert);
    free(observed);
    lf_value_map_free(&map);
    return r->verdict == LF_LINEARIZABLE ? LF_UNKNOWN : r->verdict;
}

/* ---- tuning sweep ([Lee25]) ---- */

enum { F_ADD_INV = 1, F_ADD_DONE = 2, F_REM_INV = 4, F_REM_DONE = 8 };

static lf_verdict tuning_violation(const lf_history *h, lf_std *s, lf_result *r, uint32_t o, uint32_t other,
                                   const char *what) {
    char a[300], b[300];
    lf_std_describe(s, h, o, a, sizeof a);
    lf_std_describe(s, h, other, b, sizeof b);
    lf_result_set(r, LF_VIOLATION, "monitor", "%s %s %s", a, what, b);
    lf_std_culprit(s, r, o);
    lf_std_culprit(s, r, other);
    return LF_VIOLATION;
}

/* Sweeps the events in ranked order (ev: op << 1 | is_response) and assigns fresh tuned stamps into
 * inv/res, writing the event of each assignment to at[stamp] (a moved invocation leaves its old entry
 * behind; compact_stamps drops those). at has room for every possible assignment: one per event, plus at
 * most one move per op invoked before its value's add and one per observer invoked after its remove, so
 * n_ev + 2 * n_total. Returns the last clock value, or 0 after recording a violation in r. */
static uint32_t tune(const lf_history *h, lf_std *s, const uint32_t *ev, size_t n_ev, uint32_t *at, lf_result *r) {
    uint32_t nv = s->n_values;
    uint8_t *flags = lf_big_calloc(nv ? nv : 1, 1);
    uint32_t *head = lf_big_malloc((nv ? nv : 1) * sizeof *head);
    if (!flags || !head) {
        free(flags);
        free(head);
        lf_result_set(r, LF_UNKNOWN, "monitor", "out of memory tuning %u ops", s->n_total);
        return 0;
    }
    memset(head, 0xff, (nv ? nv : 1) * sizeof *head);
    uint32_t *inv = s->inv, *res = s->res, *next = s->others_next;
    memset(res, 0, s->n_total * sizeof *res);
    uint32_t clock = 0;
#define TICK(event) (at[++clock] = (event), clock)
    for (size_t e = 0; e < n_ev; e++) {
        if (lf_deadline_every(s->dl, e)) {
            clock = 0;
            lf_monitor_late(r, "tuning intervals");
            break;
        }
        uint32_t o = ev[e] >> 1;
        bool is_res = ev[e] & 1;
        uint8_t k = s->kind[o];
        if (k == STD_EMPTY || k == STD_ABSENT) {
            if (is_res)
                res[o] = TICK(o << 1 | 1);
            else
                inv[o] = TICK(o << 1);
            continue;
        }
        uint32_t v = s->val[o];
        uint32_t add = s->add_op[v], rem = s->rem_op[v];
        if (!is_res) {
            inv[o] = TICK(o << 1);
            if (k == STD_ADD) {
                flags[v] |= F_ADD_INV;
                /* Ops of v invoked before its add cannot take effect before it: move their invocations. */
                for (uint32_t x = head[v]; x != NONE; x = next[x])
                    if (!res[x]) inv[x] = TICK(x << 1);
                if (flags[v] & F_REM_INV) inv[rem] = TICK(rem << 1);
            } else if (k == STD_REM) {
                flags[v] |= F_REM_INV;
            } else {
                next[o] = head[v];
                head[v] = o;
                if (flags[v] & F_REM_INV) {
                    if (flags[v] & F_REM_DONE) {
                        clock = 0;
                        tuning_violation(h, s, r, o, rem, "is invoked after its value was removed by");
                        break;
                    }
                    inv[rem] = TICK(rem << 1); /* the remove must take effect after this op */
                }
            }
        } else if (k == STD_ADD) {
            if (!res[o]) res[o] = TICK(o << 1 | 1);
            flags[v] |= F_ADD_DONE;
        } else {
            if (k == STD_OTHER && res[o]) continue; /* already pulled in by the remove */
            if (!(flags[v] & F_ADD_INV)) {
                clock = 0;
                tuning_violation(h, s, r, o, add, "returns before the insertion of its value is invoked:");
                break;
            }
            /* The add must take effect before this op returns: pull its response in. */
            if (!(flags[v] & F_ADD_DONE)) {
                res[add] = TICK(add << 1 | 1);
                flags[v] |= F_ADD_DONE;
            }
            if (k == STD_REM) {
                for (uint32_t x = head[v]; x != NONE; x = next[x])
                    if (!res[x]) res[x] = TICK(x << 1 | 1);
                head[v] = NONE;
                res[o] = TICK(o << 1 | 1);
                flags[v] |= F_REM_DONE;
            } else {
                res[o] = TICK(o << 1 | 1);
            }
        }
    }
#undef TICK
    free(flags);
    free(head);
    return clock;
}

/* Replaces the clock values in inv/res by their ranks 1..n_stamps, and at[1..n_stamps] by the event at each
 * stamp. Clock values only grow, so an entry of at[] is current iff its op's endpoint still holds that
 * clock value; the others were left behind by moved invocations. In place: the rank never exceeds the clock
 * value being read. */
static bool compact_stamps(lf_std *s, uint32_t *at, uint32_t clock) {
    uint32_t k = 0;
    LF_FOR_CHUNKS(ck, ck_end, 1, (size_t)clock + 1, s->dl) {
        for (uint32_t c = (uint32_t)ck; c < ck_end; c++) {
            uint32_t e = at[c], o = e >> 1;
            uint32_t *end = e & 1 ? &s->res[o] : &s->inv[o];
            if (*end != c) continue;
            *end = ++k;
            at[k] = e;
        }
    }
    s->n_stamps = k;
    return !lf_deadline_expired(s->dl);
}

/* Lemma 4.2: each empty-returning op needs a moment (partition) that no critical interval covers. */
static lf_verdict check_empty_ops(const lf_history *h, lf_std *s, lf_result *r) {
    bool any = false;
    LF_FOR_CHUNKS(ck, ck_end, 0, any ? 0 : s->n_ops, s->dl) { /* up to the first empty op */
        for (size_t i = ck; i < ck_end && !any; i++) any = s->kind[i] == STD_EMPTY;
    }
    if (lf_deadline_expired(s->dl)) return lf_monitor_late(r, "checking empty results");
    if (!any) return LF_LINEARIZABLE;
    uint32_t M = s->n_stamps;
    int32_t *zeros = lf_big_calloc((size_t)M + 2, sizeof *zeros);
    if (!zeros) {
        lf_result_set(r, LF_UNKNOWN, "monitor", "out of memory checking empty ops");
        return LF_UNKNOWN;
    }
    LF_FOR_CHUNKS(ck, ck_end, 0, s->n_values, s->dl) {
        for (uint32_t v = (uint32_t)ck; v < ck_end; v++) {
            uint32_t lo, hi;
            if (!lf_std_ci(s, v, &lo, &hi)) continue;
            zeros[lo]++;
            zeros[hi]--;
        }
    }
    /* zeros[p] := number of uncovered partitions in 1..p */
    int32_t cover = 0, count = 0;
    LF_FOR_CHUNKS(ck, ck_end, 1, (size_t)M + 1, s->dl) {
        for (uint32_t p = (uint32_t)ck; p < ck_end; p++) {
            cover += zeros[p];
            if (cover == 0 && p < M) count++;
            zeros[p] = count;
        }
    }
    /* The first empty op that no uncovered partition frees. */
    uint32_t bad = NONE;
    LF_FOR_CHUNKS(ck, ck_end, 0, bad == NONE ? s->n_ops : 0, s->dl) {
        for (uint32_t i = (uint32_t)ck; i < ck_end && bad == NONE; i++) {
            if (s->kind[i] != STD_EMPTY) continue;
            uint32_t a = s->inv[i], b = s->res[i]; /* partitions a..b-1 */
            if (zeros[b - 1] - zeros[a - 1] <= 0) bad = i;
        }
    }
    lf_verdict verdict = lf_deadline_expired(s->dl) ? lf_monitor_late(r, "checking empty results") : LF_LINEARIZABLE;
    if (verdict == LF_LINEARIZABLE && bad != NONE) {
        uint32_t i = bad, a = s->inv[i];
        /* Name a value certainly present during the op: one whose critical interval covers its start. */
        uint32_t witness = NONE;
        for (uint32_t v = 0; v < s->n_values && witness == NONE; v++) {
            uint32_t lo, hi;
            if (lf_std_ci(s, v, &lo, &hi) && lo <= a && a < hi) witness = v;
        }
        char d[300], vs[32] = "?", ad[300] = "", rd[300] = "";
        lf_std_describe(s, h, i, d, sizeof d);
        if (witness != NONE) {
            lf_std_value_str(s, witness, vs, sizeof vs);
            lf_std_describe(s, h, s->add_op[witness], ad, sizeof ad);
            lf_std_describe(s, h, s->rem_op[witness], rd, sizeof rd);
            lf_std_culprit(s, r, s->add_op[witness]);
            lf_std_culprit(s, r, s->rem_op[witness]);
        }
        lf_result_set(r, LF_VIOLATION, "monitor",
                      "%s returns empty, but at every moment of it some value is certainly present (e.g. %s, "
                      "between %s and %s)",
                      d, vs, ad, rd);
        lf_std_culprit(s, r, i);
        verdict = LF_VIOLATION;
    }
    free(zeros);
    return verdict;
}

lf_verdict lf_standardize(const lf_history *h, lf_deadline *dl, lf_std *s, lf_result *r) {
    memset(s, 0, sizeof *s);
    s->dl = dl;
    s->type = h->type;
    size_t n = h->n;
    if (n >= (1u << 30)) {
        lf_result_set(r, LF_UNKNOWN, "monitor", "unsupported: %zu ops exceed the monitors' limit", n);
        return LF_UNKNOWN;
    }
    s->n_ops = (uint32_t)n;
    /* With room for the artificial removes (at most one per value, so n_total <= 2n): no moves later. */
    s->kind = lf_big_calloc(2 * n + 1, 1);
    s->val = lf_big_malloc((2 * n + 1) * sizeof *s->val);
    if (!s->kind || !s->val) {
        lf_result_set(r, LF_UNKNOWN, "monitor", "out of memory");
        return LF_UNKNOWN;
    }
    lf_verdict v = classify_all(h, s, r);
    if (v != LF_LINEARIZABLE) return v;

    /* Well-matching: every value never removed gets an artificial remove after everything. */
    uint32_t n_art = 0;
    LF_FOR_CHUNKS(ck, ck_end, 0, s->n_values, dl) {
        for (uint32_t x = (uint32_t)ck; x < ck_end; x++) {
            if (s->add_op[x] != NONE && s->rem_op[x] == NONE) n_art++;
        }
    }
    if (lf_deadline_expired(dl)) return lf_monitor_late(r, "standardizing");
    s->n_total = s->n_ops + n_art;
    size_t nt = s->n_total ? s->n_total : 1;
    s->inv = lf_big_malloc(nt * sizeof *s->inv);
    s->res = lf_big_malloc(nt * sizeof *s->res);
    s->others_next = lf_big_malloc(nt * sizeof *s->others_next);
    if (!s->inv || !s->res || !s->others_next) {
        lf_result_set(r, LF_UNKNOWN, "monitor", "out of memory");
        return LF_UNKNOWN;
    }
    uint32_t a = s->n_ops;
    LF_FOR_CHUNKS(ck, ck_end, 0, s->n_values, dl) {
        for (uint32_t x = (uint32_t)ck; x < ck_end; x++) {
            if (s->add_op[x] == NONE || s->rem_op[x] != NONE) continue;
            s->kind[a] = STD_REM;
            s->val[a] = x;
            s->rem_op[x] = a++;
        }
    }
    if (lf_deadline_expired(dl)) return lf_monitor_late(r, "standardizing");
    /* Event order: ranked real events, then responses of observed pending inserts (at +inf), then the
     * artificial removes' invocations and responses (after everything, empty ops included). */
    size_t n_real_ev = 0, n_pend = 0;
    LF_FOR_CHUNKS(ck, ck_end, 0, s->n_ops, dl) {
        for (uint32_t i = (uint32_t)ck; i < ck_end; i++) {
            uint8_t k = s->kind[i];
            if (k == STD_DROP) continue;
            s->has_other |= k == STD_OTHER;
            s->has_absent |= k == STD_ABSENT;
            n_real_ev++;
            if (lf_op_pending(&h->ops[i]))
                n_pend++;
            else
                n_real_ev++;
        }
    }
    if (lf_deadline_expired(dl)) return lf_monitor_late(r, "standardizing");
    size_t n_ev = n_real_ev + n_pend + 2 * (size_t)n_art;
    uint32_t *ev = lf_big_malloc((n_ev ? n_ev : 1) * sizeof *ev);
    if (!ev || sort_events(h, s->kind, dl, ev) == SIZE_MAX) {
        free(ev);
        if (lf_deadline_expired(dl)) return lf_monitor_late(r, "sorting events");
        lf_result_set(r, LF_UNKNOWN, "monitor", "out of memory sorting events");
        return LF_UNKNOWN;
    }
    size_t k = n_real_ev;
    if (n_pend) {
        LF_FOR_CHUNKS(ck, ck_end, 0, s->n_ops, dl) {
            for (uint32_t i = (uint32_t)ck; i < ck_end; i++) {
                if (s->kind[i] != STD_DROP && lf_op_pending(&h->ops[i])) ev[k++] = (i << 1) | 1;
            }
        }
        if (lf_deadline_expired(dl)) {
            free(ev);
            return lf_monitor_late(r, "standardizing");
        }
    }
    for (uint32_t i = s->n_ops; i < s->n_total; i++) ev[k++] = i << 1;
    for (uint32_t i = s->n_ops; i < s->n_total; i++) ev[k++] = (i << 1) | 1;
    s->at = lf_big_malloc((n_ev + 2 * (size_t)s->n_total + 1) * sizeof *s->at);
    if (!s->at) {
        free(ev);
        lf_result_set(r, LF_UNKNOWN, "monitor", "out of memory");
        return LF_UNKNOWN;
    }
    uint32_t clock = tune(h, s, ev, n_ev, s->at, r);
    free(ev);
    free(s->others_next);
    s->others_next = NULL;
    if (clock == 0) return n_ev == 0 ? LF_LINEARIZABLE : r->verdict;
    if (!compact_stamps(s, s->at, clock)) return lf_monitor_late(r, "standardizing");
    return check_empty_ops(h, s, r);
}
