/* `linfuzz repro ENTRY`: re-checks a violation entry's saved histories and re-runs its workload.
 *
 * The saved histories are evidence on their own (a checker verdict is deterministic), so they are re-checked
 * first; then the workload is run again on the adapter, N times with different perturbation seeds, to tell
 * how often the schedule that breaks it comes back ([Cirisci20]: "witnessed, not reproduced" is a
 * valid outcome for a rare race). */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "linfuzz/adapter.h"
#include "linfuzz/check.h"
#include "commands.h"
#include "corpus/entry.h"
#include "testcase/fuzz_case.h"
#include "testcase/replay.h"
#include "util/parse.h"
#include "status_line.h"

static void help(FILE *out) {
    fprintf(out,
            "usage: linfuzz repro ENTRY [options]\n"
            "\n"
            "Reproduces a violation entry (a .lfz file written by a fuzz target, e.g. corpus/ADAPTER/violations/...):\n"
            "  1. re-checks its full and minimized histories (deterministic: both must still be violations);\n"
            "  2. re-runs its workload on the adapter, N times with different perturbation seeds, checks every\n"
            "     run and reports how often the violation reappears.\n"
            "\n"
            "options:\n"
            "  --runs N       runs of the workload (default 200; 0: only re-check the histories)\n"
            "  --seconds S    stop re-running after S seconds (default 60)\n"
            "  --timeout SEC  time budget per history for the search engines (default 60)\n"
            "  -q, --quiet    only the summary line (and no progress line on stderr: by default, while it\n"
            "                 works, what it does and the runs so far; in place on a terminal, every 5 s elsewhere)\n"
            "\n"
            "exit: 1 the saved histories are violations or the violation reappeared, 0 neither,\n"
            "      2 bad usage or not a valid entry (corrupt, truncated, missing sections), 4 unreadable file.\n");
}



/* The progress line of the runs of the workload. */
typedef struct rerun_progress {
    lf_status_line *line;
    uint64_t runs;
    double seconds;
} rerun_progress;

static void on_run(void *ctx, uint64_t runs, uint64_t violations) {
    const rerun_progress *p = ctx;
    lf_status_set(p->line,
                  "re-running the workload: run %" PRIu64 " of %" PRIu64 " (at most %g s), %" PRIu64 " violating so far",
                  runs, p->runs, p->seconds, violations);
}

/* Re-checks one saved history; returns its verdict. */
static lf_verdict recheck(const char *what, const lf_history *h, const lf_check_options *o, bool quiet) {
    lf_result r;
    lf_result_init(&r);
    lf_status_line *line = lf_status_start("linfuzz repro", quiet); /* a long check shows it is at work */
    lf_status_set(line, "re-checking the saved %s (%zu ops)", what, h->n);
    lf_check(h, o, &r);
    lf_status_stop(line);
    if (!quiet) printf("  %-9s (%zu ops): %s [%s]: %s\n", what, h->n, lf_verdict_name(r.verdict), r.engine, r.reason);
    lf_verdict v = r.verdict;
    lf_result_free(&r);
    return v;
}

/* Runs the entry's workload (fuzz/testcase/replay.h); returns the number of violating runs (-1: could not run). */
static long rerun(const lf_violation_entry *e, const lf_adapter *a, uint64_t runs, double seconds, double timeout,
                  bool quiet, uint64_t *done) {
    if (!quiet) {
        lf_method ms[LF_M_COUNT];
        lf_fuzz_case c;
        char desc[4096];
        lf_fuzz_case_decode(e->workload, e->workload_len, lf_fuzz_case_methods(a, ms), &c);
        lf_fuzz_case_describe(desc, sizeof desc, &c, a);
        printf("workload: %s\n", desc);
    }
    lf_replay_options o;
    lf_replay_options_default(&o);
    o.runs = runs;
    o.seconds = seconds;
    o.check_timeout = timeout;
    lf_replay_result r;
    lf_history_init(&r.first, a->type);
    rerun_progress progress = {lf_status_start("linfuzz repro", quiet), runs, seconds};
    o.on_run = on_run;
    o.on_run_ctx = &progress;
    bool ok = lf_fc_replay(a, e->workload, e->workload_len, &o, &r);
    lf_status_stop(progress.line);
    *done = r.runs;
    if (ok && r.violations && !quiet)
        printf("  first reappearance: run %" PRIu64 " (%zu ops): %s [%s]\n", r.first_run + 1, r.first.n, r.first_reason,
               r.first_engine);
    lf_history_free(&r.first);
    return ok ? (long)r.violations : -1;
}

