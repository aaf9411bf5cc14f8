/* Persistent pool of worker threads: parked on a condition variable between runs, released together by a
 * spin-then-yield barrier at the start of each run. */
#include "runner/pool.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>

typedef struct worker {
    lf_pool *pool;
    unsigned index;
    pthread_t thread;
} worker;

struct lf_pool {
    pthread_mutex_t lock;
    pthread_cond_t wake; /* workers wait here for a new generation */
    pthread_cond_t done; /* the controller waits here for the last worker */
    unsigned size;
    uint64_t generation; /* bumped (under lock) for every run, and once more to stop */
    bool stopping;
    unsigned active;     /* threads taking part in the current run */
    unsigned finished;   /* of them, done with the task (under lock) */
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
        while (p->generation == seen) pthread_cond_wait(&p->wake, &p->lock);
        seen = p->generation;
        if (p->stopping) break;
        if (w->index >= p->active) continue;
        lf_pool_fn fn = p->fn;
        void *fn_arg = p->arg;
        pthread_mutex_unlock(&p->lock);

        start_barrier(p);
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
    if (!p->workers || pthread_mutex_init(&p->lock, NULL) || pthread_cond_init(&p->wake, NULL) ||
        pthread_cond_init(&p->done, NULL)) {
        free(p->workers);
        free(p);
        return NULL;
    }
    atomic_init(&p->arrived, 0);
    for (unsigned i = 0; i < max_threads; i++) {
        p->workers[i].pool = p;
        p->workers[i].index = i;
        if (pthread_create(&p->workers[i].thread, NULL, worker_main, &p->workers[i]) != 0) {
            p->size = i;
            lf_pool_destroy(p);
            return NULL;
        }
        p->size = i + 1;
    }
    return p;
}

unsigned lf_pool_size(const lf_pool *p) { return p->size; }

void lf_pool_run(lf_pool *p, unsigned n, lf_pool_fn fn, void *arg) {
    if (n == 0) return;
    pthread_mutex_lock(&p->lock);
    p->fn = fn;
    p->arg = arg;
    p->active = n <= p->size ? n : p->size;
    p->finished = 0;
    atomic_store_explicit(&p->arrived, 0, memory_order_relaxed);
    p->generation++;
    pthread_cond_broadcast(&p->wake);
    while (p->finished < p->active) pthread_cond_wait(&p->done, &p->lock);
    pthread_mutex_unlock(&p->lock);
}

void lf_pool_destroy(lf_pool *p) {
    pthread_mutex_lock(&p->lock);
    p->stopping = true;
    p->generation++;
    pthread_cond_broadcast(&p->wake);
    pthread_mutex_unlock(&p->lock);
    for (unsigned i = 0; i < p->size; i++) pthread_join(p->workers[i].thread, NULL);
    pthread_cond_destroy(&p->wake);
    pthread_cond_destroy(&p->done);
    pthread_mutex_destroy(&p->lock);
    free(p->workers);
    free(p);
}
