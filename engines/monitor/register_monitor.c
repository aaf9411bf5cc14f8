/* Register monitor ([Lee25]; Gibbons & Korach 1997): with every value written once, a history is
 * linearizable iff (1) no read of v returns before the write of v is invoked, (2) the "forward zones" of
 * values (from the earliest response to the latest invocation among a value's write and reads, when that
 * order is forced) are pairwise disjoint, and (3) no value's backward zone lies inside another's forward
 * zone. The initial value is a write before everything. O(n log n). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "monitor/monitors.h"
#include "util/radix_sort.h"
#include "util/value_map.h"
#include "util/big_alloc.h"

#define NONE UINT32_MAX
#define INIT_OP (UINT32_MAX - 1) /* the implicit initial write */

typedef struct {
    uint32_t writer;         /* op index, INIT_OP or NONE */
    uint32_t min_res, max_inv; /* over the cluster (write + reads), in ranks */
    uint32_t min_res_op, max_inv_op;
    int64_t value;
    bool nil;
    bool observed;
} cluster;

static void describe(const lf_history *h, uint32_t op, char *buf, size_t len) {
    if (op == INIT_OP) {
        snprintf(buf, len, "the initial value");
        return;
    }
    char d[200];
    lf_op_describe(d, sizeof d, &h->ops[op]);
    snprintf(buf, len, "op %" PRIu32 " (%s)", op, d);
}

static void value_str(const cluster *c, char *buf, size_t len) {
    if (c->nil)
        snprintf(buf, len, "nil");
    else
        snprintf(buf, len, "%" PRId64, c->value);
}

static void culprit(lf_result *r, uint32_t op) {
    if (op != INIT_OP && op != NONE) lf_result_add_culprit(r, op);
}

/* Values numbered densely skip hashing: when the integers written and read span a range not much larger than
 * the history, map numbers that range directly (left as it is once the deadline expired). */
static void number_dense_range(const lf_history *h, lf_value_map *map, lf_deadline *dl) {
    size_t n = h->n;
    int64_t lo = h->init_kind == LF_K_INT ? h->init : INT64_MAX, hi = h->init_kind == LF_K_INT ? h->init : INT64_MIN;
    LF_FOR_CHUNKS(ck, ck_end, 0, n, dl) {
        for (size_t i = ck; i < ck_end; i++) {
            const lf_op *op = &h->ops[i];
            bool is_write = op->method == LF_M_WRITE;
            if (is_write ? lf_arg_is_nil(op, 0) : op->res_kind != LF_K_INT) continue;
            int64_t x = is_write ? op->arg[0] : op->res;
            if (x < lo) lo = x;
            if (x > hi) hi = x;
        }
    }
    if (lf_deadline_expired(dl)) return;
    if (lo <= hi && (uint64_t)hi - (uint64_t)lo < 2 * (uint64_t)n + 64) (void)lf_value_map_add_dense_range(map, lo, hi);
}

/* Numbers the values: the initial value first (id 0), then every written or read value; val[i] is op i's, keep[i]
 * set for the ops that constrain (all but pending reads). False when out of memory. */
static bool number_values(const lf_history *h, lf_value_map *map, uint32_t *val, uint8_t *keep, lf_deadline *dl) {
    size_t n = h->n;
    LF_FOR_CHUNKS(ck, ck_end, 0, n, dl) {
        for (size_t i = ck; i < ck_end; i++) {
            const lf_op *op = &h->ops[i];
            bool is_write = op->method == LF_M_WRITE;
            if (!is_write && lf_op_pending(op)) continue; /* a pending read constrains nothing */
            int64_t value = is_write ? op->arg[0] : op->res;
            bool nil = is_write ? lf_arg_is_nil(op, 0) : op->res_kind == LF_K_NIL;
            if (map->count == 0) {
                /* Register the initial value before any other so its id is 0. */
                (void)lf_value_map_id(map, h->init, h->init_kind == LF_K_NIL);
            }
            uint32_t v = lf_value_map_id(map, value, nil);
            if (v == NONE) return false;
            val[i] = v;
            keep[i] = 1;
        }
    }
    return true;
}

