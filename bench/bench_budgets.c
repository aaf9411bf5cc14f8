/* Benchmark driver for ci/bench_budgets.sh (not a test): how late a check answers after its time budget ran
 * out, per engine (stage), history type and size (docs/budgets.md).
 *
 * For each case (a generated history of a type and size, checked by one engine) the check first runs with a
 * budget of FULL_BUDGET_S (its full time F and verdict; a case beyond reach stops there), then with budgets
 * spread over [0, F]: 0.1 ms, 1 ms, and F x 1/64, 1/16, 1/8, 1/4, 1/2, 3/4, so that the deadline falls into
 * every phase (setup, sorts, search). A check that answers unknown for lack of time is late by its wall time
 * minus the budget. The wall clock is the measure (the budget is wall-clock time), so on a loaded machine a
 * check may also wait for a core after its deadline: each budget runs `reps` times, and the row shows the
 * median and the largest lateness over every run, and the floor: over the budgets, the largest of each
 * budget's least lateness (what the code itself takes to notice the deadline and answer).
 *
 * usage: bench_budgets [--sizes N,N,...] [--engines auto,monitor,wgl,hitting,brute] [--types t,t,...] [--reps R]
 *        (defaults: 100000,1000000; auto,monitor,wgl,hitting; register,set,stack,queue,pqueue,deque,counter,
 *        kv,cas-register; R = 3). A full run stops at FULL_BUDGET_S, a budget is at most MAX_BUDGET_S. */
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "linfuzz/check.h"
#include "linfuzz/generate.h"
#include "linfuzz/history.h"
#include "util/clock.h"
#include "util/parse.h"

#define MAX_LIST 32
#define FULL_BUDGET_S 2.0 /* the unbudgeted run of a case beyond reach ends here */
#define MAX_BUDGET_S 1.0  /* and no budget of a case is longer */

typedef struct list {
    char *item[MAX_LIST];
    size_t n;
} list;

static void split_list(char *s, list *l) {
    l->n = 0;
    for (char *tok = strtok(s, ","); tok && l->n < MAX_LIST; tok = strtok(NULL, ",")) l->item[l->n++] = tok;
}

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* One check of h by engine e within timeout (0: none): its wall time; *timed_out when it answered unknown
 * because the time budget ran out. */
static double run(const lf_history *h, lf_engine e, double timeout, lf_verdict *v, bool *timed_out) {
    lf_check_options o;
    lf_check_options_default(&o);
    o.engine = e;
    o.timeout_s = timeout;
    lf_result r;
    lf_result_init(&r);
    double t0 = lf_now_s();
    lf_check(h, &o, &r);
    double t = lf_now_s() - t0;
    *v = r.verdict;
    *timed_out = r.verdict == LF_UNKNOWN && strstr(r.reason, "time budget") != NULL;
    lf_result_free(&r);
    return t;
}

/* The history of a case: every monitored type unambiguous (what the monitors decide); counter, kv and
 * cas-register with repeated values and 8 threads (what the searches get). */
static bool make_history(const char *type_name, size_t n, lf_history *h) {
    lf_gen_options g;
    lf_gen_options_default(&g);
    if (!lf_type_from_name(type_name, strlen(type_name), &g.type)) {
        fprintf(stderr, "bench_budgets: unknown type '%s'\n", type_name);
        return false;
    }
    g.n_ops = n;
    g.seed = 7;
    g.threads = 8;
    g.peek = 0.2;
    if (g.type == LF_TYPE_KV || g.type == LF_TYPE_CAS_REGISTER || g.type == LF_TYPE_COUNTER) g.values = 5;
    char err[256];
    if (!lf_gen_history(&g, h, err, sizeof err)) {
        fprintf(stderr, "bench_budgets: %s\n", err);
        return false;
    }
    return true;
}

