/* Minimal test harness: CHECK macros that report file:line and keep going, and a summary line. */
#ifndef LINFUZZ_TEST_UTIL_H
#define LINFUZZ_TEST_UTIL_H

#include <stdio.h>
#include <stdlib.h>

/* LF_TEST_SANITIZED: 1 in a sanitizer build, which makes a test several times slower: randomized tests draw
 * fewer cases there (a fixed number, stated where used: never a wall-clock amount), or allow more time, so
 * that the suite under ASan on a busy machine stays well inside the ctest timeouts (docs/ci.md). */
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define LF_TEST_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || __has_feature(memory_sanitizer) || \
    __has_feature(undefined_behavior_sanitizer)
#define LF_TEST_SANITIZED 1
#endif
#endif
#ifndef LF_TEST_SANITIZED
#define LF_TEST_SANITIZED 0
#endif

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

/* n cases, or n / divisor (at least 1) under a sanitizer. */
#define LF_TEST_CASES(n, divisor) (LF_TEST_SANITIZED ? ((n) / (divisor) > 0 ? (n) / (divisor) : 1) : (n))

/* Ends main: prints "N passed, M failed" and returns the exit status. */
#define TEST_DONE()                                                                             \
    do {                                                                                        \
        printf("%d passed, %d failed\n", lf_test_checks - lf_test_failures, lf_test_failures); \
        return lf_test_failures ? 1 : 0;                                                        \
    } while (0)

#endif
