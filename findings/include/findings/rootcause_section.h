/* Root causes as a violation entry stores them: the optional text section `rootcause` (docs/formats.md,
 * "Root causes"). Ranked candidates, each a code region that must run atomically (file, lines, function,
 * its source lines) or a method-level exclusion ("pop must not overlap pop"), with how many recorded passing
 * runs it would forbid and what re-running with it enforced gave ("confirmed: 0 violations in 5000
 * schedules when atomic").
 *
 * `linfuzz rootcause --write` (rootcause/rc_store.c) writes it; the rest reads it: `linfuzz show` (text and HTML) renders the candidates, and triage groups findings by the
 * best confirmed region before anything the history says (lf_rootcause_signature). The parser is strict, as
 * for the rest of an entry: a malformed section makes the entry malformed. */
#ifndef LINFUZZ_ROOTCAUSE_SECTION_H
#define LINFUZZ_ROOTCAUSE_SECTION_H

#include <stdbool.h>
#include <stddef.h>

#include "linfuzz/format.h"
#include "linfuzz/report.h"

#define LF_ROOTCAUSE_FORMAT "linfuzz-rootcause 1"
#define LF_ROOTCAUSE_MAX_CANDIDATES 64
#define LF_ROOTCAUSE_MAX_SOURCE_LINES 1000 /* over all candidates */
#define LF_ROOTCAUSE_MAX_LINE 4096         /* bytes of one line of the section */

typedef struct lf_rootcause {
    lf_report_cause *causes; /* best first (rank 1, 2, ...); their strings point into `text` */
    size_t n;
    char *text;  /* a copy of the section, split into strings in place */
    const char **lines; /* the source lines of every candidate, in order */
} lf_rootcause;

/* Parses a section (len bytes, not necessarily NUL-terminated). LF_ERR_FORMAT with a message naming the
 * line ("rootcause line 4: ..."), LF_ERR_NOMEM when out of memory. rc is empty on failure. */
lf_status lf_rootcause_parse(const char *text, size_t len, lf_rootcause *rc, char *err, size_t errlen);
void lf_rootcause_free(lf_rootcause *rc);

/* Writes candidates as a section (malloc'ed, NUL-terminated; NULL when out of memory or when a string holds a
 * newline or a field breaks the format: every section it writes parses back to the same candidates). */
char *lf_rootcause_format(const lf_report_cause *causes, size_t n);

/* The grouping key of the best confirmed candidate: "OP in FILE" for a region in a known function (OP: the
 * adapter's method the candidate's first region runs in, "(in OP)" of its summary, else the function's own
 * name), else "region FILE:LO-HI", or "exclusion A||B" (the two methods in name order). False when no
 * candidate is confirmed: then the findings are grouped by what the history says. Neither the lines nor the
 * function: findings of one bug confirm overlapping regions of one function (treiber_aba: lines 90-93 in one,
 * 91-93 in another), and regions of one op in different functions (elim_stack_takes_claimed: es_op() 103-105,
 * the push loop through its offer, in some; offer() 74-76, the offer's claim through its publication, in
 * others), which split one bug into several groups and, in the fuzz targets, several ClusterFuzz crashes. Two
 * bugs of one adapter in different ops stay apart (r2_rwlock_list_both: add and remove); two in one op share a
 * group. */
bool lf_rootcause_signature(const lf_rootcause *rc, char *out, size_t len);

#endif
