/* What several subcommands do with violation entries and command lines: load an entry and complete the
 * metadata older versions did not write, and find where the programs are for the commands they print. */
#ifndef LINFUZZ_CLI_ENTRY_H
#define LINFUZZ_CLI_ENTRY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "findings/entry.h"

/* lf_entry_load, then: an entry written before `serial_thread` was recorded gets it from its fuzz-case
 * workload (the serial prefix and drain are thread `threads`, docs/fuzzing.md). */
lf_status lf_cli_load_entry(const char *path, lf_violation_entry *e, char *err, size_t errlen);

/* The entry's fuzzer input as a fuzz target of this version reads it: its workload bytes, or for a workload of an
 * older format (fuzz-case 1 to 4) the same case in today's (raw older bytes would decode differently: a
 * fuzz-case 2 one would run mixed memory models), into out (LF_FC_MAX_ENCODED bytes) when converted. Sets
 * *bytes and *len; returns whether it converted (the adapter must be in this build). */
bool lf_cli_entry_input(const lf_violation_entry *e, uint8_t *out, const uint8_t **bytes, size_t *len);

/* Where the programs are, for pasteable commands: this executable's directory, relative to the current
 * directory when inside it ("build/bin/"), else absolute; "" when unknown. */
void lf_cli_bin_prefix(char *out, size_t len);

#endif
