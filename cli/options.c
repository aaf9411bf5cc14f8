/* Parsing and --help from the subcommands' option tables (options.h). */
#include "options.h"

#include <inttypes.h>
#include <stdarg.h>
#include <string.h>

#include "cli/commands.h"
#include "linfuzz/check.h"
#include "runtime/adapter_check.h"
#include "util/parse.h"
#include "util/escape.h"

bool lf_cli_parse_engine(const char *text, void *engine) { return lf_engine_from_name(text, engine); }

bool lf_cli_parse_spec_mode(const char *text, void *mode) { return lf_spec_mode_from_name(text, mode); }

bool lf_cli_parse_contract(const char *text, void *contract) {
    lf_cli_contract *c = contract;
    char why[256];
    if (!lf_contract_parse(text, &c->contract, why, sizeof why)) return false;
    c->text = text;
    return true;
}

/* Appends to buf (at *n, of len bytes) what fmt says, as far as it fits. */
static void append(char *buf, size_t len, size_t *n, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static void append(char *buf, size_t len, size_t *n, const char *fmt, ...) {
    if (*n >= len) return;
    va_list ap;
    va_start(ap, fmt);
    int w = vsnprintf(buf + *n, len - *n, fmt, ap);
    va_end(ap);
    if (w > 0) *n += (size_t)w;
}

void lf_cli_expects(const lf_opt *o, char *buf, size_t len) {
    size_t n = 0;
    buf[0] = '\0';
    if (o->expects) {
        append(buf, len, &n, "%s", o->expects);
        return;
    }
    switch (o->kind) {
    case LF_OPT_FLAG:
    case LF_OPT_PARSED: /* (a parsed value says what it takes: tests/unit/test_cli_options.c) */
        break;
    case LF_OPT_STRING:
        append(buf, len, &n, "%s", o->value);
        break;
    case LF_OPT_COUNT:
        if (o->max != UINT64_MAX)
            append(buf, len, &n, "a whole number in %" PRIu64 "..%" PRIu64, o->min, o->max);
        else if (o->min)
            append(buf, len, &n, "a whole number, at least %" PRIu64, o->min);
        else
            append(buf, len, &n, "a whole number");
        break;
    case LF_OPT_SECONDS:
        append(buf, len, &n, "a duration (seconds, or with a unit: 500ms, 10m)");
        if (o->min_s > 0) append(buf, len, &n, ", at least %g s", o->min_s);
        if (o->max_s < LF_MAX_SECONDS) append(buf, len, &n, ", at most %g s", o->max_s);
        break;
    case LF_OPT_FRACTION:
        append(buf, len, &n, "a fraction in 0..1");
        break;
    case LF_OPT_CHOICE:
        for (size_t k = 0; o->choices[k]; k++)
            append(buf, len, &n, "%s%s", k == 0 ? "" : o->choices[k + 1] ? ", " : " or ", o->choices[k]);
        break;
    }
}

/* Stores the value text of o into its field; false when it is not what o takes. */
static bool set_value(const lf_opt *o, const char *text, void *args) {
    void *field = (char *)args + o->offset;
    switch (o->kind) {
    case LF_OPT_FLAG: *(bool *)field = true; return true;
    case LF_OPT_STRING:
        if (!text[0]) return false;
        *(const char **)field = text;
        return true;
    case LF_OPT_COUNT: return lf_parse_u64(text, o->min, o->max, field);
    case LF_OPT_SECONDS: return lf_parse_seconds(text, o->min_s, o->max_s, field);
    case LF_OPT_FRACTION: return lf_parse_fraction(text, field);
    case LF_OPT_CHOICE:
        for (int k = 0; o->choices[k]; k++)
            if (!strcmp(text, o->choices[k])) {
                *(int *)field = k;
                return true;
            }
        return false;
    case LF_OPT_PARSED: return o->parse(text, field);
    }
    return false;
}

static const lf_opt *find_option(const lf_cli_command *c, const char *arg) {
    for (size_t k = 0; k < c->n_options; k++) {
        const lf_opt *o = &c->options[k];
        if (!strcmp(arg, o->name) || (o->short_name && !strcmp(arg, o->short_name))) return o;
    }
    return NULL;
}

int lf_cli_parse(const lf_cli_command *c, int argc, char **argv, void *args, lf_cli_operands *ops) {
    char expects[256];
    for (size_t k = 0; k < c->n_options; k++) {
        const lf_opt *o = &c->options[k];
        if (o->def && !set_value(o, o->def, args)) { /* (every default parses: tests/unit/test_cli_options.c) */
            lf_esc_printf(stderr, "linfuzz %s: the default '%s' of %s does not parse\n", c->name, o->def, o->name);
            return LF_EXIT_USAGE;
        }
    }
    size_t n = 0;
    bool options_done = false;
    for (int i = 1; i < argc; i++) {
        char *a = argv[i];
        if (options_done || a[0] != '-' || a[1] == '\0') { /* an operand ("-" is one: standard input) */
            argv[1 + n++] = a; /* 1 + n <= i: nothing unread is overwritten */
            options_done = options_done || c->options_first;
            continue;
        }
        if (!strcmp(a, "--")) {
            options_done = true;
            continue;
        }
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            lf_cli_help(stdout, c);
            return LF_EXIT_OK;
        }
        const lf_opt *o = find_option(c, a);
        if (!o) {
            lf_esc_printf(stderr, "linfuzz %s: unknown option '%s' (see --help)\n", c->name, a);
            return LF_EXIT_USAGE;
        }
        if (o->kind == LF_OPT_FLAG) {
            set_value(o, NULL, args);
            continue;
        }
        lf_cli_expects(o, expects, sizeof expects);
        const char *v = i + 1 < argc ? argv[++i] : NULL;
        if (!v || (o->kind == LF_OPT_STRING && !v[0])) {
            lf_esc_printf(stderr, "linfuzz %s: %s needs a value: %s\n", c->name, a, expects);
            return LF_EXIT_USAGE;
        }
        if (!set_value(o, v, args)) {
            lf_esc_printf(stderr, "linfuzz %s: %s takes %s, not '%s'\n", c->name, a, expects, v);
            return LF_EXIT_USAGE;
        }
    }
    ops->v = argv + 1;
    ops->n = n;
    if (n < c->min_operands) {
        lf_esc_printf(stderr, "linfuzz %s: %s\n", c->name, c->missing);
        if (c->help_on_missing) lf_cli_help(stderr, c);
        return LF_EXIT_USAGE;
    }
    if (n > c->max_operands) {
        lf_esc_printf(stderr, "linfuzz %s: ", c->name);
        lf_esc_printf(stderr, c->extra ? c->extra : "unexpected argument '%s' (see --help)", ops->v[c->max_operands]);
        fputc('\n', stderr);
        return LF_EXIT_USAGE;
    }
    return LF_CLI_GO_ON;
}

