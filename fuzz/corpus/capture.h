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
} lf_capture_input;

/* Builds a complete entry in e (initialised here): checks and minimises in->full, explains the minimised
 * history, renders the report. Returns LF_OK, LF_ERR_FORMAT when in->full is not a violation (message in
 * err), or LF_ERR_NOMEM. */
lf_status lf_capture_violation(const lf_capture_input *in, lf_violation_entry *e, char *err, size_t errlen);

/* Explains e's minimised history again (the checkers are deterministic) and writes its report to f, laid
 * out from the entry's metadata exactly as when it was captured. Returns the verdict of the minimised
 * history (LF_VIOLATION for any entry the checkers still agree with). */
lf_verdict lf_entry_write_report(FILE *f, const lf_violation_entry *e);

#endif
