/* History signal: overlap pairs and concurrency depth by a sweep over calls, and the greedy linearisation
 * over the built-in sequential specification (see history_signal.h). */
#include "testcase/history_signal.h"

#include <stdlib.h>
#include <string.h>

#include "linfuzz/spec.h"

static inline void bump(uint8_t *c) {
    if (*c != 255) (*c)++;
}

static unsigned outcome(const lf_op *op) {
    switch (op->res_kind) {
    case LF_K_PENDING: return 3;
    case LF_K_EMPTY:
    case LF_K_FALSE:
    case LF_K_FAIL: return 2;
    case LF_K_INT:
    case LF_K_NIL: return 1;
    default: return 0; /* no result, ok, true */
    }
}

static unsigned om(const lf_op *op) {
    unsigned m = op->method < LF_M_COUNT ? op->method : 0;
    return m * LF_SIGNAL_OUTCOMES + outcome(op);
}

static int cmp_call(const void *pa, const void *pb, const lf_history *h) {
    const lf_op *a = &h->ops[*(const uint32_t *)pa], *b = &h->ops[*(const uint32_t *)pb];
    if (a->call != b->call) return a->call < b->call ? -1 : 1;
    return *(const uint32_t *)pa < *(const uint32_t *)pb ? -1 : 1;
}

/* Op indices in call order (recorded histories are already sorted; anything else gets an insertion sort,
 * which is fine for the near-sorted input this sees). */
static uint32_t *by_call(const lf_history *h) {
    uint32_t *idx = malloc((h->n ? h->n : 1) * sizeof *idx);
    if (!idx) return NULL;
    for (size_t i = 0; i < h->n; i++) idx[i] = (uint32_t)i;
    for (size_t i = 1; i < h->n; i++) {
        uint32_t v = idx[i];
        size_t j = i;
        while (j > 0 && cmp_call(&idx[j - 1], &v, h) > 0) {
            idx[j] = idx[j - 1];
            j--;
        }
        idx[j] = v;
    }
    return idx;
}

/* Overlap pairs and depths: sweep the calls, keeping the ops still in flight. */
static void overlaps(const lf_history *h, const uint32_t *order, uint8_t *counters) {
    uint32_t active[64];
    size_t n_active = 0;
    for (size_t k = 0; k < h->n; k++) {
        const lf_op *b = &h->ops[order[k]];
        size_t kept = 0;
        for (size_t j = 0; j < n_active; j++) {
            const lf_op *a = &h->ops[active[j]];
            if (lf_precedes(a, b)) continue; /* finished before b: never overlaps a later call either */
            active[kept++] = active[j];
            if (a->thread != b->thread) bump(&counters[LF_SIGNAL_OVERLAP + om(a) * LF_SIGNAL_OM + om(b)]);
        }
        n_active = kept;
        bump(&counters[LF_SIGNAL_DEPTH + (n_active < LF_SIGNAL_DEPTHS ? n_active : LF_SIGNAL_DEPTHS - 1)]);
        if (n_active < sizeof active / sizeof active[0]) active[n_active++] = order[k];
    }
}

/* Greedy linearisation: per thread a cursor on its next op; the minimal ops (called no later than the
 * earliest return among the cursors) are the candidates, tried in call order. Pending ops are left out. */
