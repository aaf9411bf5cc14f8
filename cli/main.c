/* `linfuzz`: the command line (every subcommand is in the linfuzz_cli library: cli_main.c, cmd_*.c). */
#include "cli/commands.h"

int main(int argc, char **argv) { return lf_cli_main(argc, argv); }
