/* P-compositionality ([Horn15]): splits a history by the spec's partition key,
 * runs one WGL search per part under one shared budget, and aggregates: a violation in any part is a
 * violation of the whole; otherwise an unknown part makes the whole unknown; otherwise it is linearizable,
 * and the parts' witnesses are merged into one global order (the locality argument: per-part orders plus
 * real-time order are acyclic, so a topological order exists and is built greedily).
 *
 * Splitting happens only when every op has a key: one op that observes the whole object (the spec's
 * partition_key answers false) keeps the history in one piece (search cases H21/H22). Each part is
 * checked with a fresh instance of the full spec opened on that part's ops, so keys that collide only
 * merge parts, which stays sound (H31). Specs without partition_key (stack, queue, ...) are never split. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "budget/deadline.h"
#include "history/validate.h"
#include "util/radix_sort.h"
#include "wgl/decide.h"
#include "wgl/wgl.h"
#include "wgl/wgl_search.h"
#include "util/clock.h"

void lf_wgl_options_default(lf_wgl_options *o) {
    memset(o, 0, sizeof *o);
    o->partition = true;
    o->use_cache = true;
    o->frontier = true;
}

static void copy_mapped(uint32_t **dst, size_t *dst_len, const uint32_t *src, size_t len, const uint32_t *orig) {
    *dst = malloc((len ? len : 1) * sizeof **dst);
    if (!*dst) {
        *dst_len = 0;
        return;
    }
    for (size_t i = 0; i < len; i++) (*dst)[i] = orig ? orig[src[i]] : src[i];
    *dst_len = len;
}

/* ---- witness merge ---- */

typedef struct merge_heap {
    uint32_t *part; /* heap of part ids ordered by the call stamp of their next op */
    size_t n;
} merge_heap;

static uint64_t head_call(const lf_op *ops, uint32_t *const *orders, const size_t *pos, uint32_t p) {
    return ops[orders[p][pos[p]]].call;
}

static void heap_sift_down(merge_heap *h, const lf_op *ops, uint32_t *const *orders, const size_t *pos, size_t i) {
    for (;;) {
        size_t l = 2 * i + 1, m = i;
        if (l < h->n && head_call(ops, orders, pos, h->part[l]) < head_call(ops, orders, pos, h->part[m])) m = l;
        if (l + 1 < h->n && head_call(ops, orders, pos, h->part[l + 1]) < head_call(ops, orders, pos, h->part[m]))
            m = l + 1;
        if (m == i) return;
        uint32_t t = h->part[i];
        h->part[i] = h->part[m];
        h->part[m] = t;
        i = m;
    }
}

typedef struct ret_slot {
    uint64_t ret;
    uint32_t op;
} ret_slot;

static int cmp_ret_slot(const void *a, const void *b) {
    const ret_slot *x = a, *y = b;
    if (x->ret != y->ret) return x->ret < y->ret ? -1 : 1;
    return (x->op > y->op) - (x->op < y->op);
}

/* Merges per-part linearizations (global op indices) into one order consistent with every part's order
 * and with real time. An op may go next once every op that returned before its call is placed. Returns
 * false when no order exists (which the locality theorem rules out) or memory runs out. */
static bool merge_witnesses(const lf_op *ops, size_t n, uint32_t *const *orders, const size_t *lens, size_t parts,
                            uint32_t **out, size_t *out_len) {
    size_t total = 0;
    for (size_t p = 0; p < parts; p++) total += lens[p];
    uint32_t *res = malloc((total ? total : 1) * sizeof *res);
    size_t *pos = calloc(parts ? parts : 1, sizeof *pos);
    merge_heap heap = {malloc((parts ? parts : 1) * sizeof *heap.part), 0};
    ret_slot *by_ret = malloc((total ? total : 1) * sizeof *by_ret);
    unsigned char *placed = calloc(n ? n : 1, 1);
    bool ok = res && pos && heap.part && by_ret && placed;
    size_t k = 0, r = 0, done = 0;
    if (ok) {
        /* Completed ops only: a pending op precedes nothing (no stamp stands for "never returned"). */
        for (size_t p = 0; p < parts; p++)
            for (size_t i = 0; i < lens[p]; i++) {
                uint32_t o = orders[p][i];
                if (!lf_op_pending(&ops[o])) by_ret[k++] = (ret_slot){ops[o].ret, o};
            }
        qsort(by_ret, k, sizeof *by_ret, cmp_ret_slot);
        for (size_t p = 0; p < parts; p++)
            if (lens[p]) heap.part[heap.n++] = (uint32_t)p;
        for (size_t i = heap.n; i-- > 0;) heap_sift_down(&heap, ops, orders, pos, i);
    }
    size_t n_ret = k;
    while (ok && heap.n) {
        while (r < n_ret && placed[by_ret[r].op]) r++;
        uint32_t p = heap.part[0];
        uint32_t o = orders[p][pos[p]];
        /* The head with the earliest call is the one most likely to be free; if it is not, none is. */
        if (r < n_ret && by_ret[r].ret < ops[o].call) {
            ok = false;
            break;
        }
        res[done++] = o;
        placed[o] = 1;
        if (++pos[p] == lens[p]) heap.part[0] = heap.part[--heap.n];
        if (heap.n) heap_sift_down(&heap, ops, orders, pos, 0);
    }
    free(pos);
    free(heap.part);
    free(by_ret);
    free(placed);
    if (!ok) {
        free(res);
        return false;
    }
    *out = res;
    *out_len = done;
    return true;
}

