/* linfuzz-bench-selfspec: what the self-spec costs per fuzz case against the spec of the adapter's type, on the
 * same histories, and how many histories the hitting families on the real object decide alone (run by
 * ci/bench_selfspec.sh; not a test).
 *
 * Per adapter: fuzz cases as the fuzz targets make them (the adapter's seed inputs under 0-5 structured
 * mutations, seeded), each run `repeats` times on fresh objects; the histories of a case are checked once with
 * the type's spec (engine auto: monitors, families, WGL) and once with the adapter's self-spec (one memo per
 * case, as in the fuzz targets), in thread CPU time. The table gives medians over cases of both times and of
 * their ratio, the self-spec's time without the families (the complete search alone), the verdicts' agreement, which stage of the self-spec decided the linearizable histories
 * (families at depth 1, 2, 3 under the default rule, or the complete search), and the ops run on the adapter
 * per check. A second pass runs the families alone, without the rule's size and work limits, to depth 3: the
 * share of linearizable histories each depth proves (cumulative) is the "decided alone" figure. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "linfuzz/adapter.h"
#include "linfuzz/check.h"
#include "linfuzz/selfspec.h"
#include "runtime/adapter_check.h"
#include "runtime/adapter_type.h"
#include "testcase/case_runner.h"
#include "testcase/fuzz_case.h"

#ifndef LINFUZZ_CORPUS_DIR
#define LINFUZZ_CORPUS_DIR "corpus"
#endif

static double cpu_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, size_t n) {
    if (!n) return 0;
    qsort(v, n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static const char *SEEDS[] = {"pairs", "wide", "natural", "prefilled"};

/* A fuzz case for a: one of its seed inputs (or a random case when it has none) under 0-5 mutations. */
static void make_case(const lf_adapter *a, unsigned nm, uint64_t *rng, lf_fuzz_case *c) {
    char path[4096];
    snprintf(path, sizeof path, "%s/%s/seeds/%s", LINFUZZ_CORPUS_DIR, a->name, SEEDS[lf_rand_below(rng, 4)]);
    uint8_t bytes[LF_FC_MAX_ENCODED];
    size_t len = 0;
    FILE *f = fopen(path, "rb");
    if (f) {
        len = fread(bytes, 1, sizeof bytes, f);
        fclose(f);
    } else {
        for (len = 0; len < 64; len++) bytes[len] = (uint8_t)lf_rand_next(rng);
    }
    lf_fuzz_case_decode(bytes, len, nm, c);
    for (uint64_t k = lf_rand_below(rng, 6); k > 0; k--) lf_fuzz_case_mutate(c, nm, rng);
    if (c->rounds > 16) c->rounds = 16; /* the fuzz targets' seeds go to 32: keep a case within seconds */
    lf_fuzz_case_normalize(c, nm);
}

typedef struct row {
    size_t cases, histories, ops, agree, disagree, lin, vio, unknown;
    uint64_t by_hitting[4], by_search, oracle_ops, checks;
    uint64_t alone[4], alone_lin;
    double ms_type, ms_self, ratio, ms_search;
} row;

static lf_selfspec_options self_opts; /* --depth, --work, --size */

/* c's self-spec again, with self_opts (the families' rule under study). */
static bool with_options(lf_adapter_checker *c) {
    lf_selfspec *s = lf_selfspec_new(&c->oracle.oracle, &self_opts);
    if (!s) return false;
    lf_selfspec_free(c->self);
    c->self = c->check.self = s;
    return true;
}

