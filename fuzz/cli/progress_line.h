/* The progress line of `linfuzz check`: while a file takes longer than a second, one line on stderr, refreshed
 * about every second, says what is being done ("linfuzz check: big.hist: 12 s, wgl, 45.1M steps, part 3 of
 * 10, 49 s left of the 60 s budget"; the budget is the check's, counted from the end of reading). On a
 * terminal the line is redrawn in place and erased before the file's verdict is printed; elsewhere (when
 * asked for with --progress) each refresh is a line of its own. A reporter thread draws it from the check's
 * lf_progress, so the engines never print anything themselves. */
#ifndef LINFUZZ_PROGRESS_LINE_H
#define LINFUZZ_PROGRESS_LINE_H

#include <stdbool.h>
#include <stdio.h>

#include "linfuzz/check.h"

typedef struct lf_progress_line lf_progress_line;

/* Starts the reporter writing to out (in_place: redraw one line with carriage returns). NULL when the thread
 * cannot be started (then there is simply no progress line). */
lf_progress_line *lf_progress_line_start(FILE *out, bool in_place);
/* A new file: what names it, p the check's progress (zeroed here), budget_s its time budget (0: none). */
void lf_progress_line_begin(lf_progress_line *pl, const char *what, lf_progress *p, double budget_s);
/* The file is read; its check (and its time budget) starts now. */
void lf_progress_line_checking(lf_progress_line *pl);
/* The file is done: erases the line if one was drawn. Call before printing the file's result. */
void lf_progress_line_end(lf_progress_line *pl);
/* Stops and frees the reporter. */
void lf_progress_line_stop(lf_progress_line *pl);

#endif