/* ---- checking ---- */

static void finish_result(lf_result *r, const wgl_budget *b, size_t parts) {
    r->steps = b->steps;
    r->partitions = parts;
}

void lf_wgl_check_spec(const lf_spec *spec, const lf_spec_env *env, const lf_wgl_options *o, lf_result *r) {
    lf_wgl_options defaults;
    if (!o) {
        lf_wgl_options_default(&defaults);
        o = &defaults;
    }
    wgl_budget budget;
    memset(&budget, 0, sizeof budget);
    budget.deadline = o->deadline > 0 ? o->deadline : lf_deadline_from_timeout(o->timeout_s);
    lf_deadline dl; /* the budget's deadline, for the loops over the history */
    lf_deadline_init(&dl, budget.deadline);
    budget.max_bytes = o->max_memory_bytes ? o->max_memory_bytes : LF_WGL_DEFAULT_MEMORY;
    budget.max_steps = o->max_steps;
    budget.progress = o->progress;
    wgl_search_opts sopts = {o->use_cache, o->bitset_key, o->want_witness, !o->frontier};
    size_t n = env->n;

    /* Keys: split only when every op has one. */
    lf_keyed *keyed = NULL;
    size_t parts = 1;
    if (o->partition && spec->partition_key && n > 1) {
        size_t book = n * sizeof *keyed;
        keyed = book < budget.max_bytes ? malloc(book) : NULL;
        for (size_t i = 0; keyed && i < n; i++) {
            keyed[i].payload = (uint32_t)i;
            if (lf_deadline_every(&dl, i) || !lf_spec_partition_key(spec, env, &env->ops[i], &keyed[i].key)) {
                free(keyed); /* op i observes the whole object (or time is up: the search stops at once) */
                keyed = NULL;
            }
        }
        if (keyed && !lf_sort_within(keyed, n, &dl)) { /* stable: each part keeps its ops in index order */
            free(keyed);
            keyed = NULL;
        }
        if (keyed) {
            for (size_t i = 1; i < n; i++) parts += keyed[i].key != keyed[i - 1].key;
            if (parts == 1) {
                free(keyed);
                keyed = NULL;
            }
        }
    }

    if (!keyed) {
        wgl_part_result pr;
        memset(&pr, 0, sizeof pr);
        lf_wgl_decide(spec, env, NULL, &sopts, &budget, &pr);
        lf_result_set(r, pr.verdict, "wgl", "%s", pr.reason);
        if (pr.verdict == LF_LINEARIZABLE && o->want_witness) {
            r->witness = pr.order;
            r->witness_len = pr.order_len;
            pr.order = NULL;
        } else if (pr.verdict == LF_VIOLATION) {
            r->prefix = pr.order;
            r->prefix_len = pr.order_len;
            r->culprits = pr.culprits;
            r->n_culprits = pr.n_culprits;
            pr.order = pr.culprits = NULL;
        }
        lf_wgl_part_result_free(&pr);
        finish_result(r, &budget, 1);
        return;
    }

    /* The bookkeeping of the split is charged to the budget the searches get. */
    size_t max_part = 0;
    for (size_t i = 0, j; i < n; i = j) {
        for (j = i + 1; j < n && keyed[j].key == keyed[i].key; j++) {
        }
        if (j - i > max_part) max_part = j - i;
    }
    size_t book = n * sizeof *keyed + max_part * (sizeof(lf_op) + sizeof(uint32_t)) +
                  (o->want_witness ? parts * (sizeof(uint32_t *) + sizeof(size_t)) + n * sizeof(uint32_t) : 0);
    budget.max_bytes = budget.max_bytes > book ? budget.max_bytes - book : 0;
    lf_op *sub = malloc(max_part * sizeof *sub);
    uint32_t *orig = malloc(max_part * sizeof *orig);
    uint32_t **orders = o->want_witness ? calloc(parts, sizeof *orders) : NULL;
    size_t *lens = o->want_witness ? calloc(parts, sizeof *lens) : NULL;
    if (!sub || !orig || (o->want_witness && (!orders || !lens))) {
        lf_result_set(r, LF_UNKNOWN, "wgl", "out of memory splitting %zu ops into %zu parts", n, parts);
        parts = 0; /* nothing to free below */
        goto done;
    }
    size_t unknown_parts = 0, part = 0;
    char first_unknown[sizeof r->reason] = "";
    bool violation = false;
    for (size_t i = 0, j; i < n && !violation; i = j, part++) {
        for (j = i + 1; j < n && keyed[j].key == keyed[i].key; j++) {
        }
        size_t m = j - i;
        if (lf_deadline_spend(&dl, m < LF_DEADLINE_STRIDE ? (uint32_t)m : LF_DEADLINE_STRIDE)) {
            /* this part and the ones after it are undecided */
            if (!unknown_parts)
                snprintf(first_unknown, sizeof first_unknown,
                         "part with key %" PRId64 " (%zu ops): time budget exhausted before it was checked",
                         (int64_t)keyed[i].key, m);
            unknown_parts += parts - part;
            break;
        }
        for (size_t k = 0; k < m; k++) {
            orig[k] = keyed[i + k].payload;
            sub[k] = env->ops[orig[k]];
        }
        lf_spec_env sub_env = *env;
        sub_env.ops = sub;
        sub_env.n = m;
        wgl_part_result pr;
        memset(&pr, 0, sizeof pr);
        lf_wgl_decide(spec, &sub_env, orig, &sopts, &budget, &pr);
        int64_t key = (int64_t)keyed[i].key;
        if (pr.verdict == LF_VIOLATION) {
            violation = true;
            lf_result_set(r, LF_VIOLATION, "wgl", "in the part with key %" PRId64 " (%zu of %zu ops): %s", key, m, n,
                          pr.reason);
            copy_mapped(&r->prefix, &r->prefix_len, pr.order, pr.order_len, orig);
            copy_mapped(&r->culprits, &r->n_culprits, pr.culprits, pr.n_culprits, orig);
        } else if (pr.verdict == LF_UNKNOWN) {
            if (!unknown_parts++)
                snprintf(first_unknown, sizeof first_unknown, "part with key %" PRId64 " (%zu ops): %.400s", key, m,
                         pr.reason);
        } else if (orders) {
            copy_mapped(&orders[part], &lens[part], pr.order, pr.order_len, orig);
        }
        lf_wgl_part_result_free(&pr);
    }
    if (violation) goto done;
    if (unknown_parts) {
        lf_result_set(r, LF_UNKNOWN, "wgl", "%zu of %zu parts undecided; first: %s", unknown_parts, parts,
                      first_unknown);
        goto done;
    }
    lf_result_set(r, LF_LINEARIZABLE, "wgl", "every one of %zu parts is linearizable", parts);
    if (orders && !merge_witnesses(env->ops, n, orders, lens, parts, &r->witness, &r->witness_len)) {
        /* Cannot happen when the spec's keys satisfy [Horn15]; never claim what was not shown. */
        lf_result_set(r, LF_UNKNOWN, "wgl",
                      "every part is linearizable but their orders do not merge: the spec's partition key "
                      "is not sound for this history");
    }
done:
    if (orders)
        for (size_t p = 0; p < parts; p++) free(orders[p]);
    free(orders);
    free(lens);
    free(sub);
    free(orig);
    free(keyed);
    finish_result(r, &budget, parts);
}