/* A pending write that nobody read may never have happened (dropped); one that was read happened after its
 * call. */
static void drop_unread_pending_writes(const lf_history *h, cluster *cl, uint8_t *keep, const uint32_t *val,
                                       lf_deadline *dl) {
    size_t n = h->n;
    LF_FOR_CHUNKS(ck, ck_end, 0, n, dl) {
        for (size_t i = ck; i < ck_end; i++) {
            if (!keep[i] || h->ops[i].method != LF_M_WRITE || !lf_op_pending(&h->ops[i])) continue;
            if (!cl[val[i]].observed) {
                keep[i] = 0;
                cl[val[i]].writer = NONE;
            }
        }
    }
}

/* (1) No read returns before its write is invoked: true when one does (r says which), false when none does or
 * the deadline expired. */
static bool read_before_its_write(const lf_history *h, const cluster *cl, const uint8_t *keep, const uint32_t *val,
                                  const uint32_t *inv, const uint32_t *res, lf_deadline *dl, lf_result *r) {
    size_t n = h->n;
    LF_FOR_CHUNKS(ck, ck_end, 0, n, dl) {
        for (size_t i = ck; i < ck_end; i++) {
            if (!keep[i] || h->ops[i].method == LF_M_WRITE) continue;
            uint32_t w = cl[val[i]].writer;
            uint32_t w_inv = w == INIT_OP ? 1 : inv[w];
            if (res[i] < w_inv) {
                char a[300], b[300];
                describe(h, (uint32_t)i, a, sizeof a);
                describe(h, w, b, sizeof b);
                lf_result_set(r, LF_VIOLATION, "monitor", "%s returns before %s, which writes its value, is invoked", a,
                              b);
                culprit(r, (uint32_t)i);
                culprit(r, w);
                return true;
            }
        }
    }
    return false;
}

/* (2) The forward zones (fwd: their starts and values, sorted) are pairwise disjoint: true when two overlap (r says
 * which), false when none do or the deadline expired. */
static bool forward_zones_overlap(const lf_history *h, const cluster *cl, const uint64_t *fwd, size_t n_fwd,
                                  lf_deadline *dl, lf_result *r) {
    LF_FOR_CHUNKS(ck, ck_end, 1, n_fwd, dl) {
        for (size_t j = ck; j < ck_end; j++) {
            const cluster *a = &cl[(uint32_t)fwd[j - 1]], *b = &cl[(uint32_t)fwd[j]];
            if (b->min_res < a->max_inv) {
                char as[32], bs[32], a1[300], a2[300], b1[300], b2[300];
                value_str(a, as, sizeof as);
                value_str(b, bs, sizeof bs);
                describe(h, a->min_res_op, a1, sizeof a1);
                describe(h, a->max_inv_op, a2, sizeof a2);
                describe(h, b->min_res_op, b1, sizeof b1);
                describe(h, b->max_inv_op, b2, sizeof b2);
                lf_result_set(r, LF_VIOLATION, "monitor",
                              "values %s and %s cannot both be current in turn: %s must stay current from the end "
                              "of %s until %s starts, and %s from the end of %s until %s starts, and these overlap",
                              as, bs, as, a1, a2, bs, b1, b2);
                culprit(r, a->min_res_op);
                culprit(r, a->max_inv_op);
                culprit(r, b->min_res_op);
                culprit(r, b->max_inv_op);
                return true;
            }
        }
    }
    return false;
}

/* (3) No backward zone [max_inv, min_res] lies strictly inside another value's forward zone: true when one does
 * (r says which), false when none does or the deadline expired. */
