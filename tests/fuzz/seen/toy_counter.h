/* A stand-in for a third-party library (tests/fuzz/test_seen.sh): a counter whose increment is a load and a
 * store (a lost update when two increments interleave between them). Built twice: instrumented by
 * linfuzz_add_library_under_test, and as a plain static library, as a distribution would ship it. */
#ifndef TOY_COUNTER_H
#define TOY_COUNTER_H

#include <stdint.h>

typedef struct toy_counter {
    int64_t value;
} toy_counter;

void toy_inc(toy_counter *c);
int64_t toy_get(const toy_counter *c);

#endif
