/* Reading and writing an entry's `rootcause` section (findings/rootcause_section.h). The section is lines of "keyword value":
 *
 *   linfuzz-rootcause 1
 *   candidate                      starts the next candidate (rank 1, 2, ... in order)
 *   region LO HI FILE              a code region (lines LO..HI of FILE, the path last: it may hold spaces)
 *   exclusion METHOD METHOD        or a method-level exclusion
 *   function NAME                  optional: the region's function
 *   summary TEXT                   required: one line for a person
 *   forbids K N                    optional: K of N recorded passing runs would be forbidden by it
 *   validated SCHEDULES VIOLATIONS optional: what re-running with it enforced gave
 *   source TEXT                    the region's source lines, from LO on, one per line (at most HI-LO+1)
 *
 * Empty lines are ignored; anything else is an error (a later format changes the first line). */
#include "findings/rootcause_section.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void lf_rootcause_free(lf_rootcause *rc) {
    free(rc->causes);
    free(rc->text);
    free(rc->lines);
    memset(rc, 0, sizeof *rc);
}

/* A decimal number without sign or leading '+', at most max. The end of the number goes to *end. */
static bool number(const char *s, uint64_t max, uint64_t *out, const char **end) {
    if (*s < '0' || *s > '9') return false;
    uint64_t v = 0;
    for (; *s >= '0' && *s <= '9'; s++) {
        uint64_t d = (uint64_t)(*s - '0');
        if (v > (max - d) / 10) return false;
        v = v * 10 + d;
    }
    *out = v;
    *end = s;
    return true;
}

/* A word of method-name characters followed by a space or the end; its end goes to *end. */
static bool word(const char *s, const char **end) {
    const char *p = s;
    while ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') || *p == '_') p++;
    if (p == s || (*p && *p != ' ')) return false;
    *end = p;
    return true;
}

__attribute__((format(printf, 4, 5))) static lf_status fail(lf_rootcause *rc, char *err, size_t errlen,
                                                            const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
    lf_rootcause_free(rc);
    return LF_ERR_FORMAT;
}

static const char *check_candidate(const lf_report_cause *c) {
    if (!c->summary) return "no summary line";
    if (!c->file && !c->exclusion) return "neither a region nor an exclusion";
    if (c->exclusion && c->n_source) return "source lines for an exclusion";
    if (c->n_source > (size_t)(c->line_hi - c->line_lo) + 1) return "more source lines than the region has";
    if (c->validated && c->violations > c->schedules) return "more violations than schedules";
    if (c->forbids > c->passing) return "forbids more passing runs than were recorded";
    return NULL;
}

