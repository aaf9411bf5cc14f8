/* The subcommands' option tables (cli/options.h): the parser on a table of every kind (values, ranges, defaults,
 * operands, `--`, the messages and exit codes of every usage error), --help from a table, and every real
 * subcommand's table (names, defaults that parse and that its help states, what parsed values take) and its
 * Markdown reference (tables that stay tables). tests/cli/test_cli_docs.sh checks docs/cli.md against the
 * command. */
#include <ctype.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include "cli/commands.h"
#include "linfuzz/check.h"
#include "options.h"
#include "runtime/adapter_check.h"
#include "test_util.h"

typedef struct demo_args {
    bool flag, quiet;
    const char *name;
    uint64_t count;
    double seconds, fraction;
    int choice;
    lf_engine engine;
} demo_args;

static const char *const COLOURS[] = {"red", "green", "blue", NULL};

static const lf_opt DEMO_OPTIONS[] = {
    {.name = "--flag", LF_OPT_FLAG_AT(demo_args, flag), .help = "a flag"},
    {.name = "--quiet", .short_name = "-q", LF_OPT_FLAG_AT(demo_args, quiet), .help = "quiet"},
    {.name = "--name", .value = "NAME", LF_OPT_STRING_AT(demo_args, name), .help = "a name\nover two lines"},
    {.name = "--count", .value = "N", LF_OPT_COUNT_AT(demo_args, count, 1, 64), .def = "4", .help = "(default 4)"},
    {.name = "--seconds", .value = "S", LF_OPT_SECONDS_AT(demo_args, seconds, 0, 3600), .def = "10",
     .help = "(default 10)"},
    {.name = "--fraction", .value = "F", LF_OPT_FRACTION_AT(demo_args, fraction), .help = "a fraction"},
    {.name = "--colour", .value = "C", LF_OPT_CHOICE_AT(demo_args, choice, COLOURS), .def = "green",
     .help = "red, green (default) or blue"},
    {.name = "--engine", .value = "E", LF_OPT_PARSED_AT(demo_args, engine, lf_engine, lf_cli_parse_engine),
     .expects = LF_CLI_ENGINES, .help = "an engine"},
    {.name = "--a-very-long-option-name", .value = "VALUE", LF_OPT_STRING_AT(demo_args, name),
     .help = "too long for the column"},
};

static const lf_cli_command DEMO = {
    .name = "demo",
    .summary = "a demonstration",
    .usage = "linfuzz demo [options] A [B]\nlinfuzz demo --other",
    .about = "What it does.",
    .options = DEMO_OPTIONS,
    .n_options = LF_CLI_N_OPTIONS(DEMO_OPTIONS),
    .help_column = 18,
    .notes = "exit: 0 fine.",
    .min_operands = 1,
    .max_operands = 2,
    .missing = "which A?",
};

/* What one parse did: its status, args, operands, and what it wrote to stdout and stderr. */
typedef struct parsed {
    int status;
    demo_args args;
    const char *ops[8];
    size_t n_ops;
    char out[4096], err[1024];
} parsed;

/* Runs fn with stdout and stderr going into the buffers. */
static void read_back(FILE *f, char *buf, size_t len) {
    rewind(f);
    size_t n = fread(buf, 1, len - 1, f);
    buf[n] = '\0';
    fclose(f);
}

static int swap_fd(int fd, FILE *to) {
    fflush(fd == 1 ? stdout : stderr);
    int saved = dup(fd);
    dup2(fileno(to), fd);
    return saved;
}

static void restore_fd(int fd, int saved) {
    fflush(fd == 1 ? stdout : stderr);
    dup2(saved, fd);
    close(saved);
}

/* lf_cli_parse(c, "demo" args...) into *p (args start zeroed). */
static void parse_with(const lf_cli_command *c, parsed *p, const char *const *args, int n, void *target) {
    char *argv[32];
    if (n >= 32) {
        CHECK(!"at most 31 arguments");
        return;
    }
    argv[0] = (char *)c->name;
    for (int i = 0; i < n; i++) argv[i + 1] = (char *)args[i];
    FILE *out = tmpfile(), *err = tmpfile();
    int so = swap_fd(1, out), se = swap_fd(2, err);
    lf_cli_operands ops = {0};
    p->status = lf_cli_parse(c, n + 1, argv, target, &ops);
    restore_fd(1, so);
    restore_fd(2, se);
    read_back(out, p->out, sizeof p->out);
    read_back(err, p->err, sizeof p->err);
    p->n_ops = p->status == LF_CLI_GO_ON ? ops.n : 0;
    for (size_t i = 0; i < p->n_ops && i < 8; i++) p->ops[i] = ops.v[i];
}

