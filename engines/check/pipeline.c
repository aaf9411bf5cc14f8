/* The checking pipeline (see pipeline.h): whole-history monitor, split by partition key, then per part
 * monitor -> hitting-family prover -> WGL, aggregation and witness merge. */
#include "check/pipeline.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "budget/deadline.h"
#include "budget/progress.h"
#include "history/validate.h"
#include "hitting/hitting.h"
#include "hitting/poset.h"
#include "monitor/monitor.h"
#include "linfuzz/spec.h"
#include "util/radix_sort.h"
#include "wgl/decide.h"
#include "wgl/wgl.h"
#include "util/clock.h"

void lf_pipeline_options_default(lf_pipeline_options *o) {
    memset(o, 0, sizeof *o);
    o->use_monitor = o->use_hitting = o->use_wgl = true;
}

/* Stages in increasing cost: a linearizable verdict names the most expensive one any part needed. */
typedef enum stage { STAGE_NONE, STAGE_MONITOR, STAGE_HITTING, STAGE_WGL } stage;

static const char *stage_engine(stage s) {
    switch (s) {
    case STAGE_MONITOR: return "monitor";
    case STAGE_HITTING: return "hitting";
    case STAGE_WGL: return "wgl";
    case STAGE_NONE: break;
    }
    return "auto";
}

/* An undecided history is named after the last stage that would have tried (WGL when it runs). */
static const char *last_stage(const lf_pipeline_options *o) {
    return stage_engine(o->use_wgl ? STAGE_WGL : o->use_hitting ? STAGE_HITTING : STAGE_MONITOR);
}

/* What one part came to. Op indices are global (indices into the history). */
typedef struct part_outcome {
    lf_verdict verdict;
    stage by;
    int depth;
    char reason[sizeof ((lf_result *)0)->reason];
    uint32_t *order; /* linearizable: witness (when one was asked for and found); violation: longest prefix */
    size_t order_len;
    uint32_t *culprits;
    size_t n_culprits;
} part_outcome;

static void outcome_free(part_outcome *p) {
    free(p->order);
    free(p->culprits);
    p->order = p->culprits = NULL;
    p->order_len = p->n_culprits = 0;
}

/* Reasons are fixed-size strings of lf_result.reason's size. */
static void copy_reason(char *dst, const char *src) {
    size_t len = strnlen(src, sizeof ((lf_result *)0)->reason - 1);
    memcpy(dst, src, len);
    dst[len] = '\0';
}

/* dst := src mapped through orig (NULL: identity); false when out of memory. */
static bool copy_mapped(uint32_t **dst, size_t *dst_len, const uint32_t *src, size_t len, const uint32_t *orig) {
    *dst = malloc((len ? len : 1) * sizeof **dst);
    *dst_len = 0;
    if (!*dst) return false;
    for (size_t i = 0; i < len; i++) (*dst)[i] = orig ? orig[src[i]] : src[i];
    *dst_len = len;
    return true;
}

static bool monitor_may_apply(const lf_history *h, lf_deadline *dl);

/* Everything the parts of one check share. */
typedef struct pipeline {
    const lf_history *h;
    const lf_pipeline_options *o;
    const lf_spec *spec;
    lf_spec_env env;
    bool monitor_says_linearizable; /* the whole-history monitor decided; the stages below only look for a witness */
    double deadline;
    lf_deadline dl;                 /* the same deadline, for the loops over the history */
    wgl_budget budget;
    lf_pipeline_stats *st;
} pipeline;

/* The monitor on one part of a split history (a set history whose whole was ambiguous): it only ever
 * settles "linearizable" here; a violation is left to WGL, whose explanation names the global ops. */
static bool part_monitor_linearizable(pipeline *pl, const lf_op *ops, size_t n) {
    if (pl->h->type != LF_TYPE_SET || pl->o->spec) return false; /* the only type both split and monitored */
    /* A part holds one key, i.e. at most two values (an integer and nil share a key): more than two
     * inserting adds (those that did not return false) repeat a value, and then the part is ambiguous.
     * This spares most ambiguous parts the full check. */
    size_t inserts = 0;
    for (size_t i = 0; i < n; i++) inserts += ops[i].method == LF_M_ADD && ops[i].res_kind != LF_K_FALSE;
    if (inserts > 2) return false;
    lf_progress_stage(pl->o->progress, "monitor");
    lf_history part = *pl->h;
    part.ops = (lf_op *)ops; /* read only: the monitors never write the history */
    part.n = part.cap = n;
    if (!monitor_may_apply(&part, &pl->dl)) return false;
    lf_result r;
    lf_result_init(&r);
    lf_monitor_check(&part, &pl->dl, &r);
    bool lin = r.verdict == LF_LINEARIZABLE;
    lf_result_free(&r);
    return lin;
}

