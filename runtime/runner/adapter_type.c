/* An adapter's type for the runner: methods, histories, custom arguments and drains, and the registration of
 * every linked adapter's custom type with the checking library (so files declaring it get its spec). */
#include "runtime/adapter_type.h"

#include <stdio.h>
#include <string.h>

#include "runtime/perturb.h"
#include "util/escape.h"
#include "util/hash.h"

const lf_method_decl *lf_adapter_method(const lf_adapter *a, unsigned m) {
    lf_history view;
    lf_adapter_history_init(&view, a);
    return lf_history_method(&view, m);
}

const char *lf_adapter_type_name(const lf_adapter *a) {
    if (a->type == LF_TYPE_CUSTOM) return a->custom ? a->custom->name : "?";
    return lf_type_name(a->type);
}

void lf_adapter_history_init(lf_history *h, const lf_adapter *a) {
    if (a->type == LF_TYPE_CUSTOM)
        lf_history_init_custom(h, a->custom);
    else
        lf_history_init(h, a->type);
    h->capacity = a->capacity;
    h->contract = a->contract;
}

void lf_adapter_history_reset(lf_history *h, const lf_adapter *a) {
    if (h->custom_owned) lf_type_desc_free(h->custom_owned);
    h->custom_owned = NULL;
    h->type = a->type;
    h->custom = a->type == LF_TYPE_CUSTOM ? a->custom : NULL;
    h->has_init = false;
    h->init_kind = LF_K_INT;
    h->init = 0;
    h->capacity = a->capacity;
    h->contract = a->contract;
    h->n = 0;
}

unsigned lf_adapter_methods(const lf_adapter *a, lf_method out[LF_M_COUNT]) {
    unsigned n = 0;
    if (a->type == LF_TYPE_CUSTOM) {
        size_t count = a->custom ? a->custom->n_methods : 0;
        for (unsigned m = 0; m < count; m++)
            if (!a->methods || (a->methods & LF_METHOD_BIT(m))) out[n++] = (lf_method)m;
        return n;
    }
    for (int m = 0; m < LF_M_COUNT; m++)
        if ((a->methods & LF_METHOD_BIT(m)) && lf_method_info_of(a->type, (lf_method)m)) out[n++] = (lf_method)m;
    return n;
}

const char *lf_adapter_method_name(const lf_adapter *a, unsigned m) {
    const lf_method_decl *d = lf_adapter_method(a, m);
    return d ? d->name : "?";
}

/* The range of argument i of method m: the adapter's, else 0..keys-1. */
static lf_arg_range range_of(const lf_adapter *a, unsigned m, unsigned i, unsigned keys) {
    if (a->arg_ranges) return a->arg_ranges[m][i];
    return (lf_arg_range){0, (int64_t)(keys ? keys : 1) - 1};
}

static uint64_t span_of(lf_arg_range r) { return (uint64_t)r.hi - (uint64_t)r.lo + 1; }

void lf_custom_args_select(const lf_adapter *a, unsigned m, uint8_t sel, unsigned keys,
                           int64_t args[LF_CUSTOM_MAX_ARGS]) {
    const lf_method_decl *d = lf_adapter_method(a, m);
    unsigned nargs = d ? d->nargs : 0;
    memset(args, 0, LF_CUSTOM_MAX_ARGS * sizeof *args);
    for (unsigned i = 0; i < nargs && i < LF_CUSTOM_MAX_ARGS; i++) {
        lf_arg_range r = range_of(a, m, i, keys);
        /* three or four arguments share the byte through a hash: each selector is one combination */
        uint64_t pick = nargs == 1   ? sel
                        : nargs == 2 ? (i == 0 ? (sel & 15u) : (sel >> 4))
                                     : lf_mix64(((uint64_t)sel << 8 | i) + 0x5e1ec7) >> 8;
        uint64_t span = span_of(r);
        args[i] = (int64_t)((uint64_t)r.lo + (span ? pick % span : pick));
    }
}

void lf_custom_args_random(const lf_adapter *a, unsigned m, uint64_t *rng, unsigned keys,
                           int64_t args[LF_CUSTOM_MAX_ARGS]) {
    const lf_method_decl *d = lf_adapter_method(a, m);
    unsigned nargs = d ? d->nargs : 0;
    memset(args, 0, LF_CUSTOM_MAX_ARGS * sizeof *args);
    for (unsigned i = 0; i < nargs && i < LF_CUSTOM_MAX_ARGS; i++) {
        lf_arg_range r = range_of(a, m, i, keys);
        uint64_t span = span_of(r);
        args[i] = (int64_t)((uint64_t)r.lo + (span ? lf_rand_below(rng, span) : lf_rand_next(rng)));
    }
}

