/* Appending formatted text to a fixed buffer: the describe functions (an op, a schedule, a fuzz case, a stuck
 * run) build one line from many pieces, each cut where the buffer ends, and report the length the whole line
 * would have, as snprintf does. */
#ifndef LINFUZZ_APPENDF_H
#define LINFUZZ_APPENDF_H

#include <stddef.h>

/* printf-formats at buf + *w (buf holds len bytes; the text is cut and NUL-terminated where it ends) and adds
 * the formatted length to *w, whether it fitted or not (a formatting error adds nothing). */
__attribute__((format(printf, 4, 5))) void lf_appendf(char *buf, size_t len, size_t *w, const char *fmt, ...);

#endif
