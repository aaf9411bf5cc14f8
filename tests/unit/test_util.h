/* Minimal test harness: CHECK macros that report file:line and keep going, and a summary line. */
#ifndef LINFUZZ_TEST_UTIL_H
#define LINFUZZ_TEST_UTIL_H

#include <stdio.h>
#include <stdlib.h>

static int lf_test_failures;
static int lf_test_checks;

#define CHECK(cond)                                                                 \
    do {                                                                            \
        lf_test_checks++;                                                           \
        if (!(cond)) {                                                              \
            lf_test_failures++;                                                     \
            fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond); \
        }                                                                           \
    } while (0)

#define CHECKF(cond, ...)                                                           \
    do {                                                                            \
        lf_test_checks++;                                                           \
        if (!(cond)) {                                                              \
            lf_test_failures++;                                                     \
            fprintf(stderr, "%s:%d: CHECK failed: %s: ", __FILE__, __LINE__, #cond); \
            fprintf(stderr, __VA_ARGS__);                                           \
            fputc('\n', stderr);                                                    \
        }                                                                           \
    } while (0)

/* Ends main: prints "N passed, M failed" and returns the exit status. */
#define TEST_DONE()                                                                             \
    do {                                                                                        \
        printf("%d passed, %d failed\n", lf_test_checks - lf_test_failures, lf_test_failures); \
        return lf_test_failures ? 1 : 0;                                                        \
    } while (0)

#endif