/* "-q, --quiet" or "--timeout SEC". */
static void signature(const lf_opt *o, char *buf, size_t len) {
    snprintf(buf, len, "%s%s%s%s%s", o->short_name ? o->short_name : "", o->short_name ? ", " : "", o->name,
             o->value ? " " : "", o->value ? o->value : "");
}

/* Writes text's lines, each but the first after indent spaces. */
static void indented(FILE *out, const char *text, unsigned indent) {
    for (bool first = true; *text; first = false) {
        size_t len = strcspn(text, "\n");
        fprintf(out, "%*s%.*s\n", first ? 0 : (int)indent, "", (int)len, text);
        text += len + (text[len] == '\n');
    }
}

void lf_cli_help(FILE *out, const lf_cli_command *c) {
    fputs("usage: ", out);
    indented(out, c->usage, 7);
    fprintf(out, "\n%s\n\noptions:\n", c->about);
    for (size_t k = 0; k < c->n_options; k++) {
        const lf_opt *o = &c->options[k];
        char sig[128];
        signature(o, sig, sizeof sig);
        int width = (int)c->help_column - 2;
        if ((int)strlen(sig) + 2 > width) /* too long for the column: alone on its line */
            fprintf(out, "  %s\n%*s", sig, (int)c->help_column, "");
        else
            fprintf(out, "  %-*s", width, sig);
        indented(out, o->help, c->help_column);
    }
    if (c->notes) fprintf(out, "\n%s\n", c->notes);
}
