/* `linfuzz rootcause ENTRY`: which code must run atomically for the entry's test not to violate any more
 * (rootcause/analyze.h, docs/rootcause.md). Prints the ranked candidates with what validating them gave;
 * --write stores them in the entry's `rootcause` section, where `linfuzz show`, the HTML page and triage read
 * them. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/commands.h"
#include "findings/entry.h"
#include "rootcause/analyze.h"
#include "rootcause/rc_store.h"
#include "runtime/sched.h"
#include "options.h"
#include "status_line.h"
#include "testcase/fuzz_case.h"
#include "util/parse.h"
#include "util/escape.h"

enum { EXIT_NO_CAUSE = 3, EXIT_NOT_REPRODUCED = 6 };

typedef struct progress_ctx {
    lf_status_line *line;
} progress_ctx;

static void on_progress(void *ctx, const char *what, uint64_t done, uint64_t total) {
    progress_ctx *p = ctx;
    lf_status_set(p->line, "%s: %" PRIu64 " of %" PRIu64, what, done, total);
}

static void print_candidate(size_t rank, const lf_rc_candidate *c) {
    lf_esc_printf(stdout, "  %zu. %s", rank, c->summary);
    if (c->passing) printf("; forbids %" PRIu64 "/%" PRIu64 " passing runs", c->forbids, c->passing);
    if (c->validated) {
        const char *when = c->exclusion ? "enforced" : c->weak ? "strengthened" : "atomic";
        if (lf_rc_confirmed(c))
            printf("; CONFIRMED: 0 violations in %" PRIu64 " runs when %s", c->schedules, when);
        else if (c->violations)
            printf("; refuted: a violation within %" PRIu64 " runs when %s", c->schedules, when);
        else
            printf("; not confirmed: no schedule counted");
        if (c->discarded > c->spun)
            printf(" (%" PRIu64 " runs discarded: the region waited inside)", c->discarded - c->spun);
        if (c->spun)
            printf(" (%" PRIu64 " runs discarded: the region spun, over %d points)", c->spun, LF_SCHED_REGION_POINTS);
    }
    printf("\n");
    for (size_t l = 0; l < c->n_source && l < 12; l++)
        lf_esc_printf(stdout, "       %5u | %s\n", c->lo + (unsigned)l, c->source[l]);
}

/* The worse of two exit statuses, for several entries: unreadable, bad, not reproduced, no cause, confirmed. */
static int worse(int a, int b) {
    static const int order[] = {LF_EXIT_OK, EXIT_NO_CAUSE, EXIT_NOT_REPRODUCED, LF_EXIT_USAGE, LF_EXIT_IO};
    int ra = 0, rb = 0;
    for (int k = 0; k < 5; k++) {
        if (order[k] == a) ra = k;
        if (order[k] == b) rb = k;
    }
    return ra >= rb ? a : b;
}

typedef struct rootcause_args {
    uint64_t schedules, baseline, passing, validate, work;
    double timeout;
    bool quiet, write, test;
    const char *out_dir, *source_root;
} rootcause_args;

static int rootcause_one(const char *path, lf_rc_options o, const rootcause_args *args);

int lf_cmd_rootcause(int argc, char **argv) {
    rootcause_args args = {0};
    lf_cli_operands entries;
    int status = lf_cli_parse(&lf_command_rootcause, argc, argv, &args, &entries);
    if (status != LF_CLI_GO_ON) return status;
    if ((args.out_dir || args.source_root) && !args.write) {
        lf_esc_printf(stderr, "linfuzz rootcause: %s goes with --write\n", args.out_dir ? "--out" : "--source-root");
        return LF_EXIT_USAGE;
    }
    lf_rc_options o;
    lf_rc_options_default(&o);
    o.schedules = args.schedules;
    o.baseline = args.baseline;
    o.passing = args.passing;
    o.validate = (unsigned)args.validate;
    o.work_budget = args.work;
    o.check_timeout = args.timeout;
    status = LF_EXIT_OK;
    for (size_t i = 0; i < entries.n; i++)
        status = worse(status, rootcause_one(entries.v[i], o, &args));
    return status;
}

