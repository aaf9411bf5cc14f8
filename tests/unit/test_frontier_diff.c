/* Differential test of the frontier sweep (engines/wgl/frontier.c) against the brute-force oracle, for
 * every built-in type, on thousands of small random histories: linearizable by construction, corrupted and
 * random, with values from 1..2 or 1..3 (many identical ops: the symmetry and domination rules), up to 7
 * threads (wide frontiers), pending ops (crash-heavy ones too), and each also with stamps collapsed into
 * ties, a value turned into nil, and stamps shifted to the top of the 64-bit range. The exact sweep must
 * agree with brute force whenever brute force decides; its witness must be a linearization and its
 * violation prefix a linearizable prefix, with the op that could not go first among the culprits. The beam
 * prover (widths 1 and 3) must never say violation, and every linearizable answer must come with a real
 * witness. Medium histories, beyond brute force, compare the sweep with the WGL search alone, and
 * lf_wgl_decide (the stages together) with both. A mismatch prints the history and its seed. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "brute/brute.h"
#include "history_test_util.h"
#include "linfuzz/format.h"
#include "linfuzz/generate.h"
#include "test_util.h"
#include "wgl/decide.h"
#include "wgl/frontier.h"
#include "wgl/wgl.h"
#include "wgl_test_util.h"

typedef enum { RUN_SWEEP, RUN_BEAM1, RUN_BEAM3, RUN_WGL, RUN_DECIDE } run_kind;
static const char *const RUN_NAMES[] = {"sweep", "beam 1", "beam 3", "wgl alone", "decide"};

/* One search of h; r gets verdict, reason, witness / prefix and culprits (op indices of h). */
static void run(const lf_history *h, run_kind k, uint64_t max_steps, wgl_part_result *r) {
    const lf_spec *spec = lf_spec_builtin(h->type);
    lf_spec_env env;
    lf_spec_env_of_history(h, &env);
    wgl_budget b;
    memset(&b, 0, sizeof b);
    b.max_bytes = (size_t)256 << 20;
    b.max_steps = max_steps;
    wgl_search_opts so = {true, false, true, k == RUN_WGL};
    memset(r, 0, sizeof *r);
    switch (k) {
    case RUN_SWEEP: lf_wgl_frontier(spec, &env, NULL, &so, 0, &b, r); break;
    case RUN_BEAM1: lf_wgl_frontier(spec, &env, NULL, &so, 1, &b, r); break;
    case RUN_BEAM3: lf_wgl_frontier(spec, &env, NULL, &so, 3, &b, r); break;
    case RUN_WGL:
    case RUN_DECIDE: lf_wgl_decide(spec, &env, NULL, &so, &b, r); break;
    }
}

/* Checks the explanation of an answer (witnesses also replayed by brute force when small); false with why
 * when it is wrong. */
static bool explanation_ok(const lf_history *h, const wgl_part_result *r, char *why, size_t whylen) {
    lf_spec_env env;
    lf_spec_env_of_history(h, &env);
    const lf_spec *spec = lf_spec_builtin(h->type);
    if (r->verdict == LF_LINEARIZABLE) {
        if (!order_is_valid(spec, &env, r->order, r->order_len, true, why, whylen)) return false;
        if (h->n <= 20 && !witness_replays_in_brute(h, r->order, r->order_len)) {
            snprintf(why, whylen, "brute force rejects the witness");
            return false;
        }
    } else if (r->verdict == LF_VIOLATION) {
        if (r->n_culprits == 0) {
            snprintf(why, whylen, "no culprits");
            return false;
        }
        if (!order_is_valid(spec, &env, r->order, r->order_len, false, why, whylen)) return false;
        for (size_t i = 0; i < r->order_len; i++)
            if (r->order[i] == r->culprits[0]) {
                snprintf(why, whylen, "the op that could not go (%u) is in the prefix", r->culprits[0]);
                return false;
            }
    }
    return true;
}

typedef struct tally {
    size_t histories, decided, linearizable, violations, mismatches, beam_proofs;
} tally;

