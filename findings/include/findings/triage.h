/* Triage of violation entries and fuzzer crash inputs: what `linfuzz triage DIR...` prints (docs/triage.md).
 *
 * Findings pile up: every fuzzing job saves entries, libFuzzer writes a crash-* file per violation, and one bug
 * is found many times. Triage reads them all, gives each a signature and groups equal signatures, so that a
 * person looks at one line per bug: how often it was found, since when, its smallest example, the command
 * that reproduces it.
 *
 * Signature of a violation: what one bug has in common however often and however differently it shows. A
 * history does not name a bug: one race shows as a value popped twice in one run and as a value lost in the
 * next (treiber_aba), and any history-level key (shape, methods, the first impossible op) splits one bug into
 * several lines. So the signature is made of stable facts only: the adapter, the category, the type, and the
 * root cause when the entry has a confirmed one (findings/rootcause_section.h: the code region, which is what tells two
 * bugs of one adapter apart; it takes precedence over anything the history says); without one, the adapter's
 * violations are one line, and the line lists their *variants*: the distinct canonical forms of the minimized
 * histories (lf_violation_canonical), with the smallest example, so that nothing is hidden. Everything is
 * recomputed from the entry, never read from its stored metadata, so entries of older versions group with new
 * ones. `by variant` groups by the canonical form instead, `by bucket` by the fuzz targets' dedup bucket,
 * `by shape` by adapter, type and shape. Fuzzer inputs that are not violations are grouped by what their
 * replay did (crash detail, hang, nothing). Categories, after [Burckhardt10]: BUG (an adapter that claims to be
 * linearizable is not), KNOWN_BUG (a known-buggy adapter's violation: expected), CRASH and STUCK (the replay of
 * an input died or hung), SERIAL_NONDETERMINISM (an adapter checked against its own serial behaviour gave
 * different results for the same serial ops: not a linearizability bug, but its self-spec means nothing until
 * fixed; its signature is the adapter, the category and the type, and its variants are the canonical forms of
 * the serial evidence), NOT_REPRODUCED (the replay showed no violation: a rare schedule, or a fixed bug). Custom
 * types are signed the same way, by the name of their declaration.
 *
 * This module collects and classifies files and groups findings; reading entries is findings/entry.h,
 * replaying inputs (which needs the adapters) is testcase/case_replay.h, printing is cli/cmd_triage.c. */
#ifndef LINFUZZ_TRIAGE_H
#define LINFUZZ_TRIAGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "findings/entry.h"
#include "linfuzz/report.h"

/* ---- files ---- */

typedef enum lf_triage_kind {
    LF_TRIAGE_FILE_ENTRY, /* a .lfz file: read as a violation entry */
    LF_TRIAGE_FILE_INPUT, /* a libFuzzer artifact (crash-*, timeout-*, ...): workload bytes to replay */
    LF_TRIAGE_FILE_OTHER, /* anything else found in a directory (seeds, logs): ignored */
    LF_TRIAGE_FILE_ERROR, /* an argument that cannot be read (message in the list) */
} lf_triage_kind;

/* Classifies a file name (no directory): "*.lfz" is an entry; "[PREFIX]KIND-<40 hex digits>" with KIND one of
 * crash, timeout, oom, leak, slow-unit (libFuzzer's artifact names; PREFIX is its -artifact_prefix) is an input,
 * and *prefix_len (may be NULL) gets the length of PREFIX; anything else is other. */
lf_triage_kind lf_triage_classify(const char *name, size_t *prefix_len);

typedef struct lf_triage_file {
    char *path;
    lf_triage_kind kind;
    char *error; /* LF_TRIAGE_FILE_ERROR: "PATH: why" */
} lf_triage_file;

typedef struct lf_triage_files {
    lf_triage_file *files;
    size_t n, cap;
} lf_triage_files;

