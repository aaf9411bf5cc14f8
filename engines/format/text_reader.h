/* The text reader's options, for linfuzz's own readers and tests (the public entry points are in
 * linfuzz/format.h and always use the fast path).
 *
 * use_fast = false parses every line with the general parser alone: the parser fuzz target compares the two,
 * which must agree on every input (status, message, history). line_limit = true refuses lines longer than
 * 1048575 bytes, as the stream reader always does, so that reading a file from memory and reading it as a
 * stream give the same answers. */
#ifndef LINFUZZ_TEXT_READER_H
#define LINFUZZ_TEXT_READER_H

#include <stdbool.h>
#include <stddef.h>

#include "linfuzz/format.h"

lf_status lf_text_read_buffer_with(const char *buf, size_t len, const char *name, lf_history *h, char *err,
                                   size_t errlen, bool use_fast, bool line_limit);

#endif