lf_status lf_rootcause_parse(const char *text, size_t len, lf_rootcause *rc, char *err, size_t errlen) {
    memset(rc, 0, sizeof *rc);
    if (memchr(text, 0, len)) return fail(rc, err, errlen, "rootcause: a NUL byte in the section");
    rc->text = malloc(len + 1);
    rc->causes = calloc(LF_ROOTCAUSE_MAX_CANDIDATES, sizeof *rc->causes);
    size_t lines_cap = 0;
    for (size_t i = 0; i < len; i++) lines_cap += text[i] == '\n';
    rc->lines = malloc((lines_cap + 1) * sizeof *rc->lines);
    if (!rc->text || !rc->causes || !rc->lines) {
        lf_rootcause_free(rc);
        snprintf(err, errlen, "rootcause: out of memory");
        return LF_ERR_NOMEM;
    }
    memcpy(rc->text, text, len);
    rc->text[len] = 0;
    size_t n_lines = 0, line_no = 0;
    /* source lines are stored in rc->lines; each candidate's start is remembered here and fixed up at the end
     * (rc->lines does not move: it is allocated once, large enough) */
    size_t source_first[LF_ROOTCAUSE_MAX_CANDIDATES];
    lf_report_cause *c = NULL;
    bool header = false;
    for (char *line = rc->text; line;) {
        char *nl = strchr(line, '\n');
        if (nl) *nl = 0;
        line_no++;
        size_t ll = strlen(line);
        if (ll > LF_ROOTCAUSE_MAX_LINE)
            return fail(rc, err, errlen, "rootcause line %zu: longer than %d bytes", line_no, LF_ROOTCAUSE_MAX_LINE);
        const char *end;
        uint64_t a, b;
        if (!header) {
            if (strcmp(line, LF_ROOTCAUSE_FORMAT) != 0)
                return fail(rc, err, errlen, "rootcause line 1: expected '%s'", LF_ROOTCAUSE_FORMAT);
            header = true;
        } else if (ll == 0) {
            /* ignored */
        } else if (!strcmp(line, "candidate")) {
            if (c) {
                const char *bad = check_candidate(c);
                if (bad) return fail(rc, err, errlen, "rootcause: candidate %u: %s", c->rank, bad);
            }
            if (rc->n == LF_ROOTCAUSE_MAX_CANDIDATES)
                return fail(rc, err, errlen, "rootcause line %zu: more than %d candidates", line_no,
                            LF_ROOTCAUSE_MAX_CANDIDATES);
            c = &rc->causes[rc->n];
            c->rank = (unsigned)++rc->n;
            source_first[rc->n - 1] = n_lines;
        } else if (!c) {
            return fail(rc, err, errlen, "rootcause line %zu: '%.40s' before the first 'candidate'", line_no, line);
        } else if (!strncmp(line, "region ", 7)) {
            if (c->file || c->exclusion || !number(line + 7, UINT32_MAX, &a, &end) || *end != ' ' ||
                !number(end + 1, UINT32_MAX, &b, &end) || *end != ' ' || !end[1] || a < 1 || b < a)
                return fail(rc, err, errlen, "rootcause line %zu: expected one 'region LO HI FILE' with 1 <= LO <= HI",
                            line_no);
            c->line_lo = (unsigned)a;
            c->line_hi = (unsigned)b;
            c->file = end + 1;
        } else if (!strncmp(line, "exclusion ", 10)) {
            const char *m1 = line + 10, *e1, *e2;
            if (c->file || c->exclusion || !word(m1, &e1) || *e1 != ' ' || !word(e1 + 1, &e2) || *e2)
                return fail(rc, err, errlen, "rootcause line %zu: expected one 'exclusion METHOD METHOD'", line_no);
            line[e1 - line] = 0;
            c->exclusion = true;
            c->methods[0] = m1;
            c->methods[1] = e1 + 1;
        } else if (!strncmp(line, "function ", 9) && !c->function && line[9]) {
            c->function = line + 9;
        } else if (!strncmp(line, "summary ", 8) && !c->summary && line[8]) {
            c->summary = line + 8;
        } else if (!strncmp(line, "forbids ", 8)) {
            if (c->passing || !number(line + 8, UINT64_MAX, &a, &end) || *end != ' ' ||
                !number(end + 1, UINT64_MAX, &b, &end) || *end || b == 0)
                return fail(rc, err, errlen, "rootcause line %zu: expected one 'forbids K N' with N > 0", line_no);
            c->forbids = a;
            c->passing = b;
        } else if (!strncmp(line, "validated ", 10)) {
            if (c->validated || !number(line + 10, UINT64_MAX, &a, &end) || *end != ' ' ||
                !number(end + 1, UINT64_MAX, &b, &end) || *end)
                return fail(rc, err, errlen, "rootcause line %zu: expected one 'validated SCHEDULES VIOLATIONS'",
                            line_no);
            c->validated = true;
            c->schedules = a;
            c->violations = b;
        } else if (!strncmp(line, "source ", 7) || !strcmp(line, "source")) {
            if (n_lines == LF_ROOTCAUSE_MAX_SOURCE_LINES)
                return fail(rc, err, errlen, "rootcause line %zu: more than %d source lines", line_no,
                            LF_ROOTCAUSE_MAX_SOURCE_LINES);
            rc->lines[n_lines++] = line[6] ? line + 7 : line + 6;
            c->n_source++;
        } else {
            return fail(rc, err, errlen, "rootcause line %zu: unknown or repeated line '%.40s'", line_no, line);
        }
        line = nl ? nl + 1 : NULL;
    }
    if (!header) return fail(rc, err, errlen, "rootcause: empty section");
    if (c) {
        const char *bad = check_candidate(c);
        if (bad) return fail(rc, err, errlen, "rootcause: candidate %u: %s", c->rank, bad);
    }
    for (size_t k = 0; k < rc->n; k++)
        if (rc->causes[k].n_source) rc->causes[k].source = &rc->lines[source_first[k]];
    return LF_OK;
}

