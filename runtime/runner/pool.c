/* Persistent pool of worker threads: each parked on its own condition variable between runs, so that a run
 * of n threads wakes exactly those n (a broadcast would wake every pooled thread only to have most of them go
 * back to sleep: context switches that a loaded machine makes expensive); released together by a
 * spin-then-yield barrier at the start of each run unless the caller does its own start-up (controlled
 * runs: the scheduler decides who runs first). */
#include "runtime/pool.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>

typedef struct worker {
    lf_pool *pool;
    unsigned index;
    pthread_t thread;
    pthread_cond_t wake; /* this worker waits here for a run that includes it (or the stop) */
    uint64_t runs;       /* runs it was asked to take part in (under lock) */
} worker;

struct lf_pool {
    pthread_mutex_t lock;
    pthread_cond_t done; /* the controller waits here for the last worker */
    unsigned size;
    bool stopping;
    unsigned active;     /* threads taking part in the current run */
    unsigned finished;   /* of them, done with the task (under lock) */
    bool barrier;        /* the current run starts with the barrier */
    lf_pool_fn fn;
    void *arg;
    _Atomic unsigned arrived; /* start barrier: participants that are ready */
    worker *workers;
};

/* Wait until every participant has arrived. Spinning keeps the release tight; yielding after a while keeps
 * oversubscribed runs (more threads than cores) from burning their time slices. */
static void start_barrier(lf_pool *p) {
    atomic_fetch_add_explicit(&p->arrived, 1, memory_order_acq_rel);
    for (unsigned spins = 0; atomic_load_explicit(&p->arrived, memory_order_acquire) < p->active; spins++)
        if (spins > 200) sched_yield();
}

static void *worker_main(void *arg) {
    worker *w = arg;
    lf_pool *p = w->pool;
    uint64_t seen = 0;
    pthread_mutex_lock(&p->lock);
    for (;;) {
        while (w->runs == seen && !p->stopping) pthread_cond_wait(&w->wake, &p->lock);
        if (p->stopping) break;
        seen = w->runs;
        lf_pool_fn fn = p->fn;
        void *fn_arg = p->arg;
        bool barrier = p->barrier;
        pthread_mutex_unlock(&p->lock);

        if (barrier) start_barrier(p);
        fn(w->index, fn_arg);

        pthread_mutex_lock(&p->lock);
        if (++p->finished == p->active) pthread_cond_signal(&p->done);
    }
    pthread_mutex_unlock(&p->lock);
    return NULL;
}

lf_pool *lf_pool_create(unsigned max_threads) {
    lf_pool *p = calloc(1, sizeof *p);
    if (!p) return NULL;
    p->workers = calloc(max_threads, sizeof *p->workers);
    if (!p->workers || pthread_mutex_init(&p->lock, NULL) || pthread_cond_init(&p->done, NULL)) {
        free(p->workers);
        free(p);
        return NULL;
    }
    atomic_init(&p->arrived, 0);
    for (unsigned i = 0; i < max_threads; i++) {
        worker *w = &p->workers[i];
        w->pool = p;
        w->index = i;
        if (pthread_cond_init(&w->wake, NULL) != 0 || pthread_create(&w->thread, NULL, worker_main, w) != 0) {
            p->size = i;
            lf_pool_destroy(p);
            return NULL;
        }
        p->size = i + 1;
    }
    return p;
}

unsigned lf_pool_size(const lf_pool *p) { return p->size; }

void lf_pool_run_with(lf_pool *p, unsigned n, lf_pool_fn fn, void *arg, bool barrier) {
    if (n == 0) return;
    pthread_mutex_lock(&p->lock);
    p->fn = fn;
    p->arg = arg;
    p->active = n <= p->size ? n : p->size;
    p->finished = 0;
    p->barrier = barrier;
    atomic_store_explicit(&p->arrived, 0, memory_order_relaxed);
    for (unsigned i = 0; i < p->active; i++) {
        p->workers[i].runs++;
        pthread_cond_signal(&p->workers[i].wake);
    }
    while (p->finished < p->active) pthread_cond_wait(&p->done, &p->lock);
    pthread_mutex_unlock(&p->lock);
}

void lf_pool_run(lf_pool *p, unsigned n, lf_pool_fn fn, void *arg) { lf_pool_run_with(p, n, fn, arg, true); }

void lf_pool_destroy(lf_pool *p) {
    pthread_mutex_lock(&p->lock);
    p->stopping = true;
    for (unsigned i = 0; i < p->size; i++) pthread_cond_signal(&p->workers[i].wake);
    pthread_mutex_unlock(&p->lock);
    for (unsigned i = 0; i < p->size; i++) {
        pthread_join(p->workers[i].thread, NULL);
        pthread_cond_destroy(&p->workers[i].wake);
    }
    pthread_cond_destroy(&p->done);
    pthread_mutex_destroy(&p->lock);
    free(p->workers);
    free(p);
}
