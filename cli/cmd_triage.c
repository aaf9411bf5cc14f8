/* `linfuzz triage DIR|FILE...`: groups violation entries and fuzzer crash inputs by signature and prints one
 * line per group (docs/triage.md). Collecting and grouping live in findings/triage.c, replaying crash
 * inputs in testcase/case_replay.c; this file reads the files, decides each input's adapter and prints. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "linfuzz/adapter.h"
#include "cli_entry.h"
#include "cli/commands.h"
#include "findings/capture.h"
#include "findings/entry.h"
#include "findings/crash.h"
#include "findings/stuck.h"
#include "runtime/adapter_check.h"
#include "findings/triage.h"
#include "json_out.h"
#include "runtime/workload.h"
#include "options.h"
#include "status_line.h"
#include "testcase/case_replay.h"
#include "testcase/fuzz_case.h"
#include "util/parse.h"
#include "util/escape.h"

#define MAX_INPUT_BYTES (1u << 20) /* a fuzz case is at most a few hundred bytes; libFuzzer's -max_len 4096 */
#define RECHECK_SECONDS 10          /* budget of the re-check of an entry's minimized history */

typedef struct options {
    const char *adapter, *save;
    lf_triage_by by;
    lf_replay_options replay;
    bool json, quiet;
    lf_status_line *line; /* the progress line, or NULL */
} options;



/* The adapter named by s[0..len) (an artifact prefix or a directory name, "fuzz_" and a trailing '-' or '_'
 * allowed), or NULL. */
static const lf_adapter *adapter_named(const char *s, size_t len) {
    if (len >= 5 && !strncmp(s, "fuzz_", 5)) s += 5, len -= 5;
    while (len && (s[len - 1] == '-' || s[len - 1] == '_')) len--;
    char name[128];
    if (!len || len >= sizeof name) return NULL;
    memcpy(name, s, len);
    name[len] = 0;
    return lf_adapter_find(name);
}

/* The adapter of a fuzzer input at path (see the help), or NULL. */
static const lf_adapter *infer_adapter(const char *path) {
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    size_t prefix_len = 0;
    if (lf_triage_classify(base, &prefix_len) == LF_TRIAGE_FILE_INPUT && prefix_len) {
        const lf_adapter *a = adapter_named(base, prefix_len);
        if (a) return a;
    }
    /* parent directories, nearest first */
    const char *end = base;
    for (int depth = 0; depth < 4 && end > path; depth++) {
        const char *stop = end - 1; /* the '/' before the current component */
        const char *start = stop;
        while (start > path && start[-1] != '/') start--;
        const lf_adapter *a = adapter_named(start, (size_t)(stop - start));
        if (a) return a;
        end = start;
    }
    /* a fuzz target triaging its own crash files: its name says the adapter (fuzz_ADAPTER), or it has one */
    const char *self = lf_cli_program();
    const lf_adapter *a = adapter_named(self, strlen(self));
    if (a) return a;
    return lf_adapter_count() == 1 ? lf_adapter_at(0) : NULL;
}

/* Reads a whole small file (bounded, without waiting on a FIFO: lf_read_file_bounded); NULL with err set on
 * failure (*io: unreadable rather than malformed). */
static uint8_t *read_input(const char *path, size_t *len, char *err, size_t errlen, bool *io) {
    uint8_t *data;
    char why[4400];
    lf_status st = lf_read_file_bounded(path, MAX_INPUT_BYTES, &data, len, why, sizeof why);
    *io = st != LF_ERR_FORMAT;
    if (st == LF_ERR_FORMAT)
        snprintf(err, errlen, "%s: too large to be a fuzzer input of linfuzz", why);
    else if (st != LF_OK)
        snprintf(err, errlen, "%s", why);
    return st == LF_OK ? data : NULL;
}

