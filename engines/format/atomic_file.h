/* Atomic file writes (atomic_file.c; lf_write_file_atomic is in linfuzz/format.h): the two hooks the tests
 * need, internal to the library. */
#ifndef LINFUZZ_ATOMIC_FILE_H
#define LINFUZZ_ATOMIC_FILE_H

#include <stdbool.h>
#include <stddef.h>

/* Whether writes may use an unnamed file (O_TMPFILE) where the file system supports it (default true);
 * false forces the named temporary file, so that tests can exercise that path anywhere. */
void lf_atomic_file_use_tmpfile(bool on);

#endif