#define PARSE(p, ...)                                                                                 \
    do {                                                                                              \
        static const char *const a_[] = {__VA_ARGS__};                                                \
        memset(&(p), 0, sizeof(p));                                                                   \
        parse_with(&DEMO, &(p), a_, (int)(sizeof a_ / sizeof a_[0]), &(p).args);                      \
    } while (0)

static void test_values(void) {
    parsed p;
    PARSE(p, "x");
    CHECK(p.status == LF_CLI_GO_ON && p.n_ops == 1 && !strcmp(p.ops[0], "x") && !p.err[0]);
    CHECK(p.args.count == 4 && p.args.seconds == 10 && p.args.choice == 1); /* the table's defaults */
    CHECK(!p.args.flag && !p.args.name && p.args.engine == LF_ENGINE_AUTO);

    PARSE(p, "--flag", "a", "-q", "--name", "N", "--count", "64", "b", "--seconds", "1.5m", "--fraction", "0.25",
          "--colour", "blue", "--engine", "wgl");
    CHECK(p.status == LF_CLI_GO_ON && !p.err[0]);
    CHECK(p.args.flag && p.args.quiet && !strcmp(p.args.name, "N") && p.args.count == 64);
    CHECK(p.args.seconds == 90 && p.args.fraction == 0.25 && p.args.choice == 2 && p.args.engine == LF_ENGINE_WGL);
    CHECK(p.n_ops == 2 && !strcmp(p.ops[0], "a") && !strcmp(p.ops[1], "b")); /* operands in order, among options */

    PARSE(p, "--count", "2", "--count", "3", "x"); /* given twice: the last */
    CHECK(p.status == LF_CLI_GO_ON && p.args.count == 3);
    PARSE(p, "-", "--", "--flag"); /* "-" is an operand; after --, options are operands */
    CHECK(p.status == LF_CLI_GO_ON && p.n_ops == 2 && !strcmp(p.ops[0], "-") && !strcmp(p.ops[1], "--flag"));
    CHECK(!p.args.flag);
    PARSE(p, "--count", "-1", "x"); /* a value that starts with '-' is the value */
    CHECK(p.status == LF_EXIT_USAGE);
}

/* Every usage error: exit 2 and one line on stderr that says what is wrong. */
static void test_errors(void) {
    static const struct {
        const char *args[4];
        int n;
        const char *err;
    } cases[] = {
        {{"--frob", "x"}, 2, "linfuzz demo: unknown option '--frob' (see --help)\n"},
        {{"x", "--count"}, 2, "linfuzz demo: --count needs a value: a whole number in 1..64\n"},
        {{"x", "--name", ""}, 3, "linfuzz demo: --name needs a value: NAME\n"},
        {{"--count", "0", "x"}, 3, "linfuzz demo: --count takes a whole number in 1..64, not '0'\n"},
        {{"--count", "0x10", "x"}, 3, "linfuzz demo: --count takes a whole number in 1..64, not '0x10'\n"},
        {{"--seconds", "2h", "x"}, 3,
         "linfuzz demo: --seconds takes a duration (seconds, or with a unit: 500ms, 10m), at most 3600 s, not '2h'\n"},
        {{"--fraction", "1.5", "x"}, 3, "linfuzz demo: --fraction takes a fraction in 0..1, not '1.5'\n"},
        {{"--colour", "pink", "x"}, 3, "linfuzz demo: --colour takes red, green or blue, not 'pink'\n"},
        {{"--engine", "magic", "x"}, 3,
         "linfuzz demo: --engine takes auto, monitor, brute, wgl or hitting, not 'magic'\n"},
        {{"--flag"}, 1, "linfuzz demo: which A?\n"},
        {{"a", "b", "c"}, 3, "linfuzz demo: unexpected argument 'c' (see --help)\n"},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        parsed p;
        memset(&p, 0, sizeof p);
        parse_with(&DEMO, &p, cases[k].args, cases[k].n, &p.args);
        CHECKF(p.status == LF_EXIT_USAGE && !strcmp(p.err, cases[k].err) && !p.out[0], "case %zu: %d '%s'", k,
               p.status, p.err);
    }
    /* the subcommand's own message for extra operands, and the help after a missing one */
    lf_cli_command c = DEMO;
    c.extra = "one A at a time ('%s' is extra)";
    c.help_on_missing = true;
    parsed p;
    memset(&p, 0, sizeof p);
    parse_with(&c, &p, (const char *const[]){"a", "b", "c"}, 3, &p.args);
    CHECK(p.status == LF_EXIT_USAGE && !strcmp(p.err, "linfuzz demo: one A at a time ('c' is extra)\n"));
    memset(&p, 0, sizeof p);
    parse_with(&c, &p, NULL, 0, &p.args);
    CHECK(p.status == LF_EXIT_USAGE && !strncmp(p.err, "linfuzz demo: which A?\nusage: linfuzz demo", 35));
    /* options first: the first operand ends the options */
    c.options_first = true;
    c.max_operands = LF_CLI_MANY;
    memset(&p, 0, sizeof p);
    parse_with(&c, &p, (const char *const[]){"--flag", "a", "--name", "b"}, 4, &p.args);
    CHECK(p.status == LF_CLI_GO_ON && p.args.flag && !p.args.name && p.n_ops == 3 && !strcmp(p.ops[1], "--name"));
}

