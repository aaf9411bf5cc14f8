/* Differential test of WGL against the brute-force oracle, for every built-in type, on thousands of small
 * random histories with repeated values and pending ops: linearizable by construction, corrupted, and
 * random (engines/generate), each also with stamps collapsed into ties, with a value turned into nil, and with its
 * stamps moved to the edges of the 64-bit range (generate/stamp_remap.h).
 * Every WGL variant (split or not, cache on or off, per-thread or bitset keys) must agree with brute force
 * whenever brute force decides; witnesses and prefixes are checked. Medium histories, beyond brute force,
 * check the variants against each other. A mismatch prints the history and its seed. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "brute/brute.h"
#include "generate/stamp_remap.h"
#include "history_test_util.h"
#include "linfuzz/format.h"
#include "linfuzz/generate.h"
#include "test_util.h"
#include "wgl/wgl.h"
#include "wgl_test_util.h"


static void run_variant(const lf_history *h, const wgl_variant *v, lf_result *r, uint64_t max_steps) {
    lf_wgl_options o;
    wgl_variant_options(v, &o);
    o.max_steps = max_steps;
    lf_result_init(r);
    lf_wgl_check(h, &o, r);
}

/* Checks the explanation that comes with a verdict; false when it is wrong. */
static bool explanation_ok(const lf_history *h, const lf_result *r, const wgl_variant *v, char *why, size_t whylen) {
    lf_spec_env env;
    lf_spec_env_of_history(h, &env);
    const lf_spec *spec = lf_spec_builtin(h->type);
    if (r->verdict == LF_LINEARIZABLE) {
        if (!order_is_valid(spec, &env, r->witness, r->witness_len, true, why, whylen)) return false;
        if (!witness_replays_in_brute(h, r->witness, r->witness_len)) {
            snprintf(why, whylen, "brute force rejects the witness");
            return false;
        }
    } else if (r->verdict == LF_VIOLATION) {
        if (r->n_culprits == 0) {
            snprintf(why, whylen, "no culprits");
            return false;
        }
        /* An unsplit search's prefix is a prefix of the whole history. */
        if (!v->partition || r->partitions <= 1)
            if (!order_is_valid(spec, &env, r->prefix, r->prefix_len, false, why, whylen)) return false;
    }
    return true;
}

typedef struct tally {
    size_t histories, decided, linearizable, violations, mismatches;
} tally;

static void compare(const lf_history *h, const char *what, uint64_t seed, tally *t) {
    lf_verdict truth = brute_verdict(h, 0);
    t->histories++;
    if (truth != LF_UNKNOWN) {
        t->decided++;
        t->linearizable += truth == LF_LINEARIZABLE;
        t->violations += truth == LF_VIOLATION;
    }
    for (size_t v = 0; v < N_WGL_VARIANTS; v++) {
        lf_result r;
        run_variant(h, &WGL_VARIANTS[v], &r, 0);
        char why[300] = "";
        bool ok = r.verdict != LF_UNKNOWN && (truth == LF_UNKNOWN || r.verdict == truth) &&
                  explanation_ok(h, &r, &WGL_VARIANTS[v], why, sizeof why);
        CHECKF(ok, "%s seed %llu [%s]: wgl %s (%s), brute %s; %s", what, (unsigned long long)seed, WGL_VARIANTS[v].name,
               lf_verdict_name(r.verdict), r.reason, lf_verdict_name(truth), why);
        if (!ok) {
            t->mismatches++;
            if (t->mismatches <= 3) print_history(h);
        }
        lf_result_free(&r);
    }
}