static void bench_adapter(const lf_adapter *a, unsigned cases, uint64_t seed, bool alone, row *out) {
    memset(out, 0, sizeof *out);
    lf_method ms[LF_M_COUNT];
    unsigned nm = lf_fuzz_case_methods(a, ms);
    lf_fc_executor x;
    if (!lf_fc_executor_init(&x, LF_CLOCK_TICKET)) return;
    lf_check_options o;
    lf_check_options_default(&o);
    o.timeout_s = 10;
    char err[256];
    lf_adapter_checker type_c, self_c, alone_c, search_c;
    if (!lf_adapter_checker_init(&type_c, a, LF_SPEC_TYPE, &o, err, sizeof err) ||
        !lf_adapter_checker_init(&self_c, a, LF_SPEC_SELF, &o, err, sizeof err)) {
        fprintf(stderr, "%s: %s\n", a->name, err);
        lf_fc_executor_free(&x);
        return;
    }
    with_options(&self_c);
    lf_check_options ho = o;
    ho.engine = LF_ENGINE_HITTING;
    ho.max_depth = 3;
    lf_adapter_checker_init(&alone_c, a, LF_SPEC_SELF, &ho, err, sizeof err);
    lf_check_options wo = o; /* the complete search alone: what the families save */
    wo.engine = LF_ENGINE_WGL;
    lf_adapter_checker_init(&search_c, a, LF_SPEC_SELF, &wo, err, sizeof err);
    double *t_type = calloc(cases, sizeof *t_type), *t_self = calloc(cases, sizeof *t_self);
    double *ratio = calloc(cases, sizeof *ratio), *t_search = calloc(cases, sizeof *t_search);
    size_t *ops = calloc(cases * LF_FC_MAX_REPEATS + 1, sizeof *ops);
    uint64_t rng = seed;
    lf_history h;
    lf_adapter_history_init(&h, a);
    for (unsigned k = 0; k < cases; k++) {
        lf_fuzz_case c;
        make_case(a, nm, &rng, &c);
        lf_fc_plan plan;
        if (!lf_fc_plan_build(&plan, &c, a)) continue;
        lf_adapter_checker_new_case(&self_c);
        lf_adapter_checker_new_case(&alone_c);
        lf_adapter_checker_new_case(&search_c);
        double type_ms = 0, self_ms = 0, search_ms = 0;
        for (unsigned r = 0; r < c.repeats; r++) {
            if (!lf_fc_execute(&x, &plan, r, &h)) break;
            lf_result rt, rs;
            lf_result_init(&rt);
            lf_result_init(&rs);
            double t0 = cpu_ms();
            lf_adapter_checker_check(&type_c, &h, &rt);
            double t1 = cpu_ms();
            lf_adapter_checker_check(&self_c, &h, &rs);
            double t2 = cpu_ms();
            type_ms += t1 - t0;
            self_ms += t2 - t1;
            lf_result rw;
            lf_result_init(&rw);
            double t3 = cpu_ms();
            lf_adapter_checker_check(&search_c, &h, &rw);
            search_ms += cpu_ms() - t3;
            lf_result_free(&rw);
            ops[out->histories++] = h.n;
            out->ops += h.n;
            if (rt.verdict != LF_UNKNOWN && rs.verdict != LF_UNKNOWN) {
                if (rt.verdict == rs.verdict) out->agree++;
                else out->disagree++;
            }
            out->lin += rs.verdict == LF_LINEARIZABLE;
            out->vio += rs.verdict == LF_VIOLATION;
            out->unknown += rs.verdict == LF_UNKNOWN;
            if (rs.verdict == LF_LINEARIZABLE) {
                if (!strcmp(rs.engine, "self-hitting") && rs.depth >= 1)
                    out->by_hitting[rs.depth < 3 ? rs.depth : 3]++;
                else
                    out->by_search++;
            }
            if (alone && rs.verdict == LF_LINEARIZABLE) {
                lf_result ra;
                lf_result_init(&ra);
                lf_adapter_checker_check(&alone_c, &h, &ra);
                out->alone_lin++;
                if (ra.verdict == LF_LINEARIZABLE && ra.depth >= 1) out->alone[ra.depth < 3 ? ra.depth : 3]++;
                lf_result_free(&ra);
            }
            lf_result_free(&rt);
            lf_result_free(&rs);
        }
        t_type[out->cases] = type_ms;
        t_self[out->cases] = self_ms;
        t_search[out->cases] = search_ms;
        ratio[out->cases] = type_ms > 0 ? self_ms / type_ms : 0;
        out->cases++;
        lf_fc_plan_free(&plan);
    }
    const lf_selfspec_stats *st = lf_selfspec_stats_of(self_c.self);
    out->oracle_ops = st->oracle_ops;
    out->checks = st->checks;
    out->ms_type = median(t_type, out->cases);
    out->ms_self = median(t_self, out->cases);
    out->ratio = median(ratio, out->cases);
    out->ms_search = median(t_search, out->cases);
    double *opsd = calloc(out->histories + 1, sizeof *opsd);
    for (size_t i = 0; i < out->histories; i++) opsd[i] = (double)ops[i];
    out->ops = (size_t)median(opsd, out->histories);
    free(opsd);
    free(ops);
    free(t_type);
    free(t_self);
    free(ratio);
    free(t_search);
    lf_history_free(&h);
    lf_adapter_checker_free(&type_c);
    lf_adapter_checker_free(&self_c);
    lf_adapter_checker_free(&alone_c);
    lf_adapter_checker_free(&search_c);
    lf_fc_executor_free(&x);
}

static double pct(uint64_t a, uint64_t b) { return b ? 100.0 * (double)a / (double)b : 0; }

