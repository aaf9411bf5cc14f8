/* Atomic file writes (atomic_file.c; lf_write_file_atomic is in linfuzz/format.h): the two hooks the tests
 * need, internal to the library. */
#ifndef LINFUZZ_ATOMIC_FILE_H
#define LINFUZZ_ATOMIC_FILE_H

#include <stdbool.h>
#include <stddef.h>

/* Whether writes may use an unnamed file (O_TMPFILE) where the file system supports it (default true);
 * false forces the named temporary file, so that tests can exercise that path anywhere. */
void lf_atomic_file_use_tmpfile(bool on);
/* Removes the temporary files in dir whose writer is gone (and the older versions' ones for base); returns
 * how many. Every write does this for its own directory first. */
size_t lf_atomic_file_sweep(const char *dir, const char *base);

#endif