static int rootcause_one(const char *path, lf_rc_options o, const rootcause_args *args) {
    bool quiet = args->quiet, write = args->write;
    lf_violation_entry e;
    char err[1024];
    lf_status st = lf_entry_load(path, &e, err, sizeof err);
    if (st != LF_OK) {
        lf_esc_printf(stderr, "linfuzz rootcause: %s\n", err);
        return st == LF_ERR_IO ? LF_EXIT_IO : LF_EXIT_USAGE;
    }
    const char *adapter_name = lf_entry_meta(&e, "adapter");
    const char *format = lf_entry_meta(&e, "workload_format");
    const lf_adapter *a = adapter_name ? lf_adapter_find(adapter_name) : NULL;
    int rc = LF_EXIT_USAGE;
    if (!lf_fuzz_case_format_known(format)) {
        lf_esc_printf(stderr, "linfuzz rootcause: %s: its workload format is %s, not '%s': nothing to re-run\n", path,
                      format ? format : "not recorded", LF_FUZZ_CASE_FORMAT);
        goto out;
    }
    if (!a || a->type != e.full.type) {
        lf_esc_printf(stderr, "linfuzz rootcause: %s: adapter '%s' is %s\n", path, adapter_name ? adapter_name : "?",
                      a ? "of another type in this build" : "not in this build");
        goto out;
    }
    if (args->test && !e.has_test) {
        lf_esc_printf(stderr, "linfuzz rootcause: %s: --test: the entry has no minimized test\n", path);
        goto out;
    }
    uint64_t run = 0;
    const char *run_text = lf_entry_meta(&e, "schedule_run");
    if (run_text && !lf_parse_u64(run_text, 0, UINT32_MAX, &run)) run = 0;
    progress_ctx pc = {lf_status_start("linfuzz rootcause", quiet)};
    o.progress = on_progress;
    o.progress_ctx = &pc;
    o.spec = lf_entry_meta(&e, "spec"); /* checked as found: the self-spec when the entry says so */
    lf_rc_result r;
    /* the minimized test is a case whose run 0 violates (the entry's `test` section) */
    int arc = lf_rc_analyze(a, format, args->test ? e.test : e.workload, args->test ? e.test_len : e.workload_len,
                            args->test ? 0 : (unsigned)run, &o, &r, err, sizeof err);
    lf_status_stop(pc.line);
    if (arc < 0) {
        lf_esc_printf(stderr, "linfuzz rootcause: %s: %s\n", path, err);
        rc = LF_EXIT_IO;
        goto out;
    }
    if (arc > 0) {
        lf_esc_printf(stdout, "%s: not reproduced: %s\n", path, err);
        rc = EXIT_NOT_REPRODUCED;
        goto out;
    }
    size_t confirmed = 0;
    for (size_t k = 0; k < r.n; k++) confirmed += lf_rc_confirmed(&r.c[k]);
    if (!quiet) {
        lf_esc_printf(stdout, "%s: adapter %s\n", path, adapter_name);
        lf_esc_printf(stdout, "violating run: %s\n",
                      r.violating_schedule == 0 ? "the recorded schedule, replayed"
                                                : "found by searching other schedules");
        if (r.weak == LF_RC_WEAK_NEEDED)
            printf("memory model: %s; the violation needs its weak behaviour (%" PRIu64 " stale loads in the run; the "
                   "same schedule under sc does not violate): which order is too weak\n",
                   lf_memory_model_name((lf_memory_model)r.memory_model), r.weak_events);
        else if (r.weak == LF_RC_WEAK_NOT_NEEDED)
            printf("memory model: %s, but the violation needs no weak behaviour: the same schedule violates under sc; "
                   "analysed in sc\n", lf_memory_model_name((lf_memory_model)r.memory_model));
        if (r.access_data)
            lf_esc_printf(stdout,
                          "accesses: %zu recorded, %zu conflict edges, %zu minimal cycles; sites symbolized by %s\n",
                          r.events, r.edges, r.cycles, r.symbolizer[0] ? r.symbolizer : "nothing (raw addresses)");
        if (r.note[0]) lf_esc_printf(stdout, "note: %s\n", r.note);
        printf("work: %" PRIu64 " runs, %" PRIu64 " (switches + scheduling points / 256)%s\n", r.runs,
               lf_rc_work(r.switches, r.points), r.over_budget ? ": the --work budget ran out" : "");
        if (r.sequential)
            printf("every call atomic: %" PRIu64 " violations in %" PRIu64 " schedules\n", r.serial_violations,
                   r.serial_runs);
        printf("baseline: %" PRIu64 " violations in %" PRIu64 " %s", r.baseline_violations, r.baseline_runs,
               r.weak == LF_RC_WEAK_NEEDED && r.n && r.c[0].weak ? "weak runs with nothing strengthened"
                                                                  : "schedules with nothing made atomic");
        if (r.baseline_violations < LF_RC_MIN_BASELINE && !r.sequential) /* (lf_rc_counts_stand) */
            printf(" (too few for a clean run of a candidate to confirm it: at least %d; more --schedules)",
                   LF_RC_MIN_BASELINE);
        printf("\n");
        printf("root-cause candidates (%zu; confirmed first, then fewest passing runs forbidden):\n", r.n);
        for (size_t k = 0; k < r.n; k++) print_candidate(k + 1, &r.c[k]);
    }
    const lf_rc_candidate *best = r.n && lf_rc_confirmed(&r.c[0]) ? &r.c[0] : NULL;
    char saved[4096] = "";
    if (write) {
        const char *root = args->source_root ? args->source_root : getenv("LINFUZZ_SOURCE_ROOT");
        /* what the section was computed on (docs/formats.md, "Root causes") */
        st = lf_entry_set_meta(&e, "rootcause_input", args->test ? "test" : "workload") ? LF_OK : LF_ERR_NOMEM;
        if (st == LF_OK)
            st = lf_rc_store(path, args->out_dir, root && root[0] ? root : NULL, &e, &r, saved, sizeof saved, err,
                         sizeof err);
        if (st != LF_OK) {
            lf_esc_printf(stderr, "linfuzz rootcause: %s\n", err);
            lf_rc_result_free(&r);
            rc = st == LF_ERR_IO ? LF_EXIT_IO : LF_EXIT_USAGE;
            goto out;
        }
    }
    if (r.sequential)
        lf_esc_printf(stdout,
                      "%s: no interleaving explains it: it violates with every call atomic, so the structure's serial "
                      "behaviour differs from its specification or contract (%.1f s)%s%s\n",
                      path, r.seconds, write ? "; written to " : "", write ? saved : "");
    else
        lf_esc_printf(stdout, "%s: %s%s (%zu candidates, %zu confirmed, %.1f s)%s%s\n", path,
                      best ? "root cause: " : "no confirmed root cause", best ? best->summary : "", r.n, confirmed,
                      r.seconds, write ? "; written to " : "", write ? saved : "");
    rc = best ? LF_EXIT_OK : EXIT_NO_CAUSE;
    lf_rc_result_free(&r);
out:
    lf_entry_free(&e);
    return rc;
}

