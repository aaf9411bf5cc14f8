/* Schedule feedback: the shadow table's life cycle and the split of the counters (see feedback.h). */
#include "runtime/feedback.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#define SHADOW_ENTRIES ((size_t)1 << LF_FEEDBACK_SHADOW_BITS)

bool lf_feedback_configure(lf_feedback *f, uint8_t *counters, size_t n, unsigned parts) {
    f->counters = NULL;
    f->n = f->n_rf = 0;
    f->parts = 0;
    if (!counters || !n || !parts) return true;
    if (!f->shadow) {
        f->shadow = calloc(SHADOW_ENTRIES, sizeof *f->shadow);
        if (!f->shadow) return false;
        f->generation = 0;
    }
    f->counters = counters;
    f->n = n;
    f->parts = parts;
    /* Both parts: three quarters of the counters for reads-from pairs (there are many more of them). */
    f->n_rf = !(parts & LF_FEEDBACK_RF)                              ? 0
              : !(parts & (LF_FEEDBACK_PREEMPT | LF_FEEDBACK_SWITCH)) ? n
                                                                    : n - n / 4;
    return true;
}

void lf_feedback_free(lf_feedback *f) {
    free(f->shadow);
    memset(f, 0, sizeof *f);
}

void lf_feedback_run_begin(lf_feedback *f) {
    if (!f->counters) return;
    /* Entries of older generations never match; on wrap-around, clear the table once. */
    if (++f->generation == 0) {
        memset(f->shadow, 0, SHADOW_ENTRIES * sizeof *f->shadow);
        f->generation = 1;
    }
}