size_t lf_custom_drain(const lf_adapter *a, unsigned keys, lf_planned_op *out, size_t cap) {
    lf_method ms[LF_M_COUNT];
    unsigned nm = lf_adapter_methods(a, ms);
    size_t n = 0;
    if (keys < 1) keys = 1;
    for (unsigned k = 0; k < nm; k++) {
        const lf_method_decl *d = lf_adapter_method(a, ms[k]);
        if (!d || !(d->flags & LF_MF_OBSERVER)) continue;
        /* only the rows and columns of arguments the method has are read */
        lf_arg_range r0 = d->nargs >= 1 ? range_of(a, ms[k], 0, keys) : (lf_arg_range){0, 0};
        uint64_t values = d->nargs ? span_of(r0) : 1;
        if (values == 0 || values > keys) values = keys;
        for (uint64_t v = 0; v < values && n < cap; v++) {
            lf_planned_op *op = &out[n++];
            memset(op, 0, sizeof *op);
            op->method = (uint8_t)ms[k];
            op->nargs = d->nargs;
            op->args[0] = d->nargs >= 1 ? (int64_t)((uint64_t)r0.lo + v) : 0;
            for (unsigned i = 1; i < d->nargs && i < LF_CUSTOM_MAX_ARGS; i++) op->args[i] = range_of(a, ms[k], i, keys).lo;
        }
    }
    return n;
}

uint32_t lf_adapter_blocking(const lf_adapter *a) {
    uint32_t mask = a->may_block;
    if (a->type == LF_TYPE_CUSTOM && a->custom)
        for (size_t m = 0; m < a->custom->n_methods && m < 32; m++)
            if (a->custom->methods[m].flags & LF_MF_BLOCKS) mask |= LF_METHOD_BIT(m);
    return mask;
}

uint32_t lf_adapter_method_mask(const lf_adapter *a) {
    lf_method ms[LF_M_COUNT];
    unsigned n = lf_adapter_methods(a, ms);
    uint32_t mask = 0;
    for (unsigned k = 0; k < n; k++) mask |= LF_METHOD_BIT(ms[k]);
    return mask;
}

bool lf_adapter_check_type(const lf_adapter *a, char *err, size_t errlen) {
    if (a->type != LF_TYPE_CUSTOM) {
        if ((unsigned)a->type >= LF_TYPE_COUNT) {
            snprintf(err, errlen, "adapter %s: type %d is neither built in nor LF_TYPE_CUSTOM", a->name, (int)a->type);
            return false;
        }
        return true;
    }
    char why[256];
    if (!a->custom) {
        snprintf(err, errlen, "adapter %s: LF_TYPE_CUSTOM without a declaration (.custom)", a->name);
        return false;
    }
    if (!lf_type_desc_check(a->custom, why, sizeof why)) {
        snprintf(err, errlen, "adapter %s: %s", a->name, why);
        return false;
    }
    for (size_t m = 0; m < a->custom->n_methods; m++) {
        const lf_method_decl *d = &a->custom->methods[m];
        if ((d->flags & LF_MF_BLOCKS) && !a->would_block) {
            snprintf(err, errlen, "adapter %s: method %s may block, but the adapter has no would_block", a->name,
                     d->name);
            return false;
        }
        for (unsigned i = 0; a->arg_ranges && i < d->nargs; i++)
            if (a->arg_ranges[m][i].lo > a->arg_ranges[m][i].hi) {
                snprintf(err, errlen, "adapter %s: method %s: argument %u has the range %lld..%lld", a->name, d->name,
                         i, (long long)a->arg_ranges[m][i].lo, (long long)a->arg_ranges[m][i].hi);
                return false;
            }
    }
    return true;
}

/* Every linked adapter's custom type joins the checking library's registry before main, so that reading a
 * history file that declares it attaches the adapter's declaration (and spec). */
__attribute__((constructor)) static void register_custom_types(void) {
    for (size_t i = 0; i < lf_adapter_count(); i++) {
        const lf_adapter *a = lf_adapter_at(i);
        char err[256];
        if (a->type != LF_TYPE_CUSTOM) continue;
        if (!lf_adapter_check(a, err, sizeof err) || !lf_type_register(a->custom, err, sizeof err))
            lf_esc_printf(stderr, "linfuzz: %s (its histories will not find the type by name)\n", err);
    }
}
