/* Choosing and running what an adapter's histories are checked against (see adapter_check.h). */
#include "runtime/adapter_check.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "linfuzz/spec.h"
#include "runtime/adapter_type.h"

bool lf_spec_mode_from_name(const char *name, lf_spec_mode *out) {
    if (!strcmp(name, "auto")) *out = LF_SPEC_AUTO;
    else if (!strcmp(name, "type")) *out = LF_SPEC_TYPE;
    else if (!strcmp(name, "self")) *out = LF_SPEC_SELF;
    else return false;
    return true;
}

bool lf_spec_mode_from_env(lf_spec_mode *out, char *err, size_t errlen) {
    const char *v = getenv("LINFUZZ_SPEC");
    *out = LF_SPEC_AUTO;
    if (!v || !*v) return true;
    if (lf_spec_mode_from_name(v, out)) return true;
    snprintf(err, errlen, "LINFUZZ_SPEC='%s': expected auto, type or self", v);
    return false;
}

/* The spec of a's type, if any. */
static const lf_spec *type_spec(const lf_adapter *a) {
    if (a->type == LF_TYPE_CUSTOM) return a->custom ? a->custom->spec : NULL;
    return lf_spec_builtin(a->type);
}

bool lf_adapter_checker_init(lf_adapter_checker *c, const lf_adapter *a, lf_spec_mode mode,
                             const lf_check_options *base, char *err, size_t errlen) {
    memset(c, 0, sizeof *c);
    c->adapter = a;
    if (base)
        c->check = *base;
    else
        lf_check_options_default(&c->check);
    c->check.self = NULL;
    if (!lf_adapter_check(a, err, errlen)) return false;
    if (mode == LF_SPEC_AUTO) mode = type_spec(a) ? LF_SPEC_TYPE : LF_SPEC_SELF;
    c->mode = mode;
    if (mode == LF_SPEC_TYPE) {
        if (!type_spec(a)) {
            snprintf(err, errlen, "adapter %s: its type %s has no specification (check it against its own serial "
                     "behaviour: --spec self, for an adapter marked deterministic)", a->name, lf_adapter_type_name(a));
            return false;
        }
        return true;
    }
    if (!a->deterministic) {
        snprintf(err, errlen, "adapter %s is not marked deterministic (lf_adapter.deterministic): its serial runs "
                 "cannot serve as its specification%s", a->name,
                 type_spec(a) ? "" : ", and its type has no specification");
        return false;
    }
    if (!lf_adapter_oracle_init(&c->oracle, a, 64, err, errlen)) return false;
    c->self = lf_selfspec_new(&c->oracle.oracle, NULL);
    if (!c->self) {
        lf_adapter_oracle_free(&c->oracle);
        snprintf(err, errlen, "out of memory");
        return false;
    }
    c->check.self = c->self;
    return true;
}

bool lf_adapter_checker_for_saved(lf_adapter_checker *c, const char *adapter_name, const char *spec,
                                  const lf_check_options *base, char *err, size_t errlen) {
    if (spec && !strcmp(spec, "self")) {
        const lf_adapter *a = adapter_name ? lf_adapter_find(adapter_name) : NULL;
        if (!a) {
            memset(c, 0, sizeof *c);
            snprintf(err, errlen, "it was checked against adapter %s's own serial behaviour (self-spec), and this "
                     "program does not carry that adapter", adapter_name ? adapter_name : "?");
            return false;
        }
        return lf_adapter_checker_init(c, a, LF_SPEC_SELF, base, err, errlen);
    }
    memset(c, 0, sizeof *c);
    c->mode = LF_SPEC_TYPE;
    if (base)
        c->check = *base;
    else
        lf_check_options_default(&c->check);
    c->check.self = NULL;
    return true;
}

void lf_adapter_checker_free(lf_adapter_checker *c) {
    if (c->self) {
        lf_selfspec_free(c->self);
        lf_adapter_oracle_free(&c->oracle);
    }
    memset(c, 0, sizeof *c);
}

void lf_adapter_checker_new_case(lf_adapter_checker *c) {
    if (c->self) lf_selfspec_forget(c->self);
}

void lf_adapter_checker_check(lf_adapter_checker *c, const lf_history *h, lf_result *r) {
    if (c->self && c->adapter) {
        char why[400];
        if (!lf_adapter_can_replay(c->adapter, h, why, sizeof why)) {
            lf_result_set(r, LF_UNKNOWN, "self", "self-spec of %s cannot replay the history: %s", c->adapter->name,
                          why);
            return;
        }
        /* Objects are created for max_ops calls (adapters size pools by it) and a replay is at most one call per op
         * of the history: for a longer history, later objects get room, and the memo, whose live object may be too
         * small for the longer replays, starts over. */
        if (h->n + 1 > c->oracle.max_ops) {
            lf_adapter_oracle_reserve(&c->oracle, 2 * (h->n + 1));
            lf_selfspec_forget(c->self);
        }
    }
    if (c->adapter && !lf_contract_is_default(&c->adapter->contract) && lf_contract_is_default(&h->contract)) {
        lf_history view = *h; /* a history of the adapter without a contract of its own: the adapter's */
        view.contract = c->adapter->contract;
        lf_check(&view, &c->check, r);
        return;
    }
    lf_check(h, &c->check, r);
}

const char *lf_adapter_checker_describe(const lf_adapter_checker *c, char *buf, size_t len) {
    if (c->mode == LF_SPEC_SELF && c->adapter)
        snprintf(buf, len, "the self-spec (%s's own serial behaviour)", c->adapter->name);
    else if (c->adapter && !lf_contract_is_default(&c->adapter->contract)) {
        char text[96];
        lf_contract_format(text, sizeof text, &c->adapter->contract);
        snprintf(buf, len, "the spec of %s under contract '%s'", lf_adapter_type_name(c->adapter), text);
    } else if (c->adapter)
        snprintf(buf, len, "the spec of %s", lf_adapter_type_name(c->adapter));
    else
        snprintf(buf, len, "the spec of the history's type");
    return buf;
}
