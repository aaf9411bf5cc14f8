/* `linfuzz convert`: rewrite a history in another format (text .hist <-> compressed .lfz), by extension. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/commands.h"
#include "linfuzz/format.h"
#include "linfuzz/lfz.h"
#include "status_line.h"
#include "util/parse.h"

static void help(FILE *out) {
    fprintf(out,
            "usage: linfuzz convert [options] IN OUT\n"
            "\n"
            "Reads the history IN and writes it to OUT; each file's format follows its extension: '.lfz' is\n"
            "the compressed binary container, anything else the text format; '-' is standard input or output\n"
            "(text). The output is written atomically and is always canonical text or a one-section .lfz.\n"
            "\n"
            "options:\n"
            "  --section NAME   read the history section NAME of an .lfz container (default: the first)\n"
            "  --level N        zstd compression level for .lfz output, 1..19 (default %d)\n"
            "  -q, --quiet      no progress line on stderr (by default, for a file that takes a while: reading\n"
            "                   or writing, in place on a terminal, every 5 s elsewhere)\n"
            "\n"
            "exit: 0 converted, 2 bad usage or malformed input, 4 a file could not be read or written.\n",
            LF_LFZ_DEFAULT_LEVEL);
}

static int exit_code_of(lf_status s) {
    switch (s) {
    case LF_OK: return LF_EXIT_OK;
    case LF_ERR_FORMAT: return LF_EXIT_USAGE;
    case LF_ERR_IO:
    case LF_ERR_NOMEM: return LF_EXIT_IO;
    }
    return LF_EXIT_IO;
}

int lf_cmd_convert(int argc, char **argv) {
    const char *section = NULL;
    int level = LF_LFZ_DEFAULT_LEVEL;
    const char *files[2];
    int n_files = 0;
    bool options_done = false, quiet = false;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!options_done && (!strcmp(a, "--help") || !strcmp(a, "-h"))) {
            help(stdout);
            return LF_EXIT_OK;
        } else if (!options_done && (!strcmp(a, "-q") || !strcmp(a, "--quiet"))) {
            quiet = true;
        } else if (!options_done && (!strcmp(a, "--section") || !strcmp(a, "--level"))) {
            if (i + 1 >= argc) {
                fprintf(stderr, "linfuzz convert: %s needs a value\n", a);
                return LF_EXIT_USAGE;
            }
            const char *v = argv[++i];
            if (!strcmp(a, "--section")) {
                section = v;
            } else {
                uint64_t l;
                if (!lf_parse_u64(v, 1, 19, &l)) {
                    fprintf(stderr, "linfuzz convert: --level takes a zstd level in 1..19, not '%s'\n", v);
                    return LF_EXIT_USAGE;
                }
                level = (int)l;
            }
        } else if (!options_done && !strcmp(a, "--")) {
            options_done = true;
        } else if (!options_done && a[0] == '-' && a[1] != '\0') {
            fprintf(stderr, "linfuzz convert: unknown option '%s' (see --help)\n", a);
            return LF_EXIT_USAGE;
        } else if (n_files == 2) {
            fprintf(stderr, "linfuzz convert: too many arguments: expected IN OUT (see --help)\n");
            return LF_EXIT_USAGE;
        } else {
            files[n_files++] = a;
        }
    }
    if (n_files != 2) {
        fprintf(stderr, "linfuzz convert: expected IN OUT (see --help)\n");
        return LF_EXIT_USAGE;
    }
    const char *in = files[0], *out = files[1];
    if (section && lf_format_of_path(in) != LF_FMT_LFZ) {
        fprintf(stderr, "linfuzz convert: --section applies only to an .lfz input, not '%s'\n", in);
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
        fprintf(stderr, "linfuzz convert: %s\n", err);
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
        fprintf(stderr, "linfuzz convert: %s\n", err);
        /* The history was read fine, so any failure now is about the output file. */
        return LF_EXIT_IO;
    }
    return LF_EXIT_OK;
}
