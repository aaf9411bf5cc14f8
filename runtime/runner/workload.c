/* Workloads: defaults, random generation for stress testing, sanitising, description and expansion into a
 * plan of concrete calls (see workload.h for the value scheme). */
#include "runtime/workload.h"

#include "runtime/adapter_type.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void lf_workload_default(lf_workload *w) {
    memset(w, 0, sizeof *w);
    w->seed = 1;
    w->threads = 4;
    w->ops_per_thread = 100;
    w->key_domain = 4;
    w->value_spread = 1;
    w->absent_share = 16;
    w->perturb.point_chance = 128;
    w->perturb.gap_chance = 64;
    w->perturb.spin_max = 200;
    w->perturb.yield_share = 64;
}

static uint64_t pick(uint64_t *rng, const uint64_t *choices, size_t n) { return choices[lf_rand_below(rng, n)]; }
#define PICK(rng, ...) \
    pick(rng, (const uint64_t[]){__VA_ARGS__}, sizeof((const uint64_t[]){__VA_ARGS__}) / sizeof(uint64_t))

void lf_workload_random(lf_workload *w, uint64_t seed, uint32_t threads, uint32_t ops_per_thread) {
    memset(w, 0, sizeof *w);
    uint64_t rng = seed;
    w->seed = seed;
    w->threads = threads;
    w->ops_per_thread = ops_per_thread;
    for (int m = 0; m < LF_M_COUNT; m++) w->mix[m] = (uint8_t)(1 + lf_rand_below(&rng, 8));
    w->key_domain = (uint32_t)PICK(&rng, 1, 2, 3, 4, 8);
    w->value_spread = (uint32_t)PICK(&rng, 1, 1, 2, 16, 1000);
    w->absent_share = (uint8_t)PICK(&rng, 0, 8, 32, 64);
    /* From no perturbation at all (the schedule the OS gives) to very heavy: each finds different bugs. */
    w->perturb.point_chance = (uint16_t)PICK(&rng, 0, 16, 64, 256, 512, 1024);
    w->perturb.gap_chance = (uint16_t)PICK(&rng, 0, 32, 128, 512);
    w->perturb.spin_max = (uint16_t)PICK(&rng, 0, 30, 300, 3000);
    w->perturb.yield_share = (uint8_t)PICK(&rng, 0, 16, 64, 160, 255);
    lf_workload_sanitize(w);
}

void lf_workload_sanitize(lf_workload *w) {
    if (w->threads < 1) w->threads = 1;
    if (w->threads > LF_WORKLOAD_MAX_THREADS) w->threads = LF_WORKLOAD_MAX_THREADS;
    if (w->ops_per_thread < 1) w->ops_per_thread = 1;
    if (w->ops_per_thread > LF_WORKLOAD_MAX_OPS) w->ops_per_thread = LF_WORKLOAD_MAX_OPS;
    if (w->key_domain < 1) w->key_domain = 1;
    if (w->key_domain > 1000000) w->key_domain = 1000000;
    if (w->value_spread < 1) w->value_spread = 1;
    if (w->value_spread > 1000000) w->value_spread = 1000000;
    if (w->perturb.point_chance > 1024) w->perturb.point_chance = 1024;
    if (w->perturb.gap_chance > 1024) w->perturb.gap_chance = 1024;
}

/* The methods of a's type that a implements, in lf_method order (custom types: declaration order). */
static int adapter_methods(const lf_adapter *a, lf_method *out) { return (int)lf_adapter_methods(a, out); }

int lf_workload_describe(char *buf, size_t len, const lf_workload *w, const lf_adapter *a) {
    lf_method ms[LF_M_COUNT];
    int nm = adapter_methods(a, ms);
    char mix[256] = "";
    size_t used = 0;
    for (int i = 0; i < nm && used < sizeof mix; i++)
        used += (size_t)snprintf(mix + used, sizeof mix - used, "%s%s:%u", i ? "," : "", lf_adapter_method_name(a, ms[i]),
                                 (unsigned)w->mix[ms[i]]);
    return snprintf(buf, len,
                    "seed=%llu threads=%u ops=%u mix=%s key_domain=%u value_spread=%u absent_share=%u "
                    "perturb(point=%u gap=%u spin_max=%u yield_share=%u)",
                    (unsigned long long)w->seed, w->threads, w->ops_per_thread, mix, w->key_domain,
                    w->value_spread, (unsigned)w->absent_share, w->perturb.point_chance, w->perturb.gap_chance,
                    w->perturb.spin_max, (unsigned)w->perturb.yield_share);
}

