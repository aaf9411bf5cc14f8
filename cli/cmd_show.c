/* `linfuzz show ENTRY`: prints a violation entry's report, or one of its parts (histories, metadata, the
 * input bytes), for triage; `--html` writes the self-contained HTML page of one or more entries, and
 * `--reminimize DIR` captures entries again with this version's minimiser (for entries of older versions). */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli_entry.h"
#include "cli/commands.h"
#include "findings/capture.h"
#include "findings/entry.h"
#include "findings/entry_html.h"
#include "runtime/adapter_check.h"
#include "testcase/fuzz_case.h"
#include "linfuzz/format.h"
#include "options.h"
#include "util/escape.h"

static int load_error(const char *err, lf_status st) {
    lf_esc_printf(stderr, "linfuzz show: %s\n", err);
    return st == LF_ERR_IO ? LF_EXIT_IO : LF_EXIT_USAGE;
}

/* The worse of two exit statuses (4 unreadable > 2 malformed > 0). */
static int worse(int a, int b) { return a == LF_EXIT_IO || b == LF_EXIT_IO ? LF_EXIT_IO : a > b ? a : b; }

/* ---- --html ---- */

typedef struct html_job {
    const lf_violation_entry *e;
    const char *path, *bin;
    const lf_check_options *check;
} html_job;

static lf_status fill_html(FILE *f, void *ctx) {
    const html_job *j = ctx;
    char err[256];
    return lf_entry_write_html(f, j->e, j->path, j->bin, j->check, err, sizeof err) == LF_OK && !ferror(f)
               ? LF_OK
               : LF_ERR_IO;
}

/* DIR/<file name of entry without .lfz>.html */
static void page_path(char *out, size_t len, const char *dir, const char *entry) {
    const char *base = strrchr(entry, '/');
    base = base ? base + 1 : entry;
    size_t n = strlen(base);
    if (n > 4 && !strcmp(base + n - 4, ".lfz")) n -= 4;
    snprintf(out, len, "%s%s%.*s.html", dir, dir[0] && dir[strlen(dir) - 1] == '/' ? "" : "/", (int)n, base);
}

static int show_html(const char *const *paths, size_t n_paths, const char *out) {
    bool to_dir = false;
    if (out) {
        struct stat st;
        size_t ol = strlen(out);
        to_dir = n_paths > 1 || (ol && out[ol - 1] == '/') || (stat(out, &st) == 0 && S_ISDIR(st.st_mode));
        if (to_dir && !lf_mkdirs(out)) {
            lf_esc_printf(stderr, "linfuzz show: cannot create the directory %s: %s\n", out, strerror(errno));
            return LF_EXIT_IO;
        }
    } else if (n_paths > 1) {
        lf_esc_printf(stderr,
                      "linfuzz show: %zu entries: --html writes one page per entry, give a directory with -o DIR\n",
                      n_paths);
        return LF_EXIT_USAGE;
    }
    char bin[PATH_MAX];
    lf_cli_bin_prefix(bin, sizeof bin);
    int status = LF_EXIT_OK;
    for (size_t i = 0; i < n_paths; i++) {
        lf_violation_entry e;
        char err[1024];
        lf_status st = lf_cli_load_entry(paths[i], &e, err, sizeof err);
        if (st != LF_OK) {
            status = worse(status, load_error(err, st));
            continue;
        }
        /* explained with what it was checked against: the adapter's self-spec when meta "spec" says so */
        lf_adapter_checker checker;
        if (!lf_adapter_checker_for_saved(&checker, lf_entry_meta(&e, "adapter"), lf_entry_meta(&e, "spec"), NULL, err,
                                          sizeof err)) {
            lf_esc_printf(stderr, "linfuzz show: %s: %s; its page explains it against the spec of its type\n", paths[i],
                          err);
            lf_adapter_checker_for_saved(&checker, NULL, NULL, NULL, err, sizeof err);
        }
        html_job job = {&e, paths[i], bin, &checker.check};
        if (!out) {
            if (fill_html(stdout, &job) != LF_OK || fflush(stdout) != 0) {
                lf_esc_printf(stderr, "linfuzz show: cannot write the page of %s to standard output\n", paths[i]);
                status = worse(status, LF_EXIT_IO);
            }
        } else {
            char page[PATH_MAX + 64];
            if (to_dir)
                page_path(page, sizeof page, out, paths[i]);
            else
                snprintf(page, sizeof page, "%s", out);
            if (lf_write_file_atomic(page, fill_html, &job, err, sizeof err) != LF_OK) {
                lf_esc_printf(stderr, "linfuzz show: %s\n", err);
                status = worse(status, LF_EXIT_IO);
            } else {
                lf_esc_printf(stderr, "%s: %s\n", paths[i], page);
            }
        }
        lf_adapter_checker_free(&checker);
        lf_entry_free(&e);
    }
    return status;
}

