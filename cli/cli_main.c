/* `linfuzz` subcommand dispatch. Dispatches to one subcommand per file (cmd_*.c); lf_cli_main is also what a fuzz
 * target runs when its first argument is a subcommand (fuzz/fuzz_adapter.c). */
#include <stdio.h>
#include <string.h>

#include "cli/commands.h"
#include "linfuzz/version.h"
#include "runtime/stuck_watch.h"

_Static_assert(LF_EXIT_STUCK == LF_STUCK_EXIT_STATUS, "one exit code for STUCK");

typedef struct {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *summary;
} command;

static const command COMMANDS[] = {
    {"check", lf_cmd_check, "check history files for linearizability"},
    {"convert", lf_cmd_convert, "convert a history between text (.hist) and compressed (.lfz)"},
    {"stress", lf_cmd_stress, "fuzz an adapter with random concurrent workloads until a violation"},
    {"adapters", lf_cmd_adapters, "list the data structures under test"},
    {"gen", lf_cmd_gen, "write a random history (linearizable by construction unless --bad)"},
    {"repro", lf_cmd_repro, "re-check a violation entry and re-run its workload"},
    {"show", lf_cmd_show, "print the report of a violation entry (or its histories, metadata, input)"},
    {"minimize-test", lf_cmd_minimize_test, "minimize the test of a controlled-mode entry by re-running it (keeps the bug)"},
    {"rootcause", lf_cmd_rootcause, "name the code that must be atomic for a violation entry (validated by re-runs)"},
    {"triage", lf_cmd_triage, "group violation entries and fuzzer crash inputs by signature, one line per bug"},
};
#define N_COMMANDS (sizeof COMMANDS / sizeof COMMANDS[0])

int lf_cli_is_command(const char *name) {
    for (size_t i = 0; i < N_COMMANDS; i++)
        if (!strcmp(name, COMMANDS[i].name)) return 1;
    return 0;
}

static void usage(FILE *out) {
    fprintf(out, "usage: linfuzz <command> [options] [args]    (linfuzz --version: the version)\n\ncommands:\n");
    for (size_t i = 0; i < N_COMMANDS; i++) fprintf(out, "  %-10s %s\n", COMMANDS[i].name, COMMANDS[i].summary);
    fprintf(out, "\n'linfuzz <command> --help' describes a command. Exit codes: 0 ok/linearizable, 1 violation,\n"
                 "2 bad usage or malformed input, 3 unknown, 4 I/O error, 5 stuck (an operation never returned).\n");
}

static const char *program = "linfuzz";

const char *lf_cli_program(void) { return program; }

int lf_cli_main(int argc, char **argv) {
    if (argc >= 1 && argv[0] && *argv[0]) {
        const char *slash = strrchr(argv[0], '/');
        program = slash ? slash + 1 : argv[0];
    }
    if (argc < 2) {
        usage(stderr);
        return LF_EXIT_USAGE;
    }
    if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
        usage(stdout);
        return LF_EXIT_OK;
    }
    if (!strcmp(argv[1], "--version")) {
        printf("linfuzz %s\n", LF_VERSION);
        return LF_EXIT_OK;
    }
    for (size_t i = 0; i < N_COMMANDS; i++)
        if (!strcmp(argv[1], COMMANDS[i].name)) return COMMANDS[i].run(argc - 1, argv + 1);
    fprintf(stderr, "linfuzz: unknown command '%s'\n\n", argv[1]);
    usage(stderr);
    return LF_EXIT_USAGE;
}