static uint64_t hitting_budget(const lf_pipeline_options *o, size_t n) {
    uint64_t factor = o->hitting_work_factor ? o->hitting_work_factor : LF_PIPELINE_HITTING_WORK_FACTOR;
    if (factor == UINT64_MAX) return 0; /* unbounded */
    uint64_t sq = (uint64_t)n * n, w = factor * sq;
    return n < (1u << 31) && (sq == 0 || w / sq == factor) ? (w ? w : 1) : UINT64_MAX - 1;
}

/* Whether a part is small enough for the families: ops x width within the limit. */
static bool hitting_fits(const lf_pipeline_options *o, const lf_op *ops, size_t n) {
    size_t limit = o->hitting_max_size ? o->hitting_max_size : LF_PIPELINE_HITTING_MAX_SIZE;
    if (limit == SIZE_MAX) return true;
    /* Above limit/2 ops only a sequential part (width 1) would fit, and WGL decides those in one pass:
     * not worth sizing up (O(n^2)). */
    if (2 * n > limit) return false;
    return n * lf_hit_width(ops, n, limit / (n ? n : 1)) <= limit;
}

/* Decides one part: ops[0..n) (a copy or the history itself), orig maps its indices to the history's. */
static void check_part(pipeline *pl, const lf_op *ops, size_t n, const uint32_t *orig, bool split,
                       part_outcome *out) {
    const lf_pipeline_options *o = pl->o;
    lf_spec_env env = pl->env;
    env.ops = ops;
    env.n = n;
    memset(out, 0, sizeof *out);
    out->verdict = LF_UNKNOWN;
    out->depth = -1;
    bool known_lin = pl->monitor_says_linearizable;
    bool small = o->use_hitting && hitting_fits(o, ops, n);
    /* A part small enough for the hitting families skips the monitor: on such parts the monitors' setup
     * costs more than the families (docs/pipeline.md), and WGL settles what the families leave. */
    if (!known_lin && split && !small && o->use_monitor && part_monitor_linearizable(pl, ops, n)) {
        known_lin = true;
        out->verdict = LF_LINEARIZABLE;
        out->by = STAGE_MONITOR;
    }
    if (known_lin) {
        out->verdict = LF_LINEARIZABLE;
        out->by = STAGE_MONITOR;
        if (!o->want_witness) return;
    }

    if (small) {
        lf_hitting_options ho;
        lf_hitting_options_default(&ho);
        ho.max_depth = o->hitting_depth > 0 ? o->hitting_depth : LF_PIPELINE_HITTING_DEPTH;
        ho.max_work = hitting_budget(o, n);
        ho.deadline = pl->deadline;
        ho.want_witness = o->want_witness;
        ho.progress = o->progress;
        lf_progress_stage(o->progress, "hitting");
        lf_hitting_stats hs;
        lf_result hr;
        lf_result_init(&hr);
        lf_hitting_check_spec(pl->spec, &env, &ho, &hr, &hs);
        if (pl->st) {
            pl->st->hitting_work += hs.build_steps + hs.replay_steps;
            pl->st->hitting_schedules += hs.schedules;
        }
        if (hr.verdict == LF_LINEARIZABLE) {
            if (!known_lin) {
                out->verdict = LF_LINEARIZABLE;
                out->by = STAGE_HITTING;
                out->depth = hr.depth;
            }
            if (o->want_witness) copy_mapped(&out->order, &out->order_len, hr.witness, hr.witness_len, orig);
            lf_result_free(&hr);
            return;
        }
        copy_reason(out->reason, hr.reason);
        lf_result_free(&hr);
    }
    if (!o->use_wgl) return;

    wgl_search_opts sopts = {true, false, o->want_witness, false};
    wgl_part_result wr;
    memset(&wr, 0, sizeof wr);
    lf_progress_stage(o->progress, "wgl");
    lf_wgl_decide(pl->spec, &env, orig, &sopts, &pl->budget, &wr);
    if (known_lin) { /* only a witness was wanted */
        if (wr.verdict == LF_LINEARIZABLE) copy_mapped(&out->order, &out->order_len, wr.order, wr.order_len, orig);
        lf_wgl_part_result_free(&wr);
        return;
    }
    out->verdict = wr.verdict;
    out->by = STAGE_WGL;
    copy_reason(out->reason, wr.reason);
    if (wr.verdict == LF_LINEARIZABLE) {
        if (o->want_witness) copy_mapped(&out->order, &out->order_len, wr.order, wr.order_len, orig);
    } else if (wr.verdict == LF_VIOLATION) {
        copy_mapped(&out->order, &out->order_len, wr.order, wr.order_len, orig);
        copy_mapped(&out->culprits, &out->n_culprits, wr.culprits, wr.n_culprits, orig);
    }
    lf_wgl_part_result_free(&wr);
}

