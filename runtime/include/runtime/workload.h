/* Workloads: what one run does (threads, ops, op mix, argument domains, perturbation, seed), and their
 * expansion into a plan of concrete calls per thread.
 *
 * lf_workload is plain fixed-size data with no pointers, so a fuzzer can decode one from input bytes
 * (lf_workload_sanitize then clamps any field to its valid range) and a report can print it. Expanding the
 * same workload for the same adapter always gives the same plan.
 *
 * Values are distinct by construction: every insert (write of register, add, push, enq, insert, and the
 * value of put) gets a value no other call of the run uses, so histories of register, set, stack, queue and
 * pqueue are unambiguous and go to the log-linear monitors. Only cas-register values and kv keys come from
 * the small key_domain, on purpose: CASes must sometimes succeed and keys must collide. */
#ifndef LINFUZZ_WORKLOAD_H
#define LINFUZZ_WORKLOAD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "linfuzz/adapter.h"
#include "linfuzz/history.h"
#include "runtime/perturb.h"

#define LF_WORKLOAD_MAX_THREADS 64
#define LF_WORKLOAD_MAX_OPS 1000000 /* per thread */

typedef struct lf_workload {
    uint64_t seed;           /* drives op choice, arguments and perturbation */
    uint32_t threads;        /* 1 .. LF_WORKLOAD_MAX_THREADS */
    uint32_t ops_per_thread; /* 1 .. LF_WORKLOAD_MAX_OPS */
    uint8_t mix[LF_M_COUNT]; /* relative weight per method; methods the adapter lacks are ignored; all 0 = uniform */
    uint32_t key_domain;     /* kv keys are 0..key_domain-1, cas-register values 1..key_domain (>= 1) */
    uint32_t value_spread;   /* containers: inserted values are in random order within this factor; 1 = in
                                order of (op index, thread), which makes concurrent inserts neighbours */
    uint8_t absent_share;    /* set: share (/256) of remove/contains arguments that are never added */
    lf_perturb perturb;
    bool balance_blocking;   /* plans skip the blocking removes that could wait forever (lf_plan_balance_blocking) */
} lf_workload;

/* One planned call. */
typedef struct lf_planned_op {
    int64_t args[LF_CUSTOM_MAX_ARGS];
    uint8_t method; /* lf_method, or LF_PLAN_SKIP: not called (lf_plan_balance_blocking) */
    uint8_t nargs;
} lf_planned_op;

#define LF_PLAN_SKIP LF_M_COUNT

/* A planned bulk or burst call (history.h) of n values (1..LF_BULK_MAX): nargs is n, and an insert offers
 * base + i * 2^32 for i = 1..n: above every single op's value (below 2^32), and distinct from other bulk calls' as
 * long as their bases are distinct and below 2^32. */
static inline void lf_plan_bulk_call(lf_planned_op *op, lf_method m, unsigned n, int64_t base) {
    op->method = (uint8_t)m;
    op->nargs = (uint8_t)n;
    for (unsigned i = 0; i < LF_CUSTOM_MAX_ARGS; i++)
        op->args[i] = lf_method_is_bulk_insert(m) && i < n ? base + (int64_t)(i + 1) * ((int64_t)1 << 32) : 0;
}

typedef struct lf_plan {
    uint32_t threads, ops_per_thread;
    lf_planned_op *ops; /* thread t's i-th call is ops[t * ops_per_thread + i] */
} lf_plan;

/* Sensible defaults: 4 threads, 100 ops, uniform mix, moderate perturbation, seed 1. */
void lf_workload_default(lf_workload *w);
/* A random workload for stress testing: given threads and ops, everything else (mix, domains, perturbation)
 * drawn from seed, so that successive seeds explore different shapes of runs. */
void lf_workload_random(lf_workload *w, uint64_t seed, uint32_t threads, uint32_t ops_per_thread);
/* Clamps every field into its valid range (for workloads decoded from untrusted bytes). */
void lf_workload_sanitize(lf_workload *w);
/* Writes a one-line description ("seed=.. threads=.. ops=.. mix=push:3,pop:1 ..."). */
int lf_workload_describe(char *buf, size_t len, const lf_workload *w, const lf_adapter *a);

/* Expands w for adapter a: worker t's calls are drawn from the methods it may call
 * (lf_adapter_thread_methods: exclusive groups go to their owners). Returns false when out of memory. */
bool lf_plan_build(lf_plan *p, const lf_workload *w, const lf_adapter *a);
void lf_plan_free(lf_plan *p);

/* Balanced blocking, for adapters whose removes may block (lf_adapter.may_block): marks LF_PLAN_SKIP every
 * remove beyond the values that are certain to come, so that a correct implementation never waits forever
 * and a STUCK run is a bug (a lost wakeup, a deadlock) rather than more removes than inserts. The serial
 * prefix (prefix[0..prefix_len), run first, alone) keeps a blocking remove only when a value is there; the
 * workers (ops[t][0..len[t]), t < threads) share the values left by the prefix plus the inserts each worker
 * makes before its first call that may block, and keep that many removes (blocking or not: a non-blocking
 * remove can take a value too), in worker order. Conservative: it may skip removes that would have found a
 * value. Blocking inserts are not balanced. Returns the number of calls skipped. */
size_t lf_plan_balance_blocking(const lf_adapter *a, lf_planned_op *prefix, size_t prefix_len, lf_planned_op *const *ops,
                                const size_t *len, unsigned threads);

/* Whether runs of adapter a are balanced: LINFUZZ_FUZZ_BLOCKING=balanced or =any decides; unset or empty, they
 * are for an adapter that declares blocking methods (a correct blocking structure then never waits forever,
 * and a STUCK run is a bug) and need not be for others. False, with err naming the variable, for another
 * value. The fuzz targets, `linfuzz stress` and the replays of `repro` and `triage` all ask this. */
bool lf_blocking_balanced(const lf_adapter *a, bool *out, char *err, size_t errlen);
/* "balanced" or "any", as an entry's meta "blocking" records it: whether those runs were balanced (NULL
 * or an unknown value: lf_blocking_balanced's answer). */
bool lf_blocking_from_meta(const lf_adapter *a, const char *meta_value);

#endif
