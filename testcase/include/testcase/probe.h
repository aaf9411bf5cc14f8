/* What a campaign can see of an adapter, checked before it starts (docs/scheduling.md, "Is the adapter seen?").
 *
 * A controlled run interleaves threads only at scheduling points: the accesses of instrumented code, its locks,
 * LF_YIELD(), and the calls into uninstrumented libraries that were wrapped. An adapter whose operations reach
 * none (its structure lives in a library built without the instrumentation, called without wrappers) runs each
 * operation as one step: every campaign is green and has tested no interleaving inside an operation. An atomic
 * instruction written in inline assembly is invisible too (the scheduler never switches around it, and the
 * reads-from feedback does not see it), whatever points surround it.
 *
 * lf_probe_adapter runs one small controlled case (two workers, each calling every non-blocking method of the
 * adapter a few times) with the scheduler's events counted per operation, then looks at the machine code of the
 * instrumented functions those operations ran (the functions of the access sites and the adapter's op function,
 * found in the program's symbol table) for lock-prefixed compare-exchange and exchange-add instructions
 * (cmpxchg, cmpxchg8b/16b, xadd), which the instrumentation turns into calls when the compiler writes them:
 * there they come from inline assembly. lf_probe_warn prints what a user must know. */
#ifndef LINFUZZ_TESTCASE_PROBE_H
#define LINFUZZ_TESTCASE_PROBE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "linfuzz/adapter.h"

#define LF_PROBE_MAX_ASM 8 /* functions with inline-assembly atomics reported */

typedef struct lf_probe_method {
    unsigned method;   /* in the adapter's type */
    uint64_t calls;    /* calls made by the workers */
    uint64_t points;   /* scheduling points inside them (not counting their call and return) */
    uint64_t libcalls; /* of those, calls into and returns from wrapped uninstrumented libraries */
} lf_probe_method;

typedef struct lf_probe_report {
    bool ran;           /* the controlled probe ran (false: the build has no access points, or nothing to call) */
    char why_not[160];  /* when it did not */
    lf_probe_method m[LF_M_COUNT];
    unsigned n_methods;
    unsigned skipped_blocking; /* methods not probed because they may block */
    bool code_scanned;         /* the program's symbol table could be read */
    struct {
        char function[96];
        unsigned count;        /* lock-prefixed cmpxchg/xadd found in it */
    } asm_atomics[LF_PROBE_MAX_ASM];
    unsigned n_asm;
} lf_probe_report;

/* Probes adapter a (see above). False only when out of memory or threads (err says so); a probe that could not
 * run says why in r->why_not. */
bool lf_probe_adapter(const lf_adapter *a, lf_probe_report *r, char *err, size_t errlen);
/* Prints one "warning:" line per problem of r to f, each starting with prefix; returns their number (0: every
 * method reached scheduling points and no inline-assembly atomic was seen). */
unsigned lf_probe_warn(FILE *f, const char *prefix, const lf_adapter *a, const lf_probe_report *r);

#endif