/* ---- splitting ---- */

/* The ops sorted by (key, index) when the history splits into more than one part (every op has a key,
 * as engines/wgl/partition.c requires); NULL otherwise. *parts counts the parts. */
static lf_keyed *split_by_key(pipeline *pl, size_t *parts) {
    size_t n = pl->env.n;
    *parts = 1;
    if (!pl->spec->partition_key || n < 2) return NULL;
    lf_keyed *keyed = malloc(n * sizeof *keyed);
    if (!keyed) return NULL; /* unsplit is always sound */
    for (size_t i = 0; i < n; i++) {
        keyed[i].payload = (uint32_t)i;
        if (lf_deadline_every(&pl->dl, i) ||
            !lf_spec_partition_key(pl->spec, &pl->env, &pl->env.ops[i], &keyed[i].key)) {
            free(keyed); /* op i observes the whole object (or time is up: the part's search stops at once) */
            return NULL;
        }
    }
    if (lf_radix_sort_until(keyed, n, pl->deadline) != LF_SORT_OK) { /* stable: each part keeps its ops in index order */
        free(keyed);
        return NULL;
    }
    for (size_t i = 1; i < n; i++) *parts += keyed[i].key != keyed[i - 1].key;
    if (*parts == 1) {
        free(keyed);
        return NULL;
    }
    return keyed;
}

/* ---- witness merge ---- */

/* Merges per-part witnesses into one order. Each part's order is a linear extension of real-time order,
 * so it is realised by points point_i = max(call_i, point_{i-1}) inside the intervals (an op placed
 * before op i was not preceded by it, so its call is <= ret_i). Sorting all ops by (point, part, rank)
 * keeps every part's order, and a precedes b (ret_a < call_b) gives point_a <= ret_a < call_b <= point_b. */
static bool merge_orders(const lf_op *ops, part_outcome *outs, size_t parts, double deadline, uint32_t **res,
                         size_t *res_len) {
    size_t total = 0;
    for (size_t p = 0; p < parts; p++) total += outs[p].order_len;
    /* Listed by (part, rank), so a stable sort by point alone orders them by (point, part, rank). */
    lf_keyed *t = malloc((total ? total : 1) * sizeof *t);
    *res = malloc((total ? total : 1) * sizeof **res);
    if (!t || !*res) {
        free(t);
        free(*res);
        *res = NULL;
        return false;
    }
    size_t k = 0;
    for (size_t p = 0; p < parts; p++) {
        uint64_t point = 0;
        for (size_t i = 0; i < outs[p].order_len; i++) {
            uint32_t op = outs[p].order[i];
            if (ops[op].call > point) point = ops[op].call;
            t[k++] = (lf_keyed){point, op};
        }
    }
    if (lf_radix_sort_until(t, total, deadline) != LF_SORT_OK) { /* no witness, the verdict stands */
        free(t);
        free(*res);
        *res = NULL;
        return false;
    }
    for (size_t i = 0; i < total; i++) (*res)[i] = t[i].payload;
    *res_len = total;
    free(t);
    return true;
}

/* ---- the pipeline ---- */