static void compare(const lf_history *h, const char *what, uint64_t seed, tally *t) {
    lf_verdict truth = brute_verdict(h, 0);
    t->histories++;
    if (truth != LF_UNKNOWN) {
        t->decided++;
        t->linearizable += truth == LF_LINEARIZABLE;
        t->violations += truth == LF_VIOLATION;
    }
    for (run_kind k = RUN_SWEEP; k <= RUN_BEAM3; k++) {
        wgl_part_result r;
        run(h, k, 0, &r);
        char why[300] = "";
        bool ok;
        if (k == RUN_SWEEP)
            ok = r.verdict != LF_UNKNOWN && (truth == LF_UNKNOWN || r.verdict == truth);
        else
            ok = r.verdict != LF_VIOLATION && (r.verdict != LF_LINEARIZABLE || truth != LF_VIOLATION);
        ok = ok && explanation_ok(h, &r, why, sizeof why);
        t->beam_proofs += k != RUN_SWEEP && r.verdict == LF_LINEARIZABLE;
        CHECKF(ok, "%s seed %llu [%s]: %s (%s), brute %s; %s", what, (unsigned long long)seed, RUN_NAMES[k],
               lf_verdict_name(r.verdict), r.reason, lf_verdict_name(truth), why);
        if (!ok && ++t->mismatches <= 3) print_history(h);
        lf_wgl_part_result_free(&r);
    }
}

/* Shifts every stamp so that the largest is 2^64 - 1 (only their order may matter). */
static void shift_to_top(lf_history *h) {
    uint64_t top = 0;
    for (size_t i = 0; i < h->n; i++) {
        if (h->ops[i].call > top) top = h->ops[i].call;
        if (!lf_op_pending(&h->ops[i]) && h->ops[i].ret > top) top = h->ops[i].ret;
    }
    uint64_t d = UINT64_MAX - top;
    for (size_t i = 0; i < h->n; i++) {
        h->ops[i].call += d;
        if (!lf_op_pending(&h->ops[i])) h->ops[i].ret += d;
    }
}

static void small_histories(lf_type type, tally *t) {
    uint64_t seed = 7000 * (uint64_t)type + 11;
    for (int mode = 0; mode < 3; mode++) {
        for (int i = 0; i < 260; i++, seed++) {
            lf_gen_small_options so;
            lf_gen_small_options_default(&so, type, (lf_gen_small_mode)mode);
            so.values = mode == LF_GEN_RANDOM ? 0 : 1 + seed % 3;
            so.pending = (seed % 4) * 0.15;
            so.max_threads = 2 + seed % 6; /* up to 7: wide frontiers */
            so.max_ops = 7 + seed % 5;
            so.peek = (seed % 3) * 0.2;
            if (i % 7 == 3) { /* crash-heavy, identical pending ops */
                so.pending = 0.9;
                so.max_threads = 7;
                so.values = 2;
            }
            if (i % 7 == 5) { /* two values, no observers: only state-changing ops (cas chains, blind writes) */
                so.values = 2;
                so.peek = 0;
                so.max_threads = 7;
                so.max_ops = 12;
            }
            lf_history h;
            if (!lf_gen_small(seed, &so, &h)) {
                CHECKF(0, "generator failed for %s seed %llu", lf_type_name(type), (unsigned long long)seed);
                continue;
            }
            char what[96];
            snprintf(what, sizeof what, "%s %s", lf_type_name(type), gen_mode_name(mode));
            compare(&h, what, seed, t);
            lf_history variant[2], v;
            const char *variant_name[2];
            for (size_t k = 0, n = tie_nil_variants(&h, variant, variant_name); k < n; k++) {
                snprintf(what, sizeof what, "%s %s %s", lf_type_name(type), gen_mode_name(mode), variant_name[k]);
                compare(&variant[k], what, seed, t);
                lf_history_free(&variant[k]);
            }
            if (i % 4 == 0 && lf_history_copy(&v, &h)) {
                shift_to_top(&v);
                snprintf(what, sizeof what, "%s %s shifted", lf_type_name(type), gen_mode_name(mode));
                compare(&v, what, seed, t);
                lf_history_free(&v);
            }
            lf_history_free(&h);
        }
    }
}

/* Wide histories: as many ops as brute force takes, 6 to 8 threads, two values, few observers: the
 * frontier is widest there and every domination rule fires. */
