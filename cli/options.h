/* The subcommands' command lines as tables (after libFuzzer's FuzzerFlags.def). Each subcommand describes itself
 * once, in an lf_cli_command: its usage, what it does, and every option with its value's kind, range, default
 * and help text. That one description drives the parsing (lf_cli_parse: the same error messages and exit
 * code 2 for every subcommand), `linfuzz CMD --help` (lf_cli_help) and the reference docs/cli.md
 * (lf_cli_markdown, `linfuzz help --markdown`; tests/cli/test_cli_docs.sh checks the file is what the command
 * prints), so that the three cannot disagree. */
#ifndef LINFUZZ_CLI_OPTIONS_H
#define LINFUZZ_CLI_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "linfuzz/history.h"

/* What an option's value is, and the type of the field it is stored in. */
typedef enum lf_opt_kind {
    LF_OPT_FLAG,     /* no value: the bool field becomes true */
    LF_OPT_STRING,   /* a non-empty string: const char * */
    LF_OPT_COUNT,    /* a whole number in [min, max] (util/parse.h): uint64_t */
    LF_OPT_SECONDS,  /* a duration in [min_s, max_s] seconds, a unit allowed (500ms, 10m): double */
    LF_OPT_FRACTION, /* a number in [0, 1]: double */
    LF_OPT_CHOICE,   /* one of the names in choices: its index, int */
    LF_OPT_PARSED,   /* whatever parse() accepts: parse's type */
} lf_opt_kind;

typedef struct lf_opt {
    const char *name;       /* "--timeout", or a short one alone ("-o") */
    const char *short_name; /* a second spelling written first in the help ("-q" of "--quiet"), or NULL */
    const char *value;      /* the value's name in the help ("SEC"); NULL for a flag */
    lf_opt_kind kind;
    size_t offset;          /* of its field in the subcommand's argument struct (LF_OPT_AT) */
    uint64_t min, max;      /* LF_OPT_COUNT */
    double min_s, max_s;    /* LF_OPT_SECONDS */
    const char *const *choices;                    /* LF_OPT_CHOICE: the names, NULL-terminated */
    bool (*parse)(const char *text, void *field); /* LF_OPT_PARSED */
    /* What a value must be, for "--level takes a zstd level in 1..19, not '0'"; NULL: said from the kind and
     * range (LF_OPT_PARSED must say it). */
    const char *expects;
    /* The default, as text: parsed like a given value before the command line is. NULL: the field keeps the
     * value the subcommand gave it. */
    const char *def;
    const char *help; /* its lines joined by '\n' (the help indents them) */
} lf_opt;

/* The offset of field f of struct T, which must be of type ctype (else a compile error): the only way a
 * table names a field, so that an option cannot write a value of the wrong type. */
#define LF_OPT_FIELD(T, f, ctype) (offsetof(T, f) + 0 * sizeof(char[_Generic(((T *)0)->f, ctype: 1, default: -1)]))
/* Kind and field of an option, for the initialiser of an lf_opt. */
#define LF_OPT_FLAG_AT(T, f) .kind = LF_OPT_FLAG, .offset = LF_OPT_FIELD(T, f, bool)
#define LF_OPT_STRING_AT(T, f) .kind = LF_OPT_STRING, .offset = LF_OPT_FIELD(T, f, const char *)
#define LF_OPT_COUNT_AT(T, f, lo, hi) .kind = LF_OPT_COUNT, .offset = LF_OPT_FIELD(T, f, uint64_t), .min = (lo), .max = (hi)
#define LF_OPT_SECONDS_AT(T, f, lo, hi)                                                                           \
    .kind = LF_OPT_SECONDS, .offset = LF_OPT_FIELD(T, f, double), .min_s = (lo), .max_s = (hi)
#define LF_OPT_FRACTION_AT(T, f) .kind = LF_OPT_FRACTION, .offset = LF_OPT_FIELD(T, f, double)
#define LF_OPT_CHOICE_AT(T, f, names) .kind = LF_OPT_CHOICE, .offset = LF_OPT_FIELD(T, f, int), .choices = (names)
#define LF_OPT_PARSED_AT(T, f, ctype, fn) .kind = LF_OPT_PARSED, .offset = LF_OPT_FIELD(T, f, ctype), .parse = (fn)