static bool backward_zone_inside_forward(const lf_history *h, const cluster *cl, size_t ccap, const uint64_t *fwd,
                                         size_t n_fwd, lf_deadline *dl, lf_result *r) {
    LF_FOR_CHUNKS(ck, ck_end, 0, ccap, dl) {
        for (uint32_t v = (uint32_t)ck; v < ck_end; v++) {
            const cluster *c = &cl[v];
            if (c->writer == NONE || c->min_res < c->max_inv) continue;
            uint32_t a = c->max_inv, b = c->min_res;
            /* forward zone with the largest start below a */
            size_t left = 0, right = n_fwd;
            while (left < right) {
                size_t mid = (left + right) / 2;
                if ((uint32_t)(fwd[mid] >> 32) < a)
                    left = mid + 1;
                else
                    right = mid;
            }
            if (left == 0) continue;
            const cluster *f = &cl[(uint32_t)fwd[left - 1]];
            if (b < f->max_inv) {
                char cs[32], fs[32], w[300], f1[300], f2[300];
                value_str(c, cs, sizeof cs);
                value_str(f, fs, sizeof fs);
                describe(h, c->writer, w, sizeof w);
                describe(h, f->min_res_op, f1, sizeof f1);
                describe(h, f->max_inv_op, f2, sizeof f2);
                lf_result_set(r, LF_VIOLATION, "monitor",
                              "%s (value %s) must take effect while %s is required to stay current: from the end of %s "
                              "until %s starts",
                              w, cs, fs, f1, f2);
                culprit(r, c->writer);
                culprit(r, f->min_res_op);
                culprit(r, f->max_inv_op);
                return true;
            }
        }
    }
    return false;
}

