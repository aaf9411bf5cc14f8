/* `linfuzz` subcommand dispatch. Dispatches to one subcommand per file (cmd_*.c, each described by its table:
 * options.h); lf_cli_main is also what a fuzz target runs when its first argument is a subcommand
 * (fuzz/fuzz_adapter.c). */
#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "cli/commands.h"
#include "linfuzz/version.h"
#include "options.h"
#include "runtime/stuck_watch.h"
#include "util/escape.h"

_Static_assert(LF_EXIT_STUCK == LF_STUCK_EXIT_STATUS, "one exit code for STUCK");

const lf_cli_command *const lf_cli_commands[] = {
    &lf_command_check, &lf_command_convert, &lf_command_stress,         &lf_command_adapters, &lf_command_gen,
    &lf_command_repro, &lf_command_show,    &lf_command_minimize_test, &lf_command_rootcause, &lf_command_triage,
};
const size_t lf_cli_n_commands = sizeof lf_cli_commands / sizeof lf_cli_commands[0];

const lf_cli_command *lf_cli_find(const char *name) {
    for (size_t i = 0; i < lf_cli_n_commands; i++)
        if (!strcmp(name, lf_cli_commands[i]->name)) return lf_cli_commands[i];
    return NULL;
}

int lf_cli_is_command(const char *name) { return lf_cli_find(name) != NULL; }

void lf_cli_usage(FILE *out) {
    fprintf(out, "usage: linfuzz <command> [options] [args]    (linfuzz --version: the version)\n\ncommands:\n");
    for (size_t i = 0; i < lf_cli_n_commands; i++)
        fprintf(out, "  %-10s %s\n", lf_cli_commands[i]->name, lf_cli_commands[i]->summary);
    fprintf(out, "\n'linfuzz <command> --help' describes a command. Exit codes: 0 ok/linearizable, 1 violation,\n"
                 "2 bad usage or malformed input, 3 unknown, 4 I/O error, 5 stuck (an operation never returned).\n");
}

/* `linfuzz help`: the usage; `linfuzz help CMD`: CMD --help; `linfuzz help --markdown`: docs/cli.md. */
static int help(int argc, char **argv) {
    if (argc < 3) {
        lf_cli_usage(stdout);
        return LF_EXIT_OK;
    }
    const lf_cli_command *c = lf_cli_find(argv[2]);
    if (argc == 3 && !strcmp(argv[2], "--markdown")) {
        lf_cli_markdown(stdout);
    } else if (argc == 3 && c) {
        lf_cli_help(stdout, c);
    } else {
        lf_esc_printf(stderr, "linfuzz help: expected a command or --markdown, not '%s'\n\n", argv[argc == 3 ? 2 : 3]);
        lf_cli_usage(stderr);
        return LF_EXIT_USAGE;
    }
    return LF_EXIT_OK; /* (a failure to write it: lf_cli_main) */
}

/* The exit status of a command that returned status, once its output is out: a result that could not be
 * written (a full disk, a closed pipe, /dev/full) is a failure to write, 4, whatever the result was. */
static int output_written(const char *command, int status) {
    int why = fflush(stdout) != 0 ? errno : 0;
    bool out_failed = why || ferror(stdout);
    if (out_failed && status != LF_EXIT_IO) /* (a command that saw it said so already) */
        lf_esc_printf(stderr, "linfuzz %s: cannot write to standard output: %s\n", command,
                      why ? strerror(why) : "a write failed");
    bool err_failed = fflush(stderr) != 0 || ferror(stderr);
    return out_failed || err_failed ? LF_EXIT_IO : status;
}

static const char *program = "linfuzz";

const char *lf_cli_program(void) { return program; }

int lf_cli_main(int argc, char **argv) {
    if (argc >= 1 && argv[0] && *argv[0]) {
        const char *slash = strrchr(argv[0], '/');
        program = slash ? slash + 1 : argv[0];
    }
    if (argc < 2) {
        lf_cli_usage(stderr);
        return LF_EXIT_USAGE;
    }
    if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help"))
        return output_written("help", help(argc, argv));
    if (!strcmp(argv[1], "--version")) {
        printf("linfuzz %s\n", LF_VERSION);
        return output_written("--version", LF_EXIT_OK);
    }
    /* A file-size limit (ulimit -f) makes a write fail with EFBIG, reported with exit 4, instead of killing
     * the command (SIGXFSZ): the rule for every failure to write. */
    signal(SIGXFSZ, SIG_IGN);
    const lf_cli_command *c = lf_cli_find(argv[1]);
    if (c) return output_written(c->name, c->run(argc - 1, argv + 1));
    lf_esc_printf(stderr, "linfuzz: unknown command '%s'\n\n", argv[1]);
    lf_cli_usage(stderr);
    return LF_EXIT_USAGE;
}