int main(int argc, char **argv) {
    char sizes_arg[256] = "100000,1000000", engines_arg[256] = "auto,monitor,wgl,hitting",
         types_arg[256] = "register,set,stack,queue,pqueue,deque,counter,kv,cas-register";
    uint64_t reps = 3;
    for (int i = 1; i < argc; i++) {
        char *dst = NULL;
        if (i + 1 < argc && !strcmp(argv[i], "--sizes")) dst = sizes_arg;
        else if (i + 1 < argc && !strcmp(argv[i], "--engines")) dst = engines_arg;
        else if (i + 1 < argc && !strcmp(argv[i], "--types")) dst = types_arg;
        else if (i + 1 < argc && !strcmp(argv[i], "--reps") && lf_parse_u64(argv[i + 1], 1, 100, &reps)) {
            i++;
            continue;
        } else {
            fprintf(stderr, "usage: bench_budgets [--sizes N,...] [--engines E,...] [--types T,...] [--reps R]\n");
            return 2;
        }
        snprintf(dst, 256, "%s", argv[++i]);
    }
    list sizes, engines, types;
    split_list(sizes_arg, &sizes);
    split_list(engines_arg, &engines);
    split_list(types_arg, &types);
    printf("%-13s %9s %-8s %10s %-13s %8s %11s %11s %11s\n", "type", "ops", "engine", "full ms", "verdict",
           "ran out", "late med ms", "late max ms", "floor ms");
    double worst = 0;
    for (size_t si = 0; si < sizes.n; si++) {
        uint64_t n;
        if (!lf_parse_u64(sizes.item[si], 1, (uint64_t)1 << 28, &n)) {
            fprintf(stderr, "bench_budgets: bad size '%s'\n", sizes.item[si]);
            return 2;
        }
        for (size_t ti = 0; ti < types.n; ti++) {
            lf_history h;
            if (!make_history(types.item[ti], (size_t)n, &h)) return 2;
            for (size_t ei = 0; ei < engines.n; ei++) {
                lf_engine e;
                if (!lf_engine_from_name(engines.item[ei], &e)) {
                    fprintf(stderr, "bench_budgets: unknown engine '%s'\n", engines.item[ei]);
                    return 2;
                }
                lf_verdict full_v;
                bool full_to, to;
                /* The full run gets a budget of its own, so that a case beyond reach still ends. */
                double full = run(&h, e, FULL_BUDGET_S, &full_v, &full_to);
                const double fractions[] = {0, 0, 1.0 / 64, 1.0 / 16, 1.0 / 8, 1.0 / 4, 1.0 / 2, 3.0 / 4};
                enum { BUDGETS = sizeof fractions / sizeof fractions[0] };
                double late[BUDGETS * 100], best[BUDGETS];
                size_t n_late = 0, n_best = 0;
                for (size_t k = 0; k < BUDGETS; k++) {
                    double budget = k == 0 ? 1e-4 : k == 1 ? 1e-3 : full * fractions[k];
                    if (budget < 1e-4 || (k > 1 && full * fractions[k - 1] >= MAX_BUDGET_S)) continue;
                    if (budget > MAX_BUDGET_S) budget = MAX_BUDGET_S;
                    double least = -1;
                    for (uint64_t rep = 0; rep < reps; rep++) {
                        lf_verdict v;
                        double t = run(&h, e, budget, &v, &to);
                        if (!to) continue;
                        double l = t - budget > 0 ? t - budget : 0;
                        late[n_late++] = l;
                        if (least < 0 || l < least) least = l;
                    }
                    if (least >= 0) best[n_best++] = least;
                }
                qsort(late, n_late, sizeof late[0], cmp_double);
                qsort(best, n_best, sizeof best[0], cmp_double);
                double max = n_late ? late[n_late - 1] : 0, med = n_late ? late[n_late / 2] : 0;
                double floor_max = n_best ? best[n_best - 1] : 0;
                if (floor_max > worst) worst = floor_max;
                printf("%-13s %9" PRIu64 " %-8s %10.1f %-13s %8zu %11.2f %11.2f %11.2f\n", types.item[ti], n,
                       engines.item[ei], full * 1e3, full_to ? "unknown(time)" : lf_verdict_name(full_v), n_late,
                       med * 1e3, max * 1e3, floor_max * 1e3);
                fflush(stdout);
            }
            lf_history_free(&h);
        }
    }
    printf("worst floor: %.2f ms (of each budget's least lateness over its repetitions, the largest)\n", worst * 1e3);
    return 0;
}
