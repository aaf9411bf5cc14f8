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

typedef struct lf_report_input {
    const char *adapter;          /* the data structure, or NULL */
    const char *origin;           /* where it was found ("fuzz_treiber_aba, run 2 of 4"), or NULL */
    const char *workload;         /* one-line description of the workload, or NULL */
    const char *minimize_summary; /* one line on how the history was minimised, or NULL */
    const char *bucket;           /* dedup key (lf_violation_bucket), or NULL */
    size_t full_ops;              /* size of the recorded history (0: unknown) */
    const lf_history *history;    /* the history to show: usually the minimised one */
    const lf_result *why;         /* verdicts on `history`, each a violation with its explanation */
    size_t n_why;
    bool has_cut;                 /* the history was cut at the first impossible return, stamped cut_stamp */
    uint64_t cut_stamp;
} lf_report_input;

/* Writes the report to f. */
void lf_report_write(FILE *f, const lf_report_input *in);
/* The report as a malloc'ed string (NULL when out of memory). */
char *lf_report_render(const lf_report_input *in);

/* The timeline alone: one lane per thread, ops tagged A, B, ... (or 1, 2, ... beyond 26 ops) in call order;
 * histories above LF_REPORT_TIMELINE_MAX_OPS ops are summarised instead. marked (may be NULL) stars ops. */
#define LF_REPORT_TIMELINE_MAX_OPS 80
void lf_report_timeline(FILE *f, const lf_history *h, const bool *marked, bool has_cut, uint64_t cut_stamp);

/* What the violation looks like (static string): VALUE_NEVER_INSERTED, VALUE_RETURNED_BEFORE_INSERTED,
 * VALUE_RETURNED_TWICE, EMPTY_WHILE_PRESENT, LOST_UPDATE, COUNT_TOO_HIGH, COUNT_WENT_BACK, or by type
 * FIFO_ORDER, LIFO_ORDER, PRIORITY_ORDER, DEQUE_ORDER, SET_MEMBERSHIP, REGISTER_VALUE, KV_VALUE, COUNTER_VALUE. The first
 * ones are definite facts about the history; the per-type ones only say where the impossibility lies. */
const char *lf_violation_shape(const lf_history *h);

/* The parts of a violation's signature ([Cirisci20]), computed from the minimised history: its type,
 * its shape, the multiset of its methods ("push*1,pop*2", in lf_method order) and the method of its first
 * impossible return ("-" when the history was not cut there). `linfuzz triage` shows them; the bucket below
 * is their hash together with the adapter. */
typedef struct lf_violation_sig {
    const char *type;       /* static string */
    const char *shape;      /* static string (lf_violation_shape) */
    char methods[256];
    const char *cut_method; /* static string */
} lf_violation_sig;
void lf_violation_signature(const lf_history *minimized, bool has_cut, uint64_t cut_stamp, lf_violation_sig *out);

/* Dedup key (16 hex digits + NUL in out[17]): adapter, shape, the sorted multiset of methods of the
 * minimised history, and the method of its first impossible return (when cut), so that one bug found
 * many times lands in one bucket. The hash of adapter and lf_violation_signature. */
void lf_violation_bucket(const char *adapter, const lf_history *minimized, bool has_cut, uint64_t cut_stamp,
                         char out[17]);

#ifdef __cplusplus
}
#endif

#endif