static void test_help(void) {
    parsed p;
    PARSE(p, "--frob", "--help"); /* arguments are read in order: the error first */
    CHECK(p.status == LF_EXIT_USAGE && !p.out[0]);
    PARSE(p, "x", "-h", "--frob");
    CHECK(p.status == LF_EXIT_OK && !p.err[0]);
    const char *want = "usage: linfuzz demo [options] A [B]\n"
                       "       linfuzz demo --other\n"
                       "\n"
                       "What it does.\n"
                       "\n"
                       "options:\n"
                       "  --flag          a flag\n"
                       "  -q, --quiet     quiet\n"
                       "  --name NAME     a name\n"
                       "                  over two lines\n"
                       "  --count N       (default 4)\n"
                       "  --seconds S     (default 10)\n"
                       "  --fraction F    a fraction\n"
                       "  --colour C      red, green (default) or blue\n"
                       "  --engine E      an engine\n"
                       "  --a-very-long-option-name VALUE\n"
                       "                  too long for the column\n"
                       "\n"
                       "exit: 0 fine.\n";
    CHECKF(!strcmp(p.out, want), "help:\n%s", p.out);
}

/* Whether word occurs in text with no letter or digit on either side. */
static bool has_word(const char *text, const char *word) {
    size_t n = strlen(word);
    for (const char *s = strstr(text, word); s; s = strstr(s + 1, word)) {
        bool before = s > text && (isalnum((unsigned char)s[-1]) || s[-1] == '_');
        bool after = isalnum((unsigned char)s[n]) || s[n] == '_';
        if (!before && !after) return true;
    }
    return false;
}

