/* Appending formatted text to a fixed buffer (see appendf.h). */
#include "util/appendf.h"

#include <stdarg.h>
#include <stdio.h>

void lf_appendf(char *buf, size_t len, size_t *w, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(*w < len ? buf + *w : NULL, *w < len ? len - *w : 0, fmt, ap);
    va_end(ap);
    if (k > 0) *w += (size_t)k;
}