/* A number macro as text, for help texts and defaults: LF_OPT_STR(LF_LFZ_DEFAULT_LEVEL) is "3". */
#define LF_OPT_STR(x) LF_OPT_STR_(x)
#define LF_OPT_STR_(x) #x

/* No upper bound on the number of operands. */
#define LF_CLI_MANY ((unsigned)-1)

typedef struct lf_cli_command {
    const char *name;    /* "check" */
    const char *summary; /* one line, for `linfuzz --help` */
    int (*run)(int argc, char **argv);
    const char *usage;   /* after "usage: ", one line per form, joined by '\n' */
    const char *about;   /* what it does, between the usage and the options */
    const lf_opt *options;
    size_t n_options;
    unsigned help_column; /* where the options' help text starts in --help */
    const char *notes;    /* after the options (details, exit codes), or NULL */
    /* Operands (the arguments that are not options): how many. Options and operands may mix, unless
     * options_first: then the first operand ends the options (every later argument is an operand). `--` ends
     * the options anywhere. */
    unsigned min_operands, max_operands;
    bool options_first;
    const char *missing; /* the message when there are fewer than min_operands */
    bool help_on_missing; /* and the help follows it on stderr */
    /* The message when there are more than max_operands, with %s for the first extra one; NULL:
     * "unexpected argument '%s' (see --help)". */
    const char *extra;
} lf_cli_command;

#define LF_CLI_N_OPTIONS(table) (sizeof(table) / sizeof(table)[0])

/* What lf_cli_parse returns when the subcommand goes on (every other value is the exit status). */
#define LF_CLI_GO_ON (-1)

/* The operands, in the order given (they are moved to the front of argv: argv[1..n]). */
typedef struct lf_cli_operands {
    char **v;
    size_t n;
} lf_cli_operands;

/* Parses the command line of subcommand c (argv[0] is its name) into args, the struct its table's offsets
 * point into: the defaults of the table first, then the arguments. An option given twice keeps the last value.
 * Returns LF_CLI_GO_ON with the operands in *ops; else the exit status: LF_EXIT_OK after -h/--help (the help
 * on stdout), LF_EXIT_USAGE after a usage error, said on stderr as "linfuzz CMD: ...": an unknown option, an
 * option without its value, a value that is not what it takes, too few or too many operands. */
int lf_cli_parse(const lf_cli_command *c, int argc, char **argv, void *args, lf_cli_operands *ops);

/* `linfuzz CMD --help`. */
void lf_cli_help(FILE *out, const lf_cli_command *c);
/* What a value of o must be ("a whole number in 1..64"), into buf; "" for a flag. */
void lf_cli_expects(const lf_opt *o, char *buf, size_t len);

/* Every subcommand, in the order `linfuzz --help` lists them (cli_main.c). */
extern const lf_cli_command *const lf_cli_commands[];
extern const size_t lf_cli_n_commands;
/* The subcommand named name, or NULL. */
const lf_cli_command *lf_cli_find(const char *name);
/* The top-level usage (`linfuzz --help`). */
void lf_cli_usage(FILE *out);
/* docs/cli.md: the top-level usage and every subcommand's reference, in Markdown. */
void lf_cli_markdown(FILE *out);

/* Values several subcommands take (LF_OPT_PARSED), with what they say about them. */
bool lf_cli_parse_engine(const char *text, void *engine /* lf_engine */);
bool lf_cli_parse_spec_mode(const char *text, void *mode /* lf_spec_mode */);
/* --contract (docs/contracts.md): its text when given (NULL: not given), and the contract. */
typedef struct lf_cli_contract {
    const char *text;
    lf_contract contract;
} lf_cli_contract;
bool lf_cli_parse_contract(const char *text, void *contract /* lf_cli_contract */);
#define LF_CLI_CONTRACTS                                                                                        \
    "a contract: 'k-relaxed K', per-producer or bag, and/or lagging-, quiescent-, weak- or unchecked-full-empty "  \
    "(docs/contracts.md)"
#define LF_CLI_ENGINES "auto, monitor, brute, wgl or hitting"
#define LF_CLI_SPEC_MODES "auto, type or self"

extern const lf_cli_command lf_command_check, lf_command_convert, lf_command_stress, lf_command_adapters,
    lf_command_gen, lf_command_repro, lf_command_show, lf_command_minimize_test, lf_command_rootcause,
    lf_command_triage;

#endif