/* ---- --reminimize ---- */

static int reminimize(const char *const *paths, size_t n_paths, const char *dir) {
    int status = LF_EXIT_OK;
    for (size_t i = 0; i < n_paths; i++) {
        lf_violation_entry old, e;
        char err[1024], saved[PATH_MAX + 64];
        lf_status st = lf_cli_load_entry(paths[i], &old, err, sizeof err);
        if (st != LF_OK) {
            status = worse(status, load_error(err, st));
            continue;
        }
        /* minimized against what it was checked against (meta "spec"): the adapter's self-spec needs the adapter */
        lf_adapter_checker checker;
        if (!lf_adapter_checker_for_saved(&checker, lf_entry_meta(&old, "adapter"), lf_entry_meta(&old, "spec"), NULL,
                                          err, sizeof err)) {
            lf_esc_printf(stderr, "linfuzz show: %s: %s\n", paths[i], err);
            status = worse(status, LF_EXIT_USAGE);
            lf_entry_free(&old);
            continue;
        }
        /* entries of versions that did not record the serial thread (prefix and drain): a fuzz case's is its
         * thread count (testcase/case_runner.h) */
        uint32_t serial;
        const char *format = lf_entry_meta(&old, "workload_format");
        const lf_adapter *a = lf_adapter_find(lf_entry_meta(&old, "adapter"));
        lf_method ms[LF_M_COUNT];
        lf_fuzz_case c;
        char threads[16];
        if (!lf_entry_serial_thread(&old, &serial) && a && format &&
            lf_fuzz_case_decode_as(format, old.workload, old.workload_len, lf_fuzz_case_methods(a, ms), &c)) {
            snprintf(threads, sizeof threads, "%u", c.threads);
            if (!lf_entry_set_meta(&old, "serial_thread", threads)) {
                lf_esc_printf(stderr, "linfuzz show: out of memory\n");
                status = worse(status, LF_EXIT_IO);
            }
        }
        st = lf_capture_again(&old, &checker.check, &e, err, sizeof err);
        lf_adapter_checker_free(&checker);
        if (st != LF_OK) {
            lf_esc_printf(stderr, "linfuzz show: %s: %s\n", paths[i], err);
            status = worse(status, LF_EXIT_USAGE);
        } else {
            if (lf_entry_save(&e, dir, saved, sizeof saved, err, sizeof err) != LF_OK) {
                lf_esc_printf(stderr, "linfuzz show: %s\n", err);
                status = worse(status, LF_EXIT_IO);
            } else {
                lf_esc_printf(stderr, "%s: %zu -> %zu ops (was %zu): %s\n", paths[i], e.full.n, e.minimized.n,
                              old.minimized.n, saved);
            }
            lf_entry_free(&e);
        }
        lf_entry_free(&old);
    }
    return status;
}

/* ---- one entry ---- */

