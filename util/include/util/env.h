/* The one reader of linfuzz's environment variables (LINFUZZ_*): a flag means the same thing everywhere
 * ("1", "yes", "on", "true" turn it on; "0", "no", "off", "false" turn it off; unset or empty keeps the
 * default), and a value that is neither is an error with the variable's name, never a silent guess. */
#ifndef LINFUZZ_UTIL_ENV_H
#define LINFUZZ_UTIL_ENV_H

#include <stdbool.h>
#include <stdint.h>

/* Flag name: *out = its value, or dflt when unset or empty. False (and *out = dflt) when it is set to anything
 * else; err then says so ("LINFUZZ_X=maybe: expected 1/yes/on/true or 0/no/off/false"). */
bool lf_env_flag(const char *name, bool dflt, bool *out, char *err, unsigned errlen);
/* A count in [min, max] (lf_parse_u64), or dflt when unset or empty. False with err when malformed. */
bool lf_env_u64(const char *name, uint64_t dflt, uint64_t min, uint64_t max, uint64_t *out, char *err,
                unsigned errlen);
/* A duration in seconds (lf_parse_seconds), or dflt when unset or empty. False with err when malformed. */
bool lf_env_seconds(const char *name, double dflt, double min, double max, double *out, char *err,
                    unsigned errlen);

#endif
