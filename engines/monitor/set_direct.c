/* Set monitor without standardisation ([Lee25]): sets have no empty-returning ops, so neither
 * sorting nor tuning is needed. Per value, on the original stamps (A precedes B iff A.ret < B.call):
 *  - nothing that needs v present (remove -> true, contains -> true, add -> false) returns before v's add is
 *    called, and nothing that needs it present is called after v's remove returned;
 *  - an "absent" op (contains -> false, remove -> false) must not lie strictly inside the window where v is
 *    certainly present: after some op needing v returned, before some op needing v is called.
 * One pass to gather per-value extremes, one pass over the absent ops: O(n) after numbering values. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "monitor/monitors.h"
#include "util/value_map.h"
#include "util/big_alloc.h"

#define NONE UINT32_MAX

/* Per value. Extremes are kept as op indices, never as stamps, so that no stamp value (0 and 2^64-1
 * included) has a special meaning: a pending add's response and a never-removed value's end are "after
 * everything" by flag, not by a sentinel stamp. */
typedef struct {
    uint32_t add, rem, pending_add;
    uint32_t min_res_op; /* completed op needing v present (add and remove included) that returns first */
    uint32_t max_inv_op; /* op needing v present (add and remove included) that is called last */
    uint32_t first_user; /* an op needing v present, other than its add */
    uint32_t user_min_res_op, user_max_inv_op; /* the same over the ops needing v other than add and remove */
    bool forever; /* never removed: present from its add to the end */
} set_value;

enum { K_DROP, K_ADD, K_REM, K_PRESENT, K_ABSENT, K_PENDING_ADD, K_PENDING_REM };

static int kind_of(const lf_op *op) {
    bool pending = lf_op_pending(op), yes = op->res_kind == LF_K_TRUE;
    switch ((lf_method)op->method) {
    case LF_M_ADD: return pending ? K_PENDING_ADD : yes ? K_ADD : K_PRESENT;
    case LF_M_REMOVE: return pending ? K_PENDING_REM : yes ? K_REM : K_ABSENT;
    default: return pending ? K_DROP : yes ? K_PRESENT : K_ABSENT;
    }
}

static void describe(const lf_history *h, uint32_t i, char *buf, size_t len) {
    char d[200];
    lf_op_describe_typed(d, sizeof d, h->type, &h->ops[i]);
    snprintf(buf, len, "op %" PRIu32 " (%s)", i, d);
}

static void value_str(const lf_op *op, char *buf, size_t len) {
    if (lf_arg_is_nil(op, 0))
        snprintf(buf, len, "nil");
    else
        snprintf(buf, len, "%" PRId64, op->arg[0]);
}

static lf_verdict conflict(const lf_history *h, lf_result *r, uint32_t a, uint32_t b, const char *fmt) {
    char da[300], db[300];
    describe(h, a, da, sizeof da);
    describe(h, b, db, sizeof db);
    lf_result_set(r, LF_VIOLATION, "monitor", fmt, da, db);
    lf_result_add_culprit(r, a);
    lf_result_add_culprit(r, b);
    return LF_VIOLATION;
}

/* Keeps the op of the earlier return (a) or the later call (b) in *slot. */
static void take_min_res(const lf_history *h, uint32_t *slot, uint32_t i) {
    if (*slot == NONE || h->ops[i].ret < h->ops[*slot].ret) *slot = i;
}
static void take_max_inv(const lf_history *h, uint32_t *slot, uint32_t i) {
    if (*slot == NONE || h->ops[i].call >= h->ops[*slot].call) *slot = i;
}

/* How the per-value pass ended: every value in order, a verdict set in r, or out of time. */
typedef enum { VALUES_IN_ORDER, VALUES_DECIDED, VALUES_LATE } values_pass;

/* Per value: pending adds, never-added values, and the order of add, users and remove (F1, F2); marks the
 * values never removed (forever). */
