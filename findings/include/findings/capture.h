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
#include "findings/entry.h"
#include "findings/rootcause_section.h"
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
    bool has_serial;                 /* the run had a serial part (prefix before the threads, drain after) ... */
    uint32_t serial_thread;          /* ... recorded as this thread id (fuzz cases: the number of threads) */
    const char *created;             /* the capture time to record ("YYYY-MM-DDTHH:MM:SSZ"); NULL: now */
    const char *rootcause;           /* a `rootcause` section for the entry (findings/rootcause_section.h), or NULL */
    /* What the histories are checked against (the minimisation's and the report's checks): NULL, the spec
     * of their type; else these options (spec, or self: the adapter's own serial behaviour), with spec_mode
     * the name recorded in meta "spec" ("self" makes `linfuzz repro` and `show` build the self-spec again). */
    const lf_check_options *check;
    const char *spec_mode;
    /* The minimized test of a controlled finding (testcase/minimize_test.h), or test_history NULL: its bytes
     * (format workload_format), the history of its violating run, which is then the one minimized (full stays
     * the recorded history of the original workload), its serial thread and how it was minimized. */
    const uint8_t *test;
    size_t test_len;
    const lf_history *test_history;
    uint32_t test_serial_thread;
    const char *test_summary;
} lf_capture_input;

/* Builds a complete entry in e (initialised here): checks and minimises in->full, explains the minimised
 * history, renders the report. Returns LF_OK, LF_ERR_FORMAT when in->full is not a violation (message in
 * err), or LF_ERR_NOMEM. */
lf_status lf_capture_violation(const lf_capture_input *in, lf_violation_entry *e, char *err, size_t errlen);

/* Captures the violation of an existing entry again from its recorded history, with this version's
 * minimiser: the same workload, recorded history, origin, serial thread and creation time; a new minimised
 * history, verdicts, report, bucket and name. For entries written by older versions. check says what the
 * histories are checked against, as for lf_entry_write_report (the entry's meta "spec" is kept); a
 * SERIAL_NONDETERMINISM entry is written again as it is (its serial evidence is not minimised). */
lf_status lf_capture_again(const lf_violation_entry *old, const lf_check_options *check, lf_violation_entry *e,
                           char *err, size_t errlen);
/* The same with another minimized test (testcase/minimize_test.h: its bytes, the history of its violating
 * run, that run's serial thread and a line on how it was minimized) instead of old's (test_history NULL:
 * none); the minimized history is then minimized from test_history. lf_capture_again keeps old's test. */
lf_status lf_capture_again_with_test(const lf_violation_entry *old, const lf_check_options *check, const uint8_t *test,
                                     size_t test_len, const lf_history *test_history, uint32_t test_serial_thread,
                                     const char *test_summary, lf_violation_entry *e, char *err, size_t errlen);

/* The serial thread of an entry (meta "serial_thread"); false when it has none or the value is malformed. */
bool lf_entry_serial_thread(const lf_violation_entry *e, uint32_t *thread);

/* Fills in (the fields it knows of) a report input for e: adapter, origin, workload, minimisation summary,
 * bucket, sizes, first impossible return, serial thread, the recorded history to match ops against, and the
 * root-cause candidates, parsed into rc (free it with lf_rootcause_free after the report; empty when e has
 * none, or memory ran out). */
void lf_entry_report_input(const lf_violation_entry *e, lf_report_input *in, lf_rootcause *rc);

/* Explains a history for a report: the auto engine's verdict, and the WGL search's too when the history is
 * small and auto did not use it (its reason names the longest linearizable prefix and the state after it),
 * both against what check says (NULL: the spec of h's type). Returns how many results went to why[] (each
 * initialised: free them); why[0].verdict is h's verdict. */
size_t lf_entry_explain(const lf_history *h, const lf_check_options *check, lf_result why[2]);

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
 * checkers still agree with). A STUCK entry (findings/stuck.h) gets its own report, and LF_VIOLATION. A
 * nondeterminism entry's report is rendered from what it stores, and the answer is LF_UNKNOWN. */
lf_verdict lf_entry_write_report(FILE *f, const lf_violation_entry *e, const lf_check_options *check);

#endif
