/* `linfuzz check`: read history files, decide each, print one line (or JSON object) per file. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "linfuzz/adapter.h"
#include "cli/commands.h"
#include "json_out.h"
#include "linfuzz/check.h"
#include "linfuzz/format.h"
#include "linfuzz/selfspec.h"
#include "linfuzz/spec.h"
#include "runtime/adapter_check.h"
#include "options.h"
#include "status_line.h"
#include "util/clock.h"
#include "util/parse.h"
#include "util/escape.h"

/* The time budget per history when --timeout is not given: long enough for what the engines can decide,
 * short enough that an undecidable history (a million overlapping counter ops, say) ends with "unknown"
 * instead of running for hours. */
#define CHECK_DEFAULT_TIMEOUT "60"

/* Severity order for combining per-file outcomes into one exit code. */
static int severity(int code) {
    switch (code) {
    case LF_EXIT_USAGE: return 4;
    case LF_EXIT_IO: return 3;
    case LF_EXIT_VIOLATION: return 2;
    case LF_EXIT_UNKNOWN: return 1;
    default: return 0;
    }
}

/* Ends a text line with the deciding engine (and the hitting depth): " [hitting d=2]". */
static void print_engine_tag(FILE *out, const lf_result *r) {
    if (r->depth >= 0)
        fprintf(out, " [%s d=%d]\n", r->engine, r->depth);
    else
        fprintf(out, " [%s]\n", r->engine);
}

/* A custom type without a spec: which adapters of this build could serve as its specification. */
static void hint_self_spec(const lf_history *h) {
    if (h->type != LF_TYPE_CUSTOM || lf_spec_of_history(h)) return;
    fflush(stdout);
    lf_esc_printf(stderr,
                  "linfuzz check: type %s has no specification here; check it against an adapter's serial behaviour "
                  "with --spec self --adapter NAME",
                  lf_history_type_name(h));
    const char *sep = " (adapters of this type: ";
    for (size_t i = 0; i < lf_adapter_count(); i++) {
        const lf_adapter *a = lf_adapter_at(i);
        if (a->type == LF_TYPE_CUSTOM && lf_type_desc_equal(a->custom, h->custom)) {
            lf_esc_printf(stderr, "%s%s", sep, a->name);
            sep = ", ";
        }
    }
    lf_esc_printf(stderr, "%s\n", sep[0] == ',' ? ")" : "");
}

static void print_witness(FILE *out, const lf_history *h, const lf_result *r) {
    char buf[200];
    for (size_t i = 0; i < r->witness_len; i++) {
        lf_history_describe_op(h, &h->ops[r->witness[i]], buf, sizeof buf);
        fprintf(out, "  %zu. op %" PRIu32 ": %s\n", i + 1, r->witness[i], buf);
    }
}

/* ,"name":[1,2,3] */
static void print_json_ops(const char *name, const uint32_t *ops, size_t n) {
    if (!n) return;
    printf(",\"%s\":[", name);
    for (size_t k = 0; k < n; k++) printf("%s%" PRIu32, k ? "," : "", ops[k]);
    printf("]");
}

/* The JSON object of a file that was checked (--json). */
static void print_json_result(const char *path, const lf_history *h, const lf_result *r, double ms) {
    printf("{\"file\":");
    lf_json_string(stdout, path);
    printf(",\"type\":");
    lf_json_string(stdout, lf_history_type_name(h));
    printf(",\"ops\":%zu,\"verdict\":\"%s\",\"engine\":\"%s\"", h->n, lf_verdict_name(r->verdict), r->engine);
    if (!lf_contract_is_default(&h->contract)) {
        char text[96];
        lf_contract_format(text, sizeof text, &h->contract);
        printf(",\"contract\":");
        lf_json_string(stdout, text);
    }
    if (r->depth >= 0) printf(",\"depth\":%d", r->depth);
    if (r->level != LF_LEVEL_NONE) printf(",\"level\":\"%s\"", lf_level_name(r->level));
    if (r->serial_nondeterminism) printf(",\"serial_nondeterminism\":true");
    printf(",\"reason\":");
    lf_json_string(stdout, r->verdict == LF_LINEARIZABLE ? "" : r->reason);
    print_json_ops("ops_in_conflict", r->culprits, r->n_culprits);
    print_json_ops("witness", r->witness, r->witness_len);
    print_json_ops("linearizable_prefix", r->prefix, r->prefix_len);
    printf(",\"time_ms\":%.3f}\n", ms);
}

/* What the progress line shows (cli/status_line.h): the file being checked, once it has taken a second.
 * The main thread writes the fields with atomic stores, the line's reporter thread reads them. */
