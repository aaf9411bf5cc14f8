/* `linfuzz gen`: write a random well-formed history (linearizable by construction unless --bad). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/commands.h"
#include "linfuzz/format.h"
#include "linfuzz/generate.h"
#include "options.h"
#include "status_line.h"
#include "util/parse.h"
#include "util/escape.h"

typedef struct gen_args {
    uint64_t threads, seed, values, capacity, bad;
    double peek, empty, pending;
    bool spread, quiet;
    int shape; /* SHAPES */
    const char *out;
    lf_cli_contract contract;
    double spurious; /* -1: not given */
} gen_args;

static const char *const SHAPES[] = {"uniform", "work-stealing", NULL};
_Static_assert(LF_GEN_UNIFORM == 0 && LF_GEN_WORK_STEALING == 1, "SHAPES in the order of lf_gen_shape");

int lf_cmd_gen(int argc, char **argv) {
    gen_args args = {.spurious = -1};
    lf_cli_operands positional;
    int status = lf_cli_parse(&lf_command_gen, argc, argv, &args, &positional);
    if (status != LF_CLI_GO_ON) return status;
    lf_gen_options o;
    lf_gen_options_default(&o);
    o.threads = (uint32_t)args.threads;
    o.seed = args.seed;
    o.peek = args.peek;
    o.empty = args.empty;
    o.pending = args.pending;
    o.capacity = args.capacity;
    o.values = args.values;
    o.shape = (lf_gen_shape)args.shape;
    o.bad = (size_t)args.bad;
    o.spread = args.spread;
    o.contract = args.contract.contract;
    o.spurious = args.spurious >= 0 ? args.spurious : o.contract.full_empty != LF_FULL_EMPTY_EXACT ? 0.05 : 0;
    const char *out_path = args.out;
    bool quiet = args.quiet;
    if (!lf_type_from_name(positional.v[0], strlen(positional.v[0]), &o.type)) {
        lf_esc_printf(stderr, "linfuzz gen: unknown type '%s' (see --help)\n", positional.v[0]);
        return LF_EXIT_USAGE;
    }
    uint64_t n;
    if (!lf_parse_u64(positional.v[1], 0, UINT32_MAX - 1, &n)) {
        lf_esc_printf(stderr, "linfuzz gen: N must be a number of ops in 0..%u, not '%s'\n", UINT32_MAX - 1,
                      positional.v[1]);
        return LF_EXIT_USAGE;
    }
    o.n_ops = (size_t)n;

    lf_history h;
    char err[512];
    lf_status_line *line = lf_status_start("linfuzz gen", quiet);
    lf_status_set(line, "generating %zu %s ops", o.n_ops, positional.v[0]);
    if (!lf_gen_history(&o, &h, err, sizeof err)) {
        lf_status_stop(line);
        lf_esc_printf(stderr, "linfuzz gen: %s\n", err);
        return LF_EXIT_USAGE;
    }
    lf_status_set(line, "writing %zu %s ops to %s", h.n, positional.v[0], out_path ? out_path : "standard output");
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

static const lf_opt OPTIONS[] = {
    {.name = "--threads", .value = "T", LF_OPT_COUNT_AT(gen_args, threads, 1, 1u << 20), .def = "4",
     .help = "number of threads (default 4)"},
    {.name = "--seed", .value = "S", LF_OPT_COUNT_AT(gen_args, seed, 0, UINT64_MAX), .def = "1",
     .help = "random seed (default 1)"},
    {.name = "--peek", .value = "P", LF_OPT_FRACTION_AT(gen_args, peek), .def = "0",
     .help = "fraction of observer ops: read, contains, peek, get (default 0)"},
    {.name = "--empty", .value = "E", LF_OPT_FRACTION_AT(gen_args, empty), .def = "0",
     .help = "chance that a remove/peek on an empty structure is kept with an empty result\n"
             "instead of becoming an insert (default 0)"},
    {.name = "--values", .value = "V", LF_OPT_COUNT_AT(gen_args, values, 1, LF_GEN_MAX_VALUES),
     .help = "draw values from 1..V (repeats make the history ambiguous); default: every\n"
             "inserted value is new (unambiguous, what the monitors decide). kv: keys 1..V"},
    {.name = "--pending", .value = "P", LF_OPT_FRACTION_AT(gen_args, pending), .def = "0",
     .help = "chance that a thread's last op is left pending (default 0)"},
    {.name = "--capacity", .value = "C", LF_OPT_COUNT_AT(gen_args, capacity, 1, UINT64_MAX),
     .help = "stack, queue, pqueue, deque: a bounded container of C values; an insert chosen\n"
             "while it is full answers full (writes a 'capacity C' line; default: unbounded)"},
    {.name = "--bad", .value = "K", LF_OPT_COUNT_AT(gen_args, bad, 0, UINT32_MAX),
     .help = "apply K random corruptions (change a result, swap two results, move an op\n"
             "earlier), at most one per op (K <= N). The history is then USUALLY but NOT ALWAYS\n"
             "non-linearizable."},
    {.name = "--contract", .value = "C", LF_OPT_PARSED_AT(gen_args, contract, lf_cli_contract, lf_cli_parse_contract),
     .expects = LF_CLI_CONTRACTS,
     .help = "stack, queue: the history's contract (docs/contracts.md; writes a 'contract C'\n"
             "line), e.g. 'k-relaxed 4', per-producer, bag, lagging-full-empty: a relaxed order is\n"
             "simulated (a remove takes a random value among those it allows); with lagging,\n"
             "quiescent, weak or unchecked full/empty answers, answers the contract allows are\n"
             "added on a thread of their own (see --spurious), and half of the --bad corruptions\n"
             "are answers it forbids"},
    {.name = "--spurious", .value = "P", LF_OPT_FRACTION_AT(gen_args, spurious),
     .help = "with such a contract: the chance of an added answer at each stamp (default 0.05)"},
    {.name = "--spread-priorities", LF_OPT_FLAG_AT(gen_args, spread),
     .help = "pqueue only: distinct priorities spread over [0, 2^40) instead of rising with\n"
             "time, inserts likely early and rare late, so about N/3 values are present at\n"
             "the peak"},
    {.name = "--shape", .value = "S", LF_OPT_CHOICE_AT(gen_args, shape, SHAPES), .def = "uniform",
     .help = "uniform (default: every op on a random thread) or work-stealing (deque only:\n"
             "thread 0 owns the deque and pushes/pops/peeks at the back, the other threads\n"
             "steal from the front; half the ops are the owner's)"},
    {.name = "-o", .value = "FILE", LF_OPT_STRING_AT(gen_args, out),
     .help = "write to FILE instead of standard output"},
    {.name = "--quiet", .short_name = "-q", LF_OPT_FLAG_AT(gen_args, quiet),
     .help = "no progress line on stderr (by default, for a history that takes a while: what it\n"
             "is doing, in place on a terminal, every 5 s elsewhere)"},
};

const lf_cli_command lf_command_gen = {
    .name = "gen",
    .summary = "write a random history (linearizable by construction unless --bad)",
    .run = lf_cmd_gen,
    .usage = "linfuzz gen TYPE N [options]",
    .about = "Writes a random well-formed history of N ops of TYPE (register, cas-register, set, stack, queue,\n"
             "pqueue, kv, counter, deque) to standard output, or to FILE (.hist text, .lfz compressed).\n"
             "The history is linearizable by construction: the sequential object is simulated and each op's\n"
             "interval is placed around its linearization point. The same seed gives the same history.",
    .options = OPTIONS,
    .n_options = LF_CLI_N_OPTIONS(OPTIONS),
    .help_column = 16,
    .min_operands = 2,
    .max_operands = 2,
    .missing = "need TYPE and N (see --help)",
};
