/* TEMPORARY during bring-up: replaced by the real monitors in the next commits. */
#include "monitor/monitor.h"
void lf_monitor_check(const lf_history *h, lf_result *r) {
    (void)h;
    lf_result_set(r, LF_UNKNOWN, "monitor", "unsupported: monitors not built yet");
}
