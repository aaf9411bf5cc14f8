/* Entry point of the log-linear monitors: picks the per-type monitor (see monitor.h). */
#include "monitor/monitor.h"

#include "monitor/monitors.h"
#include "monitor/standardize.h"

/* A bounded container's capacity matters only when it can be reached: when some insert answered full, or
 * more inserts (pending ones included) than the capacity took effect. Otherwise every linearization of
 * the unbounded type keeps the size within the capacity and the monitors decide the history as if it
 * were unbounded. The monitors' per-value intervals do not track the size, so they decide nothing else. */
bool lf_monitor_capacity_reachable(const lf_history *h, lf_deadline *dl) {
    uint64_t inserts = 0;
    for (size_t i = 0; i < h->n && !lf_deadline_every(dl, i); i++) {
        const lf_op *op = &h->ops[i];
        if (op->res_kind == LF_K_FULL) return true;
        const lf_method_info *mi = lf_method_info_of(h->type, (lf_method)op->method);
        if (mi && mi->role == LF_ROLE_INSERT && ++inserts > h->capacity) return true;
    }
    return false;
}

lf_verdict lf_monitor_late(lf_result *r, const char *where) {
    lf_result_set(r, LF_UNKNOWN, "monitor", "time budget exhausted in the monitor (%s)", where);
    return LF_UNKNOWN;
}

void lf_monitor_check(const lf_history *h, lf_deadline *dl, lf_result *r) {
    lf_verdict v;
    if (dl && lf_deadline_passed(dl)) {
        lf_result_set(r, LF_UNKNOWN, "monitor", "time budget exhausted before the monitor started");
        return;
    }
    if (lf_history_has_bulk(h)) { /* their per-value intervals have no notion of several values in one step */
        lf_result_set(r, LF_UNKNOWN, "monitor", "unsupported: bulk and burst ops (the general checkers decide them)");
        return;
    }
    if (h->capacity && lf_monitor_capacity_reachable(h, dl)) {
        lf_result_set(r, LF_UNKNOWN, "monitor",
                      "unsupported: a bounded %s that may be full (capacity %llu): the monitors do not track the "
                      "size",
                      lf_type_name(h->type), (unsigned long long)h->capacity);
        return;
    }
    switch (h->type) {
    case LF_TYPE_REGISTER:
        v = lf_monitor_register(h, dl, r);
        break;
    case LF_TYPE_SET:
        v = lf_monitor_set_direct(h, dl, r);
        break;
    case LF_TYPE_STACK:
    case LF_TYPE_QUEUE:
    case LF_TYPE_PQUEUE:
    case LF_TYPE_DEQUE: {
        lf_std s;
        v = lf_standardize(h, dl, &s, r);
        if (v == LF_LINEARIZABLE) {
            switch (h->type) {
            case LF_TYPE_STACK: v = lf_monitor_stack(h, &s, r); break;
            case LF_TYPE_QUEUE: v = lf_monitor_queue(h, &s, r); break;
            case LF_TYPE_DEQUE: v = lf_monitor_deque(h, &s, r); break;
            default: v = lf_monitor_pqueue(h, &s, r); break;
            }
        }
        lf_std_free(&s);
        break;
    }
    default:
        lf_result_set(r, LF_UNKNOWN, "monitor", "unsupported: the monitors do not decide %s histories",
                      lf_history_type_name(h));
        return;
    }
    /* One source of truth: a monitor that does not find the history linearizable has said why in r, and
     * lf_result_set writes the verdict together with the reason, so r's verdict stands (an "unsupported: ..."
     * reason always comes with unknown). The returned verdict only adds "linearizable", which needs no reason. */
    if (v == LF_LINEARIZABLE) {
        r->verdict = LF_LINEARIZABLE;
        r->reason[0] = '\0';
    }
    r->engine = "monitor";
}
