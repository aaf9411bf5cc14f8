/* Violation entries: the on-disk record of one found violation (docs/formats.md, "Violation entries").
 *
 * An entry is one .lfz container with the sections
 *   workload   (bytes)   the input that drove the run (for the fuzz targets: the libFuzzer input bytes)
 *   history    (history) the history as recorded
 *   minimized  (history) a violating sub-history of it (engines/minimize: a genuine proof, not a guess)
 *   verdict    (text)    the checker's verdicts on both histories
 *   report     (text)    the report printed when it was found (engines/report)
 *   rootcause  (text)    optional: candidate root causes, best first (findings/rootcause_section.h)
 *   test       (bytes)   optional, with test_history: the minimized test of a controlled finding
 *                        (testcase/minimize_test.h), a case whose run 0 violates, in the workload's format
 *   test_history (history) its run's recorded history; `minimized` is then minimized from this one
 *   meta       (meta)    entry = "linfuzz-violation 1", adapter, type, expected, created, linfuzz_version,
 *                        bucket, shape, workload_format, ... (the full list is in docs/formats.md)
 * Entries are written atomically under a name made of their dedup bucket and a hash of their content,
 * "<bucket>-<content>.lfz", so parallel fuzzing jobs never write the same temporary or final file with
 * different contents, and one bug found many times is recognisable by name. The loader refuses anything
 * that is not a complete, consistent entry (LF_ERR_FORMAT with a message naming the file). */
#ifndef LINFUZZ_ENTRY_H
#define LINFUZZ_ENTRY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "linfuzz/format.h"
#include "linfuzz/lfz.h"
#include "linfuzz/history.h"
#include "linfuzz/version.h"

#define LF_ENTRY_FORMAT "linfuzz-violation 1"
#define LF_LINFUZZ_VERSION LF_VERSION /* linfuzz/version.h */
#define LF_ENTRY_NAME_MAX 40 /* "<16 hex>-<16 hex>.lfz" and its NUL */

typedef struct lf_violation_entry {
    lf_history full, minimized;
    uint8_t *workload;
    size_t workload_len;
    char *verdict, *report;
    char *rootcause;   /* the optional `rootcause` section (findings/rootcause_section.h), or NULL */
    bool has_test;     /* the optional sections `test` and `test_history` (both or neither) */
    uint8_t *test;     /* the minimized test: a case whose run 0 violates (meta workload_format) */
    size_t test_len;
    lf_history test_history; /* its run's recorded history (type of the entry) */
    lf_lfz_pair *meta; /* owned keys and values, ascending by key */
    size_t n_meta;
} lf_violation_entry;

void lf_entry_init(lf_violation_entry *e, lf_type type);
/* lf_entry_init for a finding recorded as h, as the capture of a crash or a stuck run makes it: full and
 * minimized are copies of h, workload a copy of the len bytes that ran. False when out of memory (e is still
 * to be freed). */
bool lf_entry_init_run(lf_violation_entry *e, const lf_history *h, const uint8_t *workload, size_t len);
void lf_entry_free(lf_violation_entry *e);

/* The history `minimized` was minimized from: test_history when e has a minimized test, else full. */
const lf_history *lf_entry_recorded(const lf_violation_entry *e);
/* Gives e the minimized test (bytes copied, history copied); false when out of memory. */
bool lf_entry_set_test(lf_violation_entry *e, const uint8_t *test, size_t len, const lf_history *h);

/* Sets (adds or replaces) a metadata pair; false when out of memory. */
bool lf_entry_set_meta(lf_violation_entry *e, const char *key, const char *value);
/* The meta an entry carries from where it was found, each when given (not NULL): origin, workload_format and
 * workload (the description). False when out of memory. */
bool lf_entry_set_source(lf_violation_entry *e, const char *origin, const char *workload_format, const char *workload_desc);
/* Renders e's report into e->report: write(f, e, ctx) prints it. False when out of memory. */
typedef void (*lf_entry_report_writer)(FILE *f, const lf_violation_entry *e, const void *ctx);
bool lf_entry_render_report(lf_violation_entry *e, lf_entry_report_writer write, const void *ctx);
/* The value of key, or NULL. */
const char *lf_entry_meta(const lf_violation_entry *e, const char *key);

/* The file name of e: "<bucket>-<16 hex digits of a hash of adapter, workload and both histories>.lfz". */
void lf_entry_name(const lf_violation_entry *e, char out[LF_ENTRY_NAME_MAX]);

/* Writes e atomically into dir (created, with its parents, when missing) under lf_entry_name; the path
 * written goes to path (may be NULL). Errors name the path. */
lf_status lf_entry_save(const lf_violation_entry *e, const char *dir, char *path, size_t path_len, char *err,
                        size_t errlen);
/* Encodes e as .lfz bytes (malloc'ed), as lf_entry_save writes them. */
lf_status lf_entry_encode(const lf_violation_entry *e, uint8_t **out, size_t *out_len, char *err, size_t errlen);

/* Reads and checks an entry: every section present with its kind, meta "entry" is LF_ENTRY_FORMAT, both
 * histories of the type named by meta "type" and the minimised one no larger than the full one, adapter and
 * bucket well-formed, the optional rootcause section well-formed. LF_ERR_IO when path cannot be read, LF_ERR_FORMAT otherwise ("PATH: ..."). */
lf_status lf_entry_load(const char *path, lf_violation_entry *e, char *err, size_t errlen);
/* The same on a file held in memory; name is used in messages. */
lf_status lf_entry_decode(const void *data, size_t len, const char *name, lf_violation_entry *e, char *err,
                          size_t errlen);

/* Whether dir holds an entry of this bucket ("<bucket>-*.lfz"); its path goes to path. */
bool lf_entry_find_bucket(const char *dir, const char *bucket, char *path, size_t path_len);

/* Creates dir and its parents (like mkdir -p). False with errno set on failure. */
bool lf_mkdirs(const char *dir);

#endif
