/* One WGL search over one (sub)history (internal to engines/wgl/; its budget, options and result: wgl_part.h). */
#ifndef LINFUZZ_WGL_SEARCH_H
#define LINFUZZ_WGL_SEARCH_H

#include "wgl/wgl_part.h"

/* Searches env->ops[0..n) with spec. orig (may be NULL = identity) maps local op indices to the indices
 * that the reason text should name. out must be zeroed; free its arrays with lf_wgl_part_result_free. */
void lf_wgl_search(const lf_spec *spec, const lf_spec_env *env, const uint32_t *orig, const wgl_search_opts *opts,
                wgl_budget *budget, wgl_part_result *out);

#endif
