/* Checking a history against its contract (contract.h, docs/contracts.md): the count rule for lagging and
 * quiescent full/empty answers, then the order, on the history without those answers: the exact order with the
 * usual engines (monitors first), a relaxed one with the pool monitor (bag, per-producer) or the general checkers
 * and the relaxed spec. Explanations name the contract and the ops of the history as given. */
#include "contract/contract.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "budget/progress.h"
#include "history/validate.h"
#include "reason/reason.h"
#include "monitor/monitor.h"

const lf_spec *lf_contract_spec(const lf_contract *c) {
    switch ((lf_order)c->order) {
    case LF_ORDER_K_RELAXED: return &lf_spec_k_relaxed;
    case LF_ORDER_PER_PRODUCER: return &lf_spec_per_producer;
    case LF_ORDER_BAG: return &lf_spec_bag;
    default: return NULL;
    }
}

lf_op *lf_contract_spec_ops(const lf_contract *c, const lf_op *ops, size_t n, lf_deadline *dl) {
    lf_op *out = malloc((n ? n : 1) * sizeof *out);
    uint32_t *threads = malloc((n ? n : 1) * sizeof *threads); /* producer id -> thread */
    if (!out || !threads) {
        free(out);
        free(threads);
        return NULL;
    }
    size_t producers = 0, last = 0;
    for (size_t i = 0; i < n; i++) {
        if (lf_deadline_every(dl, i)) {
            free(out);
            free(threads);
            return NULL;
        }
        out[i] = ops[i];
        bool insert = ops[i].method == LF_M_ENQ || ops[i].method == LF_M_PUSH;
        if (c->order == LF_ORDER_K_RELAXED && !insert) out[i].arg[1] = c->k;
        if (c->order != LF_ORDER_PER_PRODUCER || !insert) continue;
        /* dense ids in order of first insert: threads are few, so a linear search, the last one found first */
        size_t k = last;
        if (k >= producers || threads[k] != ops[i].thread)
            for (k = 0; k < producers && threads[k] != ops[i].thread; k++) {
            }
        if (k == producers) threads[producers++] = ops[i].thread;
        last = k;
        out[i].arg[1] = (int64_t)k;
    }
    free(threads);
    return out;
}

/* Maps op indices of a reduced history back through orig (NULL: identity). */
static void map_back(uint32_t *idx, size_t n, const uint32_t *orig) {
    for (size_t i = 0; orig && i < n; i++) idx[i] = orig[idx[i]];
}

/* The reason with the contract in front, once. */
static void name_contract(lf_result *r, const char *text) {
    char inner[sizeof r->reason];
    if (!strncmp(r->reason, "contract '", 10)) return;
    memcpy(inner, r->reason, sizeof inner);
    snprintf(r->reason, sizeof r->reason, "contract '%s': %.440s", text, inner);
}

/* The answer when the deadline passed in `where`. */
static void late(lf_result *r, const char *engine, const char *where, size_t n) {
    lf_result_set(r, LF_UNKNOWN, engine, "time budget exhausted %s (%zu ops)", where, n);
}

/* The order part on h (no full/empty answers left when the contract relaxes them), by the deadline (dl, the same
 * absolute time as deadline). */
static void check_order(const lf_history *h, const lf_check_options *o, double deadline, lf_deadline *dl,
                        lf_result *r, lf_check_engines_fn engines) {
    lf_history view = *h;
    view.contract.full_empty = LF_FULL_EMPTY_EXACT;
    if (view.contract.order == LF_ORDER_EXACT) {
        engines(&view, o, deadline, r, false);
        return;
    }
    lf_op *ops = lf_contract_spec_ops(&view.contract, h->ops, h->n, dl);
    if (!ops) {
        if (lf_deadline_expired(dl))
            late(r, lf_engine_name(o->engine), "preparing the relaxed order's ops", h->n);
        else
            lf_result_set(r, LF_UNKNOWN, lf_engine_name(o->engine), "out of memory");
        return;
    }
    view.ops = ops;
    bool settled = false, lin_by_monitor = false;
    if (o->engine == LF_ENGINE_AUTO || o->engine == LF_ENGINE_MONITOR) {
        lf_progress_stage(o->progress, "monitor");
        settled = view.contract.order == LF_ORDER_K_RELAXED ? lf_krelaxed_monitor_check(&view, dl, r, o->want_witness)
                                                             : lf_pool_monitor_check(&view, dl, r);
        if (o->engine == LF_ENGINE_MONITOR || lf_deadline_expired(dl) ||
            (settled && (r->verdict == LF_VIOLATION || !o->want_witness || r->witness))) {
            free(ops);
            return;
        }
        lin_by_monitor = settled && r->verdict == LF_LINEARIZABLE; /* only a witness is still wanted */
        lf_result_free(r);
        lf_result_init(r);
    }
    lf_check_options o2 = *o;
    o2.spec = lf_contract_spec(&view.contract);
    o2.spec_user = NULL;
    engines(&view, &o2, deadline, r, false);
    if (lin_by_monitor && r->verdict != LF_LINEARIZABLE) { /* the search ran out of budget: the monitor's word */
        lf_result_free(r);
        lf_result_init(r);
        lf_result_set(r, LF_LINEARIZABLE, "monitor", "%s", "");
    }
    free(ops);
}

