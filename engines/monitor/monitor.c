/* Entry point of the log-linear monitors: picks the per-type monitor (see monitor.h). */
#include "monitor/monitor.h"

#include "monitor/monitors.h"
#include "monitor/standardize.h"

void lf_monitor_check(const lf_history *h, lf_result *r) {
    lf_verdict v;
    switch (h->type) {
    case LF_TYPE_REGISTER:
        v = lf_monitor_register(h, r);
        break;
    case LF_TYPE_SET:
        v = lf_monitor_set_direct(h, r);
        break;
    case LF_TYPE_STACK:
    case LF_TYPE_QUEUE:
    case LF_TYPE_PQUEUE:
    case LF_TYPE_DEQUE: {
        lf_std s;
        v = lf_standardize(h, &s, r);
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