static void small_histories(lf_type type, tally *t) {
    uint64_t seed = 1000 * (uint64_t)type + 1;
    for (int mode = 0; mode < 3; mode++) {
        for (int i = 0; i < 150; i++, seed++) {
            lf_gen_small_options so;
            lf_gen_small_options_default(&so, type, (lf_gen_small_mode)mode);
            so.values = mode == LF_GEN_RANDOM ? 0 : 1 + seed % 3; /* repeated values */
            so.pending = (seed % 3) * 0.25;
            so.max_threads = 2 + seed % 3;
            if (i % 5 == 4) {
                /* Crash-heavy: most threads end with a pending op, often identical ones (two values), the
                 * case of the pending-op prunings (twins in call order, no-op pending ops skipped). */
                so.pending = 0.9;
                so.max_threads = 6;
                so.values = 2;
            }
            so.max_ops = 9;
            lf_history h;
            if (!lf_gen_small(seed, &so, &h)) {
                CHECKF(0, "generator failed for %s seed %llu", lf_type_name(type), (unsigned long long)seed);
                continue;
            }
            char what[96];
            snprintf(what, sizeof what, "%s %s", lf_type_name(type), gen_mode_name(mode));
            compare(&h, what, seed, t);
            lf_history variant[2];
            const char *variant_name[2];
            for (size_t k = 0, n = tie_nil_variants(&h, variant, variant_name); k < n; k++) {
                snprintf(what, sizeof what, "%s %s %s", lf_type_name(type), gen_mode_name(mode), variant_name[k]);
                compare(&variant[k], what, seed, t);
                lf_history_free(&variant[k]);
            }
            /* Stamps only matter by order: a copy with its stamps at the edges of the range (a different map
             * each seed: largest at 2^64-1, smallest at 0, dense at either end, spread over the range). */
            lf_history moved;
            lf_stamp_map map = (lf_stamp_map)(seed % LF_STAMPS_MAP_COUNT);
            if (lf_history_copy(&moved, &h) && lf_history_remap_stamps(&moved, map, seed)) {
                snprintf(what, sizeof what, "%s %s stamps %s", lf_type_name(type), gen_mode_name(mode),
                         lf_stamp_map_name(map));
                compare(&moved, what, seed, t);
            }
            lf_history_free(&moved);
            lf_history_free(&h);
        }
    }
}

/* Medium histories (beyond brute force): the variants must agree with one another. The uncached search
 * may run out of steps; only decided answers are compared. */
static void medium_histories(lf_type type, size_t *compared) {
    for (uint64_t seed = 1; seed <= 25; seed++) {
        lf_gen_options go;
        lf_gen_options_default(&go);
        go.type = type;
        go.n_ops = 40 + seed;
        go.threads = 3 + seed % 3;
        go.seed = seed * 7919 + (uint64_t)type;
        go.values = 3;
        go.peek = 0.3;
        go.empty = 0.3;
        go.pending = 0.3;
        go.bad = seed % 2;
        lf_history h;
        char err[200];
        if (!lf_gen_history(&go, &h, err, sizeof err)) {
            CHECKF(0, "%s", err);
            continue;
        }
        lf_verdict first = LF_UNKNOWN;
        for (size_t v = 0; v < N_WGL_VARIANTS; v++) {
            lf_result r;
            run_variant(&h, &WGL_VARIANTS[v], &r, 2000000);
            char why[300] = "";
            if (r.verdict != LF_UNKNOWN) {
                if (first == LF_UNKNOWN) first = r.verdict;
                CHECKF(r.verdict == first, "%s medium seed %llu [%s]: %s, another variant said %s",
                       lf_type_name(type), (unsigned long long)seed, WGL_VARIANTS[v].name, lf_verdict_name(r.verdict),
                       lf_verdict_name(first));
                lf_spec_env env;
                lf_spec_env_of_history(&h, &env);
                if (r.verdict == LF_LINEARIZABLE)
                    CHECKF(order_is_valid(lf_spec_builtin(type), &env, r.witness, r.witness_len, true, why, sizeof why),
                           "%s medium seed %llu [%s]: witness: %s", lf_type_name(type), (unsigned long long)seed,
                           WGL_VARIANTS[v].name, why);
                (*compared)++;
            }
            CHECKF(r.verdict != LF_UNKNOWN || !WGL_VARIANTS[v].use_cache, "%s medium seed %llu [%s]: unknown: %s",
                   lf_type_name(type), (unsigned long long)seed, WGL_VARIANTS[v].name, r.reason);
            lf_result_free(&r);
        }
        lf_history_free(&h);
    }
}

int main(void) {
    size_t total = 0, decided = 0, lin = 0, vio = 0, medium = 0;
    for (int type = 0; type < LF_TYPE_COUNT; type++) {
        tally t = {0};
        small_histories((lf_type)type, &t);
        medium_histories((lf_type)type, &medium);
        printf("%-13s %5zu histories, %5zu decided by brute force (%zu linearizable, %zu violations), %zu mismatches\n",
               lf_type_name((lf_type)type), t.histories, t.decided, t.linearizable, t.violations, t.mismatches);
        CHECKF(t.decided * 10 >= t.histories * 9, "%s: brute force decided too few", lf_type_name((lf_type)type));
        CHECKF(t.linearizable >= 50 && t.violations >= 50, "%s: both verdicts must be well represented",
               lf_type_name((lf_type)type));
        total += t.histories;
        decided += t.decided;
        lin += t.linearizable;
        vio += t.violations;
    }
    printf("total %zu histories (%zu decided: %zu linearizable, %zu violations) x %zu variants; %zu medium checks\n",
           total, decided, lin, vio, N_WGL_VARIANTS, medium);
    CHECKF(total >= 4000, "thousands of histories: %zu", total);
    TEST_DONE();
}
