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

#define NONE UINT32_MAX
#define NEVER UINT64_MAX /* response stamp of an op that has not returned: after everything */

typedef struct {
    uint32_t add, rem, pending_add;
    uint32_t min_res_op, max_inv_op; /* over the ops that need v present, add and remove included */
    uint32_t first_user;             /* an op needing v present, other than its add */
    uint64_t min_res, max_inv;
    uint64_t user_min_res, user_max_inv; /* over the ops needing v present other than add and remove */
    uint32_t user_min_res_op, user_max_inv_op;
} set_value;

enum { K_DROP, K_ADD, K_REM, K_PRESENT, K_ABSENT, K_PENDING_ADD };

static int kind_of(const lf_op *op) {
    bool pending = lf_op_pending(op), yes = op->res_kind == LF_K_TRUE;
    switch ((lf_method)op->method) {
    case LF_M_ADD: return pending ? K_PENDING_ADD : yes ? K_ADD : K_PRESENT;
    case LF_M_REMOVE: return pending ? -1 : yes ? K_REM : K_ABSENT;
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

lf_verdict lf_monitor_set_direct(const lf_history *h, lf_result *r) {
    size_t n = h->n;
    lf_verdict verdict = LF_UNKNOWN;
    lf_value_map map;
    uint32_t *val = malloc((n ? n : 1) * sizeof *val);
    set_value *sv = NULL;
    size_t cap = 0;
    bool map_ok = lf_value_map_init(&map, n / 2 + 1);
    if (!val || !map_ok) goto oom;
    int64_t lo = INT64_MAX, hi = INT64_MIN;
    for (size_t i = 0; i < n; i++) {
        const lf_op *op = &h->ops[i];
        if (lf_arg_is_nil(op, 0)) continue;
        if (op->arg[0] < lo) lo = op->arg[0];
        if (op->arg[0] > hi) hi = op->arg[0];
    }
    if (lo <= hi && (uint64_t)hi - (uint64_t)lo < 2 * (uint64_t)n + 64) (void)lf_value_map_add_dense_range(&map, lo, hi);

    /* Pass 1: per-value adds, removes and the extremes of the ops that need the value present. */
    for (size_t i = 0; i < n; i++) {
        const lf_op *op = &h->ops[i];
        int k = kind_of(op);
        if (k < 0) {
            char d[300];
            describe(h, (uint32_t)i, d, sizeof d);
            lf_result_set(r, LF_UNKNOWN, "monitor",
                          "unsupported: pending remove %s: its effect is unknown, which the monitors cannot decide", d);
            goto done;
        }
        if (k == K_DROP) continue;
        uint32_t v = lf_value_map_id(&map, op->arg[0], lf_arg_is_nil(op, 0));
        if (v == NONE) goto oom;
        val[i] = v;
        if (v >= cap) {
            size_t nc = cap ? cap * 2 : 1024;
            set_value *grown = realloc(sv, nc * sizeof *sv);
            if (!grown) goto oom;
            sv = grown;
            for (size_t j = cap; j < nc; j++)
                sv[j] = (set_value){NONE, NONE, NONE, NONE, NONE, NONE, NEVER, 0, NEVER, 0, NONE, NONE};
            cap = nc;
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
                lf_result_free(r); /* a double removal seen earlier is no violation in an ambiguous history */
                lf_result_set(r, LF_UNKNOWN, "monitor",
                              "unsupported: value %s is added twice (%s; %s): the history is ambiguous", vs, a, b);
                verdict = LF_UNKNOWN;
                goto done;
            }
            if (k == K_PENDING_ADD) {
                s->pending_add = (uint32_t)i;
                continue;
            }
            s->add = (uint32_t)i;
        } else if (k == K_REM) {
            if (s->rem != NONE) {
                /* Removed twice with at most one add: a violation, unless a second add makes it ambiguous. */
                if (verdict != LF_VIOLATION) {
                    conflict(h, r, s->rem, (uint32_t)i, "value removed twice: %s and %s, but it is added at most once");
                    verdict = LF_VIOLATION;
                }
                continue;
            }
            s->rem = (uint32_t)i;
        } else {
            if (s->first_user == NONE) s->first_user = (uint32_t)i;
            if (op->ret < s->user_min_res) {
                s->user_min_res = op->ret;
                s->user_min_res_op = (uint32_t)i;
            }
            if (op->call >= s->user_max_inv) {
                s->user_max_inv = op->call;
                s->user_max_inv_op = (uint32_t)i;
            }
        }
        if (k == K_REM && s->first_user == NONE) s->first_user = (uint32_t)i;
        uint64_t res = lf_op_pending(op) ? NEVER : op->ret;
        if (res < s->min_res) {
            s->min_res = res;
            s->min_res_op = (uint32_t)i;
        }
        if (op->call >= s->max_inv) {
            s->max_inv = op->call;
            s->max_inv_op = (uint32_t)i;
        }
    }
    if (verdict == LF_VIOLATION) goto done;

    /* Per value: pending adds, never-added values, and the order of add, users and remove (F1, F2). */
    for (uint32_t v = 0; v < map.count && v < cap; v++) {
        set_value *s = &sv[v];
        if (s->pending_add != NONE) {
            if (s->first_user == NONE) continue; /* never observed: it may never have happened */
            /* Observed: it took effect at some point after its call; its response is "after everything". */
            s->add = s->pending_add;
            if (h->ops[s->add].call >= s->max_inv) {
                s->max_inv = h->ops[s->add].call;
                s->max_inv_op = s->add;
            }
        }
        if (s->first_user != NONE && s->add == NONE) {
            char d[300], vs[32];
            describe(h, s->first_user, d, sizeof d);
            value_str(&h->ops[s->first_user], vs, sizeof vs);
            lf_result_set(r, LF_VIOLATION, "monitor", "%s needs value %s present, but it is never added", d, vs);
            lf_result_add_culprit(r, s->first_user);
            verdict = LF_VIOLATION;
            goto done;
        }
        if (s->add == NONE) continue;
        const lf_op *add = &h->ops[s->add];
        /* F1: an op needing v returns before its add is called. */
        if (s->user_min_res_op != NONE && s->user_min_res < add->call) {
            verdict = conflict(h, r, s->user_min_res_op, s->add, "%s returns before %s, which adds its value, is called");
            goto done;
        }
        if (s->rem != NONE && h->ops[s->rem].ret < add->call) {
            verdict = conflict(h, r, s->rem, s->add, "%s returns before %s, which adds its value, is called");
            goto done;
        }
        /* F2: an op needing v is called after its remove returned. */
        if (s->rem != NONE && s->user_max_inv_op != NONE && s->user_max_inv > h->ops[s->rem].ret) {
            verdict = conflict(h, r, s->user_max_inv_op, s->rem, "%s is called after its value was removed by %s");
            goto done;
        }
        /* Never removed: it stays present to the end. */
        if (s->rem == NONE) s->max_inv = NEVER;
    }

    /* Pass 2: absent observations strictly inside a value's certain presence. */
    for (size_t i = 0; i < n; i++) {
        const lf_op *op = &h->ops[i];
        if (kind_of(op) != K_ABSENT) continue;
        set_value *s = &sv[val[i]];
        if (s->add == NONE) continue;
        if (s->min_res < op->call && op->ret < s->max_inv) {
            char d[300], a[300], b[300], vs[32];
            describe(h, (uint32_t)i, d, sizeof d);
            describe(h, s->min_res_op, a, sizeof a);
            value_str(op, vs, sizeof vs);
            if (s->max_inv == NEVER)
                snprintf(b, sizeof b, "the end (it is never removed)");
            else
                describe(h, s->max_inv_op, b, sizeof b);
            lf_result_set(r, LF_VIOLATION, "monitor",
                          "%s says %s is absent, but %s is certainly in the set for the whole op: from the end of %s "
                          "to the start of %s",
                          d, vs, vs, a, b);
            lf_result_add_culprit(r, (uint32_t)i);
            lf_result_add_culprit(r, s->min_res_op);
            if (s->max_inv != NEVER) lf_result_add_culprit(r, s->max_inv_op);
            verdict = LF_VIOLATION;
            goto done;
        }
    }
    verdict = LF_LINEARIZABLE;
    goto done;
oom:
    lf_result_set(r, LF_UNKNOWN, "monitor", "out of memory in the set monitor");
    verdict = LF_UNKNOWN;
done:
    if (map_ok) lf_value_map_free(&map);
    free(val);
    free(sv);
    return verdict;
}
