/* How the general checker decides one (sub)history (for engines/wgl/ and the pipeline, engines/check): the WGL
 * search while it is cheap, then the frontier sweep as a beam prover, then the exact frontier sweep and the
 * WGL search side by side on two threads, the first answer winning. docs/wgl.md ("Deciding a part") has the
 * measurements behind the order and the budgets. Same inputs, budget and outputs as lf_wgl_search. */
#ifndef LINFUZZ_WGL_DECIDE_H
#define LINFUZZ_WGL_DECIDE_H

#include "wgl/wgl_part.h"

/* Steps of the first, cheap WGL attempt: WGL_QUICK_PER_OP per op plus WGL_QUICK_BASE. */
#define WGL_QUICK_PER_OP 64
#define WGL_QUICK_BASE 4096
/* Width of the beam prover (configurations kept per step), and its steps: WGL_BEAM_PER_OP per op plus
 * WGL_BEAM_BASE (its closures are not bounded by the width). */
#define WGL_BEAM 64
#define WGL_BEAM_PER_OP 4096
#define WGL_BEAM_BASE 65536

void lf_wgl_decide(const lf_spec *spec, const lf_spec_env *env, const uint32_t *orig, const wgl_search_opts *opts,
                wgl_budget *budget, wgl_part_result *out);

#endif