static void wide_histories(lf_type type, tally *t, int count) {
    uint64_t seed = 900000 + 1000 * (uint64_t)type;
    for (int i = 0; i < count; i++, seed++) {
        lf_gen_small_options so;
        lf_gen_small_options_default(&so, type, i % 3 == 2 ? LF_GEN_CORRUPTED : LF_GEN_CONSTRUCTED);
        so.values = type == LF_TYPE_KV ? 1 + (uint64_t)(i % 2) : 2; /* kv: one key (puts overwrite) or two */
        so.min_ops = 13;
        so.max_ops = 16;
        so.max_threads = 8;
        so.peek = (i % 4) * 0.1;
        so.pending = (i % 3) * 0.2;
        lf_history h;
        if (!lf_gen_small(seed, &so, &h)) continue;
        char what[96];
        snprintf(what, sizeof what, "%s wide", lf_type_name(type));
        compare(&h, what, seed, t);
        lf_history_free(&h);
    }
}

/* Medium histories (beyond brute force): the sweep, WGL alone and the stages together must agree wherever
 * they decide (each within a step budget), and witnesses must be linearizations. */
static void medium_histories(lf_type type, size_t *compared, size_t *swept) {
    for (uint64_t seed = 1; seed <= 24; seed++) {
        lf_gen_options go;
        lf_gen_options_default(&go);
        go.type = type;
        go.n_ops = 30 + 4 * seed;
        go.threads = 3 + seed % 6;
        go.seed = seed * 104729 + (uint64_t)type;
        go.values = 2 + seed % 3;
        go.peek = (seed % 3) * 0.15;
        go.empty = 0.3;
        go.pending = (seed % 2) * 0.3;
        go.bad = seed % 3;
        lf_history h;
        char err[200];
        if (!lf_gen_history(&go, &h, err, sizeof err)) {
            CHECKF(0, "%s", err);
            continue;
        }
        lf_verdict first = LF_UNKNOWN;
        const char *first_by = "";
        for (run_kind k = RUN_SWEEP; k <= RUN_DECIDE; k++) {
            if (k == RUN_BEAM1) k = RUN_WGL;
            wgl_part_result r;
            run(&h, k, 3000000, &r);
            char why[300] = "";
            if (r.verdict != LF_UNKNOWN) {
                if (first == LF_UNKNOWN) {
                    first = r.verdict;
                    first_by = RUN_NAMES[k];
                }
                CHECKF(r.verdict == first, "%s medium seed %llu [%s]: %s, %s said %s", lf_type_name(type),
                       (unsigned long long)seed, RUN_NAMES[k], lf_verdict_name(r.verdict), first_by,
                       lf_verdict_name(first));
                CHECKF(explanation_ok(&h, &r, why, sizeof why), "%s medium seed %llu [%s]: %s", lf_type_name(type),
                       (unsigned long long)seed, RUN_NAMES[k], why);
                (*compared)++;
                *swept += k == RUN_SWEEP;
            }
            lf_wgl_part_result_free(&r);
        }
        lf_history_free(&h);
    }
}

int main(void) {
    size_t total = 0, decided = 0, lin = 0, vio = 0, medium = 0, swept = 0, beam = 0;
    for (int type = 0; type < LF_TYPE_COUNT; type++) {
        tally t = {0};
        small_histories((lf_type)type, &t);
        wide_histories((lf_type)type, &t, getenv("FRONTIER_DIFF_WIDE") ? atoi(getenv("FRONTIER_DIFF_WIDE")) : 120);
        medium_histories((lf_type)type, &medium, &swept);
        printf("%-13s %5zu histories, %5zu decided by brute force (%zu linearizable, %zu violations), %zu beam "
               "proofs, %zu mismatches\n",
               lf_type_name((lf_type)type), t.histories, t.decided, t.linearizable, t.violations, t.beam_proofs,
               t.mismatches);
        CHECKF(t.decided * 10 >= t.histories * 9, "%s: brute force decided too few", lf_type_name((lf_type)type));
        CHECKF(t.linearizable >= 100 && t.violations >= 100, "%s: both verdicts must be well represented",
               lf_type_name((lf_type)type));
        total += t.histories;
        decided += t.decided;
        lin += t.linearizable;
        vio += t.violations;
        beam += t.beam_proofs;
    }
    printf("total %zu histories (%zu decided: %zu linearizable, %zu violations) x sweep and 2 beams (%zu beam "
           "proofs); %zu medium checks (%zu by the sweep)\n",
           total, decided, lin, vio, beam, medium, swept);
    CHECKF(total >= 8000, "thousands of histories: %zu", total);
    TEST_DONE();
}