static values_pass check_value_orders(const lf_history *h, set_value *sv, size_t n_values, lf_deadline *dl,
                                      lf_result *r) {
    for (uint32_t v = 0; v < n_values; v++) {
        if (lf_deadline_every(dl, v)) return VALUES_LATE;
        set_value *s = &sv[v];
        if (s->pending_add != NONE) {
            if (s->first_user == NONE) continue; /* never observed: it may never have happened */
            /* Observed: it took effect at some point after its call; its response is after everything, so it
             * never is the earliest response. */
            s->add = s->pending_add;
            take_max_inv(h, &s->max_inv_op, s->add);
        }
        if (s->first_user != NONE && s->add == NONE) {
            char d[300], vs[32];
            describe(h, s->first_user, d, sizeof d);
            value_str(&h->ops[s->first_user], vs, sizeof vs);
            lf_result_set(r, LF_VIOLATION, "monitor", "%s needs value %s present, but it is never added", d, vs);
            lf_result_add_culprit(r, s->first_user);
            return VALUES_DECIDED;
        }
        if (s->add == NONE) continue;
        const lf_op *add = &h->ops[s->add];
        /* F1: an op needing v returns before its add is called. */
        if (s->user_min_res_op != NONE && h->ops[s->user_min_res_op].ret < add->call) {
            conflict(h, r, s->user_min_res_op, s->add, "%s returns before %s, which adds its value, is called");
            return VALUES_DECIDED;
        }
        if (s->rem != NONE && h->ops[s->rem].ret < add->call) {
            conflict(h, r, s->rem, s->add, "%s returns before %s, which adds its value, is called");
            return VALUES_DECIDED;
        }
        /* F2: an op needing v is called after its remove returned. */
        if (s->rem != NONE && s->user_max_inv_op != NONE && h->ops[s->user_max_inv_op].call > h->ops[s->rem].ret) {
            conflict(h, r, s->user_max_inv_op, s->rem, "%s is called after its value was removed by %s");
            return VALUES_DECIDED;
        }
        /* Never removed: it stays present to the end. */
        s->forever = s->rem == NONE;
    }
    return VALUES_IN_ORDER;
}

/* Pass 2: absent observations strictly inside a value's certain presence: after the earliest response of an op
 * needing it, before the latest call of one (or forever, when it is never removed). True when one is (r says
 * which); false when none is or the deadline expired. */
static bool absent_while_present(const lf_history *h, const set_value *sv, const uint32_t *val, lf_deadline *dl,
                                 lf_result *r) {
    size_t n = h->n;
    LF_FOR_CHUNKS(ck, ck_end, 0, n, dl) {
        for (size_t i = ck; i < ck_end; i++) {
            const lf_op *op = &h->ops[i];
            if (kind_of(op) != K_ABSENT) continue;
            const set_value *s = &sv[val[i]];
            if (s->add == NONE || s->min_res_op == NONE) continue;
            if (h->ops[s->min_res_op].ret < op->call && (s->forever || op->ret < h->ops[s->max_inv_op].call)) {
                char d[300], a[300], b[400], vs[32];
                describe(h, (uint32_t)i, d, sizeof d);
                describe(h, s->min_res_op, a, sizeof a);
                value_str(op, vs, sizeof vs);
                if (s->forever) {
                    snprintf(b, sizeof b, "the end of the history (it is never removed)");
                } else {
                    char m[300];
                    describe(h, s->max_inv_op, m, sizeof m);
                    snprintf(b, sizeof b, "the start of %s", m);
                }
                lf_result_set(r, LF_VIOLATION, "monitor",
                              "%s says %s is absent, but %s is certainly in the set for the whole op: from the end "
                              "of %s to %s",
                              d, vs, vs, a, b);
                lf_result_add_culprit(r, (uint32_t)i);
                lf_result_add_culprit(r, s->min_res_op);
                if (!s->forever) lf_result_add_culprit(r, s->max_inv_op);
                return true;
            }
        }
    }
    return false;
}

