/* An entry's HTML page: its facts, commands and histories handed to lf_report_html_write (entry_html.h). */
#include "findings/entry_html.h"

#include <stdlib.h>
#include <string.h>

#include "findings/capture.h"
#include "findings/rootcause_section.h"
#include "findings/crash.h"
#include "findings/stuck.h"
#include "findings/triage.h"
#include "linfuzz/format.h"

#define MAX_FACTS 12
#define COMMAND_MAX 8800

/* Adds a (label, value) row when there is a value. */
static void add_fact(const char *facts[][2], size_t *n, const char *label, const char *value) {
    if (!value || *n >= MAX_FACTS) return;
    facts[*n][0] = label;
    facts[*n][1] = value;
    (*n)++;
}

lf_status lf_entry_write_html(FILE *f, const lf_violation_entry *e, const char *path, const char *bin,
                              const lf_check_options *check, char *err, size_t errlen) {
    const char *adapter = lf_entry_meta(e, "adapter"), *format = lf_entry_meta(e, "workload_format");
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;

    /* the header */
    char saved[160], sizes[96];
    const char *created = lf_entry_meta(e, "created"), *version = lf_entry_meta(e, "linfuzz_version");
    const char *expected = lf_entry_meta(e, "expected");
    snprintf(saved, sizeof saved, "%s by linfuzz %s", created ? created : "?", version ? version : "?");
    const char *category = lf_entry_category(e); /* serial nondeterminism: no violation, its serial evidence */
    snprintf(sizes, sizeof sizes, "%zu ops recorded, %zu in the %s", e->full.n, e->minimized.n,
             category ? "serial evidence" : "minimized history");
    const char *facts[MAX_FACTS][2];
    size_t n_facts = 0;
    add_fact(facts, &n_facts, "entry", path);
    add_fact(facts, &n_facts, "adapter", adapter);
    add_fact(facts, &n_facts, "adapter claims", expected);
    add_fact(facts, &n_facts, "found by", lf_entry_meta(e, "origin"));
    add_fact(facts, &n_facts, "saved", saved);
    add_fact(facts, &n_facts, "workload", lf_entry_meta(e, "workload"));
    add_fact(facts, &n_facts, "size", sizes);
    add_fact(facts, &n_facts, "minimized", lf_entry_meta(e, "minimize"));
    add_fact(facts, &n_facts, "verdicts", e->verdict);
    /* a STUCK entry (findings/stuck.h): the ops that never returned and why they may wait */
    char *why_stuck = NULL;
    size_t why_len = 0;
    if (lf_entry_is_stuck(e)) {
        FILE *wf = open_memstream(&why_stuck, &why_len);
        if (wf) {
            lf_stuck_write_why(wf, e);
            fclose(wf);
        }
        add_fact(facts, &n_facts, "stuck", why_stuck);
    }
    if (lf_entry_is_crash(e)) add_fact(facts, &n_facts, "crash", lf_entry_meta(e, "reason"));
    add_fact(facts, &n_facts, "bucket", lf_entry_meta(e, "bucket"));
    const char *spec = lf_entry_meta(e, "spec");
    add_fact(facts, &n_facts, "checked against", spec && !strcmp(spec, "self") ? "the adapter's own serial behaviour"
                                                                                : NULL);

    /* the commands */
    char (*cmd)[COMMAND_MAX] = calloc(4, sizeof *cmd);
    const char *commands[4];
    size_t n_cmd = 0;
    char *history_text = NULL;
    size_t text_len = 0;
    FILE *tf = open_memstream(&history_text, &text_len);
    if (!cmd || !tf || lf_text_write_stream(tf, &e->minimized) != LF_OK) {
        if (tf) fclose(tf);
        free(history_text);
        free(cmd);
        free(why_stuck);
        snprintf(err, errlen, "%s: out of memory", path);
        return LF_ERR_NOMEM;
    }
    fclose(tf);
    snprintf(cmd[n_cmd], COMMAND_MAX, "%slinfuzz repro ", bin);
    lf_shell_append_quoted(cmd[n_cmd++], COMMAND_MAX, path);
    snprintf(cmd[n_cmd], COMMAND_MAX, "%slinfuzz show ", bin);
    lf_shell_append_quoted(cmd[n_cmd++], COMMAND_MAX, path);
    snprintf(cmd[n_cmd], COMMAND_MAX, "%slinfuzz show --history minimized ", bin);
    lf_shell_append_quoted(cmd[n_cmd], COMMAND_MAX, path);
    size_t w = strlen(cmd[n_cmd]);
    snprintf(cmd[n_cmd++] + w, COMMAND_MAX - w, " | %slinfuzz check -", bin);
    if (format && !strcmp(format, "fuzz-case 1") && adapter) {
        snprintf(cmd[n_cmd], COMMAND_MAX, "%slinfuzz show --input case.bin ", bin);
        lf_shell_append_quoted(cmd[n_cmd], COMMAND_MAX, path);
        w = strlen(cmd[n_cmd]);
        snprintf(cmd[n_cmd++] + w, COMMAND_MAX - w, " && %sfuzz_%s -runs=100 case.bin", bin, adapter);
    }
    for (size_t i = 0; i < n_cmd; i++) commands[i] = cmd[i];

    /* the histories and their explanation */
    lf_result why[2];
    size_t n_why = 0;
    if (!category) n_why = lf_entry_explain(&e->minimized, check, why);
    lf_report_input in;
    lf_rootcause rc;
    lf_entry_report_input(e, &in, &rc);
    in.why = why;
    in.n_why = n_why && why[0].verdict == LF_VIOLATION ? n_why : 0;
    char headline[600];
    if (category) {
        const char *reason = lf_entry_meta(e, "reason");
        snprintf(headline, sizeof headline, "not a linearizability violation: its serial runs differ (%s)",
                 reason ? reason : category);
        in.has_cut = false;
    }
    lf_report_html_options o = {
        .title = base,
        .facts = (const char *const(*)[2])facts,
        .n_facts = n_facts,
        .commands = commands,
        .n_commands = n_cmd,
        .history_text = history_text,
        .check = check,
        .headline = category ? headline : NULL,
        .history_name = category ? "Serial evidence" : NULL,
    };
    bool ok = lf_report_html_write(f, &in, &o);
    free(why_stuck);
    lf_rootcause_free(&rc);
    for (size_t i = 0; i < n_why; i++) lf_result_free(&why[i]);
    free(history_text);
    free(cmd);
    if (!ok) {
        snprintf(err, errlen, "%s: cannot write its page (out of memory or a write error)", path);
        return LF_ERR_IO;
    }
    return LF_OK;
}
