/* Benchmark driver for ci/bench_pipeline.sh (not a test): times `--engine auto` (the pipeline) against
 * `--engine wgl` in-process, per history class, and reports the share of linearizable histories that the
 * hitting families prove at each depth.
 *
 * Classes: small, highly concurrent, ambiguous histories of every type (2-8 threads, 10-60 ops, values
 * drawn from 1..3, some observers, empty results, pending ops, a quarter corrupted), and the etcd
 * histories of tests/data/etcd when a directory is given. Each history is checked `reps` times in a row by
 * each engine, in two rounds, and the fastest run of each engine counts (timer noise on a shared machine
 * only ever adds); times are thread CPU times.
 *
 * usage: bench_pipeline [--per-class N] [--reps R] [--depth D] [--work F] [--etcd DIR] [--depth-curve D]
 *                       [--csv FILE] [--explore] */
#include <dirent.h>
#include <stdbool.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "linfuzz/check.h"
#include "check/pipeline.h"
#include "linfuzz/format.h"
#include "linfuzz/generate.h"
#include "hitting/hitting.h"
#include "linfuzz/spec.h"
#include "util/clock.h"
#include "util/parse.h"

/* Thread CPU time: on a loaded machine, waiting for a core is not the engines' cost. */
static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

typedef struct options {
    size_t per_class, reps;
    int depth;              /* pipeline hitting depth (0: default) */
    uint64_t work;          /* pipeline hitting work factor: budget ops^2 x this (0: default) */
    int curve_depth;        /* depth of the "proven at each depth" curve */
    const char *etcd;
    FILE *csv;              /* per-history rows: type,ops,verdict,wgl_us,auto_us,hit_depth,hit_us */
} options;

/* The generator's options for the benchmark's small ambiguous histories, the k-th of their class: three values
 * (so they repeat), 20% observers and empty results, 10% pending ops, every fourth history corrupted once. */
static void ambiguous_options(lf_gen_options *go, lf_type type, uint32_t threads, size_t n_ops, uint64_t seed,
                              size_t k) {
    lf_gen_options_default(go);
    go->type = type;
    go->threads = threads;
    go->n_ops = n_ops;
    go->seed = seed;
    go->values = 3;
    go->peek = 0.2;
    go->empty = 0.2;
    go->pending = 0.1;
    go->bad = k % 4 == 3 ? 1 : 0;
}

typedef struct totals {
    size_t histories, lin, viol, unknown, disagree;
    double t_auto, t_wgl;
    size_t by_monitor, by_hitting, by_wgl;
    size_t proven_at[9]; /* linearizable histories first proven at depth d (hitting alone, up to curve_depth) */
    size_t slower;       /* histories where auto took more than 1.5x wgl + 2 us */
} totals;

static double time_check(const lf_history *h, lf_engine e, const options *opt, lf_result *keep,
                         lf_pipeline_stats *st) {
    double best = 1e9;
    for (size_t k = 0; k < opt->reps; k++) {
        lf_result r;
        lf_result_init(&r);
        double t0 = now_s();
        if (e == LF_ENGINE_AUTO) {
            lf_pipeline_options po;
            lf_pipeline_options_default(&po);
            po.hitting_depth = opt->depth;
            po.hitting_work_factor = opt->work;
            lf_pipeline_check(h, &po, &r, st);
        } else {
            lf_check_options co;
            lf_check_options_default(&co);
            co.engine = e;
            lf_check(h, &co, &r);
        }
        double t = now_s() - t0;
        if (t < best) best = t;
        if (k == 0 && keep) {
            *keep = r;
            keep->witness = keep->prefix = keep->culprits = NULL;
        }
        lf_result_free(&r);
    }
    return best;
}

/* First depth at which the hitting families alone (no budget) prove h, or 0. */
static int proven_depth(const lf_history *h, int max_depth) {
    lf_hitting_options ho;
    lf_hitting_options_default(&ho);
    ho.max_depth = max_depth;
    ho.deadline = lf_now_s() + 2.0;
    lf_spec_env env;
    lf_spec_env_of_history(h, &env);
    lf_result r;
    lf_result_init(&r);
    lf_hitting_check_spec(lf_spec_builtin(h->type), &env, &ho, &r, NULL);
    int d = r.verdict == LF_LINEARIZABLE ? r.depth : 0;
    lf_result_free(&r);
    return d;
}

