/* Subcommands of the `linfuzz` command line. Each returns the process exit status. */
#ifndef LINFUZZ_COMMANDS_H
#define LINFUZZ_COMMANDS_H

/* Exit codes shared by all subcommands. */
enum {
    LF_EXIT_OK = 0,         /* linearizable / success */
    LF_EXIT_VIOLATION = 1,  /* some violation found */
    LF_EXIT_USAGE = 2,      /* bad usage or malformed input */
    LF_EXIT_UNKNOWN = 3,    /* some history undecided */
    LF_EXIT_IO = 4,         /* a file could not be read or written */
    LF_EXIT_STUCK = 5,      /* a run got stuck: an operation never returned (runner/stuck_watch.h), or a controlled
                             * run deadlocked (sched/sched.h) */
};

/* Runs `linfuzz argv[1] argv[2...]`: the subcommand named by argv[1] (argv[0] is the program). */
int lf_cli_main(int argc, char **argv);
/* The file name of the program lf_cli_main runs in ("linfuzz", or a fuzz target such as "fuzz_my_queue",
 * which answers the same subcommands with its own adapters): the program that commands printed for the
 * user must name. */
const char *lf_cli_program(void);
/* Whether name is a subcommand of lf_cli_main. */
int lf_cli_is_command(const char *name);

int lf_cmd_check(int argc, char **argv);
int lf_cmd_gen(int argc, char **argv);
int lf_cmd_convert(int argc, char **argv);
int lf_cmd_stress(int argc, char **argv);
int lf_cmd_adapters(int argc, char **argv);
int lf_cmd_repro(int argc, char **argv);
int lf_cmd_show(int argc, char **argv);
int lf_cmd_triage(int argc, char **argv);
int lf_cmd_rootcause(int argc, char **argv);
int lf_cmd_minimize_test(int argc, char **argv);

#endif
