/* `linfuzz minimize-test`: minimizes the test of controlled-mode entries (testcase/minimize_test.h) — fewer
 * threads, calls and schedule changes, each candidate re-run under its schedule and kept only when it still
 * violates — and saves each entry again with the minimized test, its history and the history minimized
 * from that. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli_entry.h"
#include "cli/commands.h"
#include "findings/entry.h"
#include "linfuzz/adapter.h"
#include "options.h"
#include "status_line.h"
#include "testcase/fuzz_case.h"
#include "testcase/minimize_test.h"
#include "util/parse.h"
#include "util/escape.h"

typedef struct progress_ctx {
    lf_status_line *line;
    const char *path;
} progress_ctx;

static void on_progress(void *ctx, const lf_tmin_stats *s) {
    const progress_ctx *p = ctx;
    lf_status_set(p->line, "%s: %u threads, %zu calls, %zu ops; %llu runs", p->path, s->threads_after,
                  s->calls_after, s->ops_after, (unsigned long long)s->runs);
}

typedef struct minimize_test_args {
    const char *out_dir;
    bool replace, quiet;
    double seconds;
    uint64_t runs;
} minimize_test_args;

int lf_cmd_minimize_test(int argc, char **argv) {
    minimize_test_args args = {0};
    lf_cli_operands entries;
    int status = lf_cli_parse(&lf_command_minimize_test, argc, argv, &args, &entries);
    if (status != LF_CLI_GO_ON) return status;
    if (args.out_dir && args.replace) {
        lf_esc_printf(stderr, "linfuzz minimize-test: -o and --replace exclude each other\n");
        lf_cli_help(stderr, &lf_command_minimize_test);
        return LF_EXIT_USAGE;
    }
    const char *out_dir = args.out_dir;
    bool replace = args.replace, quiet = args.quiet;
    lf_tmin_options o;
    lf_tmin_options_default(&o);
    o.seconds = args.seconds;
    o.max_runs = args.runs;
    int code = LF_EXIT_OK;
    lf_status_line *line = lf_status_start("linfuzz minimize-test", quiet);
    for (size_t k = 0; k < entries.n; k++) {
        const char *path = entries.v[k];
        lf_violation_entry old, e;
        char err[1024];
        lf_status st = lf_cli_load_entry(path, &old, err, sizeof err);
        if (st != LF_OK) {
            lf_status_printf(line, stderr, "linfuzz minimize-test: %s\n", err);
            code = st == LF_ERR_IO ? LF_EXIT_IO : code == LF_EXIT_IO ? code : LF_EXIT_USAGE;
            continue;
        }
        const char *name = lf_entry_meta(&old, "adapter");
        const lf_adapter *a = lf_adapter_find(name);
        progress_ctx pc = {line, path};
        o.on_progress = line ? on_progress : NULL;
        o.ctx = &pc;
        lf_tmin_stats s;
        if (!a) {
            snprintf(err, sizeof err, "adapter '%s' is not in this build", name);
            st = LF_ERR_FORMAT;
        } else {
            st = lf_entry_minimize_test(&old, a, &o, &e, &s, err, sizeof err);
        }
        if (st != LF_OK) {
            lf_status_printf(line, stdout, "%s: not minimized: %s\n", path, err);
            if (code == LF_EXIT_OK) code = LF_EXIT_VIOLATION;
            lf_entry_free(&old);
            continue;
        }
        char summary[512], saved[4096] = "";
        lf_tmin_describe(summary, sizeof summary, &s);
        if (out_dir || replace) {
            char dir[4096];
            if (out_dir) {
                snprintf(dir, sizeof dir, "%s", out_dir);
            } else {
                const char *slash = strrchr(path, '/');
                snprintf(dir, sizeof dir, "%.*s", slash ? (int)(slash - path) : 1, slash ? path : ".");
            }
            if (lf_entry_save(&e, dir, saved, sizeof saved, err, sizeof err) != LF_OK) {
                lf_status_printf(line, stderr, "linfuzz minimize-test: %s\n", err);
                code = LF_EXIT_IO;
                saved[0] = 0;
            } else if (replace && strcmp(saved, path) != 0 && unlink(path) != 0) {
                lf_status_printf(line, stderr, "linfuzz minimize-test: cannot remove %s: %s\n", path, strerror(errno));
                code = LF_EXIT_IO;
            }
        }
        lf_status_printf(line, stdout, "%s: %s; minimized history %zu ops%s%s\n", path, summary, e.minimized.n,
                         saved[0] ? " -> saved " : "", saved);
        if (!quiet) {
            lf_method ms[LF_M_COUNT];
            lf_fuzz_case c;
            char desc[4096];
            lf_fuzz_case_decode(e.test, e.test_len, lf_fuzz_case_methods(a, ms), &c);
            lf_fuzz_case_describe(desc, sizeof desc, &c, a);
            lf_status_printf(line, stdout, "  minimized test: %s\n", desc);
        }
        lf_entry_free(&e);
        lf_entry_free(&old);
    }
    lf_status_stop(line);
    return code;
}

static const lf_opt OPTIONS[] = {
    {.name = "-o", .value = "DIR", LF_OPT_STRING_AT(minimize_test_args, out_dir),
     .help = "save each new entry in DIR (created)"},
    {.name = "--replace", LF_OPT_FLAG_AT(minimize_test_args, replace),
     .help = "save each new entry next to the old one and remove the old one\n"
             "(without -o or --replace nothing is written: a dry run)"},
    {.name = "--seconds", .value = "S", LF_OPT_SECONDS_AT(minimize_test_args, seconds, 0, LF_MAX_SECONDS), .def = "10",
     .help = "time budget per entry (default 10)"},
    {.name = "--runs", .value = "N", LF_OPT_COUNT_AT(minimize_test_args, runs, 1, UINT64_MAX), .def = "5000",
     .help = "re-runs per entry (default 5000)"},
    {.name = "--quiet", .short_name = "-q", LF_OPT_FLAG_AT(minimize_test_args, quiet),
     .help = "no progress line; one result line per entry"},
};

const lf_cli_command lf_command_minimize_test = {
    .name = "minimize-test",
    .summary = "minimize the test of a controlled-mode entry by re-running it (keeps the bug)",
    .run = lf_cmd_minimize_test,
    .usage = "linfuzz minimize-test [options] ENTRY...",
    .about = "Minimizes the test of a violation entry found in controlled mode (meta schedule_mode:\n"
             "controlled): drops threads, lowers rounds, drops calls from the bodies and the prefix, the drain\n"
             "and keys, and simplifies the schedule, re-running each candidate under its schedule\n"
             "(deterministic) and keeping it only when it is still a violation for the entry's checker. The\n"
             "minimized test's history really happened and keeps the op that caused the bug; the history\n"
             "minimizer then runs on it. The entry's workload and recorded history stay; the test is stored\n"
             "next to them (sections 'test' and 'test_history', docs/formats.md), and `linfuzz repro` replays\n"
             "it exactly too.",
    .options = OPTIONS,
    .n_options = LF_CLI_N_OPTIONS(OPTIONS),
    .help_column = 18,
    .notes = "Prints per entry: ENTRY: test T threads, C calls -> T' threads, C' calls (history N -> N' ops);\n"
             "R runs, S s; minimized history M ops [-> saved PATH].\n"
             "\n"
             "exit: 0 every entry minimized, 1 some entry could not be (not controlled, or its run does not\n"
             "violate again in this build), 2 bad usage or not a valid entry, 4 unreadable entry or output not\n"
             "writable.",
    .min_operands = 1,
    .max_operands = LF_CLI_MANY,
    .missing = "which entry?",
    .help_on_missing = true,
};