lf_verdict lf_monitor_register(const lf_history *h, lf_deadline *dl, lf_result *r) {
    size_t n = h->n;
    lf_verdict verdict = LF_UNKNOWN;
    lf_value_map map;
    cluster *cl = NULL;
    uint32_t *val = lf_big_malloc((n ? n : 1) * sizeof *val);
    uint8_t *keep = lf_big_calloc(n ? n : 1, 1);
    uint32_t *inv = lf_big_malloc((n ? n : 1) * sizeof *inv);
    uint32_t *res = lf_big_malloc((n ? n : 1) * sizeof *res);
    uint64_t *fwd = NULL;
    size_t ccap = 0;
    bool map_ok = lf_value_map_init(&map, n / 2 + 2);
    if (!val || !keep || !inv || !res || !map_ok) goto oom;

    number_dense_range(h, &map, dl);
    if (lf_deadline_expired(dl)) goto late;
    if (!number_values(h, &map, val, keep, dl)) goto oom;
    if (lf_deadline_expired(dl)) goto late;
    if (map.count == 0) (void)lf_value_map_id(&map, h->init, h->init_kind == LF_K_NIL);
    ccap = map.count;
    lf_value_map_free(&map); /* ids are assigned; free it before the big allocations below */
    map_ok = false;
    cl = lf_big_calloc(ccap, sizeof *cl);
    if (!cl) goto oom;
    LF_FOR_CHUNKS(ck, ck_end, 0, ccap, dl) {
        for (uint32_t v = (uint32_t)ck; v < ck_end; v++) {
            cl[v].writer = NONE;
            cl[v].min_res = UINT32_MAX;
            cl[v].max_inv = 0;
        }
    }
    if (lf_deadline_expired(dl)) goto late;
    cl[0].writer = INIT_OP;
    cl[0].value = h->init;
    cl[0].nil = h->init_kind == LF_K_NIL;
    LF_FOR_CHUNKS(ck, ck_end, 0, n, dl) {
        for (size_t i = ck; i < ck_end; i++) {
            if (!keep[i]) continue;
            const lf_op *op = &h->ops[i];
            cluster *c = &cl[val[i]];
            if (op->method == LF_M_WRITE) {
                c->value = op->arg[0];
                c->nil = lf_arg_is_nil(op, 0);
                if (c->writer != NONE) {
                    char a[300], b[300], vs[32];
                    describe(h, c->writer, a, sizeof a);
                    describe(h, (uint32_t)i, b, sizeof b);
                    value_str(c, vs, sizeof vs);
                    lf_result_set(r, LF_UNKNOWN, "monitor",
                                  "unsupported: value %s is written twice (%s; %s): the history is ambiguous", vs, a,
                                  b);
                    goto done;
                }
                c->writer = (uint32_t)i;
            } else {
                c->value = op->res;
                c->nil = op->res_kind == LF_K_NIL;
                c->observed = true;
            }
        }
    }
    if (lf_deadline_expired(dl)) goto late;
    drop_unread_pending_writes(h, cl, keep, val, dl);
    if (lf_deadline_expired(dl)) goto late;
    LF_FOR_CHUNKS(ck, ck_end, 0, n, dl) {
        for (size_t i = ck; i < ck_end; i++) {
            if (!keep[i] || h->ops[i].method == LF_M_WRITE || cl[val[i]].writer != NONE) continue;
            char a[300], vs[32];
            describe(h, (uint32_t)i, a, sizeof a);
            value_str(&cl[val[i]], vs, sizeof vs);
            lf_result_set(r, LF_VIOLATION, "monitor", "%s reads %s, which is never written", a, vs);
            culprit(r, (uint32_t)i);
            verdict = LF_VIOLATION;
            goto done;
        }
    }
    if (lf_deadline_expired(dl)) goto late;
    if (!lf_rank_stamps(h, keep, dl, inv, res)) goto oom;
    /* Shift ranks by 2 so the initial write occupies [1, 2], before everything. */
    cl[0].min_res = 2;
    cl[0].max_inv = 1;
    cl[0].min_res_op = cl[0].max_inv_op = INIT_OP;
    LF_FOR_CHUNKS(ck, ck_end, 0, n, dl) {
        for (size_t i = ck; i < ck_end; i++) {
            if (!keep[i]) continue;
            inv[i] += 2;
            if (res[i] != UINT32_MAX) res[i] += 2;
            cluster *c = &cl[val[i]];
            if (res[i] < c->min_res) {
                c->min_res = res[i];
                c->min_res_op = (uint32_t)i;
            }
            if (inv[i] > c->max_inv) {
                c->max_inv = inv[i];
                c->max_inv_op = (uint32_t)i;
            }
        }
    }
    if (lf_deadline_expired(dl)) goto late;
    /* (1) no read returns before its write is invoked */
    if (read_before_its_write(h, cl, keep, val, inv, res, dl, r)) {
        verdict = LF_VIOLATION;
        goto done;
    }
    if (lf_deadline_expired(dl)) goto late;
    /* (2) forward zones pairwise disjoint */
    size_t n_fwd = 0;
    fwd = lf_big_malloc(ccap * sizeof *fwd);
    if (!fwd) goto oom;
    LF_FOR_CHUNKS(ck, ck_end, 0, ccap, dl) {
        for (uint32_t v = (uint32_t)ck; v < ck_end; v++) {
            if (cl[v].writer != NONE && cl[v].min_res < cl[v].max_inv)
                fwd[n_fwd++] = ((uint64_t)cl[v].min_res << 32) | v;
        }
    }
    if (lf_deadline_expired(dl)) goto late;
    if (!lf_sort_u64_within(fwd, n_fwd, 4, dl)) goto oom;
    if (forward_zones_overlap(h, cl, fwd, n_fwd, dl, r)) {
        verdict = LF_VIOLATION;
        goto done;
    }
    if (lf_deadline_expired(dl)) goto late;
    /* (3) no backward zone [max_inv, min_res] strictly inside another value's forward zone */
    if (backward_zone_inside_forward(h, cl, ccap, fwd, n_fwd, dl, r)) {
        verdict = LF_VIOLATION;
        goto done;
    }
    if (lf_deadline_expired(dl)) goto late;
    verdict = LF_LINEARIZABLE;
    goto done;
oom:
    if (lf_deadline_expired(dl))
        lf_monitor_late(r, "register");
    else
        lf_result_set(r, LF_UNKNOWN, "monitor", "out of memory in the register monitor");
    goto done;
late:
    lf_monitor_late(r, "register");
done:
    if (map_ok) lf_value_map_free(&map);
    free(cl);
    free(val);
    free(keep);
    free(inv);
    free(res);
    free(fwd);
    return verdict;
}