typedef struct {
    lf_progress progress;  /* the engines' stage and counters (lf_check_options.progress) */
    const char *path;      /* the file */
    uint64_t start_ns;     /* when it was opened; 0 between files (the line then shows nothing) */
    uint64_t check_ns;     /* when its check started (0 while reading): the budget counts from there */
    double budget;         /* the time budget of each check, 0 for none */
} check_tracker;

static uint64_t now_ns(void) { return (uint64_t)(lf_now_s() * 1e9); }

/* "45.1M" for counts that would otherwise be long. */
static void fmt_count(char *buf, size_t len, uint64_t x) {
    if (x >= 1000000000)
        snprintf(buf, len, "%.1fG", (double)x / 1e9);
    else if (x >= 1000000)
        snprintf(buf, len, "%.1fM", (double)x / 1e6);
    else if (x >= 10000)
        snprintf(buf, len, "%.1fk", (double)x / 1e3);
    else
        snprintf(buf, len, "%" PRIu64, x);
}

/* The line's text: "FILE: 12 s, wgl, 45.1M steps, part 3 of 10, 47 s left of the 60 s budget", or nothing
 * while no file has been at it for a second. */
static void check_status(void *ctx, char *buf, size_t len) {
    check_tracker *t = ctx;
    buf[0] = '\0';
    uint64_t start = __atomic_load_n(&t->start_ns, __ATOMIC_ACQUIRE), now = now_ns();
    if (start == 0 || now < start + 1000000000ull) return;
    const char *path = __atomic_load_n(&t->path, __ATOMIC_RELAXED);
    uint64_t check = __atomic_load_n(&t->check_ns, __ATOMIC_RELAXED);
    lf_progress p;
    lf_progress_read(&t->progress, &p);
    int n = snprintf(buf, len, "%s: %.0f s, %s", path, (double)(now - start) / 1e9,
                     check == 0 ? "reading" : p.stage ? p.stage : "checking");
    char steps[32];
    if (check && p.stage && p.steps && n >= 0 && (size_t)n < len) {
        fmt_count(steps, sizeof steps, p.steps);
        n += snprintf(buf + n, len - (size_t)n, ", %s steps", steps);
    }
    if (check && p.parts_total > 1 && n >= 0 && (size_t)n < len)
        n += snprintf(buf + n, len - (size_t)n, ", part %" PRIu64 " of %" PRIu64,
                      p.parts_done < p.parts_total ? p.parts_done + 1 : p.parts_total, p.parts_total);
    if (check && t->budget > 0 && n >= 0 && (size_t)n < len) {
        double left = t->budget - (double)(now - check) / 1e9;
        snprintf(buf + n, len - (size_t)n, ", %.0f s left of the %g s budget", left > 0 ? left : 0, t->budget);
    }
}

/* A file is done: the line shows nothing more and is erased before the file's result is printed. */
static void file_done(lf_status_line *line, check_tracker *t) {
    __atomic_store_n(&t->start_ns, 0, __ATOMIC_RELEASE);
    lf_status_printf(line, stdout, "%s", "");
}

/* What the command line says (the table below). */
typedef struct check_args {
    lf_engine engine;
    bool json, witness, quiet, progress;
    double timeout;     /* 0: no budget */
    uint64_t memory_mb; /* 0: none given */
    uint64_t max_depth; /* 0: none given */
    lf_spec_mode spec;
    const char *adapter;
    lf_cli_contract contract; /* --contract, instead of each history's own */
} check_args;

/* --timeout: a duration, or 0 or none for no budget. */
static bool parse_budget(const char *text, void *seconds) {
    if (!strcmp(text, "none")) {
        *(double *)seconds = 0;
        return true;
    }
    return lf_parse_seconds(text, 0, LF_MAX_SECONDS, seconds);
}