void lf_contract_check(const lf_history *h, const lf_check_options *o, double deadline, lf_result *r,
                       lf_check_engines_fn engines) {
    char text[96], err[400];
    lf_contract_format(text, sizeof text, &h->contract);
    const char *engine = lf_engine_name(o->engine);
    if (o->self || o->spec) {
        lf_result_set(r, LF_UNKNOWN, engine, "contract '%s' is decided against the built-in specification of %s; "
                      "it cannot be combined with another specification", text, lf_history_type_name(h));
        return;
    }
    if (h->contract.order != LF_ORDER_EXACT && lf_history_has_bulk(h)) { /* spec_relaxed has single-value ops */
        lf_result_set(r, LF_UNKNOWN, engine, "contract '%s': unsupported: bulk and burst ops under a relaxed order "
                      "(they are decided under the exact order, with any full/empty mode)", text);
        return;
    }
    if (o->engine == LF_ENGINE_BRUTE) { /* the oracle knows every contract itself */
        engines(h, o, deadline, r, false);
        name_contract(r, text);
        return;
    }
    /* The deadline is shared by every stage (docs/budgets.md): validation, the count rule, the monitors, the
     * searches. */
    lf_deadline dl;
    lf_deadline_init(&dl, deadline);
    bool expired = false;
    if (lf_deadline_passed(&dl)) {
        late(r, engine, "before the contract check", h->n);
        name_contract(r, text);
        return;
    }
    if (lf_history_validate_within(h, &dl, &expired, err, sizeof err) != SIZE_MAX) {
        lf_result_set(r, LF_UNKNOWN, engine, "malformed history: %s", err);
        return;
    }
    if (expired) {
        late(r, engine, "validating the history", h->n);
        name_contract(r, text);
        return;
    }
    if (h->contract.full_empty == LF_FULL_EMPTY_EXACT) {
        check_order(h, o, deadline, &dl, r, engines);
        name_contract(r, text);
        return;
    }
    lf_progress_stage(o->progress, "count");
    if (!lf_count_rule_check(h, &dl, r)) {
        if (lf_deadline_expired(&dl))
            late(r, "count", "in the count rule", h->n);
        else
            lf_result_set(r, LF_UNKNOWN, "count", "out of memory");
        name_contract(r, text);
        return;
    }
    if (r->verdict == LF_VIOLATION) return;
    lf_result_free(r);
    lf_result_init(r);
    /* The rest, without the answers the rule has just settled. */
    bool *keep = malloc((h->n ? h->n : 1) * sizeof *keep);
    uint32_t *orig = malloc((h->n ? h->n : 1) * sizeof *orig);
    lf_history rest;
    memset(&rest, 0, sizeof rest);
    size_t k = 0;
    for (size_t i = 0; keep && orig && i < h->n && !lf_deadline_every(&dl, i); i++) {
        lf_count_role role = lf_count_role_of(h, &h->ops[i]);
        keep[i] = lf_op_pending(&h->ops[i]) || !role.needed || role.moved; /* a burst that moved some: below */
        if (keep[i]) orig[k++] = (uint32_t)i;
    }
    if (!keep || !orig || lf_deadline_expired(&dl) || !lf_history_select(&rest, h, keep)) {
        free(keep);
        free(orig);
        if (lf_deadline_expired(&dl))
            late(r, engine, "after the count rule", h->n);
        else
            lf_result_set(r, LF_UNKNOWN, engine, "out of memory");
        name_contract(r, text);
        return;
    }
    free(keep);
    /* A burst that moved k < n values: its answer (room or values for k only) is the rule's, settled; the order sees
     * the bulk op of those k. */
    for (size_t i = 0; i < rest.n; i++) {
        lf_count_role role = lf_count_role_of(&rest, &rest.ops[i]);
        if (!role.needed) continue;
        rest.ops[i].count = (uint8_t)role.moved;
        for (uint64_t a = role.moved; a < LF_BULK_MAX; a++) rest.ops[i].arg[a] = 0; /* the values it did not insert */
    }
    check_order(&rest, o, deadline, &dl, r, engines);
    size_t rest_n = rest.n;
    lf_history_free(&rest);
    map_back(r->witness, r->witness_len, orig);
    map_back(r->prefix, r->prefix_len, orig);
    map_back(r->culprits, r->n_culprits, orig);
    char mapped[sizeof r->reason];
    lf_reason_map_ops(r->reason, orig, rest_n, mapped, sizeof mapped);
    memcpy(r->reason, mapped, sizeof mapped);
    free(orig);
    name_contract(r, text);
}
