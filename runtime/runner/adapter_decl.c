/* Adapter declarations: the consistency check every program applies to the adapter it drives, and the
 * per-thread roles of exclusive method groups (include/linfuzz/adapter.h). One place decides which worker
 * may call what, so that fuzz cases, stress workloads and replays agree. */
#include <stdio.h>
#include <string.h>

#include "linfuzz/adapter.h"
#include "runtime/adapter_type.h"

static bool name_ok(const char *name) {
    if (!name || !*name || strlen(name) > 63) return false;
    for (const char *p = name; *p; p++)
        if (!((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p == '_' || *p == '-')) return false;
    return true;
}

/* "push_back,pop_back" for a method mask (of a's type: custom methods by their declared names). */
static void mask_names(const lf_adapter *a, uint32_t mask, char *buf, size_t len) {
    size_t w = 0;
    buf[0] = 0;
    for (int m = 0; m < LF_M_COUNT && w < len; m++)
        if (mask & LF_METHOD_BIT(m)) {
            const char *mn = a->type == LF_TYPE_CUSTOM ? lf_adapter_method_name(a, (unsigned)m)
                                                       : lf_method_name((lf_method)m);
            w += (size_t)snprintf(buf + w, len - w, "%s%s", w ? "," : "", mn);
        }
}

bool lf_adapter_check(const lf_adapter *a, char *err, size_t errlen) {
    const char *name = a && a->name ? a->name : "(unnamed)";
    char names[256];
    if (!a || !name_ok(a->name)) {
        snprintf(err, errlen, "adapter '%s': the name must be 1 to 63 characters of a-z, 0-9, '_', '-'", name);
        return false;
    }
    if (!a->create || !a->destroy || !a->op) {
        snprintf(err, errlen, "adapter %s: create, destroy and op are required", name);
        return false;
    }
    /* the type: built in, or a valid custom declaration (with would_block for methods declared blocking) */
    if (!lf_adapter_check_type(a, err, errlen)) return false;
    uint32_t type_methods = 0;
    if (a->type == LF_TYPE_CUSTOM) {
        for (size_t m = 0; m < a->custom->n_methods; m++) type_methods |= LF_METHOD_BIT(m);
    } else {
        for (int m = 0; m < LF_M_COUNT; m++)
            if (lf_method_info_of(a->type, (lf_method)m)) type_methods |= LF_METHOD_BIT(m);
    }
    /* a custom adapter's methods may be 0: every declared method */
    uint32_t methods = lf_adapter_method_mask(a);
    if (!(methods & type_methods) || (a->methods & ~type_methods)) {
        mask_names(a, a->methods & ~type_methods, names, sizeof names);
        snprintf(err, errlen, "adapter %s: methods must be a non-empty subset of the %s methods%s%s", name,
                 lf_adapter_type_name(a), *names ? "; not of the type: " : "", names);
        return false;
    }
    uint32_t bulk_methods = 0;
    for (int m = 0; a->type != LF_TYPE_CUSTOM && m < LF_M_COUNT; m++)
        if (lf_method_is_bulk((unsigned)m)) bulk_methods |= LF_METHOD_BIT(m);
    if ((a->methods & bulk_methods) && !a->bulk_op) {
        mask_names(a, a->methods & bulk_methods, names, sizeof names);
        snprintf(err, errlen, "adapter %s: bulk and burst methods (%s) need bulk_op", name, names);
        return false;
    }
    uint32_t seen = 0;
    for (int g = 0; g < LF_MAX_GROUPS; g++) {
        uint32_t grp = a->exclusive[g];
        if (grp & ~methods) {
            mask_names(a, grp & ~methods, names, sizeof names);
            snprintf(err, errlen, "adapter %s: exclusive group %d names methods the adapter does not have: %s", name, g,
                     names);
            return false;
        }
        if (grp & seen) {
            mask_names(a, grp & seen, names, sizeof names);
            snprintf(err, errlen, "adapter %s: exclusive groups must be disjoint; %s is in two of them", name, names);
            return false;
        }
        seen |= grp;
    }
    if (a->may_block & ~methods) {
        mask_names(a, a->may_block & ~methods, names, sizeof names);
        snprintf(err, errlen, "adapter %s: may_block names methods the adapter does not have: %s", name, names);
        return false;
    }
    if (a->capacity && !lf_type_boundable(a->type)) {
        snprintf(err, errlen, "adapter %s: a capacity is only for stack, queue, pqueue and deque, not %s", name,
                 lf_adapter_type_name(a));
        return false;
    }
    char why[200];
    if (!lf_contract_valid(a->type, &a->contract, why, sizeof why)) {
        snprintf(err, errlen, "adapter %s: %s", name, why);
        return false;
    }
    return true;
}

int lf_adapter_method_owner(const lf_adapter *a, lf_method m, unsigned threads) {
    if (threads == 0) threads = 1;
    for (int g = 0; g < LF_MAX_GROUPS; g++)
        if (a->exclusive[g] & LF_METHOD_BIT(m)) return (int)((unsigned)g % threads);
    return -1;
}

unsigned lf_adapter_thread_methods(const lf_adapter *a, unsigned t, unsigned threads, lf_method out[LF_M_COUNT]) {
    unsigned n = 0;
    lf_method ms[LF_M_COUNT];
    unsigned count = lf_adapter_methods(a, ms); /* custom types: declaration indices */
    for (unsigned k = 0; k < count; k++) {
        lf_method m = ms[k];
        int owner = lf_adapter_method_owner(a, (lf_method)m, threads);
        if (owner < 0 || (unsigned)owner == t) out[n++] = (lf_method)m;
    }
    return n;
}