/* Every subcommand's table: well-formed, its defaults parse and are what its help says. */
static void test_commands(void) {
    CHECK(lf_cli_n_commands == 10);
    for (size_t i = 0; i < lf_cli_n_commands; i++) {
        const lf_cli_command *c = lf_cli_commands[i];
        CHECK(lf_cli_find(c->name) == c && lf_cli_is_command(c->name) && c->run);
        CHECKF(c->summary && c->usage && c->about && (c->min_operands == 0 || c->missing), "%s", c->name);
        CHECKF(!strncmp(c->usage, "linfuzz ", 8) && !strncmp(c->usage + 8, c->name, strlen(c->name)), "%s", c->name);
        for (size_t k = 0; k < c->n_options; k++) {
            const lf_opt *o = &c->options[k];
            CHECKF(o->name[0] == '-' && o->help && o->help[0], "%s %s", c->name, o->name);
            CHECKF((o->kind == LF_OPT_FLAG) == (o->value == NULL), "%s %s: a value's name iff it takes one", c->name,
                   o->name);
            CHECKF(o->kind != LF_OPT_PARSED || o->expects, "%s %s: says what it takes", c->name, o->name);
            CHECKF(strcmp(o->name, "--help") && strcmp(o->name, "-h") && (!o->short_name || strcmp(o->short_name, "-h")),
                   "%s %s", c->name, o->name);
            for (size_t j = 0; j < k; j++) {
                const lf_opt *q = &c->options[j];
                CHECKF(strcmp(o->name, q->name) && (!o->short_name || !q->short_name || strcmp(o->short_name, q->short_name)),
                       "%s: %s twice", c->name, o->name);
            }
            /* a default the help does not state is a default the user cannot know */
            CHECKF(!o->def || has_word(o->help, o->def), "%s %s: its help does not say its default '%s'", c->name,
                   o->name, o->def);
            CHECKF(!o->def || o->kind != LF_OPT_FLAG, "%s %s", c->name, o->name);
        }
        /* the defaults parse: no error with as many operands as it needs */
        _Alignas(max_align_t) char args[4096];
        memset(args, 0, sizeof args);
        const char *const ops[] = {"a", "b", "c"};
        parsed p;
        memset(&p, 0, sizeof p);
        for (size_t k = 0; k < c->n_options; k++) CHECK(c->options[k].offset < sizeof args - 64);
        parse_with(c, &p, ops, (int)c->min_operands, args);
        CHECKF(p.status == LF_CLI_GO_ON && !p.err[0], "%s: %s", c->name, p.err);
    }
}

/* The names the shared parsers accept are the names the tables say they take. */
static void test_shared_values(void) {
    size_t names = 0;
    for (int e = 0; strcmp(lf_engine_name((lf_engine)e), "?") != 0; e++, names++) {
        lf_engine got;
        CHECK(has_word(LF_CLI_ENGINES, lf_engine_name((lf_engine)e)));
        CHECK(lf_cli_parse_engine(lf_engine_name((lf_engine)e), &got) && got == (lf_engine)e);
    }
    CHECK(names == 5); /* LF_CLI_ENGINES names five */
    lf_spec_mode m;
    CHECK(lf_cli_parse_spec_mode("auto", &m) && m == LF_SPEC_AUTO && lf_cli_parse_spec_mode("type", &m) &&
          m == LF_SPEC_TYPE && lf_cli_parse_spec_mode("self", &m) && m == LF_SPEC_SELF &&
          !lf_cli_parse_spec_mode("other", &m));
}

/* The reference: a section per subcommand, a row per option, and every row five cells ('|' in a cell escaped). */
static void test_markdown(void) {
    char *md = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&md, &len);
    lf_cli_markdown(f);
    fclose(f);
    for (size_t i = 0; i < lf_cli_n_commands; i++) {
        const lf_cli_command *c = lf_cli_commands[i];
        char want[160];
        snprintf(want, sizeof want, "\n## linfuzz %s\n", c->name);
        CHECKF(strstr(md, want), "no section %s", c->name);
        for (size_t k = 0; k < c->n_options; k++) {
            snprintf(want, sizeof want, "| `%s%s%s", c->options[k].short_name ? c->options[k].short_name : "",
                     c->options[k].short_name ? ", " : "", c->options[k].name);
            CHECKF(strstr(md, want), "no row for %s %s", c->name, c->options[k].name);
        }
    }
    size_t rows = 0;
    for (const char *line = md; *line;) {
        size_t n = strcspn(line, "\n");
        if (line[0] == '|') {
            int bars = 0;
            for (size_t k = 0; k < n; k++) bars += line[k] == '|' && (k == 0 || line[k - 1] != '\\');
            CHECKF(bars == 5, "%.*s", (int)n, line);
            rows++;
        }
        line += n + (line[n] == '\n');
    }
    CHECK(rows > 2 * lf_cli_n_commands);
    CHECK(strstr(md, "`--by signature\\|variant\\|bucket\\|shape`")); /* escaped in a code span, as GitHub wants */
    CHECK(len > 0 && md[len - 1] == '\n' && md[len - 2] != '\n'); /* one newline at the end */
    free(md);
}

int main(void) {
    test_values();
    test_errors();
    test_help();
    test_commands();
    test_shared_values();
    test_markdown();
    TEST_DONE();
}