static void account(const lf_history *h, const options *opt, totals *t) {
    lf_result ra, rw;
    lf_pipeline_stats st;
    /* Each engine runs `reps` times in a row (warm caches, as when checking many histories), the fastest
     * run counts; two rounds, the engines swapping who goes first, so that drift in machine load and the
     * state one engine leaves in caches and the allocator hit both alike. */
    double ta = 1e9, tw = 1e9;
    for (int round = 0; round < 2; round++) {
        double a, w;
        if (round == 0) {
            a = time_check(h, LF_ENGINE_AUTO, opt, &ra, &st);
            w = time_check(h, LF_ENGINE_WGL, opt, &rw, NULL);
        } else {
            w = time_check(h, LF_ENGINE_WGL, opt, NULL, NULL);
            a = time_check(h, LF_ENGINE_AUTO, opt, NULL, NULL);
        }
        if (a < ta) ta = a;
        if (w < tw) tw = w;
    }
    t->histories++;
    t->t_auto += ta;
    t->t_wgl += tw;
    if (ta > 1.5 * tw + 2e-6) t->slower++;
    if (ra.verdict != rw.verdict && ra.verdict != LF_UNKNOWN && rw.verdict != LF_UNKNOWN) {
        t->disagree++;
        fprintf(stderr, "DISAGREE: auto %s, wgl %s\n", lf_verdict_name(ra.verdict), lf_verdict_name(rw.verdict));
    }
    if (rw.verdict == LF_LINEARIZABLE) t->lin++;
    if (rw.verdict == LF_VIOLATION) t->viol++;
    if (rw.verdict == LF_UNKNOWN) t->unknown++;
    t->by_monitor += st.by_monitor;
    t->by_hitting += st.by_hitting;
    t->by_wgl += st.by_wgl;
    if (rw.verdict == LF_LINEARIZABLE && opt->curve_depth > 0) {
        double t0 = now_s();
        int d = proven_depth(h, opt->curve_depth);
        double th = now_s() - t0;
        t->proven_at[d > 8 ? 8 : d]++;
        if (opt->csv)
            fprintf(opt->csv, "%s,%zu,%s,%.2f,%.2f,%d,%.2f\n", lf_type_name(h->type), h->n,
                    lf_verdict_name(rw.verdict), tw * 1e6, ta * 1e6, d, th * 1e6);
    } else if (opt->csv) {
        fprintf(opt->csv, "%s,%zu,%s,%.2f,%.2f,,\n", lf_type_name(h->type), h->n, lf_verdict_name(rw.verdict),
                tw * 1e6, ta * 1e6);
    }
}

static void print_header(const options *opt) {
    printf("%-22s %5s %5s %5s | %9s %9s %7s | %6s %6s %6s | %5s |", "class", "hist", "lin", "viol", "auto ms",
           "wgl ms", "ratio", "mon", "hit", "wgl", "slow");
    for (int d = 1; d <= opt->curve_depth; d++) printf(" d<=%d", d);
    printf("\n");
}

static void print_row(const char *name, const totals *t, const options *opt) {
    printf("%-22s %5zu %5zu %5zu | %9.3f %9.3f %7.3f | %6zu %6zu %6zu | %5zu |", name, t->histories, t->lin, t->viol,
           t->t_auto * 1e3, t->t_wgl * 1e3, t->t_wgl > 0 ? t->t_auto / t->t_wgl : 0, t->by_monitor, t->by_hitting,
           t->by_wgl, t->slower);
    size_t cum = 0;
    for (int d = 1; d <= opt->curve_depth; d++) {
        cum += t->proven_at[d];
        printf(" %4.0f%%", t->lin ? 100.0 * cum / t->lin : 0);
    }
    printf("\n");
    fflush(stdout);
}

