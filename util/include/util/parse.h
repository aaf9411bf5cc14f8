/* The one parser of numbers given by people (command-line options, environment variables): strict, so that a
 * typo is an error and not a silently different value. Decimal only ("0x10" and "1e3" are rejected for counts),
 * no sign, no leading or trailing blanks, no empty string, range-checked. */
#ifndef LINFUZZ_UTIL_PARSE_H
#define LINFUZZ_UTIL_PARSE_H

#include <stdbool.h>
#include <stdint.h>

/* A count in [min, max]: decimal digits only. */
bool lf_parse_u64(const char *s, uint64_t min, uint64_t max, uint64_t *out);
/* A duration in seconds in [min, max] (fractions allowed: "0.5"; an optional unit suffix "s", "ms", "m" or
 * "h": "250ms", "10m"). Not nan, not infinite, not negative. */
bool lf_parse_seconds(const char *s, double min, double max, double *out);
/* A fraction in [0, 1] ("0.25"). */
bool lf_parse_fraction(const char *s, double *out);

/* The longest duration any option accepts: a year. Longer budgets are typos. */
#define LF_MAX_SECONDS (365.0 * 24 * 3600)

#endif
