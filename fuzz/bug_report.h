/* How a fuzz target dies on a finding, so that ClusterFuzz and OSS-Fuzz file one crash per bug.
 *
 * ClusterFuzz groups crashes by crash type and crash state. Its stack analyzer takes the state from the top
 * three frames of the symbolized stack, after dropping frames it ignores (abort, raise, libc, the sanitizers'
 * and libFuzzer's own frames, LLVMFuzzerTestOneInput, anything named *assert*); after an assertion line
 * ("[...] ASSERTION FAILED: MESSAGE") the type is ASSERT and the state is the message and the two frames below
 * it. It replaces runs of four or more digits and hexadecimal addresses in the state, and cuts each line at 80
 * characters. When every finding aborted from one function, every bug of a target was one crash.
 *
 * So a target names the bug of a finding by its triage group (lf_triage_entry_group: adapter, category, type,
 * and root cause when confirmed: what `linfuzz triage` groups by) and dies in lf_bug_report_die:
 *
 *   linfuzz-fuzz: bug kfhdaopbcemlgnij = triage group a5f30e1b2c4d6978: BUG my_queue: queue, root cause: ...
 *   [linfuzz-fuzz] ASSERTION FAILED: linearizability bug kfhdaopbcemlgnij in my_queue: queue, root cause: ...
 *
 * then aborts from one of 256 report functions (linfuzz_bug_aa .. linfuzz_bug_pp) chosen by the group's id, so
 * that the frames below the message differ by bug too. The id is written in letters (hex digit d as the letter
 * 'a' + d): ClusterFuzz would replace its digits. Two findings of one bug give the same type and state, two bugs
 * of one target (two triage groups) two. tests/fuzz/test_crash_state.sh parses the output as ClusterFuzz does. */
#ifndef LINFUZZ_FUZZ_BUG_REPORT_H
#define LINFUZZ_FUZZ_BUG_REPORT_H

#include "findings/entry.h"
#include "findings/triage.h"

/* The group id in letters: 16 letters a..p and a terminating NUL. */
void lf_bug_id_letters(const char id[17], char out[17]);

/* Prints the two lines above for entry e ("linearizability bug", "STUCK bug", ...: `what`) on stderr and
 * aborts from the report function of its triage group. Never returns. When the group cannot be computed (out
 * of memory), the adapter alone names it. */
void lf_bug_report_die(const char *what, const lf_violation_entry *e) __attribute__((noreturn));

#endif
