/* `linfuzz check`: read history files, decide each, print one line (or JSON object) per file. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "linfuzz/check.h"
#include "commands.h"
#include "json_out.h"
#include "linfuzz/format.h"
#include "util/clock.h"
#include "util/parse.h"

static void help(FILE *out) {
    fprintf(out,
            "usage: linfuzz check [options] FILE...\n"
            "\n"
            "Decides whether each history (text .hist, compressed .lfz, or - for stdin) is linearizable.\n"
            "Prints 'FILE: linearizable', 'FILE: violation: <reason>' or 'FILE: unknown: <why>', followed by the\n"
            "deciding engine in brackets (' [monitor]', ' [hitting d=2]', ' [wgl]').\n"
            "\n"
            "options:\n"
            "  --engine E       auto (default), monitor, brute, wgl or hitting\n"
            "  --json           one JSON object per file instead of text lines\n"
            "  --witness        print a linearization order for linearizable histories\n"
            "  --timeout SEC    time budget per history for search engines (unknown when exceeded)\n"
            "  --max-memory MB  memory budget per history for search engines (unknown when exceeded)\n"
            "  --max-depth D    deepest hitting-family depth tried\n"
            "  -q, --quiet      print nothing; the exit code tells\n"
            "\n"
            "exit: 0 all linearizable, 1 some violation, 2 bad usage or malformed input, 3 some unknown,\n"
            "      4 a file could not be read. When files disagree the first of 2, 4, 1, 3 applies.\n");
}


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

static void print_witness(FILE *out, const lf_history *h, const lf_result *r) {
    char buf[200];
    for (size_t i = 0; i < r->witness_len; i++) {
        lf_op_describe_typed(buf, sizeof buf, h->type, &h->ops[r->witness[i]]);
        fprintf(out, "  %zu. op %" PRIu32 ": %s\n", i + 1, r->witness[i], buf);
    }
}

int cmd_check(int argc, char **argv) {
    lf_check_options opt;
    lf_check_options_default(&opt);
    bool json = false, quiet = false;
    int first_file = argc;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            help(stdout);
            return LF_EXIT_OK;
        } else if (!strcmp(a, "--json")) {
            json = true;
        } else if (!strcmp(a, "-q") || !strcmp(a, "--quiet")) {
            quiet = true;
        } else if (!strcmp(a, "--witness")) {
            opt.want_witness = true;
        } else if (!strcmp(a, "--engine") || !strcmp(a, "--timeout") || !strcmp(a, "--max-memory") ||
                   !strcmp(a, "--max-depth")) {
            if (i + 1 >= argc) {
                fprintf(stderr, "linfuzz check: %s needs a value\n", a);
                return LF_EXIT_USAGE;
            }
            const char *v = argv[++i];
            uint64_t u = 0;
            if (!strcmp(a, "--engine")) {
                if (!lf_engine_from_name(v, &opt.engine)) {
                    fprintf(stderr, "linfuzz check: unknown engine '%s' (auto, monitor, brute, wgl, hitting)\n", v);
                    return LF_EXIT_USAGE;
                }
            } else if (!strcmp(a, "--timeout")) {
                if (!lf_parse_seconds(v, 0.001, LF_MAX_SECONDS, &opt.timeout_s)) {
                    fprintf(stderr, "linfuzz check: --timeout takes a positive number of seconds, not '%s'\n", v);
                    return LF_EXIT_USAGE;
                }
            } else if (!strcmp(a, "--max-memory")) {
                if (!lf_parse_u64(v, 1, 1u << 30, &u)) {
                    fprintf(stderr, "linfuzz check: --max-memory takes a positive number of MB, not '%s'\n", v);
                    return LF_EXIT_USAGE;
                }
                opt.max_memory_bytes = (size_t)u << 20;
            } else {
                if (!lf_parse_u64(v, 1, 64, &u)) {
                    fprintf(stderr, "linfuzz check: --max-depth takes a depth in 1..64, not '%s'\n", v);
                    return LF_EXIT_USAGE;
                }
                opt.max_depth = (int)u;
            }
        } else if (!strcmp(a, "--")) {
            first_file = i + 1;
            break;
        } else if (a[0] == '-' && a[1] != '\0') {
            fprintf(stderr, "linfuzz check: unknown option '%s' (see --help)\n", a);
            return LF_EXIT_USAGE;
        } else {
            first_file = i;
            break;
        }
    }
    /* Options may also follow files; collect files and reject stray options among them. */
    if (first_file >= argc) {
        fprintf(stderr, "linfuzz check: no history file given (see --help)\n");
        return LF_EXIT_USAGE;
    }
    int exit_code = LF_EXIT_OK;
    for (int i = first_file; i < argc; i++) {
        const char *path = argv[i];
        lf_history h;
        char err[1024];
        int code;
        double t0 = (lf_now_s() * 1e3);
        lf_status st = lf_history_read(path, &h, err, sizeof err);
        if (st != LF_OK) {
            code = st == LF_ERR_IO ? LF_EXIT_IO : LF_EXIT_USAGE;
            fprintf(stderr, "linfuzz check: %s\n", err);
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
            lf_check(&h, &opt, &r);
            double ms = (lf_now_s() * 1e3) - t0;
            code = r.verdict == LF_LINEARIZABLE ? LF_EXIT_OK
                   : r.verdict == LF_VIOLATION  ? LF_EXIT_VIOLATION
                                                : LF_EXIT_UNKNOWN;
            if (quiet) {
            } else if (json) {
                printf("{\"file\":");
                lf_json_string(stdout, path);
                printf(",\"type\":\"%s\",\"ops\":%zu,\"verdict\":\"%s\",\"engine\":\"%s\"", lf_type_name(h.type),
                       h.n, lf_verdict_name(r.verdict), r.engine);
                if (r.depth >= 0) printf(",\"depth\":%d", r.depth);
                printf(",\"reason\":");
                lf_json_string(stdout, r.verdict == LF_LINEARIZABLE ? "" : r.reason);
                if (r.n_culprits) {
                    printf(",\"ops_in_conflict\":[");
                    for (size_t k = 0; k < r.n_culprits; k++) printf("%s%" PRIu32, k ? "," : "", r.culprits[k]);
                    printf("]");
                }
                if (r.witness_len) {
                    printf(",\"witness\":[");
                    for (size_t k = 0; k < r.witness_len; k++) printf("%s%" PRIu32, k ? "," : "", r.witness[k]);
                    printf("]");
                }
                if (r.prefix_len) {
                    printf(",\"linearizable_prefix\":[");
                    for (size_t k = 0; k < r.prefix_len; k++) printf("%s%" PRIu32, k ? "," : "", r.prefix[k]);
                    printf("]");
                }
                printf(",\"time_ms\":%.3f}\n", ms);
            } else if (r.verdict == LF_LINEARIZABLE) {
                printf("%s: linearizable", path);
                print_engine_tag(stdout, &r);
                if (opt.want_witness) print_witness(stdout, &h, &r);
            } else {
                printf("%s: %s: %s", path, lf_verdict_name(r.verdict), r.reason);
                print_engine_tag(stdout, &r);
            }
            lf_result_free(&r);
            lf_history_free(&h);
        }
        if (severity(code) > severity(exit_code)) exit_code = code;
    }
    if (fflush(stdout) != 0) return LF_EXIT_IO;
    return exit_code;
}