static int show_one(const char *path, bool stored, bool meta, const char *history, const char *input) {
    lf_violation_entry e;
    char err[1024];
    lf_status st = lf_cli_load_entry(path, &e, err, sizeof err);
    if (st != LF_OK) return load_error(err, st);
    int status = LF_EXIT_OK;
    if (stored) {
        lf_esc_puts(stdout, e.report, LF_ESC_KEEP_NEWLINE | LF_ESC_KEEP_TAB);
    } else if (meta) {
        for (size_t i = 0; i < e.n_meta; i++) lf_esc_printf(stdout, "%s: %s\n", e.meta[i].key, e.meta[i].value);
    } else if (history && !strcmp(history, "test") && !e.has_test) {
        lf_esc_printf(stderr, "linfuzz show: %s has no minimized test (a controlled finding gets one from the fuzz target "
                              "or from 'linfuzz minimize-test')\n", path);
        status = LF_EXIT_USAGE;
    } else if (history) {
        const lf_history *h = !strcmp(history, "full") ? &e.full : !strcmp(history, "test") ? &e.test_history : &e.minimized;
        if (lf_text_write_stream(stdout, h) != LF_OK) status = LF_EXIT_IO;
    } else if (input) {
        /* An older format's bytes would read differently as today's: write the same case in today's format. */
        const char *format = lf_entry_meta(&e, "workload_format");
        uint8_t converted[LF_FC_MAX_ENCODED];
        const uint8_t *bytes;
        size_t n_bytes;
        lf_cli_entry_input(&e, converted, &bytes, &n_bytes);
        if (lf_write_bytes_atomic(input, bytes, n_bytes, err, sizeof err) != LF_OK) {
            lf_esc_printf(stderr, "linfuzz show: %s\n", err);
            status = LF_EXIT_IO;
        } else {
            lf_esc_printf(stderr, "%s: %zu input bytes (%s%s) written to %s\n", path, n_bytes,
                          format ? format : "unknown format", bytes == converted ? ", as " LF_FUZZ_CASE_FORMAT : "",
                          input);
        }
    } else {
        const char *created = lf_entry_meta(&e, "created"), *version = lf_entry_meta(&e, "linfuzz_version");
        const char *expected = lf_entry_meta(&e, "expected");
        /* text from the entry (and its name) shown escaped (util/escape.h), the report's included */
        lf_esc_printf(stdout, "entry:      %s\n", path);
        lf_esc_printf(stdout, "saved:      %s by linfuzz %s (adapter expected %s)\n", created ? created : "?",
                      version ? version : "?", expected ? expected : "?");
        /* the saved verdicts, one per line, aligned under the header */
        const char *line = e.verdict;
        for (int k = 0; *line; k++) {
            size_t len = strcspn(line, "\n");
            lf_esc_printf(stdout, "%s%.*s\n", k ? "            " : "verdicts:   ", (int)len, line);
            line += len + (line[len] == '\n');
        }
        putchar('\n');
        /* re-explained with what it was checked against: the adapter's self-spec when meta "spec" says so */
        lf_adapter_checker checker;
        if (!lf_adapter_checker_for_saved(&checker, lf_entry_meta(&e, "adapter"), lf_entry_meta(&e, "spec"), NULL, err,
                                          sizeof err)) {
            lf_esc_printf(stderr, "linfuzz show: cannot explain the entry again: %s; its stored report follows\n", err);
            lf_esc_puts(stdout, e.report, LF_ESC_KEEP_NEWLINE | LF_ESC_KEEP_TAB);
        } else {
            lf_entry_write_report(stdout, &e, &checker.check);
            lf_adapter_checker_free(&checker);
        }
    }
    lf_entry_free(&e);
    return status;
}

static const char *const HISTORIES[] = {"full", "minimized", "test", NULL};

typedef struct show_args {
    bool stored, meta, html;
    int history; /* HISTORIES, -1 when not given */
    const char *input, *out, *again;
} show_args;

