/* The one live progress line of linfuzz's long commands (triage, repro, stress, gen, convert): what is being
 * done, on stderr, while it is done, so that a command that works for minutes never looks stuck.
 *
 * On a terminal, one line redrawn in place a few times a second ("linfuzz triage [14 s]: input 3 of 40,
 * 2 replayed (1 violation, 0 unexpected), 12 entries read: ms_queue-crash-5f3a...") and erased when the command ends or
 * prints something else; elsewhere (a CI log, a pipe), a line of its own every 5 seconds. A command done within half a
 * second (terminal) or a period (elsewhere) prints nothing. Quiet commands (-q) do not start one; LINFUZZ_PROGRESS=0
 * turns it off everywhere and LINFUZZ_PROGRESS_SECONDS=S sets the period off a terminal (tests).
 *
 * A reporter thread draws the line with write(2) on the stderr descriptor, never through stdio, so a child
 * forked by the command (triage replays inputs in a child process) cannot inherit a held stdio lock, and
 * the reporter is parked on a condition variable whenever the command forks (status_line.c says why). The
 * command says what it is doing with lf_status_set (cheap: a few hundred bytes formatted under a mutex) or
 * gives a source the thread asks before each draw (for counters the command updates atomically). Every
 * function accepts NULL (no line) and does nothing then. */
#ifndef LINFUZZ_STATUS_LINE_H
#define LINFUZZ_STATUS_LINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

typedef struct lf_status_line lf_status_line;

/* Writes what the line should say now into buf (len bytes), from the reporter thread. */
typedef void (*lf_status_source)(void *ctx, char *buf, size_t len);

/* The status line of `command` ("linfuzz triage"), or NULL when quiet, turned off, or the thread cannot
 * start (then there is simply no line). */
lf_status_line *lf_status_start(const char *command, bool quiet);
/* What the line says from now on (printf format; the elapsed time goes before it). */
void lf_status_set(lf_status_line *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Asks source(ctx, ...) before each draw instead of the text set (NULL: back to the text). */
void lf_status_set_source(lf_status_line *s, lf_status_source source, void *ctx);
/* Prints to out (stdout or stderr; printf format, with its own newlines) without mixing it with the line: the
 * line is erased first and drawn again at the next tick. A command prints everything through this while
 * its line runs. The text is escaped as lf_esc_printf does (util/escape.h), and so is the line itself. */
void lf_status_printf(lf_status_line *s, FILE *out, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* Erases the line and frees s; call before printing results. */
void lf_status_stop(lf_status_line *s);

#endif