/* Adds path: a directory is walked recursively (entries of each directory in name order, hidden ones
 * skipped, symbolic links to directories not followed but classified OTHER), each file classified by name; a file named explicitly is an entry when it ends in .lfz and an
 * input otherwise. A path that cannot be read becomes an ERROR file. False only when out of memory. */
bool lf_triage_collect(lf_triage_files *fs, const char *path);
void lf_triage_files_free(lf_triage_files *fs);

/* ---- findings and groups ---- */

typedef enum lf_triage_category {
    LF_TRIAGE_BUG,
    LF_TRIAGE_CRASH,
    LF_TRIAGE_STUCK,
    LF_TRIAGE_SERIAL_NONDETERMINISM, /* the adapter's serial runs differ: its self-spec is void (not a bug verdict) */
    LF_TRIAGE_NOT_REPRODUCED,
    LF_TRIAGE_KNOWN_BUG,
} lf_triage_category;

/* "BUG", "CRASH", "STUCK", "SERIAL_NONDETERMINISM", "NOT_REPRODUCED", "KNOWN_BUG". */
const char *lf_triage_category_name(lf_triage_category c);
/* Whether a finding of this category needs a person: BUG, CRASH, STUCK, SERIAL_NONDETERMINISM. */
bool lf_triage_category_unexpected(lf_triage_category c);

typedef enum lf_triage_by {
    LF_TRIAGE_BY_SIGNATURE, /* adapter, category, type, root cause (default) */
    LF_TRIAGE_BY_VARIANT,   /* adapter, category, the canonical form of the minimized history */
    LF_TRIAGE_BY_BUCKET,    /* the dedup bucket */
    LF_TRIAGE_BY_SHAPE,     /* adapter, category, type, shape */
} lf_triage_by;

/* "signature", "variant", "bucket", "shape"; and back (false for another name). */
const char *lf_triage_by_name(lf_triage_by by);
bool lf_triage_by_from_name(const char *name, lf_triage_by *by);

typedef struct lf_triage_item {
    char *path;       /* the file */
    bool is_input;    /* a fuzzer input rather than an entry file */
    lf_triage_category category;
    char *adapter;
    char first_seen[24]; /* UTC, "YYYY-MM-DDTHH:MM:SSZ": the entry's creation, else the file's mtime */
    /* violations */
    char bucket[17];     /* recomputed from the minimized history */
    bool bucket_differs; /* the entry's stored bucket is another one (written by another version) */
    lf_violation_sig sig;
    char cause[320];     /* the best confirmed root cause (lf_rootcause_signature), or "" */
    char *variant;       /* the canonical form of the minimized history (lf_violation_canonical), or NULL */
    char *crash_label;   /* a crash entry: its signature label (lf_crash_label), else NULL */
    char variant_id[17]; /* its hash */
    size_t min_ops, full_ops;
    char *example;       /* the entry that reproduces it (path, or where a replay's entry was saved), or NULL */
    long duplicate_of;   /* an input with the bytes of an entry's workload: that entry's item, else -1 */
    bool not_violation;  /* an entry whose minimized history is no violation here (lf_triage_mark_not_violation) */
    /* inputs */
    char *detail;        /* what the replay did (or why an entry is no violation), or NULL */
    size_t input_len;
    /* entries: the workload, to recognise crash inputs that are an entry's input */
    uint8_t *workload;
    size_t workload_len;
} lf_triage_item;

typedef struct lf_triage_group {
    lf_triage_category category;
    char *label;      /* the signature without the adapter ("stack VALUE_RETURNED_TWICE push,pop, cut at pop") */
    char id[17];      /* the bucket (by bucket), else a hash of adapter, category and label */
    const char *adapter;
    size_t count;     /* findings: items that are not duplicates of another */
    size_t *items;    /* every item of the group, duplicates included, in the order added */
    size_t n_items;
    size_t smallest;  /* the smallest example: fewest minimized ops, then full ops, entries first */
    const char *first_seen;
    size_t n_variants; /* violations: distinct canonical forms among the group's items */
} lf_triage_group;

