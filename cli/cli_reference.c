/* docs/cli.md, the reference of the `linfuzz` command, written from the subcommands' tables (options.h) by
 * `linfuzz help --markdown`: the text of each `--help` as Markdown, the options as a table with what each takes
 * and its default. */
#include <ctype.h>
#include <string.h>

#include "options.h"

/* Writes the text of one line, Markdown special characters escaped (and '|' for a table cell) except inside
 * `code spans`, which stay code. */
static void md_line(FILE *out, const char *s, size_t len, bool cell) {
    size_t i = 0;
    /* what would start a block at the start of a line: a heading, a list item, a quote */
    if (len && s[0] == '#') {
        fputc('\\', out);
    } else if (len >= 2 && (s[0] == '-' || s[0] == '+') && s[1] == ' ') {
        fputc('\\', out);
    } else {
        while (i < len && isdigit((unsigned char)s[i])) i++;
        if (i > 0 && i < len && (s[i] == '.' || s[i] == ')')) {
            fwrite(s, 1, i, out);
            fputc('\\', out);
        } else {
            i = 0;
        }
    }
    for (; i < len; i++) {
        const char *close = s[i] == '`' ? memchr(s + i + 1, '`', len - i - 1) : NULL;
        if (close) { /* a code span, as it is ('|' escaped in a cell all the same, as GitHub wants) */
            for (; s + i <= close; i++) {
                if (cell && s[i] == '|') fputc('\\', out);
                fputc(s[i], out);
            }
            i--;
            continue;
        }
        /* ('_' inside a word, as in SERIAL_NONDETERMINISM, is no emphasis: left as it is) */
        bool in_word = s[i] == '_' && i > 0 && i + 1 < len && isalnum((unsigned char)s[i - 1]) &&
                       isalnum((unsigned char)s[i + 1]);
        if ((strchr("\\*_<>[]`", s[i]) && !in_word) || (cell && s[i] == '|')) fputc('\\', out);
        fputc(s[i], out);
    }
}

/* Writes help text as Markdown paragraphs, ending with a newline: blank lines part them; an indented line (a
 * list, a continuation) starts a new line of its own (a hard break) instead of running on. */
static void md_text(FILE *out, const char *text) {
    bool start = true, blank = false; /* nothing written yet; a blank line since the last line written */
    while (*text) {
        size_t len = strcspn(text, "\n");
        size_t indent = strspn(text, " ");
        if (indent >= len) {
            blank = !start;
        } else {
            fputs(start ? "" : blank ? "\n\n" : indent ? "\\\n" : "\n", out);
            md_line(out, text + indent, len - indent, false);
            start = blank = false;
        }
        text += len + (text[len] == '\n');
    }
    if (!start) fputc('\n', out);
}

/* Writes text in one table cell: its lines joined by spaces. */
static void md_cell(FILE *out, const char *text) {
    for (bool first = true; *text; first = false) {
        size_t len = strcspn(text, "\n");
        size_t indent = strspn(text, " ");
        if (indent > len) indent = len;
        if (!first) fputc(' ', out);
        md_line(out, text + indent, len - indent, true);
        text += len + (text[len] == '\n');
    }
}

static void md_command(FILE *out, const lf_cli_command *c) {
    fprintf(out, "## linfuzz %s\n\n", c->name);
    md_line(out, c->summary, strlen(c->summary), false);
    fputs(".\n\n```\nusage: ", out);
    for (const char *u = c->usage; *u;) {
        size_t len = strcspn(u, "\n");
        fprintf(out, "%s%.*s\n", u == c->usage ? "" : "       ", (int)len, u);
        u += len + (u[len] == '\n');
    }
    fputs("```\n\n", out);
    md_text(out, c->about);
    fputs("\n| option | takes | default | what it does |\n|---|---|---|---|\n", out);
    for (size_t k = 0; k < c->n_options; k++) {
        const lf_opt *o = &c->options[k];
        char sig[128], expects[256];
        snprintf(sig, sizeof sig, "%s%s%s%s%s", o->short_name ? o->short_name : "", o->short_name ? ", " : "",
                 o->name, o->value ? " " : "", o->value ? o->value : "");
        lf_cli_expects(o, expects, sizeof expects);
        if (o->kind == LF_OPT_STRING && !o->expects) expects[0] = '\0'; /* (its value's name says it) */
        fputs("| `", out);
        md_line(out, sig, strlen(sig), true); /* (no backtick inside: the whole is one code span) */
        fputs("` | ", out);
        md_cell(out, expects);
        fputs(" | ", out);
        if (o->def) {
            fputc('`', out);
            md_line(out, o->def, strlen(o->def), true);
            fputc('`', out);
        }
        fputs(" | ", out);
        md_cell(out, o->help);
        fputs(" |\n", out);
    }
    if (c->notes) {
        fputc('\n', out);
        md_text(out, c->notes);
    }
}

void lf_cli_markdown(FILE *out) {
    fputs("# The `linfuzz` command\n\n"
          "<!-- Written by `linfuzz help --markdown` from the subcommands' option tables (cli/cmd_*.c, cli/options.h):\n"
          "     change those, then `build/bin/linfuzz help --markdown > docs/cli.md`. tests/cli/test_cli_docs.sh checks\n"
          "     that this file is what the command prints. -->\n\n"
          "```\n",
          out);
    lf_cli_usage(out);
    fputs("```\n\n"
          "Each section below is what `linfuzz COMMAND --help` (or `linfuzz help COMMAND`) prints. Options and\n"
          "operands may come in any order, except that `check` takes its options before the files; `--` ends the\n"
          "options; an option given twice keeps its last value. A usage error (an unknown option, a missing or bad\n"
          "value, too few or too many operands) is said on stderr and exits 2.\n",
          out);
    for (size_t i = 0; i < lf_cli_n_commands; i++) {
        fputc('\n', out);
        md_command(out, lf_cli_commands[i]);
    }
}