lf_verdict lf_monitor_set_direct(const lf_history *h, lf_deadline *dl, lf_result *r) {
    size_t n = h->n;
    lf_value_map map;
    uint32_t *val = lf_big_malloc((n ? n : 1) * sizeof *val);
    set_value *sv = NULL;
    size_t cap = 0;
    bool map_ok = lf_value_map_init(&map, n / 2 + 1);
    if (!val || !map_ok) goto oom;
    int64_t lo = INT64_MAX, hi = INT64_MIN;
    LF_FOR_CHUNKS(ck, ck_end, 0, n, dl) {
        for (size_t i = ck; i < ck_end; i++) {
            const lf_op *op = &h->ops[i];
            if (lf_arg_is_nil(op, 0)) continue;
            if (op->arg[0] < lo) lo = op->arg[0];
            if (op->arg[0] > hi) hi = op->arg[0];
        }
    }
    if (lf_deadline_expired(dl)) goto late;
    if (lo <= hi && (uint64_t)hi - (uint64_t)lo < 2 * (uint64_t)n + 64) (void)lf_value_map_add_dense_range(&map, lo, hi);

    /* Pass 1: per-value adds, removes and the extremes of the ops that need the value present. The whole
     * history is classified before anything is decided: an add seen twice makes it ambiguous (unknown), which
     * overrides a value removed twice (a violation only when added at most once), which overrides a pending
     * remove (unknown: its effect is unknown). */
    uint32_t pending_rem = NONE, twice_a = NONE, twice_b = NONE;
    LF_FOR_CHUNKS(ck, ck_end, 0, n, dl) {
        for (size_t i = ck; i < ck_end; i++) {
            const lf_op *op = &h->ops[i];
            int k = kind_of(op);
            if (k == K_PENDING_REM) {
                if (pending_rem == NONE) pending_rem = (uint32_t)i;
                continue;
            }
            if (k == K_DROP) continue;
            uint32_t v = lf_value_map_id(&map, op->arg[0], lf_arg_is_nil(op, 0));
            if (v == NONE) goto oom;
            val[i] = v;
            if (v == cap) { /* first sighting: ids are handed out in order */
                if (!sv) sv = lf_big_malloc((n + 1) * sizeof *sv); /* room for one value per op: never moved */
                if (!sv) goto oom;
                sv[cap++] = (set_value){NONE, NONE, NONE, NONE, NONE, NONE, NONE, NONE, false};
            }
            set_value *s = &sv[v];
            if (k == K_ABSENT) continue;
            if (k == K_ADD || k == K_PENDING_ADD) {
                uint32_t prev = s->add != NONE ? s->add : s->pending_add;
                if (prev != NONE) {
                    char a[300], b[300], vs[32];
                    describe(h, prev, a, sizeof a);
                    describe(h, (uint32_t)i, b, sizeof b);
                    value_str(op, vs, sizeof vs);
                    lf_result_set(r, LF_UNKNOWN, "monitor",
                                  "unsupported: value %s is added twice (%s; %s): the history is ambiguous", vs, a, b);
                    goto done;
                }
                if (k == K_PENDING_ADD) {
                    s->pending_add = (uint32_t)i;
                    continue;
                }
                s->add = (uint32_t)i;
            } else if (k == K_REM) {
                if (s->rem != NONE) {
                    if (twice_a == NONE) twice_a = s->rem, twice_b = (uint32_t)i;
                    continue;
                }
                s->rem = (uint32_t)i;
                if (s->first_user == NONE) s->first_user = (uint32_t)i;
            } else {
                if (s->first_user == NONE) s->first_user = (uint32_t)i;
                take_min_res(h, &s->user_min_res_op, (uint32_t)i);
                take_max_inv(h, &s->user_max_inv_op, (uint32_t)i);
            }
            take_min_res(h, &s->min_res_op, (uint32_t)i);
            take_max_inv(h, &s->max_inv_op, (uint32_t)i);
        }
    }
    if (lf_deadline_expired(dl)) goto late;
    if (twice_a != NONE) {
        conflict(h, r, twice_a, twice_b, "value removed twice: %s and %s, but it is added at most once");
        goto done;
    }
    if (pending_rem != NONE) {
        char d[300];
        describe(h, pending_rem, d, sizeof d);
        lf_result_set(r, LF_UNKNOWN, "monitor",
                      "unsupported: pending remove %s: its effect is unknown, which the monitors cannot decide", d);
        goto done;
    }

    /* Per value: pending adds, never-added values, and the order of add, users and remove (F1, F2). */
    values_pass vp = check_value_orders(h, sv, map.count < cap ? map.count : cap, dl, r);
    if (vp == VALUES_LATE) goto late;
    if (vp == VALUES_DECIDED) goto done;

    if (absent_while_present(h, sv, val, dl, r)) goto done;
    if (lf_deadline_expired(dl)) goto late;
    r->verdict = LF_LINEARIZABLE;
    goto done;
oom:
    lf_result_set(r, LF_UNKNOWN, "monitor", "out of memory in the set monitor");
    goto done;
late:
    lf_monitor_late(r, "set");
done:
    if (map_ok) lf_value_map_free(&map);
    free(val);
    free(sv);
    return r->verdict;
}