int lf_cmd_check(int argc, char **argv) {
    check_args args = {.spec = LF_SPEC_AUTO};
    lf_cli_operands files;
    int status = lf_cli_parse(&lf_command_check, argc, argv, &args, &files);
    if (status != LF_CLI_GO_ON) return status;
    lf_check_options opt;
    lf_check_options_default(&opt);
    opt.engine = args.engine;
    opt.want_witness = args.witness;
    opt.timeout_s = args.timeout;
    if (args.memory_mb) opt.max_memory_bytes = (size_t)args.memory_mb << 20;
    if (args.max_depth) opt.max_depth = (int)args.max_depth;
    bool json = args.json, quiet = args.quiet;
    const char *adapter_name = args.adapter;
    lf_spec_mode spec_mode = args.spec;
    /* --adapter (and --spec self): the adapter's checker; otherwise each history's own type */
    lf_adapter_checker checker;
    bool use_adapter = adapter_name != NULL;
    if (spec_mode == LF_SPEC_SELF && !adapter_name) {
        lf_esc_printf(stderr, "linfuzz check: --spec self needs --adapter NAME (whose serial behaviour is the spec)\n");
        return LF_EXIT_USAGE;
    }
    check_tracker tracker;
    memset(&tracker, 0, sizeof tracker);
    tracker.budget = opt.timeout_s;
    lf_status_line *line = lf_status_start("linfuzz check", quiet || !(args.progress || isatty(STDERR_FILENO)));
    if (line) {
        opt.progress = &tracker.progress;
        lf_status_set_source(line, check_status, &tracker);
    }
    if (use_adapter) {
        const lf_adapter *ad = lf_adapter_find(adapter_name);
        char why[512];
        if (!ad) {
            lf_esc_printf(stderr, "linfuzz check: no adapter '%s' ('linfuzz adapters' lists them)\n", adapter_name);
            lf_status_stop(line);
            return LF_EXIT_USAGE;
        }
        if (!lf_adapter_checker_init(&checker, ad, spec_mode, &opt, why, sizeof why)) {
            lf_esc_printf(stderr, "linfuzz check: %s\n", why);
            lf_status_stop(line);
            return LF_EXIT_USAGE;
        }
    }
    int exit_code = LF_EXIT_OK;
    for (size_t i = 0; i < files.n; i++) {
        const char *path = files.v[i];
        lf_history h;
        char err[1024];
        int code;
        double t0 = (lf_now_s() * 1e3);
        memset(&tracker.progress, 0, sizeof tracker.progress); /* no check is running: nobody writes it now */
        __atomic_store_n(&tracker.path, path, __ATOMIC_RELAXED);
        __atomic_store_n(&tracker.check_ns, 0, __ATOMIC_RELAXED);
        __atomic_store_n(&tracker.start_ns, now_ns(), __ATOMIC_RELEASE);
        lf_status st = lf_history_read(path, &h, err, sizeof err);
        if (st == LF_OK && args.contract.text) {
            char why[256];
            h.contract = args.contract.contract;
            if (!lf_contract_valid(h.type, &h.contract, why, sizeof why)) {
                snprintf(err, sizeof err, "%s: --contract: %s", path, why);
                lf_history_free(&h);
                st = LF_ERR_FORMAT;
            }
        }
        if (st != LF_OK) {
            file_done(line, &tracker);
            code = st == LF_ERR_IO ? LF_EXIT_IO : LF_EXIT_USAGE;
            lf_esc_printf(stderr, "linfuzz check: %s\n", err);
            if (json && !quiet) {
                printf("{\"file\":");
                lf_json_string(stdout, path);
                printf(",\"verdict\":\"error\",\"error\":");
                lf_json_string(stdout, err);
                printf("}\n");
            }
        } else {
            lf_result r;
            lf_result_init(&r);
            __atomic_store_n(&tracker.check_ns, now_ns(), __ATOMIC_RELAXED);
            if (use_adapter)
                lf_adapter_checker_check(&checker, &h, &r);
            else
                lf_check(&h, &opt, &r);
            file_done(line, &tracker);
            bool hint = !use_adapter && !quiet && r.verdict == LF_UNKNOWN;
            double ms = (lf_now_s() * 1e3) - t0;
            code = r.verdict == LF_LINEARIZABLE ? LF_EXIT_OK
                   : r.verdict == LF_VIOLATION  ? LF_EXIT_VIOLATION
                                                : LF_EXIT_UNKNOWN;
            if (quiet) {
            } else if (json) {
                print_json_result(path, &h, &r, ms);
            } else if (r.verdict == LF_LINEARIZABLE) {
                lf_esc_printf(stdout, "%s: linearizable", path);
                print_engine_tag(stdout, &r);
                if (opt.want_witness) print_witness(stdout, &h, &r);
            } else {
                lf_esc_printf(stdout, "%s: %s: %s", path, lf_verdict_name(r.verdict), r.reason);
                print_engine_tag(stdout, &r);
            }
            if (hint) hint_self_spec(&h);
            lf_result_free(&r);
            lf_history_free(&h);
        }
        if (severity(code) > severity(exit_code)) exit_code = code;
    }
    lf_status_stop(line);
    if (use_adapter) lf_adapter_checker_free(&checker);
    return exit_code; /* (output that could not be written: exit 4, lf_cli_main) */
}