/* True when one of the first values inserted is inserted again: a cheap, allocation-free proof of
 * ambiguity for the common case of a small value range (the monitors detect the rest). It
 * follows lf_history_unambiguous's notion of an insertion; were it ever stricter, a history would only
 * skip the monitor and be decided by the general checkers instead. */
static bool repeats_an_early_value(const lf_history *h, lf_deadline *dl) {
    enum { SEEN = 32 };
    int64_t seen[SEEN];
    uint8_t seen_nil[SEEN];
    size_t k = 0;
    if (h->type == LF_TYPE_REGISTER) { /* the initial value counts as the first write */
        seen_nil[k] = !h->has_init ? 0 : h->init_kind == LF_K_NIL;
        seen[k++] = h->has_init ? h->init : 0;
    }
    for (size_t i = 0; i < h->n && k < SEEN; i++) {
        if (lf_deadline_every(dl, i)) return false; /* the monitor, called next, stops at once */
        const lf_op *op = &h->ops[i];
        const lf_method_info *mi = lf_method_info_of(h->type, (lf_method)op->method);
        if (!mi || mi->role != LF_ROLE_INSERT) continue;
        if (h->type == LF_TYPE_SET && op->res_kind == LF_K_FALSE) continue; /* inserted nothing */
        uint8_t nil = lf_arg_is_nil(op, 0);
        for (size_t j = 0; j < k; j++)
            if (seen_nil[j] == nil && (nil || seen[j] == op->arg[0])) return true;
        seen_nil[k] = nil;
        seen[k++] = nil ? 0 : op->arg[0];
    }
    return false;
}

/* The monitors decide only unambiguous histories of these types. They find a repeated insertion themselves
 * while classifying ops, before any sort, so only the cheap pre-check runs here: a second full pass over a
 * large history would cost more than the monitors' own early "unsupported". */
static bool monitor_may_apply(const lf_history *h, lf_deadline *dl) {
    switch (h->type) {
    case LF_TYPE_REGISTER:
    case LF_TYPE_SET:
    case LF_TYPE_STACK:
    case LF_TYPE_QUEUE:
    case LF_TYPE_PQUEUE:
    case LF_TYPE_DEQUE: return !repeats_an_early_value(h, dl) && !lf_history_has_bulk(h);
    default: return false;
    }
}

/* The monitor stage on the whole history: true when it settled the check (r set), false to go on with the
 * spec's stages (r reset; pl->monitor_says_linearizable noted: they then only look for a witness). */
static bool whole_history_monitor(pipeline *pl, lf_result *r) {
    const lf_pipeline_options *o = pl->o;
    lf_pipeline_stats *st = pl->st;
    lf_progress_stage(o->progress, "monitor");
    lf_monitor_check(pl->h, &pl->dl, r);
    if (r->verdict == LF_VIOLATION || (r->verdict == LF_LINEARIZABLE && !o->want_witness) ||
        lf_deadline_passed(&pl->dl)) {
        if (r->verdict == LF_UNKNOWN && strncmp(r->reason, "time budget", 11) != 0) {
            char said[sizeof r->reason];
            memcpy(said, r->reason, sizeof said);
            lf_result_set(r, LF_UNKNOWN, "monitor", "time budget exhausted after the monitor (%.400s)", said);
        }
        st->parts = 1;
        st->by_monitor = r->verdict != LF_UNKNOWN;
        r->partitions = 1;
        return true;
    }
    pl->monitor_says_linearizable = r->verdict == LF_LINEARIZABLE;
    lf_result_free(r);
    lf_result_init(r);
    return false;
}

/* How checking the parts went: the parts looked at (done), the undecided ones among all, the violating one
 * (SIZE_MAX: none). */
typedef struct parts_tally {
    size_t done, unknown, violation;
} parts_tally;

/* Checks the parts of a split history in key order (each copied into sub, with its ops' indices in orig),
 * until one violates or the time budget runs out (then the rest count as undecided). */