_Static_assert(LF_RC_BASELINE_ENOUGH == 30, "--baseline's default and help say 30");

static const lf_opt OPTIONS[] = {
    {.name = "--schedules", .value = "N", LF_OPT_COUNT_AT(rootcause_args, schedules, 1, 100000000), .def = "2000",
     .help = "schedules for the baseline, at most, and as many per validation as the\n"
             "baseline ran (default 2000)"},
    {.name = "--baseline", .value = "K", LF_OPT_COUNT_AT(rootcause_args, baseline, 0, 100000000), .def = "30",
     .help = "the baseline stops at its K-th violation (default 30, at least 5; 0: it runs\n"
             "all the schedules): enough evidence that a clean validation is no chance"},
    {.name = "--passing", .value = "N", LF_OPT_COUNT_AT(rootcause_args, passing, 0, 100000000), .def = "100",
     .help = "passing runs recorded for the ranking (default 100)"},
    {.name = "--validate", .value = "K", LF_OPT_COUNT_AT(rootcause_args, validate, 1, 8), .def = "3",
     .help = "candidates validated at least (default 3; more, up to 8, until one is confirmed)"},
    {.name = "--work", .value = "W", LF_OPT_COUNT_AT(rootcause_args, work, 0, UINT64_MAX), .def = "0",
     .help = "stop re-running after this much work: switches between threads plus scheduling\n"
             "points / 256, about 5 us a unit (default 0: no limit; the fuzz targets use\n"
             "400000); a validation it cuts short confirms nothing"},
    {.name = "--timeout", .value = "SEC", LF_OPT_SECONDS_AT(rootcause_args, timeout, 0, 3600), .def = "10",
     .help = "time budget per history for the search engines (default 10)"},
    {.name = "--test", LF_OPT_FLAG_AT(rootcause_args, test),
     .help = "root-cause the entry's minimized test instead of its whole workload (a few\n"
             "calls: fast, but a region it confirms may be only part of the cause; the fuzz\n"
             "targets fall back to it when the workload confirms nothing)"},
    {.name = "--write", LF_OPT_FLAG_AT(rootcause_args, write),
     .help = "store the result in the entry's `rootcause` section (the file is replaced\n"
             "atomically, under the same name); `linfuzz show`, `show --html` and\n"
             "`linfuzz triage` use it"},
    {.name = "--out", .value = "DIR", LF_OPT_STRING_AT(rootcause_args, out_dir), .expects = "a directory",
     .help = "with --write: save the entry into DIR (under the corpus's content name) instead\n"
             "of replacing it"},
    {.name = "--source-root", .value = "DIR", LF_OPT_STRING_AT(rootcause_args, source_root),
     .help = "with --write: source files are stored relative to DIR, the tree of the code under\n"
             "test (default: LINFUZZ_SOURCE_ROOT, else the current directory); a file outside it\n"
             "is stored from its last adapters/ on, else as the debug information names it"},
    {.name = "--quiet", .short_name = "-q", LF_OPT_FLAG_AT(rootcause_args, quiet),
     .help = "only the summary line, no progress line"},
};