static bool greedy(const lf_history *h, const uint32_t *order, uint8_t *counters) {
    const lf_spec *spec = lf_spec_of_history(h); /* a custom type's spec too; none: no witness part */
    if (!spec) return true;
    /* threads: the distinct ids, each with its ops in call order */
    size_t n = h->n, n_threads = 0;
    uint32_t *thread_of = malloc((n ? n : 1) * sizeof *thread_of); /* dense thread index of each op */
    uint32_t *ids = malloc((n ? n : 1) * sizeof *ids);
    size_t *start = calloc(n + 1, sizeof *start), *cursor = calloc(n + 1, sizeof *cursor);
    uint32_t *slots = malloc((n ? n : 1) * sizeof *slots);
    lf_spec_env env;
    lf_spec_inst inst = {0};
    void *state = NULL, *next = NULL;
    bool ok = thread_of && ids && start && cursor && slots;
    if (ok) {
        for (size_t k = 0; k < n; k++) {
            uint32_t id = h->ops[order[k]].thread;
            size_t t = 0;
            while (t < n_threads && ids[t] != id) t++;
            if (t == n_threads) ids[n_threads++] = id;
            thread_of[order[k]] = (uint32_t)t;
        }
        /* bucket the ops by thread, keeping call order */
        for (size_t i = 0; i < n; i++) start[thread_of[i] + 1]++;
        for (size_t t = 0; t < n_threads; t++) start[t + 1] += start[t];
        for (size_t t = 0; t < n_threads; t++) cursor[t] = start[t];
        for (size_t k = 0; k < n; k++) slots[cursor[thread_of[order[k]]]++] = order[k];
        for (size_t t = 0; t < n_threads; t++) cursor[t] = start[t];
        lf_spec_env_of_history(h, &env);
        ok = lf_spec_open(spec, &env, &inst);
    }
    if (ok) {
        state = malloc(inst.state_size ? inst.state_size : 1);
        next = malloc(inst.state_size ? inst.state_size : 1);
        ok = state && next;
    }
    if (ok) {
        lf_spec_init(&inst, state);
        uint32_t cand[64];
        for (size_t steps = 0; steps < LF_SIGNAL_GREEDY_STEPS; steps++) {
            uint64_t min_ret = 0;
            bool any_left = false; /* a flag, not a sentinel stamp: 2^64-1 is a valid return stamp */
            size_t n_cand = 0;
            for (size_t t = 0; t < n_threads; t++) {
                while (cursor[t] < start[t + 1] && lf_op_pending(&h->ops[slots[cursor[t]]])) cursor[t]++;
                if (cursor[t] < start[t + 1] && (!any_left || h->ops[slots[cursor[t]]].ret < min_ret)) {
                    min_ret = h->ops[slots[cursor[t]]].ret;
                    any_left = true;
                }
            }
            if (!any_left) break; /* all linearised */
            for (size_t t = 0; t < n_threads && n_cand < 64; t++)
                if (cursor[t] < start[t + 1] && h->ops[slots[cursor[t]]].call <= min_ret) cand[n_cand++] = (uint32_t)t;
            /* candidates in call order (a handful: insertion sort) */
            for (size_t i = 1; i < n_cand; i++) {
                uint32_t v = cand[i];
                size_t j = i;
                while (j > 0 && h->ops[slots[cursor[cand[j - 1]]]].call > h->ops[slots[cursor[v]]].call) {
                    cand[j] = cand[j - 1];
                    j--;
                }
                cand[j] = v;
            }
            size_t taken = SIZE_MAX;
            for (size_t r = 0; r < n_cand && taken == SIZE_MAX; r++) {
                const lf_op *op = &h->ops[slots[cursor[cand[r]]]];
                if (lf_spec_step(&inst, state, op, next)) {
                    taken = r;
                    bump(&counters[LF_SIGNAL_RANK + om(op) * LF_SIGNAL_RANKS +
                                   (r < LF_SIGNAL_RANKS ? r : LF_SIGNAL_RANKS - 1)]);
                    void *tmp = state;
                    state = next;
                    next = tmp;
                    cursor[cand[r]]++;
                }
            }
            if (taken == SIZE_MAX) {
                bump(&counters[LF_SIGNAL_STUCK + om(&h->ops[slots[cursor[cand[0]]]])]);
                break;
            }
        }
    }
    if (inst.spec) lf_spec_close(&inst);
    free(state);
    free(next);
    free(thread_of);
    free(ids);
    free(start);
    free(cursor);
    free(slots);
    return ok;
}

bool lf_history_signal(const lf_history *h, uint8_t *counters) {
    uint32_t *order = by_call(h);
    if (!order) return false;
    overlaps(h, order, counters);
    bool ok = greedy(h, order, counters);
    free(order);
    return ok;
}
