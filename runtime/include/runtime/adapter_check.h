/* What an adapter's histories are checked against, in one place for the fuzz targets, `linfuzz stress`,
 * `check --adapter`, `repro`, `show` and triage's replays:
 *   type — the specification of its type (built-in, or the custom type's own lf_spec);
 *   self — its own serial behaviour (the self-spec, linfuzz/selfspec.h), through an adapter oracle;
 *   auto — the type's spec when there is one, else the self-spec when the adapter is marked deterministic.
 * One checker holds the self-spec's memo, so the runs of one fuzz case share their replayed prefixes
 * (lf_adapter_checker_new_case forgets them between cases). Entries record the mode (meta "spec": "self"),
 * and whoever re-checks them builds the same checker. */
#ifndef LINFUZZ_ADAPTER_CHECK_H
#define LINFUZZ_ADAPTER_CHECK_H

#include <stdbool.h>
#include <stddef.h>

#include "linfuzz/adapter.h"
#include "linfuzz/check.h"
#include "linfuzz/selfspec.h"
#include "runtime/adapter_oracle.h"

typedef enum lf_spec_mode { LF_SPEC_AUTO, LF_SPEC_TYPE, LF_SPEC_SELF } lf_spec_mode;

/* "auto", "type", "self". */
bool lf_spec_mode_from_name(const char *name, lf_spec_mode *out);
/* LINFUZZ_SPEC (auto when unset); false with a message naming the variable when malformed. */
bool lf_spec_mode_from_env(lf_spec_mode *out, char *err, size_t errlen);

typedef struct lf_adapter_checker {
    const lf_adapter *adapter;
    lf_spec_mode mode;        /* resolved: LF_SPEC_TYPE or LF_SPEC_SELF */
    lf_check_options check;   /* what lf_check gets (check.self set in self mode) */
    lf_adapter_oracle oracle; /* self mode */
    lf_selfspec *self;        /* self mode */
} lf_adapter_checker;

/* Resolves mode for adapter a and prepares the checker; base gives engine, budgets and witness (NULL:
 * defaults). False with a message when a cannot be checked that way: a custom type without a spec whose
 * adapter is not deterministic, `self` on an adapter not marked deterministic, a blocking method without
 * would_block, out of memory. */
bool lf_adapter_checker_init(lf_adapter_checker *c, const lf_adapter *a, lf_spec_mode mode,
                             const lf_check_options *base, char *err, size_t errlen);
void lf_adapter_checker_free(lf_adapter_checker *c);
/* A new fuzz case: the self-spec forgets its memo. */
void lf_adapter_checker_new_case(lf_adapter_checker *c);
/* Checks h (r initialised by the caller). In self mode a history the adapter cannot replay (another type, a
 * method it lacks, nil arguments) is unknown with the reason. */
void lf_adapter_checker_check(lf_adapter_checker *c, const lf_history *h, lf_result *r);
/* The checker a saved history was checked with (a corpus entry's meta "adapter" and "spec"): spec "self"
 * needs the adapter in this program and builds its self-spec; anything else checks against the histories'
 * own type (no adapter needed: c->adapter is then NULL). False with a message when "self" cannot be had. */
bool lf_adapter_checker_for_saved(lf_adapter_checker *c, const char *adapter_name, const char *spec,
                                  const lf_check_options *base, char *err, size_t errlen);
/* "self-spec" or "the spec of <type>", for messages. */
const char *lf_adapter_checker_describe(const lf_adapter_checker *c, char *buf, size_t len);

#endif
