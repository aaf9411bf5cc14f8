/* `linfuzz gen`: write a random well-formed history (linearizable by construction unless --bad). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/commands.h"
#include "linfuzz/format.h"
#include "linfuzz/generate.h"
#include "status_line.h"
#include "util/parse.h"

static void help(FILE *out) {
    fprintf(out,
            "usage: linfuzz gen TYPE N [options]\n"
            "\n"
            "Writes a random well-formed history of N ops of TYPE (register, cas-register, set, stack, queue,\n"
            "pqueue, kv, counter, deque) to standard output, or to FILE (.hist text, .lfz compressed).\n"
            "The history is linearizable by construction: the sequential object is simulated and each op's\n"
            "interval is placed around its linearization point. The same seed gives the same history.\n"
            "\n"
            "options:\n"
            "  --threads T   number of threads (default 4)\n"
            "  --seed S      random seed (default 1)\n"
            "  --peek P      fraction of observer ops: read, contains, peek, get (default 0)\n"
            "  --empty E     chance that a remove/peek on an empty structure is kept with an empty result\n"
            "                instead of becoming an insert (default 0)\n"
            "  --values V    draw values from 1..V (repeats make the history ambiguous); default: every\n"
            "                inserted value is new (unambiguous, what the monitors decide). kv: keys 1..V\n"
            "  --pending P   chance that a thread's last op is left pending (default 0)\n"
            "  --capacity C  stack, queue, pqueue, deque: a bounded container of C values; an insert chosen\n"
            "                while it is full answers full (writes a 'capacity C' line; default: unbounded)\n"
            "  --bad K       apply K random corruptions (change a result, swap two results, move an op\n"
            "                earlier). The history is then USUALLY but NOT ALWAYS non-linearizable.\n"
            "  --spread-priorities\n"
            "                pqueue only: distinct priorities spread over [0, 2^40) instead of rising with\n"
            "                time, inserts likely early and rare late, so about N/3 values are present at\n"
            "                the peak\n"
            "  --shape S     uniform (default: every op on a random thread) or work-stealing (deque only:\n"
            "                thread 0 owns the deque and pushes/pops/peeks at the back, the other threads\n"
            "                steal from the front; half the ops are the owner's)\n"
            "  -o FILE       write to FILE instead of standard output\n"
            "  -q, --quiet   no progress line on stderr (by default, for a history that takes a while: what it\n"
            "                is doing, in place on a terminal, every 5 s elsewhere)\n");
}



int lf_cmd_gen(int argc, char **argv) {
    lf_gen_options o;
    lf_gen_options_default(&o);
    o.seed = 1;
    const char *out_path = NULL;
    const char *positional[2];
    int n_positional = 0;
    bool quiet = false;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            help(stdout);
            return LF_EXIT_OK;
        }
        if (!strcmp(a, "-q") || !strcmp(a, "--quiet")) {
            quiet = true;
            continue;
        }
        if (!strcmp(a, "--spread-priorities")) {
            o.spread = true;
            continue;
        }
        if (a[0] != '-' || a[1] == '\0') {
            if (n_positional == 2) {
                fprintf(stderr, "linfuzz gen: unexpected argument '%s' (see --help)\n", a);
                return LF_EXIT_USAGE;
            }
            positional[n_positional++] = a;
            continue;
        }
        if (i + 1 >= argc) {
            fprintf(stderr, "linfuzz gen: %s needs a value (see --help)\n", a);
            return LF_EXIT_USAGE;
        }
        const char *v = argv[++i];
        uint64_t u = 0;
        bool ok = true;
        if (!strcmp(a, "--threads")) {
            ok = lf_parse_u64(v, 1, 1u << 20, &u);
            o.threads = (uint32_t)u;
        } else if (!strcmp(a, "--seed")) {
            ok = lf_parse_u64(v, 0, UINT64_MAX, &o.seed);
        } else if (!strcmp(a, "--peek")) {
            ok = lf_parse_fraction(v, &o.peek);
        } else if (!strcmp(a, "--empty")) {
            ok = lf_parse_fraction(v, &o.empty);
        } else if (!strcmp(a, "--pending")) {
            ok = lf_parse_fraction(v, &o.pending);
        } else if (!strcmp(a, "--capacity")) {
            ok = lf_parse_u64(v, 1, UINT64_MAX, &o.capacity);
        } else if (!strcmp(a, "--values")) {
            ok = lf_parse_u64(v, 1, LF_GEN_MAX_VALUES, &o.values);
        } else if (!strcmp(a, "--shape")) {
            if (!strcmp(v, "uniform"))
                o.shape = LF_GEN_UNIFORM;
            else if (!strcmp(v, "work-stealing"))
                o.shape = LF_GEN_WORK_STEALING;
            else
                ok = false;
        } else if (!strcmp(a, "--bad")) {
            ok = lf_parse_u64(v, 0, SIZE_MAX, &u);
            o.bad = (size_t)u;
        } else if (!strcmp(a, "-o")) {
            out_path = v;
        } else {
            fprintf(stderr, "linfuzz gen: unknown option '%s' (see --help)\n", a);
            return LF_EXIT_USAGE;
        }
        if (!ok) {
            fprintf(stderr, "linfuzz gen: bad value '%s' for %s (see --help)\n", v, a);
            return LF_EXIT_USAGE;
        }
    }
    if (n_positional != 2) {
        fprintf(stderr, "linfuzz gen: need TYPE and N (see --help)\n");
        return LF_EXIT_USAGE;
    }
    if (!lf_type_from_name(positional[0], strlen(positional[0]), &o.type)) {
        fprintf(stderr, "linfuzz gen: unknown type '%s' (see --help)\n", positional[0]);
        return LF_EXIT_USAGE;
    }
    uint64_t n;
    if (!lf_parse_u64(positional[1], 0, UINT32_MAX - 1, &n)) {
        fprintf(stderr, "linfuzz gen: N must be a number of ops, not '%s'\n", positional[1]);
        return LF_EXIT_USAGE;
    }
    o.n_ops = (size_t)n;

    lf_history h;
    char err[512];
    lf_status_line *line = lf_status_start("linfuzz gen", quiet);
    lf_status_set(line, "generating %zu %s ops", o.n_ops, positional[0]);
    if (!lf_gen_history(&o, &h, err, sizeof err)) {
        lf_status_stop(line);
        fprintf(stderr, "linfuzz gen: %s\n", err);
        return LF_EXIT_USAGE;
    }
    lf_status_set(line, "writing %zu %s ops to %s", h.n, positional[0], out_path ? out_path : "standard output");
    int code = LF_EXIT_OK;
    if (out_path) {
        if (lf_history_write(out_path, &h, err, sizeof err) != LF_OK) {
            lf_status_printf(line, stderr, "linfuzz gen: %s\n", err);
            code = LF_EXIT_IO;
        }
    } else if (lf_text_write_stream(stdout, &h) != LF_OK || fflush(stdout) != 0) {
        lf_status_printf(line, stderr, "linfuzz gen: cannot write to standard output\n");
        code = LF_EXIT_IO;
    }
    lf_status_stop(line);
    lf_history_free(&h);
    return code;
}