static parts_tally check_keyed_parts(pipeline *pl, const lf_keyed *keyed, size_t parts, part_outcome *outs, lf_op *sub,
                                     uint32_t *orig) {
    const lf_history *h = pl->h;
    size_t done = 0, unknown = 0, violation = SIZE_MAX;
    for (size_t i = 0, j; i < h->n && violation == SIZE_MAX; i = j, done++) {
        for (j = i + 1; j < h->n && keyed[j].key == keyed[i].key; j++) {
        }
        if (lf_deadline_spend(&pl->dl, j - i < LF_DEADLINE_STRIDE ? (uint32_t)(j - i) : LF_DEADLINE_STRIDE)) {
            /* this part and the ones after it are undecided */
            part_outcome *po = &outs[done];
            memset(po, 0, sizeof *po);
            po->verdict = LF_UNKNOWN;
            po->depth = -1;
            snprintf(po->reason, sizeof po->reason,
                     "part with key %" PRId64 " (%zu ops): time budget exhausted before it was checked",
                     (int64_t)keyed[i].key, j - i);
            unknown += parts - done;
            done++;
            break;
        }
        for (size_t k = 0; k < j - i; k++) {
            orig[k] = keyed[i + k].payload;
            sub[k] = h->ops[orig[k]];
            lf_deadline_tick(&pl->dl); /* its stages stop at once */
        }
        check_part(pl, sub, j - i, orig, true, &outs[done]);
        lf_progress_parts(pl->o->progress, done + 1, parts);
        if (outs[done].verdict == LF_VIOLATION) {
            violation = done;
            char inner[sizeof outs[done].reason];
            memcpy(inner, outs[done].reason, sizeof inner);
            snprintf(outs[done].reason, sizeof outs[done].reason,
                     "in the part with key %" PRId64 " (%zu of %zu ops): %.400s", (int64_t)keyed[i].key, j - i, h->n,
                     inner);
        } else if (outs[done].verdict == LF_UNKNOWN && unknown++ == 0) {
            char inner[sizeof outs[done].reason];
            memcpy(inner, outs[done].reason, sizeof inner);
            snprintf(outs[done].reason, sizeof outs[done].reason, "part with key %" PRId64 " (%zu ops): %.400s",
                     (int64_t)keyed[i].key, j - i, inner);
        }
    }
    return (parts_tally){done, unknown, violation};
}

/* The result of the whole check from the outcomes of its parts: the violating part's, the undecided ones',
 * or linearizable with the merged witness; the stage statistics counted. */
static void aggregate_parts(pipeline *pl, part_outcome *outs, size_t parts, parts_tally t, lf_result *r) {
    const lf_history *h = pl->h;
    const lf_pipeline_options *o = pl->o;
    lf_pipeline_stats *st = pl->st;
    size_t done = t.done, unknown = t.unknown, violation = t.violation;
    st->parts = parts;
    stage worst = STAGE_NONE;
    int depth = -1;
    size_t first_unknown = SIZE_MAX;
    for (size_t p = 0; p < done; p++) {
        const part_outcome *po = &outs[p];
        if (po->verdict == LF_LINEARIZABLE) {
            if (po->by > worst) worst = po->by;
            if (po->by == STAGE_HITTING && po->depth > depth) depth = po->depth;
            if (po->by == STAGE_MONITOR) st->by_monitor++;
            if (po->by == STAGE_HITTING) st->by_hitting++, st->hitting_depths[po->depth < 7 ? po->depth : 7]++;
            if (po->by == STAGE_WGL) st->by_wgl++;
        } else if (po->verdict == LF_UNKNOWN && first_unknown == SIZE_MAX) {
            first_unknown = p;
        } else if (po->verdict == LF_VIOLATION) {
            if (po->by == STAGE_WGL) st->by_wgl++;
        }
    }
    st->wgl_steps = pl->budget.steps;
    r->partitions = parts;
    r->steps = st->hitting_work + pl->budget.steps;
    if (violation != SIZE_MAX) {
        part_outcome *po = &outs[violation];
        lf_result_set(r, LF_VIOLATION, stage_engine(po->by), "%s", po->reason);
        r->prefix = po->order;
        r->prefix_len = po->order_len;
        r->culprits = po->culprits;
        r->n_culprits = po->n_culprits;
        po->order = po->culprits = NULL;
    } else if (unknown) {
        if (parts == 1)
            lf_result_set(r, LF_UNKNOWN, last_stage(o), "%s", outs[0].reason);
        else
            lf_result_set(r, LF_UNKNOWN, last_stage(o), "%zu of %zu parts undecided; first: %.400s", unknown, parts,
                          outs[first_unknown].reason);
    } else {
        r->verdict = LF_LINEARIZABLE;
        r->engine = stage_engine(worst);
        r->reason[0] = '\0';
        r->depth = worst == STAGE_HITTING ? depth : -1;
        bool have_all = o->want_witness;
        for (size_t p = 0; p < done && have_all; p++) have_all = outs[p].order != NULL;
        if (have_all) {
            if (parts == 1) {
                r->witness = outs[0].order;
                r->witness_len = outs[0].order_len;
                outs[0].order = NULL;
            } else {
                merge_orders(h->ops, outs, done, pl->deadline, &r->witness, &r->witness_len);
            }
        }
    }
}