/* Whether s can be a value of the format: no newline (and not empty when required). */
static bool one_line(const char *s) { return s && *s && !strchr(s, '\n') && strlen(s) <= LF_ROOTCAUSE_MAX_LINE - 16; }

char *lf_rootcause_format(const lf_report_cause *causes, size_t n) {
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f) return NULL;
    bool ok = n <= LF_ROOTCAUSE_MAX_CANDIDATES;
    fprintf(f, "%s\n", LF_ROOTCAUSE_FORMAT);
    for (size_t k = 0; ok && k < n; k++) {
        const lf_report_cause *c = &causes[k];
        const char *e;
        ok = one_line(c->summary) && !check_candidate(c) && (!c->function || one_line(c->function));
        if (!ok) break;
        fprintf(f, "candidate\n");
        if (c->exclusion) {
            ok = c->methods[0] && c->methods[1] && word(c->methods[0], &e) && !*e && word(c->methods[1], &e) && !*e;
            if (ok) fprintf(f, "exclusion %s %s\n", c->methods[0], c->methods[1]);
        } else {
            ok = one_line(c->file) && c->line_lo >= 1 && c->line_hi >= c->line_lo;
            if (ok) fprintf(f, "region %u %u %s\n", c->line_lo, c->line_hi, c->file);
        }
        if (c->function) fprintf(f, "function %s\n", c->function);
        fprintf(f, "summary %s\n", c->summary);
        if (c->passing) fprintf(f, "forbids %" PRIu64 " %" PRIu64 "\n", c->forbids, c->passing);
        if (c->validated) fprintf(f, "validated %" PRIu64 " %" PRIu64 "\n", c->schedules, c->violations);
        for (size_t l = 0; ok && l < c->n_source; l++) {
            ok = c->source[l] && !strchr(c->source[l], '\n') && strlen(c->source[l]) <= LF_ROOTCAUSE_MAX_LINE - 8;
            if (ok) fprintf(f, "source %s\n", c->source[l]);
        }
    }
    if (fclose(f) != 0) ok = false;
    if (!ok) {
        free(buf);
        return NULL;
    }
    return buf;
}

/* The op the first region of region candidate c runs in: "(in OP)" in its summary before the second region
 * (" and ") or the end (" must "), else the function's name (a region labelled without it runs in the op of
 * its function's name). */
static void first_region_op(const lf_report_cause *c, char *op, size_t len) {
    const char *s = c->summary ? c->summary : "", *end = s + strlen(s);
    const char *and_at = strstr(s, " and "), *must_at = strstr(s, " must ");
    if (and_at && and_at < end) end = and_at;
    if (must_at && must_at < end) end = must_at;
    const char *in = NULL;
    for (const char *p = s; (p = strstr(p, "(in ")) != NULL && p < end; p++) in = p;
    const char *close = in ? memchr(in, ')', (size_t)(end - in)) : NULL;
    if (in && close && close > in + 4)
        snprintf(op, len, "%.*s", (int)(close - in - 4), in + 4);
    else
        snprintf(op, len, "%s", c->function);
}

bool lf_rootcause_signature(const lf_rootcause *rc, char *out, size_t len) {
    for (size_t k = 0; rc && k < rc->n; k++) {
        const lf_report_cause *c = &rc->causes[k];
        if (!lf_report_cause_confirmed(c)) continue;
        if (c->exclusion) {
            bool swap = strcmp(c->methods[0], c->methods[1]) > 0;
            snprintf(out, len, "exclusion %s||%s", c->methods[swap], c->methods[!swap]);
        } else if (c->function && c->function[0]) { /* the op, not the function or the lines: see the header */
            char op[128];
            first_region_op(c, op, sizeof op);
            snprintf(out, len, "%s in %s", op, c->file);
        } else {
            snprintf(out, len, "region %s:%u-%u", c->file, c->line_lo, c->line_hi);
        }
        return true;
    }
    return false;
}