void lf_wgl_check(const lf_history *h, const lf_wgl_options *o, lf_result *r) {
    char err[400];
    lf_wgl_options with_deadline; /* the time budget counts from here, validation included */
    if (o)
        with_deadline = *o;
    else
        lf_wgl_options_default(&with_deadline);
    if (with_deadline.deadline <= 0) with_deadline.deadline = lf_deadline_from_timeout(with_deadline.timeout_s);
    lf_deadline dl;
    lf_deadline_init(&dl, with_deadline.deadline);
    bool late;
    if (lf_history_validate_within(h, &dl, &late, err, sizeof err) != SIZE_MAX) {
        lf_result_set(r, LF_UNKNOWN, "wgl", "malformed history: %s", err);
        return;
    }
    if (late) {
        lf_result_set(r, LF_UNKNOWN, "wgl", "time budget exhausted before the search (validating %zu ops)", h->n);
        return;
    }
    o = &with_deadline;
    const lf_spec *spec = lf_spec_of_history(h);
    if (!spec) {
        lf_result_set(r, LF_UNKNOWN, "wgl", "no specification for type %s", lf_history_type_name(h));
        return;
    }
    lf_spec_env env;
    lf_spec_env_of_history(h, &env);
    lf_wgl_check_spec(spec, &env, o, r);
}