void lf_pipeline_check(const lf_history *h, const lf_pipeline_options *o, lf_result *r, lf_pipeline_stats *stats) {
    lf_pipeline_stats local_stats;
    lf_pipeline_stats *st = stats ? stats : &local_stats;
    memset(st, 0, sizeof *st);
    pipeline pl;
    memset(&pl, 0, sizeof pl);
    pl.h = h;
    pl.o = o;
    pl.st = st;
    pl.deadline = o->deadline > 0 ? o->deadline : lf_deadline_from_timeout(o->timeout_s);
    lf_deadline_init(&pl.dl, pl.deadline);
    pl.budget.deadline = pl.deadline;
    pl.budget.max_bytes = o->max_memory_bytes ? o->max_memory_bytes : LF_WGL_DEFAULT_MEMORY;
    pl.budget.progress = o->progress;
    char err[400];
    bool late = lf_deadline_passed(&pl.dl);
    if (!late && lf_history_validate_within(h, &pl.dl, &late, err, sizeof err) != SIZE_MAX) {
        lf_result_set(r, LF_UNKNOWN, last_stage(o), "malformed history: %s", err);
        return;
    }
    if (late || lf_deadline_passed(&pl.dl)) {
        lf_result_set(r, LF_UNKNOWN, last_stage(o), "time budget exhausted before the first stage (validating %zu ops)",
                      h->n);
        return;
    }

    if (o->use_monitor && !o->spec && monitor_may_apply(h, &pl.dl) && whole_history_monitor(&pl, r)) return;
    pl.spec = o->spec ? o->spec : lf_spec_of_history(h);
    if (!pl.spec) {
        lf_result_set(r, LF_UNKNOWN, last_stage(o), "no specification for type %s", lf_history_type_name(h));
        return;
    }
    lf_spec_env_of_history(h, &pl.env);
    pl.env.user = o->spec_user;

    size_t parts = 1;
    lf_keyed *keyed = split_by_key(&pl, &parts);
    part_outcome *outs = calloc(parts, sizeof *outs);
    size_t max_part = 0;
    for (size_t i = 0, j; keyed && i < h->n; i = j) {
        for (j = i + 1; j < h->n && keyed[j].key == keyed[i].key; j++) {
        }
        if (j - i > max_part) max_part = j - i;
        lf_deadline_spend(&pl.dl, (uint32_t)(j - i)); /* the parts notice it */
    }
    lf_op *sub = keyed ? malloc(max_part * sizeof *sub) : NULL;
    uint32_t *orig = keyed ? malloc(max_part * sizeof *orig) : NULL;
    if (!outs || (keyed && (!sub || !orig))) {
        lf_result_set(r, LF_UNKNOWN, last_stage(o), "out of memory splitting %zu ops into %zu parts", h->n, parts);
        free(outs);
        free(sub);
        free(orig);
        free(keyed);
        return;
    }

    parts_tally tally;
    lf_progress_parts(o->progress, 0, parts);
    if (!keyed) {
        check_part(&pl, h->ops, h->n, NULL, false, &outs[0]);
        lf_progress_parts(o->progress, 1, 1);
        tally = (parts_tally){1, outs[0].verdict == LF_UNKNOWN, outs[0].verdict == LF_VIOLATION ? 0 : SIZE_MAX};
    } else {
        tally = check_keyed_parts(&pl, keyed, parts, outs, sub, orig);
    }
    aggregate_parts(&pl, outs, parts, tally, r);

    for (size_t p = 0; p < tally.done; p++) outcome_free(&outs[p]);
    free(outs);
    free(sub);
    free(orig);
    free(keyed);
}
