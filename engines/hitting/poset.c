/* The real-time order of a (sub)history for the hitting families: call-time renumbering, chain partition
 * (greedy interval partitioning or threads) and isolated ops. */
#include "hitting/poset.h"

#include <stdlib.h>
#include <string.h>

#include "util/radix_sort.h"

typedef struct {
    uint64_t call;
    uint32_t thread;
    uint32_t index;
} call_key;

/* Call time, then thread, then position: a deterministic topological order (a thread's ops are already in
 * call order, and an op can only precede ops called strictly later). */
static int cmp_call_key(const void *a, const void *b) {
    const call_key *x = a, *y = b;
    if (x->call != y->call) return x->call < y->call ? -1 : 1;
    if (x->thread != y->thread) return x->thread < y->thread ? -1 : 1;
    return x->index < y->index ? -1 : x->index > y->index;
}

static int cmp_u32(const void *a, const void *b) {
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

void lf_hit_poset_free(hit_poset *p) {
    free(p->call); /* the one block holding every per-op array */
    memset(p, 0, sizeof *p);
}

/* Greedy interval partitioning: each op joins a chain whose last op returned before its call, else opens a
 * new chain; the number of chains is then the width. The chain of the op's own thread is preferred so that
 * chains follow threads whenever that costs nothing. */
static bool assign_min_chains(hit_poset *p, const lf_op *ops, lf_deadline *dl) {
    size_t n = p->n, alloc = n ? n : 1;
    uint32_t *chain_last = malloc(alloc * sizeof *chain_last); /* per chain: its last op so far */
    uint32_t *thread_prev = malloc(alloc * sizeof *thread_prev); /* per op: previous op of its thread */
    lf_keyed *keys = malloc(alloc * sizeof *keys);
    if (!chain_last || !thread_prev || !keys) {
        free(chain_last);
        free(thread_prev);
        free(keys);
        return false;
    }
    uint32_t max_thread = 0;
    for (uint32_t i = 0; i < n; i++)
        if (ops[p->op_of[i]].thread > max_thread) max_thread = ops[p->op_of[i]].thread;
    if (max_thread < 4 * n + 64) { /* small thread ids (the usual case): remember each thread's last op */
        uint32_t *last = malloc(((size_t)max_thread + 1) * sizeof *last);
        if (!last) {
            free(chain_last);
            free(thread_prev);
            free(keys);
            return false;
        }
        memset(last, 0xff, ((size_t)max_thread + 1) * sizeof *last);
        for (uint32_t i = 0; i < n; i++) {
            uint32_t t = ops[p->op_of[i]].thread;
            thread_prev[i] = last[t];
            last[t] = i;
        }
        free(last);
    } else {
        for (uint32_t i = 0; i < n; i++) keys[i] = (lf_keyed){ops[p->op_of[i]].thread, i};
        if (!lf_sort_within(keys, n, dl)) { /* stable: by (thread, local) */
            free(chain_last);
            free(thread_prev);
            free(keys);
            return false;
        }
        for (size_t k = 0; k < n; k++)
            thread_prev[keys[k].payload] =
                k > 0 && keys[k - 1].key == keys[k].key ? keys[k - 1].payload : UINT32_MAX;
    }
    free(keys);
    uint32_t chains = 0;
    for (uint32_t i = 0; i < n; i++) {
        /* the search for a chain costs up to one step per chain (the width) */
        if (lf_deadline_spend(dl, chains + 1)) {
            free(chain_last);
            free(thread_prev);
            return false;
        }
        if (hit_pending(p, i)) {
            p->chain[i] = HIT_NO_CHAIN;
            continue;
        }
        uint32_t pick = UINT32_MAX, prev = thread_prev[i];
        if (prev != UINT32_MAX && chain_last[p->chain[prev]] == prev && hit_before(p, prev, i)) pick = p->chain[prev];
        for (uint32_t c = 0; pick == UINT32_MAX && c < chains; c++)
            if (hit_before(p, chain_last[c], i)) pick = c;
        if (pick == UINT32_MAX) pick = chains++;
        p->chain[i] = pick;
        chain_last[pick] = i;
    }
    p->n_chains = chains;
    free(chain_last);
    free(thread_prev);
    return true;
}

static bool assign_thread_chains(hit_poset *p, const lf_op *ops) {
    size_t n = p->n;
    uint32_t *threads = malloc((n ? n : 1) * sizeof *threads);
    if (!threads) return false;
    size_t m = 0;
    for (size_t i = 0; i < n; i++)
        if (!hit_pending(p, (uint32_t)i)) threads[m++] = ops[p->op_of[i]].thread;
    qsort(threads, m, sizeof *threads, cmp_u32);
    size_t distinct = 0;
    for (size_t i = 0; i < m; i++)
        if (i == 0 || threads[i] != threads[distinct - 1]) threads[distinct++] = threads[i];
    for (size_t i = 0; i < n; i++) {
        if (hit_pending(p, (uint32_t)i)) {
            p->chain[i] = HIT_NO_CHAIN;
            continue;
        }
        uint32_t t = ops[p->op_of[i]].thread;
        uint32_t *found = bsearch(&t, threads, distinct, sizeof *threads, cmp_u32);
        p->chain[i] = (uint32_t)(found - threads);
    }
    p->n_chains = (uint32_t)distinct;
    free(threads);
    return true;
}

/* Replaces p's stamps by ranks (see poset.h): equal (stamp, kind) keys share a rank. The calls are listed
 * before the returns and the sort is stable, so calls come first at equal stamps. */
static bool rank_events(hit_poset *p, const lf_op *ops, lf_deadline *dl) {
    size_t n = p->n, m = 0;
    lf_keyed *ev = malloc((n ? 2 * n : 1) * sizeof *ev); /* payload: local index << 1 | is_return */
    if (!ev) return false;
    for (size_t i = 0; i < n; i++) ev[m++] = (lf_keyed){ops[p->op_of[i]].call, (uint32_t)i << 1};
    for (size_t i = 0; i < n; i++)
        if (!lf_op_pending(&ops[p->op_of[i]])) ev[m++] = (lf_keyed){ops[p->op_of[i]].ret, (uint32_t)i << 1 | 1};
    if (!lf_sort_within(ev, m, dl)) {
        free(ev);
        return false;
    }
    uint64_t rank = 0;
    for (size_t k = 0; k < m; k++) {
        if (k > 0 && (ev[k - 1].key != ev[k].key || (ev[k - 1].payload & 1) != (ev[k].payload & 1))) rank++;
        uint32_t i = ev[k].payload >> 1;
        if (ev[k].payload & 1)
            p->ret[i] = rank;
        else
            p->call[i] = rank;
    }
    for (size_t i = 0; i < n; i++)
        if (lf_op_pending(&ops[p->op_of[i]])) p->ret[i] = HIT_PENDING_RET;
    free(ev);
    return true;
}

bool lf_hit_poset_init(hit_poset *p, const lf_op *ops, size_t n, hit_chain_mode mode, lf_deadline *dl) {
    memset(p, 0, sizeof *p);
    p->n = n;
    size_t alloc = n ? n : 1;
    /* One block: call, ret (8-byte aligned first), op_of, chain, isolated. */
    unsigned char *block = malloc(alloc * (2 * sizeof(uint64_t) + 2 * sizeof(uint32_t) + 1));
    call_key *keys = malloc(alloc * sizeof *keys);
    if (!block || !keys) {
        free(block);
        free(keys);
        return false;
    }
    p->call = (uint64_t *)block;
    p->ret = p->call + alloc;
    p->op_of = (uint32_t *)(p->ret + alloc);
    p->chain = p->op_of + alloc;
    p->isolated = (uint8_t *)(p->chain + alloc);
    for (size_t i = 0; i < n; i++) keys[i] = (call_key){ops[i].call, ops[i].thread, (uint32_t)i};
    if (n <= 32) { /* insertion sort: small parts are the common case, and often nearly sorted */
        for (size_t i = 1; i < n; i++)
            for (size_t j = i; j > 0 && cmp_call_key(&keys[j - 1], &keys[j]) > 0; j--) {
                call_key t = keys[j];
                keys[j] = keys[j - 1];
                keys[j - 1] = t;
            }
    } else {
        /* (call, thread, index): stable sorts by thread, then by call */
        lf_keyed *order = malloc(n * sizeof *order);
        bool sorted = order != NULL;
        for (size_t i = 0; sorted && i < n; i++) order[i] = (lf_keyed){ops[i].thread, (uint32_t)i};
        sorted = sorted && lf_sort_within(order, n, dl);
        for (size_t i = 0; sorted && i < n; i++) order[i].key = ops[order[i].payload].call;
        sorted = sorted && lf_sort_within(order, n, dl);
        for (size_t i = 0; sorted && i < n; i++) keys[i] = (call_key){ops[order[i].payload].call,
                                                                      ops[order[i].payload].thread, order[i].payload};
        free(order);
        if (!sorted) {
            free(keys);
            lf_hit_poset_free(p);
            return false;
        }
    }
    for (size_t i = 0; i < n; i++) {
        p->op_of[i] = keys[i].index;
        if (lf_op_pending(&ops[keys[i].index])) p->n_pending++;
    }
    free(keys);
    /* Between the phases below (each one pass over the ops, a few ms at 10^6 ops) the deadline is looked at. */
    if ((dl && lf_deadline_passed(dl)) || !rank_events(p, ops, dl) || (dl && lf_deadline_passed(dl))) {
        lf_hit_poset_free(p);
        return false;
    }
    bool ok = mode == HIT_CHAINS_THREADS ? assign_thread_chains(p, ops) : assign_min_chains(p, ops, dl);
    if (!ok || (dl && lf_deadline_passed(dl))) {
        lf_hit_poset_free(p);
        return false;
    }
    /* Among the completed ops in call order, op i overlaps an earlier one iff the latest return so far is
     * >= its call, and a later one iff the next call is <= its return (the next completed op has the
     * earliest call of all later ones). */
    uint64_t max_ret = 0, next_call = 0;
    bool any_before = false, any_after = false;
    for (size_t i = n; i-- > 0;) { /* isolated[i] temporarily holds "a completed op follows" */
        p->isolated[i] = 0;
        if (hit_pending(p, (uint32_t)i)) continue;
        bool overlaps_later = any_after && next_call <= p->ret[i];
        p->isolated[i] = overlaps_later ? 2 : 1;
        next_call = p->call[i];
        any_after = true;
    }
    for (size_t i = 0; i < n; i++) {
        if (hit_pending(p, (uint32_t)i)) continue;
        bool overlaps_earlier = any_before && max_ret >= p->call[i];
        p->isolated[i] = p->isolated[i] == 1 && !overlaps_earlier;
        if (p->isolated[i]) p->n_isolated++;
        if (!any_before || p->ret[i] > max_ret) max_ret = p->ret[i];
        any_before = true;
    }
    return true;
}

uint32_t lf_hit_width(const lf_op *ops, size_t n, size_t enough) {
    /* Intervals (closed: equal stamps overlap) meet pairwise iff they share a point, and then the leftmost
     * right end is shared by all (Helly): the width is the largest number of intervals holding some call. */
    uint32_t width = 0;
    for (size_t i = 0; i < n; i++) {
        if (lf_op_pending(&ops[i])) continue;
        uint32_t live = 0;
        for (size_t j = 0; j < n; j++)
            live += !lf_op_pending(&ops[j]) && ops[j].call <= ops[i].call && ops[i].call <= ops[j].ret;
        if (live > width) width = live;
        if (width > enough) return (uint32_t)(enough + 1 < UINT32_MAX ? enough + 1 : UINT32_MAX);
    }
    return width;
}