static const char *base_name(const char *path) {
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

typedef struct counts {
    size_t entries, inputs, replayed, duplicates, ignored;
    size_t violations, unexpected; /* findings so far: violations, and BUG/CRASH/STUCK ones among all */
    size_t unsaved;                /* captured entries --save could not write (exit 4) */
} counts;

/* Whether an entry's minimized history is still a violation for the checker it was found with (or cannot be
 * told here: a self-spec without its adapter, a budget that ran out); false with why when it is linearizable.
 * STUCK, CRASH and serial-nondeterminism entries carry no violation to re-check. */
static bool minimized_violates(const lf_violation_entry *e, char *why, size_t len) {
    if (lf_entry_is_stuck(e) || lf_entry_is_crash(e) || lf_entry_category(e)) return true;
    lf_check_options co;
    lf_check_options_default(&co);
    co.timeout_s = RECHECK_SECONDS;
    lf_adapter_checker checker;
    char err[256];
    if (!lf_adapter_checker_for_saved(&checker, lf_entry_meta(e, "adapter"), lf_entry_meta(e, "spec"), &co, err,
                                      sizeof err))
        return true;
    lf_result r;
    lf_result_init(&r);
    lf_adapter_checker_check(&checker, &e->minimized, &r);
    bool violates = r.verdict != LF_LINEARIZABLE;
    if (!violates)
        snprintf(why, len, "its minimized history (%zu ops) is linearizable for this checker [%s]: the checker changed, "
                 "or the entry is wrong", e->minimized.n, r.engine);
    lf_result_free(&r);
    lf_adapter_checker_free(&checker);
    return violates;
}

/* Replays one input and records what it did. False when out of memory. */
static bool triage_input(lf_triage *t, const char *path, const options *o, counts *c) {
    char err[4600];
    bool io;
    size_t len = 0;
    uint8_t *data = read_input(path, &len, err, sizeof err, &io);
    if (!data) {
        lf_status_printf(o->line, stderr, "linfuzz triage: %s\n", err);
        return lf_triage_add_error(t, path, err, io);
    }
    c->inputs++;
    bool ok = true;
    const lf_adapter *a = o->adapter ? lf_adapter_find(o->adapter) : infer_adapter(path);
    /* The same bytes are the same finding only for the same adapter (when the input's adapter is known). */
    long dup = lf_triage_find_workload(t, a ? a->name : NULL, data, len);
    if (dup >= 0) {
        c->duplicates++;
        ok = lf_triage_add_duplicate(t, path, (size_t)dup) >= 0;
    } else if (!a) {
        snprintf(err, sizeof err,
                 "%s: a fuzzer input of unknown adapter: pass --adapter NAME, or keep it under a directory named "
                 "after the adapter",
                 path);
        lf_status_printf(o->line, stderr, "linfuzz triage: %s\n", err);
        ok = lf_triage_add_error(t, path, err, false);
    } else {
        c->replayed++;
        char origin[4200];
        snprintf(origin, sizeof origin, "linfuzz triage, replay of %s", path);
        lf_isolated_replay r;
        lf_replay_options ro = o->replay;
        char err_b[256];
        if (!lf_blocking_balanced(a, &ro.balance_blocking, err_b, sizeof err_b)) { /* as the target ran it */
            lf_esc_printf(stderr, "linfuzz triage: %s\n", err_b);
            ro.balance_blocking = a->may_block != 0;
        }
        lf_fc_replay_isolated(a, data, len, &ro, ro.seconds + 60, origin, &r);
        /* a violation, or a STUCK run or a crash that the child captured as an entry */
        if (r.outcome == LF_REPLAY_VIOLATION ||
            ((r.outcome == LF_REPLAY_STUCK || r.outcome == LF_REPLAY_CRASHED) && r.has_entry)) {
            char saved[PATH_MAX] = "";
            if (o->save) {
                char dir[PATH_MAX], found[PATH_MAX];
                snprintf(dir, sizeof dir, "%s/%s", o->save, a->name);
                const char *bucket = lf_entry_meta(&r.entry, "bucket");
                if (bucket && lf_entry_find_bucket(dir, bucket, found, sizeof found)) {
                    snprintf(saved, sizeof saved, "%s", found);
                } else if (lf_entry_save(&r.entry, dir, saved, sizeof saved, err, sizeof err) != LF_OK) {
                    lf_status_printf(o->line, stderr, "linfuzz triage: cannot save the entry of %s: %s\n", path, err);
                    saved[0] = 0;
                    c->unsaved++;
                }
            }
            ok = lf_triage_add_violation(t, path, true, &r.entry, saved[0] ? saved : NULL) >= 0;
            c->violations++;
            c->unexpected += a->linearizable;
        } else if (r.outcome == LF_REPLAY_FAILED) {
            snprintf(err, sizeof err, "%s: cannot replay: %s", path, r.detail);
            lf_status_printf(o->line, stderr, "linfuzz triage: %s\n", err);
            ok = lf_triage_add_error(t, path, err, true);
        } else {
            char detail[300];
            lf_triage_category cat = r.outcome == LF_REPLAY_CRASHED ? LF_TRIAGE_CRASH
                                     : r.outcome == LF_REPLAY_STUCK ? LF_TRIAGE_STUCK
                                                                    : LF_TRIAGE_NOT_REPRODUCED;
            if (cat == LF_TRIAGE_NOT_REPRODUCED)
                snprintf(detail, sizeof detail, "no violation in %llu runs", (unsigned long long)r.runs);
            else
                snprintf(detail, sizeof detail, "%s", r.detail);
            ok = lf_triage_add_other(t, path, a->name, cat, detail, len) >= 0;
            c->unexpected += lf_triage_category_unexpected(cat);
        }
        lf_entry_free(&r.entry);
    }
    free(data);
    return ok;
}

/* Prints s for a markdown table cell, escaped (util/escape.h: '|', line breaks and controls); at most max bytes
 * of it, never a character cut in two ("..." after). */
static void cell(const char *s, size_t max) {
    size_t n = strlen(s), shown = n;
    if (n > max) {
        shown = max;
        while (shown && ((unsigned char)s[shown] & 0xc0) == 0x80) shown--;
    }
    lf_esc_write(stdout, s, shown, LF_ESC_CELL);
    if (shown < n) fputs("...", stdout);
}

static void print_table(const lf_triage *t, const counts *c, const char *bin) {
    printf("| # | category | count | adapter | signature | variants | first seen | smallest example | reproduce |\n");
    printf("|---|---|---|---|---|---|---|---|---|\n");
    char cmd[8400];
    for (size_t i = 0; i < t->n_groups; i++) {
        const lf_triage_group *g = &t->groups[i];
        const lf_triage_item *s = &t->items[g->smallest];
        lf_triage_repro_command(t, g, bin, cmd, sizeof cmd);
        char size[64] = "";
        if (s->min_ops) snprintf(size, sizeof size, " (%zu ops)", s->min_ops);
        printf("| %zu | %s | %zu | ", i + 1, lf_triage_category_name(g->category), g->count);
        cell(g->adapter, SIZE_MAX);
        printf(" | ");
        cell(g->label, 300);
        if (g->n_variants && s->variant) {
            printf(" | %zu: `", g->n_variants);
            cell(s->variant, 160);
            printf("`");
        } else {
            printf(" | -");
        }
        printf(" | %s | ", g->first_seen);
        cell(s->example ? s->example : s->path, SIZE_MAX);
        printf("%s | `", size);
        cell(cmd, SIZE_MAX);
        printf("` |\n");
    }
    size_t differs = 0;
    for (size_t i = 0; i < t->n_items; i++) differs += !t->items[i].is_input && t->items[i].bucket_differs;
    printf("\n%zu groups from %zu entries and %zu fuzzer inputs (%zu replayed, %zu the input of an entry); "
           "%zu other files ignored; %zu refused%s\n",
           t->n_groups, c->entries, c->inputs, c->replayed, c->duplicates, c->ignored, t->n_errors,
           t->n_errors ? " (listed on stderr)" : "");
    if (c->unsaved) printf("NOT SAVED: %zu captured entries could not be written to --save (listed on stderr)\n", c->unsaved);
    if (differs)
        printf("note: %zu entries carry a bucket computed by another version; grouped by the recomputed one\n",
               differs);
}

/* The distinct variants of a group, in order of first appearance: id, canonical form, count, smallest
 * example. */
static void print_variants(const lf_triage *t, const lf_triage_group *g) {
    printf(", \"variants\": [");
    size_t shown = 0;
    for (size_t a = 0; a < g->n_items; a++) {
        const lf_triage_item *ia = &t->items[g->items[a]];
        bool seen = !ia->variant;
        for (size_t b = 0; b < a && !seen; b++)
            seen = t->items[g->items[b]].variant && !strcmp(t->items[g->items[b]].variant_id, ia->variant_id);
        if (seen) continue;
        size_t count = 0, smallest = g->items[a];
        for (size_t b = a; b < g->n_items; b++) {
            const lf_triage_item *ib = &t->items[g->items[b]];
            if (!ib->variant || strcmp(ib->variant_id, ia->variant_id) != 0) continue;
            count += ib->duplicate_of < 0;
            if (ib->min_ops < t->items[smallest].min_ops) smallest = g->items[b];
        }
        const lf_triage_item *sm = &t->items[smallest];
        printf("%s{\"id\": \"%s\", \"count\": %zu, \"shape\": \"%s\", \"canonical\": ", shown++ ? ", " : "",
               ia->variant_id, count, ia->sig.shape);
        lf_json_string(stdout, ia->variant);
        printf(", \"example\": ");
        lf_json_string(stdout, sm->example ? sm->example : sm->path);
        printf("}");
    }
    printf("]");
}

static void print_json(const lf_triage *t, const counts *c, const char *bin) {
    char cmd[8400];
    printf("{\"groups\": [");
    for (size_t i = 0; i < t->n_groups; i++) {
        const lf_triage_group *g = &t->groups[i];
        const lf_triage_item *s = &t->items[g->smallest];
        lf_triage_repro_command(t, g, bin, cmd, sizeof cmd);
        printf("%s\n  {\"id\": \"%s\", \"category\": \"%s\", \"unexpected\": %s, \"adapter\": ", i ? "," : "", g->id,
               lf_triage_category_name(g->category), lf_triage_category_unexpected(g->category) ? "true" : "false");
        lf_json_string(stdout, g->adapter);
        printf(", \"signature\": ");
        lf_json_string(stdout, g->label);
        if (g->category == LF_TRIAGE_BUG || g->category == LF_TRIAGE_KNOWN_BUG ||
            g->category == LF_TRIAGE_SERIAL_NONDETERMINISM) {
            printf(", \"type\": \"%s\", \"shape\": \"%s\"", s->sig.type, s->sig.shape);
            printf(", \"methods\": \"%s\", \"cut_method\": \"%s\", \"cause\": ", s->sig.methods, s->sig.cut_method);
            if (s->cause[0])
                lf_json_string(stdout, s->cause);
            else
                printf("null");
            print_variants(t, g);
        }
        printf(", \"count\": %zu, \"n_variants\": %zu, \"first_seen\": \"%s\", \"smallest\": ", g->count,
               g->n_variants, g->first_seen);
        lf_json_string(stdout, s->example ? s->example : s->path);
        printf(", \"smallest_ops\": %zu, \"reproduce\": ", s->min_ops);
        lf_json_string(stdout, cmd);
        printf(", \"files\": [");
        for (size_t k = 0; k < g->n_items; k++) {
            const lf_triage_item *it = &t->items[g->items[k]];
            printf("%s{\"path\": ", k ? ", " : "");
            lf_json_string(stdout, it->path);
            printf(", \"kind\": \"%s\"", it->is_input ? "input" : "entry");
            if (it->example && it->is_input) {
                printf(", \"entry\": ");
                lf_json_string(stdout, it->example);
            }
            if (it->detail) {
                printf(", \"detail\": ");
                lf_json_string(stdout, it->detail);
            }
            if (!it->is_input && it->bucket_differs) printf(", \"bucket_recomputed\": true");
            printf("}");
        }
        printf("]}");
    }
    printf("%s],\n \"by\": \"%s\", \"errors\": [", t->n_groups ? "\n" : "", lf_triage_by_name(t->by));
    for (size_t i = 0; i < t->n_errors; i++) {
        printf("%s{\"path\": ", i ? ", " : "");
        lf_json_string(stdout, t->errors[i].path);
        printf(", \"error\": ");
        lf_json_string(stdout, t->errors[i].message);
        printf(", \"unreadable\": %s}", t->errors[i].io ? "true" : "false");
    }
    printf("],\n \"entries\": %zu, \"inputs\": %zu, \"replayed\": %zu, \"duplicates\": %zu, \"ignored\": %zu, "
           "\"unsaved\": %zu}\n",
           c->entries, c->inputs, c->replayed, c->duplicates, c->ignored, c->unsaved);
}

/* --by */
static bool parse_by(const char *text, void *by) { return lf_triage_by_from_name(text, by); }

int lf_cmd_triage(int argc, char **argv) {
    options o = {0};
    lf_replay_options_default(&o.replay);
    o.replay.stop_at_first = true;
    lf_cli_operands paths;
    int status = lf_cli_parse(&lf_command_triage, argc, argv, &o, &paths);
    if (status != LF_CLI_GO_ON) return status;
    if (o.adapter && !lf_adapter_find(o.adapter)) {
        lf_esc_printf(stderr, "linfuzz triage: no adapter '%s' in this build (linfuzz adapters lists them)\n",
                      o.adapter);
        return LF_EXIT_USAGE;
    }
    o.line = lf_status_start("linfuzz triage", o.quiet);
    lf_triage_files fs = {0};
    bool ok = true;
    for (size_t i = 0; ok && i < paths.n; i++) {
        lf_status_set(o.line, "looking for entries and inputs in %s", paths.v[i]);
        ok = lf_triage_collect(&fs, paths.v[i]);
    }
    size_t n_entries = 0, n_inputs = 0;
    for (size_t i = 0; i < fs.n; i++) {
        n_entries += fs.files[i].kind == LF_TRIAGE_FILE_ENTRY;
        n_inputs += fs.files[i].kind == LF_TRIAGE_FILE_INPUT;
    }
    lf_triage t;
    lf_triage_init(&t, o.by);
    /* A fuzz target (fuzz_ADAPTER, linfuzz-fuzz) carries adapters the stock linfuzz may not: its entries are
     * reproduced with itself. */
    const char *self = lf_cli_program();
    if (!strncmp(self, "fuzz_", 5) || !strcmp(self, "linfuzz-fuzz")) t.entry_program = self;
    counts c = {0};
    /* Entries first, so that an input that is an entry's workload is recognised without a replay. */
    for (size_t i = 0, k = 0; ok && i < fs.n; i++) {
        const lf_triage_file *f = &fs.files[i];
        if (f->kind == LF_TRIAGE_FILE_OTHER) c.ignored++;
        if (f->kind == LF_TRIAGE_FILE_ERROR) {
            lf_status_printf(o.line, stderr, "linfuzz triage: %s\n", f->error);
            ok = lf_triage_add_error(&t, f->path, f->error, true);
        }
        if (f->kind != LF_TRIAGE_FILE_ENTRY) continue;
        lf_status_set(o.line, "entry %zu of %zu (then %zu inputs to replay): %s", ++k, n_entries, n_inputs,
                      base_name(f->path));
        lf_violation_entry e;
        char err[1024];
        lf_status st = lf_cli_load_entry(f->path, &e, err, sizeof err);
        if (st != LF_OK) {
            lf_status_printf(o.line, stderr, "linfuzz triage: %s\n", err);
            ok = lf_triage_add_error(&t, f->path, err, st == LF_ERR_IO);
            continue;
        }
        c.entries++;
        /* a crash input that is the entry's: as the fuzz targets of this version read it (cli_entry.h) */
        uint8_t converted[LF_FC_MAX_ENCODED];
        const uint8_t *input;
        size_t input_len;
        if (lf_cli_entry_input(&e, converted, &input, &input_len)) {
            uint8_t *copy = malloc(input_len ? input_len : 1);
            ok = copy != NULL;
            if (ok) {
                memcpy(copy, input, input_len);
                free(e.workload);
                e.workload = copy;
                e.workload_len = input_len;
            }
        }
        long item = ok ? lf_triage_add_violation(&t, f->path, false, &e, NULL) : -1;
        ok = item >= 0;
        char why[600];
        if (ok && !minimized_violates(&e, why, sizeof why)) {
            lf_status_printf(o.line, stderr, "linfuzz triage: %s: WARNING: %s; listed as NOT_REPRODUCED\n", f->path, why);
            ok = lf_triage_mark_not_violation(&t, (size_t)item, why);
        }
        lf_entry_free(&e);
    }
    for (size_t i = 0, k = 0; ok && i < fs.n; i++) {
        if (fs.files[i].kind != LF_TRIAGE_FILE_INPUT) continue;
        lf_status_set(o.line, "input %zu of %zu, %zu replayed (%zu violations, %zu unexpected), %zu entries read: %s",
                      ++k, n_inputs, c.replayed, c.violations, c.unexpected, c.entries, base_name(fs.files[i].path));
        ok = triage_input(&t, fs.files[i].path, &o, &c);
    }
    lf_status_set(o.line, "grouping %zu findings", c.entries + c.inputs);
    ok = ok && lf_triage_group_all(&t);
    lf_status_stop(o.line);
    if (!ok) {
        lf_esc_printf(stderr, "linfuzz triage: out of memory\n");
        lf_triage_free(&t);
        lf_triage_files_free(&fs);
        return LF_EXIT_IO;
    }
    char bin[PATH_MAX];
    lf_cli_bin_prefix(bin, sizeof bin);
    if (o.json)
        print_json(&t, &c, bin);
    else
        print_table(&t, &c, bin);

    bool io = false, malformed = false, unexpected = false;
    for (size_t i = 0; i < t.n_errors; i++) {
        io |= t.errors[i].io;
        malformed |= !t.errors[i].io;
    }
    for (size_t i = 0; i < t.n_groups; i++) unexpected |= lf_triage_category_unexpected(t.groups[i].category);
    lf_triage_free(&t);
    lf_triage_files_free(&fs);
    io |= c.unsaved > 0; /* a finding that could not be kept: as bad as a file that could not be read */
    return io ? LF_EXIT_IO : malformed ? LF_EXIT_USAGE : unexpected ? LF_EXIT_VIOLATION : LF_EXIT_OK;
}

static const lf_opt OPTIONS[] = {
    {.name = "--adapter", .value = "NAME", LF_OPT_STRING_AT(options, adapter),
     .help = "the adapter of every fuzzer input"},
    {.name = "--by", .value = "signature|variant|bucket|shape", LF_OPT_PARSED_AT(options, by, lf_triage_by, parse_by),
     .def = "signature", .expects = "signature, variant, bucket or shape",
     .help = "what makes two findings one group: the signature (default: adapter, type and\n"
             "the root cause when the entry has a confirmed one: one line per bug, listing\n"
             "its variants), the variant (the canonical form of the minimized history:\n"
             "threads, values and stamps renamed), the fuzz targets' dedup bucket, or\n"
             "adapter, type and shape"},
    {.name = "--runs", .value = "N", LF_OPT_COUNT_AT(options, replay.runs, 1, UINT64_MAX), .def = "200",
     .help = "runs per replayed input (default 200; it stops at the first violation)"},
    {.name = "--seconds", .value = "S", LF_OPT_SECONDS_AT(options, replay.seconds, 0.001, LF_MAX_SECONDS), .def = "10",
     .help = "time per replayed input (default 10; STUCK when hung past S + 60: blocked, or that much CPU time used; a busy machine only makes it slower)"},
    {.name = "--spec", .value = "M", LF_OPT_PARSED_AT(options, replay.spec, lf_spec_mode, lf_cli_parse_spec_mode),
     .def = "auto", .expects = LF_CLI_SPEC_MODES,
     .help = "what replayed inputs are checked against: auto (default: the type's spec, else\n"
             "the adapter's own serial behaviour), type, or self (the self-spec)"},
    {.name = "--save", .value = "DIR", LF_OPT_STRING_AT(options, save),
     .help = "save the entries captured from replayed inputs in DIR/ADAPTER/ (one per bucket)"},
    {.name = "--json", LF_OPT_FLAG_AT(options, json), .help = "one JSON object: groups (with their files), errors, counts"},
    {.name = "--quiet", .short_name = "-q", LF_OPT_FLAG_AT(options, quiet),
     .help = "no progress line on stderr (by default, while it works: files read, inputs\n"
             "replayed, findings so far; in place on a terminal, every 5 s elsewhere)"},
};

const lf_cli_command lf_command_triage = {
    .name = "triage",
    .summary = "group violation entries and fuzzer crash inputs by signature, one line per bug",
    .run = lf_cmd_triage,
    .usage = "linfuzz triage [options] DIR|FILE...",
    .about = "Groups findings by the signature of their violation and prints one line per group: category, how\n"
             "many, adapter, signature, first seen, the smallest example and the command that reproduces it.\n"
             "Directories are searched recursively for\n"
             "  *.lfz                 violation entries (corpus/ADAPTER/violations/, a fuzz job's output);\n"
             "  [PREFIX]crash-<sha1>  libFuzzer inputs (also timeout-, oom-, leak-): replayed through the\n"
             "                        adapter's fuzz-case decoding and checked, in a child process, unless\n"
             "                        their bytes are the workload of an entry found too.\n"
             "Other files are ignored. A corrupt file is reported (naming it) and the others still triaged.\n"
             "\n"
             "The adapter of an input: --adapter, else PREFIX (e.g. -artifact_prefix=out/treiber_aba-), else the\n"
             "nearest parent directory named after an adapter, else the fuzz target's own (fuzz_ADAPTER triage ...),\n"
             "else the only adapter of the program.\n"
             "\n"
             "Categories: BUG (an adapter claiming to be linearizable is not), CRASH (an input's replay died),\n"
             "STUCK (some operation never returned: a STUCK entry, or an input whose replay got stuck; grouped\n"
             "by the stuck methods and why they wait, STUCK_EMPTY/_FULL/_LOST_WAKEUP/_HANG),\n"
             "SERIAL_NONDETERMINISM (an adapter checked against its own serial behaviour gave different results\n"
             "for the same serial ops: not a linearizability bug, but its self-spec is void), NOT_REPRODUCED (no\n"
             "violation in the replay's runs), KNOWN_BUG (a known-buggy adapter's violation: expected).\n"
             "Inputs are replayed as the fuzz target ran them (LINFUZZ_FUZZ_BLOCKING=balanced|any is honoured).",
    .options = OPTIONS,
    .n_options = LF_CLI_N_OPTIONS(OPTIONS),
    .help_column = 19,
    .notes = "exit: 0 triaged, nothing unexpected; 1 some BUG, CRASH, STUCK or SERIAL_NONDETERMINISM group; 2 bad\n"
             "      usage or some file malformed (the rest triaged); 4 some file unreadable, an entry --save could\n"
             "      not write, or the output not written.",
    .min_operands = 1,
    .max_operands = LF_CLI_MANY,
    .missing = "which directories or files?",
    .help_on_missing = true,
};
