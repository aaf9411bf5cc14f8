/* `linfuzz convert`: rewrite a history in another format (text .hist <-> compressed .lfz), by extension. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/commands.h"
#include "linfuzz/format.h"
#include "linfuzz/lfz.h"
#include "options.h"
#include "status_line.h"
#include "util/escape.h"

static int exit_code_of(lf_status s) {
    switch (s) {
    case LF_OK: return LF_EXIT_OK;
    case LF_ERR_FORMAT: return LF_EXIT_USAGE;
    case LF_ERR_IO:
    case LF_ERR_NOMEM: return LF_EXIT_IO;
    }
    return LF_EXIT_IO;
}

typedef struct convert_args {
    const char *section;
    uint64_t level;
    bool quiet;
} convert_args;

int lf_cmd_convert(int argc, char **argv) {
    convert_args args = {0};
    lf_cli_operands files;
    int status = lf_cli_parse(&lf_command_convert, argc, argv, &args, &files);
    if (status != LF_CLI_GO_ON) return status;
    const char *section = args.section;
    int level = (int)args.level;
    bool quiet = args.quiet;
    const char *in = files.v[0], *out = files.v[1];
    if (section && lf_format_of_path(in) != LF_FMT_LFZ) {
        lf_esc_printf(stderr, "linfuzz convert: --section applies only to an .lfz input, not '%s'\n", in);
        return LF_EXIT_USAGE;
    }
    char err[1024];
    lf_history h;
    lf_status_line *line = lf_status_start("linfuzz convert", quiet);
    lf_status_set(line, "reading %s", in);
    lf_status s = section ? lf_lfz_read_history(in, section, &h, err, sizeof err)
                          : lf_history_read(in, &h, err, sizeof err);
    if (s != LF_OK) {
        lf_status_stop(line);
        lf_esc_printf(stderr, "linfuzz convert: %s\n", err);
        return exit_code_of(s);
    }
    lf_status_set(line, "writing %zu ops to %s", h.n, out);
    if (strcmp(out, "-") != 0 && lf_format_of_path(out) == LF_FMT_LFZ)
        s = lf_lfz_write_history(out, &h, level, err, sizeof err);
    else
        s = lf_history_write(out, &h, err, sizeof err);
    lf_status_stop(line);
    lf_history_free(&h);
    if (s != LF_OK) {
        lf_esc_printf(stderr, "linfuzz convert: %s\n", err);
        /* The history was read fine, so any failure now is about the output file. */
        return LF_EXIT_IO;
    }
    return LF_EXIT_OK;
}

static const lf_opt OPTIONS[] = {
    {.name = "--section", .value = "NAME", LF_OPT_STRING_AT(convert_args, section),
     .help = "read the history section NAME of an .lfz container (default: the first)"},
    {.name = "--level", .value = "N", LF_OPT_COUNT_AT(convert_args, level, 1, 19), .def = LF_OPT_STR(LF_LFZ_DEFAULT_LEVEL),
     .expects = "a zstd level in 1..19",
     .help = "zstd compression level for .lfz output, 1..19 (default " LF_OPT_STR(LF_LFZ_DEFAULT_LEVEL) ")"},
    {.name = "--quiet", .short_name = "-q", LF_OPT_FLAG_AT(convert_args, quiet),
     .help = "no progress line on stderr (by default, for a file that takes a while: reading\n"
             "or writing, in place on a terminal, every 5 s elsewhere)"},
};

const lf_cli_command lf_command_convert = {
    .name = "convert",
    .summary = "convert a history between text (.hist) and compressed (.lfz)",
    .run = lf_cmd_convert,
    .usage = "linfuzz convert [options] IN OUT",
    .about = "Reads the history IN and writes it to OUT; each file's format follows its extension: '.lfz' is\n"
             "the compressed binary container, anything else the text format; '-' is standard input or output\n"
             "(text). The output is written atomically and is always canonical text or a one-section .lfz.",
    .options = OPTIONS,
    .n_options = LF_CLI_N_OPTIONS(OPTIONS),
    .help_column = 19,
    .notes = "exit: 0 converted, 2 bad usage or malformed input, 4 a file could not be read or written.",
    .min_operands = 2,
    .max_operands = 2,
    .missing = "expected IN OUT (see --help)",
    .extra = "too many arguments: expected IN OUT (see --help)",
};