void lf_plan_free(lf_plan *p) {
    free(p->ops);
    memset(p, 0, sizeof *p);
}

bool lf_plan_build(lf_plan *p, const lf_workload *w_in, const lf_adapter *a) {
    lf_workload w = *w_in;
    lf_workload_sanitize(&w);
    memset(p, 0, sizeof *p);
    size_t T = w.threads, N = w.ops_per_thread, total = T * N;
    p->threads = w.threads;
    p->ops_per_thread = w.ops_per_thread;
    p->ops = calloc(total, sizeof *p->ops);
    int64_t *added = calloc(total, sizeof *added); /* set: the values of all adds, for remove/contains */
    if (!p->ops || !added) {
        free(added);
        lf_plan_free(p);
        return false;
    }

    /* Distinct insert values: op i of thread t gets slot i*T + t (unique in [0, total)); a random factor in
     * [0, value_spread) on top shuffles their order without breaking uniqueness. Values start at 1. */
    size_t n_added = 0;
    for (size_t t = 0; t < T; t++) {
        /* the methods worker t may call (its roles), weighted by the mix */
        lf_method ms[LF_M_COUNT];
        int nm = (int)lf_adapter_thread_methods(a, (unsigned)t, (unsigned)T, ms);
        unsigned weight[LF_M_COUNT], wsum = 0;
        for (int i = 0; i < nm; i++) wsum += weight[i] = w.mix[ms[i]];
        if (wsum == 0)
            for (int i = 0; i < nm; i++) wsum += weight[i] = 1;
        uint64_t rng = w.seed ^ (0x9e3779b97f4a7c15ull * (t + 1));
        for (size_t i = 0; i < N; i++) {
            lf_planned_op *op = &p->ops[t * N + i];
            if (nm == 0) { /* a worker with nothing to call (every method belongs to another's group) */
                op->method = LF_PLAN_SKIP;
                continue;
            }
            unsigned r = (unsigned)lf_rand_below(&rng, wsum);
            int k = 0;
            while (r >= weight[k]) r -= weight[k++];
            lf_method m = ms[k];
            op->method = (uint8_t)m;
            if (a->type == LF_TYPE_CUSTOM) { /* the adapter's argument ranges; key_domain when it has none */
                op->nargs = lf_adapter_method(a, m)->nargs;
                lf_custom_args_random(a, m, &rng, w.key_domain < 16 ? w.key_domain : 16, op->args);
                continue;
            }
            const lf_method_info *info = lf_method_info_of(a->type, m);
            op->nargs = info->nargs;
            int64_t unique = (int64_t)(lf_rand_below(&rng, w.value_spread) * total + i * T + t + 1);
            if (lf_method_is_bulk(m)) {
                lf_plan_bulk_call(op, m, 1 + (unsigned)lf_rand_below(&rng, LF_BULK_MAX), unique);
                continue;
            }
            switch (a->type) {
            case LF_TYPE_CAS_REGISTER:
                op->args[0] = (int64_t)lf_rand_below(&rng, w.key_domain + (m == LF_M_CAS)) + (m != LF_M_CAS);
                op->args[1] = (int64_t)lf_rand_below(&rng, w.key_domain) + 1;
                break;
            case LF_TYPE_KV:
                op->args[0] = (int64_t)lf_rand_below(&rng, w.key_domain);
                op->args[1] = unique;
                break;
            case LF_TYPE_SET:
                op->args[0] = unique; /* remove/contains are given their argument below */
                if (m == LF_M_ADD) added[n_added++] = unique;
                break;
            default:
                op->args[0] = unique;
                break;
            }
            for (int j = op->nargs; j < 2; j++) op->args[j] = 0;
        }
    }
    if (a->type == LF_TYPE_SET) {
        uint64_t rng = w.seed ^ 0x5e75e75e75e75e75ull;
        int64_t absent_base = (int64_t)((uint64_t)w.value_spread * total) + 1; /* above every added value */
        for (size_t j = 0; j < total; j++) {
            lf_planned_op *op = &p->ops[j];
            if (op->method == LF_M_ADD || op->method == LF_PLAN_SKIP) continue;
            if (n_added && lf_rand_below(&rng, 256) >= w.absent_share)
                op->args[0] = added[lf_rand_below(&rng, n_added)];
            else
                op->args[0] = absent_base + (int64_t)lf_rand_below(&rng, total);
        }
    }
    free(added);
    if (w.balance_blocking) {
        lf_planned_op *rows[LF_WORKLOAD_MAX_THREADS];
        size_t lens[LF_WORKLOAD_MAX_THREADS];
        for (size_t t = 0; t < T; t++) rows[t] = &p->ops[t * N], lens[t] = N;
        lf_plan_balance_blocking(a, NULL, 0, rows, lens, (unsigned)T);
    }
    return true;
}

