/* Field-by-field equality of two histories, for the round-trip checks of the parser fuzz targets. */
#ifndef LINFUZZ_HISTORY_EQUAL_H
#define LINFUZZ_HISTORY_EQUAL_H

#include <stdbool.h>

#include "linfuzz/history.h"

static inline bool lf_fuzz_histories_equal(const lf_history *a, const lf_history *b) {
    if (a->type != b->type || a->n != b->n || a->has_init != b->has_init) return false;
    if (a->type == LF_TYPE_CUSTOM && !lf_type_desc_equal(a->custom, b->custom)) return false; /* the declaration */
    if (a->has_init && (a->init_kind != b->init_kind || (a->init_kind == LF_K_INT && a->init != b->init)))
        return false;
    for (size_t i = 0; i < a->n; i++) {
        const lf_op *x = &a->ops[i], *y = &b->ops[i];
        if (x->thread != y->thread || x->call != y->call || x->method != y->method || x->arg_nil != y->arg_nil ||
            x->res_kind != y->res_kind)
            return false;
        if (!lf_op_pending(x) && x->ret != y->ret) return false;
        if (x->res_kind == LF_K_INT && x->res != y->res) return false;
        const lf_method_decl *mi = lf_history_method(a, x->method);
        for (int k = 0; mi && k < mi->nargs; k++)
            if (!lf_arg_is_nil(x, k) && x->arg[k] != y->arg[k]) return false;
    }
    return true;
}

#endif