int cmd_repro(int argc, char **argv) {
    const char *path = NULL;
    uint64_t runs = 200;
    double seconds = 60, timeout = 60;
    bool quiet = false;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        bool ok = true;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            help(stdout);
            return LF_EXIT_OK;
        } else if (!strcmp(a, "-q") || !strcmp(a, "--quiet")) {
            quiet = true;
            continue;
        } else if (!strcmp(a, "--runs") || !strcmp(a, "--seconds") || !strcmp(a, "--timeout")) {
            if (!v) {
                fprintf(stderr, "linfuzz repro: %s needs a value\n", a);
                return LF_EXIT_USAGE;
            }
            ok = !strcmp(a, "--runs") ? lf_parse_u64(v, 0, UINT64_MAX, &runs)
                 : !strcmp(a, "--seconds") ? lf_parse_seconds(v, 0, LF_MAX_SECONDS, &seconds)
                                           : lf_parse_seconds(v, 0, LF_MAX_SECONDS, &timeout);
            i++;
        } else if (a[0] == '-' && a[1]) {
            fprintf(stderr, "linfuzz repro: unknown option '%s'\n", a);
            return LF_EXIT_USAGE;
        } else if (!path) {
            path = a;
        } else {
            fprintf(stderr, "linfuzz repro: one entry at a time ('%s' is extra)\n", a);
            return LF_EXIT_USAGE;
        }
        if (!ok) {
            fprintf(stderr, "linfuzz repro: bad value '%s' for %s\n", v, a);
            return LF_EXIT_USAGE;
        }
    }
    if (!path) {
        fprintf(stderr, "linfuzz repro: which entry?\n");
        help(stderr);
        return LF_EXIT_USAGE;
    }
    lf_violation_entry e;
    char err[1024];
    lf_status st = lf_entry_load(path, &e, err, sizeof err);
    if (st != LF_OK) {
        fprintf(stderr, "linfuzz repro: %s\n", err);
        return st == LF_ERR_IO ? LF_EXIT_IO : LF_EXIT_USAGE;
    }
    const char *adapter_name = lf_entry_meta(&e, "adapter");
    lf_check_options o;
    lf_check_options_default(&o);
    o.timeout_s = timeout;
    if (!quiet) printf("%s: adapter %s, type %s\n", path, adapter_name, lf_type_name(e.full.type));
    if (!quiet) printf("saved histories:\n");
    lf_verdict vf = recheck("history", &e.full, &o, quiet), vm = recheck("minimized", &e.minimized, &o, quiet);
    bool saved_violation = vf == LF_VIOLATION || vm == LF_VIOLATION;
    if (!quiet && !(vf == LF_VIOLATION && vm == LF_VIOLATION))
        printf("  WARNING: a saved history is no longer a violation: the checker changed, or the entry is wrong\n");

    const char *format = lf_entry_meta(&e, "workload_format");
    const lf_adapter *a = lf_adapter_find(adapter_name);
    long found = 0;
    uint64_t done = 0;
    char rerun_note[256] = "";
    if (runs == 0) {
        snprintf(rerun_note, sizeof rerun_note, "workload not re-run (--runs 0)");
    } else if (!format || strcmp(format, LF_FUZZ_CASE_FORMAT) != 0) {
        snprintf(rerun_note, sizeof rerun_note, "workload not re-run: its format is %s, not '%s'",
                 format ? format : "not recorded", LF_FUZZ_CASE_FORMAT);
    } else if (!a) {
        snprintf(rerun_note, sizeof rerun_note, "workload not re-run: adapter '%s' is not in this build", adapter_name);
    } else if (a->type != e.full.type) {
        snprintf(rerun_note, sizeof rerun_note, "workload not re-run: adapter '%s' is a %s now, the entry a %s",
                 adapter_name, lf_type_name(a->type), lf_type_name(e.full.type));
    } else {
        found = rerun(&e, a, runs, seconds, timeout, quiet, &done);
        if (found < 0) {
            fprintf(stderr, "linfuzz repro: cannot run the workload (out of memory or threads)\n");
            lf_entry_free(&e);
            return LF_EXIT_IO;
        }
        snprintf(rerun_note, sizeof rerun_note, "violation reappeared in %ld of %" PRIu64 " runs (%.1f%%)", found,
                 done, done ? 100.0 * (double)found / (double)done : 0.0);
    }
    printf("%s: saved histories %s; %s\n", path,
           vf == LF_VIOLATION && vm == LF_VIOLATION ? "are violations"
           : saved_violation                        ? "partly violations"
                                                    : "are NOT violations",
           rerun_note);
    lf_entry_free(&e);
    return saved_violation || found > 0 ? LF_EXIT_VIOLATION : LF_EXIT_OK;
}