static lf_role role_of(const lf_adapter *a, const lf_planned_op *op) {
    return lf_method_info_of(a->type, (lf_method)op->method)->role;
}

size_t lf_plan_balance_blocking(const lf_adapter *a, lf_planned_op *prefix, size_t prefix_len, lf_planned_op *const *ops,
                                const size_t *len, unsigned threads) {
    bool removes_block = false;
    for (int m = 0; m < LF_M_COUNT; m++) {
        const lf_method_info *mi = lf_method_info_of(a->type, (lf_method)m);
        if ((a->may_block & LF_METHOD_BIT(m)) && mi && mi->role == LF_ROLE_REMOVE) removes_block = true;
    }
    if (!removes_block) return 0;
    size_t skipped = 0, values = 0; /* values certainly there for the next remove */
    for (size_t i = 0; i < prefix_len; i++) {
        lf_planned_op *op = &prefix[i];
        if (op->method == LF_PLAN_SKIP) continue;
        lf_role role = role_of(a, op);
        if (role == LF_ROLE_INSERT) values++;
        if (role != LF_ROLE_REMOVE) continue;
        if (values) {
            values--;
        } else if (a->may_block & LF_METHOD_BIT(op->method)) { /* alone on an empty object: it would wait */
            op->method = LF_PLAN_SKIP;
            skipped++;
        }
    }
    for (unsigned t = 0; t < threads; t++)
        for (size_t i = 0; i < len[t]; i++) {
            const lf_planned_op *op = &ops[t][i];
            if (op->method == LF_PLAN_SKIP) continue;
            if (a->may_block & LF_METHOD_BIT(op->method)) break;
            values += role_of(a, op) == LF_ROLE_INSERT;
        }
    for (unsigned t = 0; t < threads; t++)
        for (size_t i = 0; i < len[t]; i++) {
            lf_planned_op *op = &ops[t][i];
            if (op->method == LF_PLAN_SKIP || role_of(a, op) != LF_ROLE_REMOVE) continue;
            if (values) {
                values--;
            } else {
                op->method = LF_PLAN_SKIP;
                skipped++;
            }
        }
    return skipped;
}

bool lf_blocking_balanced(const lf_adapter *a, bool *out, char *err, size_t errlen) {
    const char *v = getenv("LINFUZZ_FUZZ_BLOCKING");
    *out = a->may_block != 0;
    if (!v || !*v) return true;
    if (!strcmp(v, "balanced") || !strcmp(v, "any")) {
        *out = !strcmp(v, "balanced");
        return true;
    }
    snprintf(err, errlen, "LINFUZZ_FUZZ_BLOCKING=%s: expected 'balanced' or 'any'", v);
    return false;
}

bool lf_blocking_from_meta(const lf_adapter *a, const char *meta_value) {
    if (meta_value && !strcmp(meta_value, "balanced")) return true;
    if (meta_value && !strcmp(meta_value, "any")) return false;
    bool balanced = a->may_block != 0;
    char err[8];
    lf_blocking_balanced(a, &balanced, err, sizeof err);
    return balanced;
}
