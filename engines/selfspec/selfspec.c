/* The self-spec checker (linfuzz/selfspec.h): the determinism probe, the hitting families and the complete
 * search over the self-spec (through the checking pipeline, without monitors), the classification of
 * violations, and the verdicts that the memo's failures turn into. */
#include "linfuzz/selfspec.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "budget/deadline.h"
#include "check/levels.h"
#include "check/pipeline.h"
#include "selfspec/memo.h"
#include "selfspec/self_spec.h"

struct lf_selfspec {
    const lf_oracle *oracle;
    lf_selfspec_options opts;
    lf_selfspec_stats stats;
    ss_memo memo;
};

void lf_selfspec_options_default(lf_selfspec_options *o) {
    memset(o, 0, sizeof *o);
    o->hitting_depth = LF_SELFSPEC_HITTING_DEPTH;
    o->hitting_work_factor = LF_SELFSPEC_HITTING_WORK_FACTOR;
    o->hitting_max_size = LF_SELFSPEC_HITTING_MAX_SIZE;
    o->probe_replays = 1;
    o->nondet_tries = 8;
    o->max_nodes = LF_SELFSPEC_MAX_NODES;
    o->use_fingerprint = true;
    o->classify = true;
}

lf_selfspec *lf_selfspec_new(const lf_oracle *oracle, const lf_selfspec_options *o) {
    lf_selfspec *s = calloc(1, sizeof *s);
    if (!s) return NULL;
    s->oracle = oracle;
    if (o)
        s->opts = *o;
    else
        lf_selfspec_options_default(&s->opts);
    if (!lf_ss_memo_init(&s->memo, oracle, &s->opts, &s->stats)) {
        lf_ss_memo_free(&s->memo);
        free(s);
        return NULL;
    }
    return s;
}

void lf_selfspec_free(lf_selfspec *s) {
    if (!s) return;
    lf_ss_memo_free(&s->memo);
    free(s);
}

void lf_selfspec_forget(lf_selfspec *s) { lf_ss_memo_clear(&s->memo); }

const lf_selfspec_stats *lf_selfspec_stats_of(const lf_selfspec *s) { return &s->stats; }

const lf_spec *lf_selfspec_as_spec(lf_selfspec *s, const void **user) {
    *user = &s->memo;
    return &lf_self_spec;
}

bool lf_selfspec_nondeterminism(const lf_selfspec *s, const lf_history *h, lf_history *out) {
    (void)h;
    if (s->memo.failure != SS_NONDETERMINISM) return false;
    return lf_ss_memo_path_history(&s->memo, s->memo.nd_node, out);
}

/* The ops' indices by call stamp (ties by index): the order of the determinism probe. */
static int cmp_call(const void *a, const void *b, void *ops_) {
    const lf_op *ops = ops_;
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    if (ops[x].call != ops[y].call) return ops[x].call < ops[y].call ? -1 : 1;
    return (x > y) - (x < y);
}

/* The verdict when the memo failed: serial nondeterminism is a category of its own, never a violation. */
static void failed_result(const ss_memo *m, lf_result *r) {
    lf_result_free(r);
    lf_result_init(r);
    if (m->failure == SS_NONDETERMINISM) {
        lf_result_set(r, LF_UNKNOWN, "self", "serial nondeterminism: %s", m->why);
        r->serial_nondeterminism = true;
    } else {
        lf_result_set(r, LF_UNKNOWN, "self", "self-spec: %s", m->why);
    }
}

static const char *self_engine(const char *stage) {
    if (!strcmp(stage, "hitting")) return "self-hitting";
    if (!strcmp(stage, "wgl")) return "self-wgl";
    return "self";
}