static const lf_opt OPTIONS[] = {
    {.name = "--engine", .value = "E", LF_OPT_PARSED_AT(check_args, engine, lf_engine, lf_cli_parse_engine), .def = "auto",
     .expects = LF_CLI_ENGINES, .help = "auto (default), monitor, brute, wgl or hitting"},
    {.name = "--json", LF_OPT_FLAG_AT(check_args, json), .help = "one JSON object per file instead of text lines"},
    {.name = "--witness", LF_OPT_FLAG_AT(check_args, witness), .help = "print a linearization order for linearizable histories"},
    {.name = "--timeout", .value = "SEC", LF_OPT_PARSED_AT(check_args, timeout, double, parse_budget), .def = CHECK_DEFAULT_TIMEOUT,
     .expects = "a duration (seconds, or with a unit: 500ms, 10m), or 0 or none for no budget",
     .help = "time budget per history (default " CHECK_DEFAULT_TIMEOUT " s; 0 or none: no budget). A history that\n"
             "is not decided within it is unknown. Accepts units: 500ms, 90s, 10m, 2h"},
    {.name = "--max-memory", .value = "MB", LF_OPT_COUNT_AT(check_args, memory_mb, 1, 1u << 30), .expects = "a positive number of MB",
     .help = "memory budget per history for search engines (unknown when exceeded)"},
    {.name = "--max-depth", .value = "D", LF_OPT_COUNT_AT(check_args, max_depth, 1, 64), .expects = "a depth in 1..64",
     .help = "deepest hitting-family depth tried"},
    {.name = "--spec", .value = "M", LF_OPT_PARSED_AT(check_args, spec, lf_spec_mode, lf_cli_parse_spec_mode),
     .expects = LF_CLI_SPEC_MODES,
     .help = "what the histories are checked against: type (default: the spec of their type,\n"
             "built in or a custom type's, known when an adapter of this build declares it) or\n"
             "self (the serial behaviour of --adapter: the self-spec, docs/custom-types.md)"},
    {.name = "--adapter", .value = "NAME", LF_OPT_STRING_AT(check_args, adapter),
     .help = "the adapter for --spec self (also: with --spec auto, its type's spec if it has\n"
             "one, else its self-spec)"},
    {.name = "--contract", .value = "C", LF_OPT_PARSED_AT(check_args, contract, lf_cli_contract, lf_cli_parse_contract),
     .expects = LF_CLI_CONTRACTS,
     .help = "check every history under contract C instead of its own 'contract' line\n"
             "(docs/contracts.md): linearizable, 'k-relaxed K', per-producer or bag, and/or\n"
             "lagging-, quiescent-, weak- or unchecked-full-empty (e.g. 'bag weak-full-empty')"},
    {.name = "--quiet", .short_name = "-q", LF_OPT_FLAG_AT(check_args, quiet), .help = "print nothing; the exit code tells"},
    {.name = "--progress", LF_OPT_FLAG_AT(check_args, progress),
     .help = "show the progress line also when stderr is not a terminal (then a line of its\n"
             "own every LINFUZZ_PROGRESS_SECONDS, default 5). On a terminal it is on: while a\n"
             "file takes longer than a second, one line on stderr, redrawn in place, says\n"
             "what is being done (the file, its time, the engine, steps, part, budget left)"},
};

const lf_cli_command lf_command_check = {
    .name = "check",
    .summary = "check history files for linearizability",
    .run = lf_cmd_check,
    .usage = "linfuzz check [options] FILE...",
    .about = "Decides whether each history (text .hist, compressed .lfz, or - for stdin) is linearizable.\n"
             "Prints 'FILE: linearizable', 'FILE: violation: <reason>' or 'FILE: unknown: <why>', followed by the\n"
             "deciding engine in brackets (' [monitor]', ' [hitting d=2]', ' [wgl]').",
    .options = OPTIONS,
    .n_options = LF_CLI_N_OPTIONS(OPTIONS),
    .help_column = 19,
    .notes = "A violation of a custom type, or under the self-spec, is classified in Line-Up's two levels: 'no serial\n"
             "order gives these results' or 'only orders that real time rules out give them' (JSON: \"level\").\n"
             "Serial nondeterminism of the adapter is unknown, with \"serial_nondeterminism\": true in JSON.\n"
             "\n"
             "exit: 0 all linearizable, 1 some violation, 2 bad usage or malformed input, 3 some unknown,\n"
             "      4 a file could not be read. When files disagree the first of 2, 4, 1, 3 applies.",
    .min_operands = 1,
    .max_operands = LF_CLI_MANY,
    .options_first = true,
    .missing = "no history file given (see --help)",
};
