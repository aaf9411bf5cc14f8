/* Set monitor ([Lee25]) on the standardised history: values are independent; a "v is absent" observation
 * (contains -> false, remove -> false) must not lie strictly inside the window where v is certainly present.
 * O(n). lf_monitor_check uses engines/monitor/set_direct.c, which needs no standardisation; this form stays as
 * its cross-check (tests/unit/test_set_forms.c). */
#include "monitor/monitors.h"
#include "monitor_forms.h"

lf_verdict lf_monitor_set(const lf_history *h, const lf_std *s, lf_result *r) {
    if (!s->has_absent) return LF_LINEARIZABLE;
    for (uint32_t i = 0; i < s->n_ops; i++) {
        if (s->kind[i] != STD_ABSENT) continue;
        uint32_t v = s->val[i], lo, hi;
        if (!lf_std_ci(s, v, &lo, &hi)) continue;
        if (lo < s->inv[i] && s->res[i] < hi) {
            char d[300], a[300], b[300], vs[32];
            lf_std_describe(s, h, i, d, sizeof d);
            lf_std_describe(s, h, s->add_op[v], a, sizeof a);
            lf_std_describe(s, h, s->rem_op[v], b, sizeof b);
            lf_std_value_str(s, v, vs, sizeof vs);
            lf_result_set(r, LF_VIOLATION, "monitor",
                          "%s says %s is absent, but %s is certainly in the set for the whole op: from the end of "
                          "%s to the start of %s",
                          d, vs, vs, a, b);
            lf_std_culprit(s, r, i);
            lf_std_culprit(s, r, s->add_op[v]);
            lf_std_culprit(s, r, s->rem_op[v]);
            return LF_VIOLATION;
        }
    }
    return LF_LINEARIZABLE;
}
