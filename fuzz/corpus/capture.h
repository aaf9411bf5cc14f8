/* Capturing a violation: from a violating history to a complete entry (minimised history, verdicts, report,
 * metadata), and re-rendering an entry's report. Used by the fuzz targets on a violation and by
 * `linfuzz show`; anything else that finds violations (triage tools, other drivers) can use it too. */
#ifndef LINFUZZ_CAPTURE_H
#define LINFUZZ_CAPTURE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "linfuzz/check.h"
#include "corpus/entry.h"
#include "linfuzz/minimize.h"
#include "linfuzz/report.h"

typedef struct lf_capture_input {
    const char *adapter;             /* name of the data structure (required) */
    bool expected_linearizable;      /* the adapter's claim (false for known-buggy adapters) */
    const char *origin;              /* who found it and how ("fuzz_x (libFuzzer), run 2 of 4"), or NULL */
    const char *workload_format;     /* how to read the workload bytes ("fuzz-case 1"), or NULL */
    const char *workload_desc;       /* one-line description of the workload, or NULL */
    const uint8_t *workload;         /* the input bytes (may be empty) */
    size_t workload_len;
    const lf_history *full;          /* the violating history as recorded */
    const lf_minimize_options *minimize; /* NULL: lf_minimize_options_default */
    /* What the histories are checked against (the minimisation's and the report's checks): NULL, the spec
     * of their type; else these options (spec, or self: the adapter's own serial behaviour), with spec_mode
     * the name recorded in meta "spec" ("self" makes `linfuzz repro` and `show` build the self-spec again). */
    const lf_check_options *check;
    const char *spec_mode;
} lf_capture_input;

/* Builds a complete entry in e (initialised here): checks and minimises in->full, explains the minimised
 * history, renders the report. Returns LF_OK, LF_ERR_FORMAT when in->full is not a violation (message in
 * err), or LF_ERR_NOMEM. */
lf_status lf_capture_violation(const lf_capture_input *in, lf_violation_entry *e, char *err, size_t errlen);

/* Builds the entry of serial nondeterminism (category SERIAL_NONDETERMINISM, docs/triage.md) found while
 * checking in->full against the adapter's own serial behaviour: its `minimized` history is the serial
 * evidence (ops replayed from a fresh instance, the last one answering differently on another replay; see
 * lf_selfspec_nondeterminism), its verdict the checker's reason. Nothing is minimised or re-checked. */
lf_status lf_capture_nondeterminism(const lf_capture_input *in, const lf_history *evidence, const char *reason,
                                    lf_violation_entry *e, char *err, size_t errlen);

/* The signature and bucket of serial nondeterminism: type, shape SERIAL_NONDETERMINISM, the method that
 * answered differently (the evidence's last op) as the methods and cut method; the bucket hashes adapter,
 * type, the category and that method. */
void lf_nondeterminism_signature(const char *adapter, const lf_history *evidence, lf_violation_sig *sig,
                                 char bucket[17]);

/* The category of an entry: "SERIAL_NONDETERMINISM" for lf_capture_nondeterminism's, else NULL (a violation). */
const char *lf_entry_category(const lf_violation_entry *e);

/* Explains e's minimised history again (the checkers are deterministic) and writes its report to f, laid
 * out from the entry's metadata exactly as when it was captured; check says what the histories are checked
 * against (NULL: the spec of their type; for an entry with meta "spec" = "self" the caller builds the
 * adapter's self-spec). Returns the verdict of the minimised history (LF_VIOLATION for any entry the
 * checkers still agree with). A nondeterminism entry's report is rendered from what it stores, and the
 * answer is LF_UNKNOWN. */
lf_verdict lf_entry_write_report(FILE *f, const lf_violation_entry *e, const lf_check_options *check);

#endif
