/* TEMPORARY during bring-up: replaced by the brute-force oracle. */
#include "brute/brute.h"
#include <string.h>
void lf_brute_options_default(lf_brute_options *o) { memset(o, 0, sizeof *o); o->max_ops = 24; }
void lf_brute_check(const lf_history *h, const lf_brute_options *o, lf_result *r) {
    (void)h; (void)o;
    lf_result_set(r, LF_UNKNOWN, "brute", "brute force not built yet");
}
