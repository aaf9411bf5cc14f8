/* Edge variants of a history for the parser fuzz targets (edge_variant.h). */
#include "edge_variant.h"

#include "generate/stamp_remap.h"

static int64_t flip(int64_t v) { return (int64_t)((uint64_t)v ^ (UINT64_C(1) << 63)); }

bool lf_fuzz_edge_variant(const lf_history *h, int which, lf_history *out) {
    if (!lf_history_copy(out, h)) return false;
    static const lf_stamp_map MAPS[LF_EDGE_VARIANTS] = {LF_STAMPS_SHIFT_TOP, LF_STAMPS_SHIFT_BOTTOM,
                                                        LF_STAMPS_DENSE_TOP};
    if (!lf_history_remap_stamps(out, MAPS[which], 0)) {
        lf_history_free(out);
        return false;
    }
    bool threads = which != 1, values = which != 0;
    if (values && out->has_init && out->init_kind == LF_K_INT) out->init = flip(out->init);
    for (size_t i = 0; i < out->n; i++) {
        lf_op *op = &out->ops[i];
        if (threads) op->thread = UINT32_MAX - op->thread;
        if (!values) continue;
        const lf_method_info *mi = lf_method_info_of(out->type, (lf_method)op->method);
        for (int a = 0; mi && a < mi->nargs; a++)
            if (!lf_arg_is_nil(op, a)) op->arg[a] = flip(op->arg[a]);
        if (op->res_kind == LF_K_INT) op->res = flip(op->res);
    }
    return true;
}
