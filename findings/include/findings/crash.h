/* CRASH findings: runs in which the code under test died (a use after free, a double free, a segmentation
 * fault), as corpus entries (docs/formats.md, "CRASH entries") and reports.
 *
 * A crash in a lock-free structure is a schedule's doing as much as a linearizability violation: the classic
 * one is a node freed by one thread while another still reads it (adapters/buggy/treiber_reclaim.c). So it
 * becomes an entry like a violation, in the same container (lf_entry_load reads it; `show`, `repro`, `triage`
 * take it): meta "finding" is "crash"; the workload is the input that ran, with its mode and schedule
 * (lf_entry_record_schedule: a controlled crash replays exactly); "history" is the run up to the crash, the ops
 * in flight pending (the one that crashed among them), and "minimized" the same history (nothing a checker could
 * verify says which ops a crash needs); the verdict section holds the sanitizer's report as printed, or the
 * signal when there was no sanitizer.
 *
 * What the report says is read from it (lf_crash_parse_report): the kind of error ("heap-use-after-free",
 * "double-free", "SEGV", ...), the site of the faulting access and, for memory already freed, the site that
 * freed it: the first frame of each stack in the code under test (not the sanitizer's, libc's or linfuzz's own
 * access hooks). The free site is the root cause of a use after free or a double free (the node was freed while
 * another thread could still reach it); the access site of anything else. Triage groups crashes by adapter,
 * kind and that site (findings/triage.h), so the different reads of one freed node are one line. */
#ifndef LINFUZZ_CRASH_H
#define LINFUZZ_CRASH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "findings/entry.h"
#include "linfuzz/history.h"

/* One stack frame of the code under test: "pop" in "my_stack.c" (the file's last component) line 42. */
typedef struct lf_crash_site {
    char function[128];
    char file[128];
    unsigned line;
} lf_crash_site;

/* What a sanitizer report says (report: its text). kind gets the error ("heap-use-after-free", "double-free",
 * "SEGV", ...; 64 bytes), access the first frame of the faulting stack in the code under test, freed that of the
 * stack that freed the memory (function empty when the report has none). False when report is no sanitizer
 * error report. */
bool lf_crash_parse_report(const char *report, char kind[64], lf_crash_site *access, lf_crash_site *freed);

/* "pop (my_stack.c:42)", or "?" for an empty site (out: len bytes). */
void lf_crash_site_format(const lf_crash_site *s, char *out, size_t len);

typedef struct lf_crash_input {
    const char *adapter;          /* required */
    bool expected_linearizable;   /* the adapter's claim */
    const char *origin;           /* who found it ("fuzz_x (libFuzzer), execution 3, run 1 of 4"), or NULL */
    const char *workload_format;  /* "fuzz-case 2", or NULL */
    const char *workload_desc;    /* one line, or NULL */
    const uint8_t *workload;
    size_t workload_len;
    const lf_history *history;    /* the run up to the crash; ops in flight pending */
    const char *report;           /* the sanitizer's report, or a description of the signal ("SIGSEGV ...") */
} lf_crash_input;

/* Builds a complete CRASH entry in e (initialised here). LF_ERR_NOMEM. */
lf_status lf_capture_crash(const lf_crash_input *in, lf_violation_entry *e, char *err, size_t errlen);

/* Whether e is a CRASH entry (meta "finding" is "crash"). */
bool lf_entry_is_crash(const lf_violation_entry *e);
/* The crash's signature label for triage: "stack, crash: heap-use-after-free of memory freed in pop
 * (my_stack.c:61)" (out: len bytes). */
void lf_crash_label(const lf_violation_entry *e, char *out, size_t len);
/* Writes the report of a CRASH entry (what lf_entry_write_report does for it). */
void lf_crash_write_report(FILE *f, const lf_violation_entry *e);

#endif