static void add(totals *a, const totals *b) {
    a->histories += b->histories;
    a->lin += b->lin;
    a->viol += b->viol;
    a->unknown += b->unknown;
    a->disagree += b->disagree;
    a->t_auto += b->t_auto;
    a->t_wgl += b->t_wgl;
    a->by_monitor += b->by_monitor;
    a->by_hitting += b->by_hitting;
    a->by_wgl += b->by_wgl;
    a->slower += b->slower;
    for (int d = 0; d < 9; d++) a->proven_at[d] += b->proven_at[d];
}

/* --explore: the measurements behind the pipeline's hitting rule. For tiny histories of each type and size
 * (threads 2-8), the time of the pipeline without the families, with them on every part, and with the
 * default rule, relative to WGL alone, and the share of histories the families decided. */
static double time_pipeline(const lf_history *h, const lf_pipeline_options *po, size_t reps, lf_pipeline_stats *st) {
    double best = 1e9;
    for (size_t k = 0; k < reps; k++) {
        lf_result r;
        lf_result_init(&r);
        double t0 = now_s();
        lf_pipeline_check(h, po, &r, st);
        double t = now_s() - t0;
        if (t < best) best = t;
        lf_result_free(&r);
    }
    return best;
}

static void explore(const options *opt, const lf_type *types, size_t n_types) {
    const size_t sizes[] = {6, 8, 10, 12, 16};
    printf("\nrule exploration: time relative to WGL alone (share of histories the families decided)\n");
    printf("%-13s %4s %8s | %14s | %14s | %14s\n", "type", "ops", "wgl us", "no families", "every part",
           "default rule");
    for (size_t ti = 0; ti < n_types; ti++)
        for (size_t si = 0; si < sizeof sizes / sizeof *sizes; si++) {
            double tw = 0, tv[3] = {0};
            size_t decided[3] = {0};
            for (size_t k = 0; k < opt->per_class; k++) {
                lf_gen_options go;
                ambiguous_options(&go, types[ti], 2 + (uint32_t)(k % 7), sizes[si], 7919 * k + 31 * ti + si + 1, k);
                lf_history h;
                char err[200];
                if (!lf_gen_history(&go, &h, err, sizeof err)) continue;
                options one = *opt;
                tw += time_check(&h, LF_ENGINE_WGL, &one, NULL, NULL);
                for (int v = 0; v < 3; v++) {
                    lf_pipeline_options po;
                    lf_pipeline_options_default(&po);
                    if (v == 0) po.use_hitting = false;
                    if (v == 1) po.hitting_max_size = SIZE_MAX;
                    lf_pipeline_stats st;
                    tv[v] += time_pipeline(&h, &po, opt->reps, &st);
                    decided[v] += st.by_hitting > 0;
                }
                lf_history_free(&h);
            }
            printf("%-13s %4zu %8.2f |", lf_type_name(types[ti]), sizes[si], tw * 1e6 / (double)opt->per_class);
            for (int v = 0; v < 3; v++)
                printf("  %5.2f (%3.0f%%) |", tw > 0 ? tv[v] / tw : 0,
                       100.0 * (double)decided[v] / (double)opt->per_class);
            printf("\n");
            fflush(stdout);
        }
}

