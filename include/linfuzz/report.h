/* Violation reports: a (minimised) non-linearizable history rendered for a person ([Cirisci20]),
 * plus the cheap classification used in titles and dedup keys (§3.3 "violation shape", §3.5 "bucket").
 *
 * The report shows the history three ways: the ops of each thread side by side, a timeline with one lane per
 * thread (each op a bar from its call to its return, in the real-time order of events), and a legend that is
 * the history itself in the text format (so it can be pasted into a .hist file). Ops named by the checker's
 * explanation are starred. Used by the fuzz targets when they find a violation, and by `linfuzz show`. */
#ifndef LINFUZZ_REPORT_H
#define LINFUZZ_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "linfuzz/check.h"
#include "linfuzz/history.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A candidate root cause of a violation: a code region that must run atomically, or two methods that must
 * not overlap, as root causing names them (an entry's optional `rootcause` section, docs/formats.md). Reports
 * render the candidates they are given, best first. Strings may hold anything: renderers escape them. */
typedef struct lf_report_cause {
    unsigned rank;              /* 1 = the best candidate */
    bool exclusion;             /* a method-level exclusion ("pop must not overlap pop") instead of a region */
    const char *summary;        /* one line: "pop() r1_afek_stack.c:41-42 must be atomic" */
    const char *file;           /* region: its source file (as the build saw it), else NULL */
    unsigned line_lo, line_hi;  /* region: its lines, inclusive */
    const char *function;       /* region: the function, or NULL */
    const char *methods[2];     /* exclusion: the two methods */
    const char *const *source;  /* region: its source lines (line_lo .. line_lo + n_source - 1), or NULL */
    size_t n_source;
    uint64_t forbids, passing;  /* of `passing` recorded passing runs, how many the candidate would forbid */
    bool validated;             /* it was re-run with the region made atomic (the exclusion enforced) ... */
    uint64_t schedules, violations; /* ... for `schedules` schedules, with `violations` violations */
} lf_report_cause;

/* Whether a cause is confirmed: validated, and no violation in the schedules that enforced it. */
static inline bool lf_report_cause_confirmed(const lf_report_cause *c) {
    return c->validated && c->schedules > 0 && c->violations == 0;
}

typedef struct lf_report_input {
    const char *adapter;          /* the data structure, or NULL */
    const char *origin;           /* where it was found ("fuzz_treiber_aba, run 2 of 4"), or NULL */
    const char *workload;         /* one-line description of the workload, or NULL */
    const char *minimize_summary; /* one line on how the history was minimised, or NULL */
    const char *test_summary;     /* one line on how the test was minimised (then `recorded` is the minimised
                                   * test's history), or NULL */
    const char *bucket;           /* dedup key (lf_violation_bucket), or NULL */
    size_t full_ops;              /* size of the recorded history (0: unknown) */
    const lf_history *history;    /* the history to show: usually the minimised one */
    const lf_result *why;         /* verdicts on `history`, each a violation with its explanation (the first one's
                                   * level, when classified, is the title's shape) */
    size_t n_why;
    bool has_cut;                 /* the first impossible return of `history` is known: the return stamped */
    uint64_t cut_stamp;           /* cut_stamp (what the minimiser cut at, or found when nothing was cut) */
    /* Optional context (zero / NULL: none). */
    const lf_history *recorded;   /* the history `history` was minimised from: ops are matched by thread and
                                   * call stamp, to show recorded results the minimiser lowered (counters) and
                                   * to split the serial thread into prefix and drain */
    bool has_serial;              /* the run had a serial part, recorded as thread serial_thread: its ops */
    uint32_t serial_thread;       /* called before any other thread's are the prefix, the others the drain */
    const lf_report_cause *causes; /* candidate root causes, best first */
    size_t n_causes;
    bool causes_of_test;           /* they were found on the minimized test, not the whole workload (a region
                                    * confirmed there may be only part of the cause) */
} lf_report_input;

/* Writes the report to f. */
void lf_report_write(FILE *f, const lf_report_input *in);
/* The report as a malloc'ed string (NULL when out of memory). */
char *lf_report_render(const lf_report_input *in);

/* What an op of the shown history is, for labels: an op of the worker threads, or of the serial part. */
typedef enum lf_op_part { LF_PART_WORKER, LF_PART_PREFIX, LF_PART_DRAIN } lf_op_part;
/* The part of each op of in->history (malloc'ed array of in->history->n; NULL when out of memory). */
lf_op_part *lf_report_parts(const lf_report_input *in);
/* "", "prefix", "drain". */
const char *lf_op_part_name(lf_op_part p);
/* For each op of in->history, the index of the op of in->recorded with the same thread and call stamp, or
 * SIZE_MAX (malloc'ed; NULL when in->recorded is NULL or out of memory). */
size_t *lf_report_match_recorded(const lf_report_input *in);

/* The timeline alone: one lane per thread, ops tagged A, B, ... (or 1, 2, ... beyond 26 ops) in call order;
 * histories above LF_REPORT_TIMELINE_MAX_OPS ops are summarised instead. marked (may be NULL) stars ops. */
#define LF_REPORT_TIMELINE_MAX_OPS 80
void lf_report_timeline(FILE *f, const lf_history *h, const bool *marked, bool has_cut, uint64_t cut_stamp);

/* What the violation looks like (static string): VALUE_NEVER_INSERTED, VALUE_RETURNED_BEFORE_INSERTED,
 * VALUE_RETURNED_TWICE, EMPTY_WHILE_PRESENT, LOST_UPDATE, COUNT_TOO_HIGH, COUNT_WENT_BACK, for bounded
 * containers FULL_WHILE_NOT_FULL (full although fewer than capacity values can have been inside) and
 * OVER_CAPACITY (more than capacity values certainly inside at once), or by type
 * FIFO_ORDER, LIFO_ORDER, PRIORITY_ORDER, DEQUE_ORDER, SET_MEMBERSHIP, REGISTER_VALUE, KV_VALUE, COUNTER_VALUE; under a
 * contract (docs/contracts.md) EMPTY_BY_COUNT, FULL_BY_COUNT (an answer its full/empty rule refuses),
 * K_RELAXED_ORDER, PRODUCER_ORDER, BAG_CONTENT. The first ones are definite facts about the history (under every
 * contract); the per-type ones only say where the impossibility lies. Custom
 * types have no such facts: CUSTOM_RESULT (a checker's lf_result.level tells more: lf_level_name). */
const char *lf_violation_shape(const lf_history *h);

/* The parts of a violation's signature ([Cirisci20]), computed from the minimised history: its type,
 * its shape, the multiset of its methods ("push*1,pop*2", in lf_method order) and the method of its first
 * impossible return ("-" when the history was not cut there). `linfuzz triage` shows them; the bucket below
 * is their hash together with the adapter. */
typedef struct lf_violation_sig {
    char type[LF_CUSTOM_NAME_MAX + 1]; /* the type's name (custom types included) */
    const char *shape;                 /* static string (lf_violation_shape) */
    char methods[768];
    char cut_method[LF_CUSTOM_NAME_MAX + 1];
} lf_violation_sig;
void lf_violation_signature(const lf_history *minimized, bool has_cut, uint64_t cut_stamp, lf_violation_sig *out);

/* Dedup key (16 hex digits + NUL in out[17]): adapter, shape, the sorted multiset of methods of the
 * minimised history, and the method of its first impossible return (when cut), so that one bug found
 * many times lands in one bucket. The hash of adapter and lf_violation_signature. */
void lf_violation_bucket(const char *adapter, const lf_history *minimized, bool has_cut, uint64_t cut_stamp,
                         char out[17]);

/* A canonical text of a (minimised) violating history, the same for histories that differ only in names:
 * threads renamed t0, t1, ... and values v1, v2, ... in order of appearance (priorities renamed in their
 * order; counts, and a register's initial value, kept; custom types keep every value but the keys of keyed
 * methods, k1, k2, ..., since only the type knows what its numbers mean), stamps replaced by their ranks
 * (equal stamps, equal ranks), ops in call order, the serial thread (when serial is not NULL) named s and the
 * ops of the first impossible return (when has_cut) marked "!". For example
 *   "queue: t0 [0,1] enq v1; s [2,3] deq -> empty!"
 * Two findings with the same text show the same thing happening. Writes at most len bytes (NUL included) and
 * returns the length of the whole text, like snprintf. */
size_t lf_violation_canonical(const lf_history *h, bool has_cut, uint64_t cut_stamp, const uint32_t *serial,
                              char *out, size_t len);

/* ---- the HTML page ---- */

typedef struct lf_report_html_options {
    const char *title;               /* the page title and heading (escaped), e.g. the entry's file name */
    const char *const (*facts)[2];   /* (label, value) rows for the header (found by, created, ...), or NULL */
    size_t n_facts;
    const char *const *commands;     /* shell commands that reproduce the violation, or NULL */
    size_t n_commands;
    const char *history_text;        /* the shown history as a pasteable text file, or NULL */
    size_t recorded_max_ops;         /* explain the recorded history (longest prefix, states) up to this size;
                                      * 0: LF_REPORT_HTML_RECORDED_MAX_OPS */
    double explain_timeout_s;        /* budget of each of those explanations; 0: 2 s */
    const lf_check_options *check;   /* what the histories are checked against for the explanations (a custom
                                      * spec, an adapter's self-spec, linfuzz/check.h); NULL: the spec of their
                                      * type (a custom type's from its declaration) */
    const char *headline;            /* a finding that is no violation (serial nondeterminism): this replaces
                                      * "not linearizable" and the first-impossible-result banner; NULL: none */
    const char *history_name;        /* what the shown history is ("Minimized", "Serial evidence"); NULL: as
                                      * fits in->recorded */
} lf_report_html_options;

#define LF_REPORT_HTML_RECORDED_MAX_OPS 3000

/* Writes one self-contained HTML page (inline CSS and JavaScript, nothing fetched) that shows the
 * violation: a timeline per thread of in->history and of in->recorded (each op a bar on a time axis, its
 * result on it), the longest linearizable prefix found by the search with the sequential state after each of
 * its ops (on hover), the ops that cannot go next and why, the first impossible return, the root-cause
 * candidates with their source lines, the commands of o and the checkers' explanations. Custom types are shown
 * with the names of their declaration. Every text that comes from the history or the caller is escaped.
 * Returns false when writing failed or memory ran out. */
bool lf_report_html_write(FILE *f, const lf_report_input *in, const lf_report_html_options *o);

#ifdef __cplusplus
}
#endif

#endif
