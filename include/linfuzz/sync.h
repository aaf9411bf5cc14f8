/* Synchronisation primitives that are scheduling points in controlled mode (docs/scheduling.md).
 *
 * Each lf_ function takes the same arguments and returns what its POSIX namesake returns. Outside a
 * controlled run (free-running workers, the serial parts of a run, code outside linfuzz) it simply calls the
 * real function. In a controlled run, where only one worker runs at a time, a lock that is held marks the
 * caller blocked on it and hands the baton on (the baton holder never waits for a parked thread); unlocking
 * makes the waiters runnable; a condition wait releases the mutex, waits and re-acquires it as scheduling
 * points; timed waits time out, deterministically, only when no other thread can run; sched_yield and the
 * sleeps are scheduling points that do not sleep. When every unfinished thread is blocked the run ends as
 * STUCK (a deadlock), reported with the threads' operations and what they wait for.
 *
 * Adapters do not need to call these by name: the build force-includes lf_sync_redirect.h into adapter
 * sources, which maps the POSIX names (pthread_mutex_lock, sem_wait, usleep, ...) to these. Code that is
 * compiled elsewhere (a prebuilt library's internal locks) is not redirected: its blocking is invisible to
 * the scheduler, and the watchdog keeps it from hanging a run. */
#ifndef LINFUZZ_SYNC_H
#define LINFUZZ_SYNC_H

#include <poll.h>
#include <pthread.h>
#include <semaphore.h>
#include <stddef.h>
#include <time.h>

#ifdef __cplusplus
extern "C" {
#endif

int lf_mutex_lock(pthread_mutex_t *m);
int lf_mutex_trylock(pthread_mutex_t *m);
int lf_mutex_timedlock(pthread_mutex_t *m, const struct timespec *abstime);
int lf_mutex_unlock(pthread_mutex_t *m);

/* Reader-writer locks and spinlocks exist where <pthread.h> declares them (POSIX 2001 and later: not in a
 * strict ISO C compilation without feature macros, where adapters cannot use them either). */
#ifdef PTHREAD_RWLOCK_INITIALIZER
int lf_rwlock_rdlock(pthread_rwlock_t *l);
int lf_rwlock_tryrdlock(pthread_rwlock_t *l);
int lf_rwlock_timedrdlock(pthread_rwlock_t *l, const struct timespec *abstime);
int lf_rwlock_wrlock(pthread_rwlock_t *l);
int lf_rwlock_trywrlock(pthread_rwlock_t *l);
int lf_rwlock_timedwrlock(pthread_rwlock_t *l, const struct timespec *abstime);
int lf_rwlock_unlock(pthread_rwlock_t *l);

int lf_spin_lock(pthread_spinlock_t *l);
int lf_spin_trylock(pthread_spinlock_t *l);
int lf_spin_unlock(pthread_spinlock_t *l);
#endif

int lf_cond_wait(pthread_cond_t *c, pthread_mutex_t *m);
int lf_cond_timedwait(pthread_cond_t *c, pthread_mutex_t *m, const struct timespec *abstime);
int lf_cond_signal(pthread_cond_t *c);
int lf_cond_broadcast(pthread_cond_t *c);

int lf_sem_wait(sem_t *s);
int lf_sem_trywait(sem_t *s);
int lf_sem_timedwait(sem_t *s, const struct timespec *abstime);
int lf_sem_post(sem_t *s);

/* free and realloc of adapter code: the real functions, after (in a controlled run under the tso memory model,
 * docs/memory-models.md) the calling thread's buffered stores drained, so that none lands later in memory the
 * allocator has handed to another thread, and after the ABA strategy's watch of a word in the block ended
 * (docs/scheduling.md). No scheduling point. */
void lf_free(void *p);
void *lf_realloc(void *p, size_t size);

int lf_sched_yield(void);
int lf_usleep(unsigned long usec); /* usleep's useconds_t */
int lf_nanosleep(const struct timespec *req, struct timespec *rem);
unsigned lf_sleep(unsigned seconds);
/* poll without descriptors is a sleep (liburcu's busy-waits use it); with descriptors it is the real poll. */
int lf_poll(struct pollfd *fds, nfds_t nfds, int timeout);

#ifdef __cplusplus
}
#endif

#endif
