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
#include "status_line.h"
#include "testcase/fuzz_case.h"
#include "testcase/minimize_test.h"
#include "util/parse.h"

static void help(FILE *out) {
    fprintf(out,
            "usage: linfuzz minimize-test [options] ENTRY...\n"
            "\n"
            "Minimizes the test of a violation entry found in controlled mode (meta schedule_mode:\n"
            "controlled): drops threads, lowers rounds, drops calls from the bodies and the prefix, the drain\n"
            "and keys, and simplifies the schedule, re-running each candidate under its schedule\n"
            "(deterministic) and keeping it only when it is still a violation for the entry's checker. The\n"
            "minimized test's history really happened and keeps the op that caused the bug; the history\n"
            "minimizer then runs on it. The entry's workload and recorded history stay; the test is stored\n"
            "next to them (sections 'test' and 'test_history', docs/formats.md), and `linfuzz repro` replays\n"
            "it exactly too.\n"
            "\n"
            "options:\n"
            "  -o DIR          save each new entry in DIR (created)\n"
            "  --replace       save each new entry next to the old one and remove the old one\n"
            "                  (without -o or --replace nothing is written: a dry run)\n"
            "  --seconds S     time budget per entry (default 10)\n"
            "  --runs N        re-runs per entry (default 5000)\n"
            "  -q, --quiet     no progress line; one result line per entry\n"
            "\n"
            "Prints per entry: ENTRY: test T threads, C calls -> T' threads, C' calls (history N -> N' ops);\n"
            "R runs, S s; minimized history M ops [-> saved PATH].\n"
            "\n"
            "exit: 0 every entry minimized, 1 some entry could not be (not controlled, or its run does not\n"
            "violate again in this build), 2 bad usage or not a valid entry, 4 unreadable entry or output not\n"
            "writable.\n");
}

typedef struct progress_ctx {
    lf_status_line *line;
    const char *path;
} progress_ctx;

static void on_progress(void *ctx, const lf_tmin_stats *s) {
    const progress_ctx *p = ctx;
    lf_status_set(p->line, "%s: %u threads, %zu calls, %zu ops; %llu runs", p->path, s->threads_after,
                  s->calls_after, s->ops_after, (unsigned long long)s->runs);
}

int lf_cmd_minimize_test(int argc, char **argv) {
    const char *out_dir = NULL;
    bool replace = false, quiet = false;
    lf_tmin_options o;
    lf_tmin_options_default(&o);
    o.seconds = 10;
    o.max_runs = 5000;
    int first_path = 0, n_paths = 0;
    char **paths = calloc((size_t)argc, sizeof *paths);
    if (!paths) return LF_EXIT_IO;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        bool ok = true;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            help(stdout);
            free(paths);
            return LF_EXIT_OK;
        } else if (!strcmp(a, "-q") || !strcmp(a, "--quiet")) {
            quiet = true;
        } else if (!strcmp(a, "--replace")) {
            replace = true;
        } else if (!strcmp(a, "-o") || !strcmp(a, "--seconds") || !strcmp(a, "--runs")) {
            if (!v) {
                fprintf(stderr, "linfuzz minimize-test: %s needs a value\n", a);
                free(paths);
                return LF_EXIT_USAGE;
            }
            if (!strcmp(a, "-o"))
                out_dir = v;
            else if (!strcmp(a, "--seconds"))
                ok = lf_parse_seconds(v, 0, LF_MAX_SECONDS, &o.seconds);
            else
                ok = lf_parse_u64(v, 1, UINT64_MAX, &o.max_runs);
            i++;
        } else if (a[0] == '-' && a[1]) {
            fprintf(stderr, "linfuzz minimize-test: unknown option '%s'\n", a);
            free(paths);
            return LF_EXIT_USAGE;
        } else {
            paths[n_paths++] = argv[i];
        }
        if (!ok) {
            fprintf(stderr, "linfuzz minimize-test: bad value '%s' for %s\n", v, a);
            free(paths);
            return LF_EXIT_USAGE;
        }
    }
    (void)first_path;
    if (n_paths == 0 || (out_dir && replace)) {
        fprintf(stderr, "linfuzz minimize-test: %s\n", n_paths ? "-o and --replace exclude each other" : "which entry?");
        help(stderr);
        free(paths);
        return LF_EXIT_USAGE;
    }
    int code = LF_EXIT_OK;
    lf_status_line *line = lf_status_start("linfuzz minimize-test", quiet);
    for (int k = 0; k < n_paths; k++) {
        const char *path = paths[k];
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
    free(paths);
    return code;
}
