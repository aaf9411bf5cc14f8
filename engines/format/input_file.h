/* Opening a file to read a history or a container from (internal to engines/format/; docs/budgets.md).
 *
 * A path may name anything: a regular file, a FIFO nobody writes to (opening it for reading would wait for a
 * writer forever), a symlink to /dev/zero or /dev/urandom (endless), a directory. lf_open_input opens without
 * waiting (O_NONBLOCK, then blocking reads again), refuses directories and devices, and tells regular files
 * (whose size is known before reading) from pipes, FIFOs and sockets (read with a bound the caller sets). */
#ifndef LINFUZZ_INPUT_FILE_H
#define LINFUZZ_INPUT_FILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "linfuzz/format.h"

typedef struct lf_input {
    int fd;
    bool regular;  /* a regular file: size is its length */
    uint64_t size; /* regular files only */
} lf_input;

/* Opens path for reading. LF_ERR_IO with "PATH: cannot open: ..." or "PATH: not a regular file or a pipe (a
 * character device): ..." in err when it cannot or must not be read. */
lf_status lf_open_input(const char *path, lf_input *in, char *err, size_t errlen);
/* Reads up to n bytes (fewer only at the end of the file); returns how many, or SIZE_MAX on a read error
 * (errno set). */
size_t lf_input_read(lf_input *in, void *buf, size_t n);
void lf_input_close(lf_input *in);

#endif
