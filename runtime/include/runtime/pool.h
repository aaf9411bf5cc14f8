/* Persistent pool of worker threads with a start barrier.
 *
 * Creating threads per run would cost more than a short run itself and would let the first thread finish
 * before the last one starts. The pool keeps its threads parked between runs; each run wakes them, and they
 * wait at a barrier so that all start their ops at (nearly) the same instant. */
#ifndef LINFUZZ_POOL_H
#define LINFUZZ_POOL_H

#include <stdbool.h>

typedef struct lf_pool lf_pool;

/* The task of one run: fn(index, arg) on threads 0..n-1. */
typedef void (*lf_pool_fn)(unsigned index, void *arg);

/* A pool of max_threads parked threads, or NULL when threads cannot be created. */
lf_pool *lf_pool_create(unsigned max_threads);
unsigned lf_pool_size(const lf_pool *p);
/* Runs fn on the first n threads (n <= size), all released together; returns when every one has returned.
 * Not reentrant: one run at a time per pool. */
void lf_pool_run(lf_pool *p, unsigned n, lf_pool_fn fn, void *arg);
/* The same; barrier false skips the start barrier (for callers that order the start themselves, as the
 * controlled scheduler does: a thread that spins at the barrier only keeps the others from the cores). */
void lf_pool_run_with(lf_pool *p, unsigned n, lf_pool_fn fn, void *arg, bool barrier);
void lf_pool_destroy(lf_pool *p);

#endif