void lf_selfspec_check(lf_selfspec *s, const lf_history *h, const lf_check_options *o, lf_result *r) {
    lf_selfspec_stats *st = &s->stats;
    st->checks++;
    double deadline = lf_deadline_from_timeout(o->timeout_s); /* one budget for every stage */
    char err[400];
    if (lf_history_validate(h, err, sizeof err) != SIZE_MAX) {
        lf_result_set(r, LF_UNKNOWN, "self", "malformed history: %s", err);
        st->unknown++;
        return;
    }
    if (h->has_init && !(h->init_kind == LF_K_INT && h->init == 0)) {
        lf_result_set(r, LF_UNKNOWN, "self",
                      "self-spec: the history starts from another initial value (init), the implementation from "
                      "its fresh state");
        st->unknown++;
        return;
    }
    if (o->engine == LF_ENGINE_MONITOR || o->engine == LF_ENGINE_BRUTE) {
        lf_result_set(r, LF_UNKNOWN, "self",
                      "self-spec: the %s engine knows only the built-in specifications (use auto, hitting or wgl)",
                      lf_engine_name(o->engine));
        st->unknown++;
        return;
    }
    if (!lf_ss_memo_begin(&s->memo, h)) {
        lf_result_set(r, LF_UNKNOWN, "self", "self-spec: out of memory");
        st->unknown++;
        return;
    }
    const ss_memo *prev = lf_ss_set_current(&s->memo);

    /* 1. determinism probe */
    if (s->opts.probe_replays && h->n) {
        uint32_t *order = malloc(h->n * sizeof *order);
        if (order) {
            for (size_t i = 0; i < h->n; i++) order[i] = (uint32_t)i;
            qsort_r(order, h->n, sizeof *order, cmp_call, h->ops);
            lf_ss_probe(&s->memo, h->ops, order, h->n, s->opts.probe_replays);
            free(order);
        }
    }

    /* 2, 3. the families, then the complete search, over the self-spec */
    if (!ss_failed(&s->memo)) {
        lf_pipeline_options po;
        lf_pipeline_options_default(&po);
        po.use_monitor = false;
        po.spec = &lf_self_spec;
        po.spec_user = &s->memo;
        po.timeout_s = o->timeout_s;
        po.deadline = deadline;
        po.max_memory_bytes = o->max_memory_bytes;
        po.want_witness = o->want_witness;
        po.hitting_depth = o->max_depth ? o->max_depth : s->opts.hitting_depth;
        po.hitting_work_factor = s->opts.hitting_work_factor ? s->opts.hitting_work_factor
                                                             : LF_SELFSPEC_HITTING_WORK_FACTOR;
        po.hitting_max_size = s->opts.hitting_max_size ? s->opts.hitting_max_size : LF_SELFSPEC_HITTING_MAX_SIZE;
        po.use_hitting = s->opts.hitting_depth >= 0 || o->max_depth > 0;
        if (o->engine == LF_ENGINE_HITTING) {
            po.use_wgl = false;
            po.use_hitting = true;
            po.hitting_work_factor = UINT64_MAX;
            po.hitting_max_size = SIZE_MAX;
            if (po.hitting_depth <= 0) po.hitting_depth = LF_SELFSPEC_HITTING_DEPTH;
        } else if (o->engine == LF_ENGINE_WGL) {
            po.use_hitting = false;
        }
        lf_pipeline_check(h, &po, r, NULL);
        r->engine = self_engine(r->engine);
    }

    /* 4. what the memo saw decides whether the verdict stands */
    if (!ss_failed(&s->memo) && r->verdict == LF_VIOLATION && (s->memo.uncertain || s->memo.incomplete)) {
        char old[sizeof r->reason];
        memcpy(old, r->reason, sizeof old);
        lf_result_free(r);
        lf_result_set(r, LF_UNKNOWN, r->engine, "self-spec: no verdict: %s; %.200s",
                      s->memo.uncertain ? s->memo.uncertain_why
                                        : "a pending op of a nondeterministic method was explored with one of its "
                                          "outcomes only",
                      old);
    }
    if (!ss_failed(&s->memo) && r->verdict == LF_VIOLATION && s->opts.classify) {
        lf_spec_env env;
        lf_spec_env_of_history(h, &env);
        env.user = &s->memo;
        lf_classify_violation(&lf_self_spec, &env, deadline, r);
    }
    if (ss_failed(&s->memo)) failed_result(&s->memo, r);
    lf_ss_set_current(prev);

    switch (r->verdict) {
    case LF_LINEARIZABLE:
        st->linearizable++;
        if (r->depth > 0)
            st->by_hitting[r->depth < 7 ? r->depth : 7]++;
        else
            st->by_search++;
        break;
    case LF_VIOLATION:
        st->violations++;
        st->level[r->level <= LF_LEVEL_REAL_TIME ? r->level : 0]++;
        break;
    case LF_UNKNOWN:
        st->unknown++;
        st->nondeterministic += r->serial_nondeterminism;
        break;
    }
}