typedef struct lf_triage_error {
    char *path, *message;
    bool io; /* unreadable (else malformed) */
} lf_triage_error;

typedef struct lf_triage {
    lf_triage_by by;
    const char *entry_program; /* the program that reproduces entries ("linfuzz", the default, or a fuzz target
                                * that carries the adapter, fuzz_ADAPTER: lf_triage_repro_command) */
    lf_triage_item *items;
    size_t n_items, cap_items;
    lf_triage_group *groups; /* after lf_triage_group_all */
    size_t n_groups;
    lf_triage_error *errors;
    size_t n_errors, cap_errors;
} lf_triage;

void lf_triage_init(lf_triage *t, lf_triage_by by);
void lf_triage_free(lf_triage *t);

/* A violation: an entry file (is_input false; example = path) or a replayed input whose captured entry is e
 * (example = saved, which may be NULL when it was not saved). Category BUG or KNOWN_BUG from meta
 * "expected"; a STUCK entry (findings/stuck.h) is category STUCK with the signature of its stuck ops (type,
 * shape STUCK_*, the methods that never returned), an entry of serial nondeterminism category
 * SERIAL_NONDETERMINISM (signature: type, the category and the method that answered differently). Returns
 * the item's index, -1 when out of memory. */
long lf_triage_add_violation(lf_triage *t, const char *path, bool is_input, const lf_violation_entry *e,
                             const char *saved);
/* Entry item `item` is no violation for this checker: its saved minimized history was re-checked and is
 * linearizable (the checker changed, or the entry is wrong). It becomes NOT_REPRODUCED (it shows no bug,
 * whatever its adapter claims), grouped apart from the violations, with why as its detail. False when out of
 * memory. */
bool lf_triage_mark_not_violation(lf_triage *t, size_t item, const char *why);
/* An input with the bytes of entry item `of`'s workload: same signature, counted once. */
long lf_triage_add_duplicate(lf_triage *t, const char *path, size_t of);
/* An input whose replay was not a violation: CRASH, STUCK or NOT_REPRODUCED, with the replay's detail. */
long lf_triage_add_other(lf_triage *t, const char *path, const char *adapter, lf_triage_category category,
                         const char *detail, size_t input_len);
/* A file that could not be triaged. */
bool lf_triage_add_error(lf_triage *t, const char *path, const char *message, bool io);

/* The first entry item whose workload is exactly these bytes, of this adapter (NULL: any), or -1. */
long lf_triage_find_workload(const lf_triage *t, const char *adapter, const uint8_t *data, size_t len);

/* Groups the items (replacing earlier groups) as t->by says; groups in order of category (BUG, CRASH,
 * STUCK, SERIAL_NONDETERMINISM, NOT_REPRODUCED, KNOWN_BUG), then count (largest first), then adapter and label.
 * False when out of memory. */
bool lf_triage_group_all(lf_triage *t);

/* The group an entry falls into by signature (the default of `linfuzz triage`): its category, label and id,
 * exactly as lf_triage_group_all gives them for it. A fuzz target names a finding's bug by them when it
 * aborts, so that a crash report groups as triage does (fuzz/bug_report.h). False when out of memory. */
bool lf_triage_entry_group(const lf_violation_entry *e, lf_triage_category *category, char *label,
                           size_t label_len, char id[17]);

/* The shell command that reproduces group g from its smallest example: "<bin><entry_program> repro ENTRY"
 * when it has an entry, else "<bin>fuzz_<adapter> -runs=100 INPUT". bin is prepended to the program names
 * ("build/bin/", or "" for the PATH); paths are quoted when needed. */
void lf_triage_repro_command(const lf_triage *t, const lf_triage_group *g, const char *bin, char *out, size_t len);

/* Appends s to the string in out (len bytes in all), single-quoted for the shell when it has characters that
 * need it. */
void lf_shell_append_quoted(char *out, size_t len, const char *s);

#endif