int main(int argc, char **argv) {
    unsigned cases = 40;
    uint64_t seed = 1;
    bool alone = true;
    lf_selfspec_options_default(&self_opts);
    const char *list = "mutex_register,atomic_cas_register,cas_counter,mutex_set,harris_list_set,treiber_stack,"
                       "ms_queue,heap_pqueue,mutex_kv,bank,treiber_aba,ms_queue_lost_tail,bank_read_before_lock";
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--cases") && i + 1 < argc) cases = (unsigned)strtoul(argv[++i], NULL, 10);
        else if (!strcmp(argv[i], "--seed") && i + 1 < argc) seed = strtoull(argv[++i], NULL, 10);
        else if (!strcmp(argv[i], "--adapters") && i + 1 < argc) list = argv[++i];
        else if (!strcmp(argv[i], "--no-alone")) alone = false;
        else if (!strcmp(argv[i], "--depth") && i + 1 < argc) self_opts.hitting_depth = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--work") && i + 1 < argc) self_opts.hitting_work_factor = strtoull(argv[++i], NULL, 10);
        else if (!strcmp(argv[i], "--size") && i + 1 < argc) self_opts.hitting_max_size = strtoull(argv[++i], NULL, 10);
        else {
            fprintf(stderr, "usage: linfuzz-bench-selfspec [--cases N] [--seed S] [--adapters a,b,...] [--no-alone] "
                            "[--depth D] [--work F] [--size S]\n"
                            "  --depth, --work, --size: the self-spec's families rule (default %d, %d x ops^2, ops x width "
                            "<= %d)\n",
                    LF_SELFSPEC_HITTING_DEPTH, LF_SELFSPEC_HITTING_WORK_FACTOR, LF_SELFSPEC_HITTING_MAX_SIZE);
            return 2;
        }
    }
    printf("self-spec vs the type's spec on the same histories: medians over %u fuzz cases per adapter (thread CPU "
           "time; a case = its runs, checked with one memo)\n\n",
           cases);
    printf("| adapter | cases | histories | ops/history | type spec ms/case | self-spec ms/case | self/type | "
           "self-spec, search only | verdicts agree | lin / vio / unknown | lin by families d1 / d2 / d3 / search | "
           "adapter ops/check |\n");
    printf("|---|---|---|---|---|---|---|---|---|---|---|---|\n");
    char *names = strdup(list);
    row total;
    memset(&total, 0, sizeof total);
    for (char *tok = strtok(names, ","); tok; tok = strtok(NULL, ",")) {
        const lf_adapter *a = lf_adapter_find(tok);
        if (!a) {
            fprintf(stderr, "no adapter %s\n", tok);
            continue;
        }
        row r;
        bench_adapter(a, cases, seed, alone, &r);
        printf("| %s | %zu | %zu | %zu | %.3f | %.3f | %.2f | %.3f | %zu/%zu | %zu / %zu / %zu | %" PRIu64 " / %" PRIu64
               " / %" PRIu64 " / %" PRIu64 " | %.0f |\n",
               a->name, r.cases, r.histories, r.ops, r.ms_type, r.ms_self, r.ratio, r.ms_search, r.agree,
               r.agree + r.disagree,
               r.lin, r.vio, r.unknown, r.by_hitting[1], r.by_hitting[2], r.by_hitting[3], r.by_search,
               r.checks ? (double)r.oracle_ops / (double)r.checks : 0.0);
        fflush(stdout);
        total.histories += r.histories;
        total.lin += r.lin;
        total.agree += r.agree;
        total.disagree += r.disagree;
        for (int d = 1; d <= 3; d++) total.by_hitting[d] += r.by_hitting[d], total.alone[d] += r.alone[d];
        total.by_search += r.by_search;
        total.alone_lin += r.alone_lin;
    }
    free(names);
    printf("\nall: %zu histories, verdicts agree on %zu of %zu decided by both; linearizable %zu: decided by the "
           "families (default rule) at d=1 %.1f%%, d=2 %.1f%%, d=3 %.1f%%, by the complete search %.1f%%\n",
           total.histories, total.agree, total.agree + total.disagree, total.lin, pct(total.by_hitting[1], total.lin),
           pct(total.by_hitting[2], total.lin), pct(total.by_hitting[3], total.lin), pct(total.by_search, total.lin));
    if (alone)
        printf("the families alone (no size or work limit), linearizable histories proven at depth <= 1: %.1f%%, "
               "<= 2: %.1f%%, <= 3: %.1f%% (of %" PRIu64 ")\n",
               pct(total.alone[1], total.alone_lin), pct(total.alone[1] + total.alone[2], total.alone_lin),
               pct(total.alone[1] + total.alone[2] + total.alone[3], total.alone_lin), total.alone_lin);
    return total.disagree ? 1 : 0;
}