int main(int argc, char **argv) {
    options opt = {.per_class = 60, .reps = 5, .curve_depth = 4};
    bool do_explore = false;
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "--explore")) {
            do_explore = true;
            for (int j = i; j + 1 < argc; j++) argv[j] = argv[j + 1];
            argc--;
        }
    for (int i = 1; i < argc; i += 2) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        uint64_t u = 0;
        bool ok = v != NULL;
        if (!strcmp(a, "--per-class")) {
            ok = ok && lf_parse_u64(v, 1, 1000000, &u);
            opt.per_class = u;
        } else if (!strcmp(a, "--reps")) {
            ok = ok && lf_parse_u64(v, 1, 1000, &u);
            opt.reps = u;
        } else if (!strcmp(a, "--depth")) {
            ok = ok && lf_parse_u64(v, 1, 64, &u);
            opt.depth = (int)u;
        } else if (!strcmp(a, "--work")) {
            ok = ok && lf_parse_u64(v, 1, UINT32_MAX, &u);
            opt.work = u;
        } else if (!strcmp(a, "--depth-curve")) {
            ok = ok && lf_parse_u64(v, 1, 8, &u);
            opt.curve_depth = (int)u;
        } else if (!strcmp(a, "--etcd")) {
            opt.etcd = v;
        } else if (!strcmp(a, "--csv")) {
            if (v && !(opt.csv = fopen(v, "w"))) {
                fprintf(stderr, "bench_pipeline: cannot write %s\n", v);
                return 2;
            }
        } else {
            fprintf(stderr, "bench_pipeline: unknown option %s (ci/bench_pipeline.sh --help lists them)\n", a);
            return 2;
        }
        if (!ok) {
            fprintf(stderr, "bench_pipeline: %s needs %s\n", a, v ? "a number in its range" : "a value");
            return 2;
        }
    }
    if (opt.reps < 1) opt.reps = 1;
    if (opt.curve_depth > 8) opt.curve_depth = 8;
    print_header(&opt);
    const lf_type types[] = {LF_TYPE_REGISTER, LF_TYPE_CAS_REGISTER, LF_TYPE_SET, LF_TYPE_STACK, LF_TYPE_QUEUE,
                             LF_TYPE_PQUEUE, LF_TYPE_KV, LF_TYPE_COUNTER, LF_TYPE_DEQUE};
    const uint32_t thread_counts[] = {2, 4, 8};
    const size_t op_counts[] = {10, 30, 60};
    totals all;
    memset(&all, 0, sizeof all);
    totals by_size[3][3];
    memset(by_size, 0, sizeof by_size);
    for (size_t ti = 0; ti < sizeof types / sizeof types[0]; ti++) {
        totals t;
        memset(&t, 0, sizeof t);
        for (size_t k = 0; k < opt.per_class; k++) {
            size_t a = k % 3, b = (k / 3) % 3;
            lf_gen_options go;
            ambiguous_options(&go, types[ti], thread_counts[a], op_counts[b], 1000 * ti + k + 1, k);
            lf_history h;
            char err[200];
            if (!lf_gen_history(&go, &h, err, sizeof err)) {
                fprintf(stderr, "gen: %s\n", err);
                return 1;
            }
            totals one;
            memset(&one, 0, sizeof one);
            account(&h, &opt, &one);
            add(&t, &one);
            add(&by_size[a][b], &one);
            lf_history_free(&h);
        }
        char name[64];
        snprintf(name, sizeof name, "%s", lf_type_name(types[ti]));
        print_row(name, &t, &opt);
        add(&all, &t);
    }
    for (size_t a = 0; a < 3; a++)
        for (size_t b = 0; b < 3; b++) {
            char name[64];
            snprintf(name, sizeof name, "all types %ut x %zuops", thread_counts[a], op_counts[b]);
            print_row(name, &by_size[a][b], &opt);
        }
    print_row("all generated", &all, &opt);
    if (opt.etcd) {
        DIR *dir = opendir(opt.etcd);
        if (!dir) {
            fprintf(stderr, "cannot open %s\n", opt.etcd);
            return 1;
        }
        totals t;
        memset(&t, 0, sizeof t);
        struct dirent *de;
        char path[4096];
        while ((de = readdir(dir))) {
            size_t len = strlen(de->d_name);
            if (len < 5 || strcmp(de->d_name + len - 5, ".hist")) continue;
            snprintf(path, sizeof path, "%s/%s", opt.etcd, de->d_name);
            lf_history h;
            char err[300];
            if (lf_history_read(path, &h, err, sizeof err) != LF_OK) {
                fprintf(stderr, "%s\n", err);
                continue;
            }
            account(&h, &opt, &t);
            lf_history_free(&h);
        }
        closedir(dir);
        print_row("etcd", &t, &opt);
    }
    if (do_explore) explore(&opt, types, sizeof types / sizeof types[0]);
    if (all.disagree) fprintf(stderr, "%zu disagreements\n", all.disagree);
    return all.disagree ? 1 : 0;
}
