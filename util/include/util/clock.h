/* The one monotonic clock of linfuzz: seconds since an arbitrary start, for deadlines, time budgets, progress
 * lines and benchmarks (engines and the fuzzing layer alike). Never the wall clock, which can jump. */
#ifndef LINFUZZ_UTIL_CLOCK_H
#define LINFUZZ_UTIL_CLOCK_H

/* CLOCK_MONOTONIC, in seconds. */
double lf_now_s(void);

/* The CPU time this process has used (every thread), in seconds: for budgets of work that a busy machine must
 * stretch, not cut (util/hang.h says why a wall-clock bound gives a wrong answer there). */
double lf_cpu_now_s(void);

#endif
