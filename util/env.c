/* Environment variables with one meaning everywhere (env.h). */
#include "util/env.h"

#include <stdio.h>
#include <stdlib.h>
#include <strings.h>

#include "util/parse.h"

static const char *value_of(const char *name) {
    const char *v = getenv(name);
    return v && *v ? v : NULL;
}

bool lf_env_flag(const char *name, bool dflt, bool *out, char *err, unsigned errlen) {
    const char *v = value_of(name);
    *out = dflt;
    if (!v) return true;
    static const char *const on[] = {"1", "yes", "on", "true"}, *const off[] = {"0", "no", "off", "false"};
    for (int i = 0; i < 4; i++) {
        if (!strcasecmp(v, on[i])) return *out = true, true;
        if (!strcasecmp(v, off[i])) return *out = false, true;
    }
    snprintf(err, errlen, "%s=%s: expected 1/yes/on/true or 0/no/off/false", name, v);
    return false;
}

bool lf_env_u64(const char *name, uint64_t dflt, uint64_t min, uint64_t max, uint64_t *out, char *err,
                unsigned errlen) {
    const char *v = value_of(name);
    *out = dflt;
    if (!v) return true;
    if (lf_parse_u64(v, min, max, out)) return true;
    *out = dflt;
    snprintf(err, errlen, "%s=%s: expected a whole number in %llu..%llu", name, v, (unsigned long long)min,
             (unsigned long long)max);
    return false;
}

bool lf_env_seconds(const char *name, double dflt, double min, double max, double *out, char *err,
                    unsigned errlen) {
    const char *v = value_of(name);
    *out = dflt;
    if (!v) return true;
    if (lf_parse_seconds(v, min, max, out)) return true;
    *out = dflt;
    snprintf(err, errlen, "%s=%s: expected a duration in seconds (e.g. 30, 0.5, 250ms, 10m) in %g..%g", name, v,
             min, max);
    return false;
}