int lf_cmd_show(int argc, char **argv) {
    show_args args = {.history = -1};
    lf_cli_operands entries;
    int status = lf_cli_parse(&lf_command_show, argc, argv, &args, &entries);
    if (status != LF_CLI_GO_ON) return status;
    bool stored = args.stored, meta = args.meta, html = args.html;
    const char *history = args.history >= 0 ? HISTORIES[args.history] : NULL, *input = args.input, *out = args.out,
               *again = args.again;
    const char *const *paths = (const char *const *)entries.v;
    size_t n_paths = entries.n;
    int modes = stored + meta + (history != NULL) + (input != NULL) + html + (again != NULL);
    if (modes > 1) {
        lf_esc_printf(
            stderr, "linfuzz show: --stored, --meta, --history, --input, --html and --reminimize exclude each other\n");
        return LF_EXIT_USAGE;
    }
    if (out && !html) {
        lf_esc_printf(stderr, "linfuzz show: -o goes with --html\n");
        return LF_EXIT_USAGE;
    }
    if (n_paths > 1 && !html && !again) {
        lf_esc_printf(stderr,
                      "linfuzz show: one entry at a time ('%s' is extra; --html and --reminimize take several)\n",
                      paths[1]);
        return LF_EXIT_USAGE;
    }
    if (html) return show_html(paths, n_paths, out);
    if (again) return reminimize(paths, n_paths, again);
    return show_one(paths[0], stored, meta, history, input);
}

static const lf_opt OPTIONS[] = {
    {.name = "--stored", LF_OPT_FLAG_AT(show_args, stored),
     .help = "print the report exactly as saved when the violation was found"},
    {.name = "--meta", LF_OPT_FLAG_AT(show_args, meta), .help = "print the metadata, one 'key: value' per line"},
    {.name = "--history", .value = "WHICH", LF_OPT_CHOICE_AT(show_args, history, HISTORIES),
     .expects = "'full', 'minimized' or 'test'",
     .help = "print a history in the text format (pipe it into 'linfuzz check -'): full\n"
             "(recorded), minimized, or test (the run of the minimized test, when the\n"
             "entry has one)"},
    {.name = "--input", .value = "FILE", LF_OPT_STRING_AT(show_args, input),
     .help = "write the workload bytes (the fuzzer input) to FILE, to replay them with\n"
             "build/bin/fuzz_ADAPTER FILE (an entry of an older input format: its case in\n"
             "today's format, which the fuzz target reads the same way)"},
    {.name = "--html", LF_OPT_FLAG_AT(show_args, html),
     .help = "write one self-contained HTML page per entry (no network access: inline CSS\n"
             "and JavaScript): timelines of the minimized and the recorded history, the\n"
             "longest linearizable prefix with the state after each op (hover), the ops\n"
             "that cannot go next and why, the root cause when the entry has one, the\n"
             "commands that reproduce it. To standard output for one entry, else to -o"},
    {.name = "-o", .value = "FILE|DIR", LF_OPT_STRING_AT(show_args, out),
     .help = "where the pages go: a file for one entry; a directory (created) for\n"
             "several, or when it exists or ends in '/': DIR/<entry name>.html"},
    {.name = "--reminimize", .value = "DIR", LF_OPT_STRING_AT(show_args, again),
     .help = "minimize each entry's recorded history again with this version and save the\n"
             "new entry (same workload, history, origin and creation time) in DIR"},
};

const lf_cli_command lf_command_show = {
    .name = "show",
    .summary = "print the report of a violation entry (or its histories, metadata, input)",
    .run = lf_cmd_show,
    .usage = "linfuzz show ENTRY [--stored | --meta | --history full|minimized|test | --input FILE]\n"
             "linfuzz show --html [-o FILE|DIR] ENTRY...\n"
             "linfuzz show --reminimize DIR ENTRY...",
    .about = "Prints the report of a violation entry (a .lfz file written by a fuzz target): the minimized\n"
             "history by thread and as a timeline, its first impossible result, and why it is not\n"
             "linearizable. The report is rendered again from the saved histories (so the explanation is this\n"
             "checker's); the header says where and when the entry was found.",
    .options = OPTIONS,
    .n_options = LF_CLI_N_OPTIONS(OPTIONS),
    .help_column = 22,
    .notes = "Every mode checks an entry as it was found: against its type's spec, or (meta 'spec: self') against\n"
             "the adapter's own serial behaviour, which needs the adapter in this program.\n"
             "\n"
             "exit: 0 done, 2 bad usage or not a valid entry, 4 unreadable entry or output not writable.",
    .min_operands = 1,
    .max_operands = LF_CLI_MANY,
    .missing = "which entry?",
    .help_on_missing = true,
};