const lf_cli_command lf_command_rootcause = {
    .name = "rootcause",
    .summary = "name the code that must be atomic for a violation entry (validated by re-runs)",
    .run = lf_cmd_rootcause,
    .usage = "linfuzz rootcause ENTRY... [options]",
    .about = "Root-causes a violation entry: replays its violating run under the controlled scheduler with the\n"
             "adapter's shared-memory accesses recorded, finds the conflict cycles of that run and their critical\n"
             "segments, maps them to source regions (file:lines, through llvm-symbolizer or addr2line), ranks them\n"
             "by how many recorded passing runs of the same test each would forbid, and validates the best ones by\n"
             "re-running the test under N schedules with the region made atomic (the scheduler never preempts\n"
             "inside it), against the same N schedules without (N: where those saw their --baseline-th violation).\n"
             "Without recorded accesses (uninstrumented code) it tries method-level exclusions instead (\"pop\n"
             "must not overlap pop\"). An entry found in free mode, or whose recorded run no longer violates, is\n"
             "first searched for a violating schedule.",
    .options = OPTIONS,
    .n_options = LF_CLI_N_OPTIONS(OPTIONS),
    .help_column = 17,
    .notes = "LINFUZZ_SYMBOLIZER=PATH picks the symbolizer, =none keeps raw addresses.\n"
             "\n"
             "Several entries are root-caused one after the other.\n"
             "\n"
             "A violation that happens even with every call atomic (the harness serializing all calls) has no\n"
             "interleaving to blame: the structure's serial behaviour differs from its specification or contract\n"
             "(docs/contracts.md); that is said instead of searching code regions (exit 3).\n"
             "\n"
             "exit: 0 a cause was confirmed (for every entry), 3 none confirmed, 6 no violating run under controlled\n"
             "      replay, 2 bad usage or not a valid entry, 4 unreadable entry or not writable (with several\n"
             "      entries, the worst: 4, 2, 6, 3, then 0).",
    .min_operands = 1,
    .max_operands = LF_CLI_MANY,
    .missing = "which entry?",
    .help_on_missing = true,
};
