/* Storing root causes in an entry (rc_store.h). */
#include "rootcause/rc_store.h"

#include <stdio.h>

lf_status lf_rc_store(const char *path, lf_violation_entry *e, const lf_rc_result *r, char *err, size_t errlen) {
    (void)e;
    (void)r;
    snprintf(err, errlen, "%s: this build cannot store root causes yet", path);
    return LF_ERR_FORMAT;
}
