/* The HTML page of a violation entry (`linfuzz show --html`, ci/fuzz.sh): engines/report's page
 * (lf_report_html_write) filled from the entry: its histories, first impossible return, serial part and root
 * causes, a header of its metadata, and the commands that reproduce it. docs/fuzzing.md, "The HTML page". */
#ifndef LINFUZZ_ENTRY_HTML_H
#define LINFUZZ_ENTRY_HTML_H

#include <stddef.h>
#include <stdio.h>

#include "findings/entry.h"
#include "linfuzz/check.h"

/* Writes e's page to f. path is the entry's file (named in the page and in the commands), bin the directory
 * prefix of the programs in the commands ("build/bin/", or "" for the PATH), check what its histories are
 * checked against (as for lf_entry_write_report: NULL, the spec of their type). A SERIAL_NONDETERMINISM
 * entry's page shows its serial evidence and says it is no violation. LF_ERR_IO when writing failed,
 * LF_ERR_NOMEM when memory ran out (message in err). */
lf_status lf_entry_write_html(FILE *f, const lf_violation_entry *e, const char *path, const char *bin,
                              const lf_check_options *check, char *err, size_t errlen);

#endif
