/* Strict number and duration parsing (parse.h). */
#include "util/parse.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

bool lf_parse_u64(const char *s, uint64_t min, uint64_t max, uint64_t *out) {
    if (!s || !*s) return false;
    for (const char *p = s; *p; p++)
        if (*p < '0' || *p > '9') return false;
    errno = 0;
    unsigned long long v = strtoull(s, NULL, 10);
    if (errno || v < min || v > max) return false;
    *out = v;
    return true;
}

/* A plain non-negative decimal number ("12", "0.5", ".5", "3."): digits with at most one point. */
static bool parse_decimal(const char *s, size_t len, double *out) {
    char buf[64];
    if (len == 0 || len >= sizeof buf) return false;
    size_t digits = 0, points = 0;
    for (size_t i = 0; i < len; i++) {
        if (s[i] >= '0' && s[i] <= '9')
            digits++;
        else if (s[i] == '.')
            points++;
        else
            return false;
    }
    if (digits == 0 || points > 1) return false;
    memcpy(buf, s, len);
    buf[len] = 0;
    errno = 0;
    double v = strtod(buf, NULL);
    if (errno || !isfinite(v)) return false;
    *out = v;
    return true;
}

bool lf_parse_seconds(const char *s, double min, double max, double *out) {
    if (!s) return false;
    size_t len = strlen(s);
    double scale = 1;
    if (len > 2 && !strcmp(s + len - 2, "ms")) {
        scale = 1e-3;
        len -= 2;
    } else if (len > 1 && s[len - 1] == 's') {
        len -= 1;
    } else if (len > 1 && s[len - 1] == 'm') {
        scale = 60;
        len -= 1;
    } else if (len > 1 && s[len - 1] == 'h') {
        scale = 3600;
        len -= 1;
    }
    double v;
    if (!parse_decimal(s, len, &v)) return false;
    v *= scale;
    if (!(v >= min && v <= max)) return false;
    *out = v;
    return true;
}

bool lf_parse_fraction(const char *s, double *out) {
    double v;
    if (!s || !parse_decimal(s, strlen(s), &v) || v > 1) return false;
    *out = v;
    return true;
}
