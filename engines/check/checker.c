/* The checking pipeline: engine selection and dispatch. */
#include "linfuzz/check.h"

#include <string.h>

#include "brute/brute.h"
#include "budget/deadline.h"
#include "check/dispatch.h"
#include "check/levels.h"
#include "check/pipeline.h"
#include "budget/progress.h"
#include "contract/contract.h"
#include "history/validate.h"
#include "linfuzz/selfspec.h"
#include "linfuzz/spec.h"
#include "hitting/hitting.h"
#include "monitor/monitor.h"
#include "wgl/wgl.h"

static const char *const ENGINE_NAMES[] = {"auto", "monitor", "brute", "wgl", "hitting"};

void lf_check_options_default(lf_check_options *o) {
    memset(o, 0, sizeof *o);
    o->engine = LF_ENGINE_AUTO;
}

bool lf_engine_from_name(const char *name, lf_engine *out) {
    for (size_t i = 0; i < sizeof ENGINE_NAMES / sizeof ENGINE_NAMES[0]; i++)
        if (strcmp(name, ENGINE_NAMES[i]) == 0) {
            *out = (lf_engine)i;
            return true;
        }
    return false;
}

const char *lf_engine_name(lf_engine e) {
    return (unsigned)e < sizeof ENGINE_NAMES / sizeof ENGINE_NAMES[0] ? ENGINE_NAMES[e] : "?";
}

/* WGL + P-compositionality with the budgets of the check options, against o->spec when given. */
static void run_wgl(const lf_history *h, const lf_check_options *o, double deadline, lf_result *r) {
    lf_wgl_options wo;
    lf_wgl_options_default(&wo);
    wo.timeout_s = o->timeout_s;
    wo.deadline = deadline;
    wo.max_memory_bytes = o->max_memory_bytes;
    wo.want_witness = o->want_witness;
    wo.progress = o->progress;
    lf_progress_stage(o->progress, "wgl");
    if (!o->spec) {
        lf_wgl_check(h, &wo, r);
        return;
    }
    char err[400];
    lf_deadline dl;
    lf_deadline_init(&dl, deadline);
    bool late;
    if (lf_history_validate_within(h, &dl, &late, err, sizeof err) != SIZE_MAX) {
        lf_result_set(r, LF_UNKNOWN, "wgl", "malformed history: %s", err);
        return;
    }
    if (late) {
        lf_result_set(r, LF_UNKNOWN, "wgl", "time budget exhausted before the search (validating %zu ops)", h->n);
        return;
    }
    lf_spec_env env;
    lf_spec_env_of_history(h, &env);
    env.user = o->spec_user;
    lf_wgl_check_spec(o->spec, &env, &wo, r);
}

/* auto: monitor -> hitting families -> WGL per part (check/pipeline.h); an explicit --max-depth makes every
 * part try the families to that depth without a work budget (the timeout still holds). hitting: the prover
 * stage alone, to --max-depth (default LF_HITTING_DEFAULT_DEPTH), bounded by the timeout only. */
static void run_pipeline(const lf_history *h, const lf_check_options *o, double deadline, lf_result *r) {
    lf_pipeline_options po;
    lf_pipeline_options_default(&po);
    po.timeout_s = o->timeout_s;
    po.deadline = deadline;
    po.max_memory_bytes = o->max_memory_bytes;
    po.want_witness = o->want_witness;
    po.hitting_depth = o->max_depth;
    po.progress = o->progress;
    po.spec = o->spec;
    po.spec_user = o->spec_user;
    if (o->max_depth || o->engine == LF_ENGINE_HITTING) {
        po.hitting_work_factor = UINT64_MAX;
        po.hitting_max_size = SIZE_MAX;
    }
    if (o->engine == LF_ENGINE_HITTING) {
        po.use_monitor = po.use_wgl = false;
        if (!po.hitting_depth) po.hitting_depth = LF_HITTING_DEFAULT_DEPTH;
    }
    lf_pipeline_check(h, &po, r, NULL);
}

/* Custom types (against their spec, or o->spec): a violation is classified into Line-Up's two levels, within
 * what is left of the time budget. */
static void classify(const lf_history *h, const lf_check_options *o, double deadline, lf_result *r) {
    if (r->verdict != LF_VIOLATION || !(h->type == LF_TYPE_CUSTOM || o->spec)) return;
    const lf_spec *spec = o->spec ? o->spec : lf_spec_of_history(h);
    if (!spec) return;
    lf_spec_env env;
    lf_spec_env_of_history(h, &env);
    env.user = o->spec_user;
    lf_classify_violation(spec, &env, deadline, r);
}

void lf_check(const lf_history *h, const lf_check_options *o, lf_result *r) {
    /* One deadline for every stage, classification included (docs/budgets.md). */
    double deadline = lf_deadline_from_timeout(o->timeout_s);
    if (!lf_contract_is_default(&h->contract)) { /* docs/contracts.md */
        lf_contract_check(h, o, deadline, r, lf_check_dispatch);
        return;
    }
    if (o->self) {
        lf_selfspec_check(o->self, h, o, r);
        return;
    }
    lf_check_dispatch(h, o, deadline, r, true);
}

void lf_check_dispatch(const lf_history *h, const lf_check_options *o, double deadline, lf_result *r,
                       bool classify_levels) {
    switch (o->engine) {
    case LF_ENGINE_MONITOR: {
        if (o->spec) {
            lf_result_set(r, LF_UNKNOWN, "monitor", "unsupported: the monitors know only the built-in specifications");
            return;
        }
        lf_progress_stage(o->progress, "monitor");
        lf_deadline dl;
        lf_deadline_init(&dl, deadline);
        lf_monitor_check(h, &dl, r);
        return;
    }
    case LF_ENGINE_BRUTE: {
        if (o->spec) {
            lf_result_set(r, LF_UNKNOWN, "brute", "brute force knows only the built-in specifications");
            return;
        }
        lf_brute_options bo;
        lf_brute_options_default(&bo);
        if (o->timeout_s > 0) bo.timeout_s = o->timeout_s;
        if (o->max_memory_bytes) bo.max_memory_bytes = o->max_memory_bytes;
        bo.want_witness = o->want_witness;
        bo.progress = o->progress;
        lf_progress_stage(o->progress, "brute");
        lf_brute_check(h, &bo, r);
        return;
    }
    case LF_ENGINE_WGL:
        run_wgl(h, o, deadline, r);
        if (classify_levels) classify(h, o, deadline, r);
        return;
    case LF_ENGINE_HITTING:
    case LF_ENGINE_AUTO:
        run_pipeline(h, o, deadline, r);
        if (classify_levels) classify(h, o, deadline, r);
        return;
    }
}
