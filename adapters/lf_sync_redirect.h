/* Force-included (-include) into adapter sources: maps the POSIX locking, waiting and sleeping functions to
 * their lf_sync.h twins, which are scheduling points in controlled mode and the real functions otherwise, and
 * free/realloc to theirs (no points: they drain a weak memory model's store buffer first).
 * The system headers come first, so their own declarations keep the POSIX names; every later call in the
 * adapter (and in the inline code of headers it includes) goes through the twins. The macros are
 * function-like, so a struct member or variable that happens to be called `poll` or `sleep` is left alone.
 * No source changes. */
#ifndef LINFUZZ_LF_SYNC_REDIRECT_H
#define LINFUZZ_LF_SYNC_REDIRECT_H

#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <semaphore.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "linfuzz/sync.h"

#define pthread_mutex_lock(...) lf_mutex_lock(__VA_ARGS__)
#define pthread_mutex_trylock(...) lf_mutex_trylock(__VA_ARGS__)
#define pthread_mutex_timedlock(...) lf_mutex_timedlock(__VA_ARGS__)
#define pthread_mutex_unlock(...) lf_mutex_unlock(__VA_ARGS__)
#define pthread_rwlock_rdlock(...) lf_rwlock_rdlock(__VA_ARGS__)
#define pthread_rwlock_tryrdlock(...) lf_rwlock_tryrdlock(__VA_ARGS__)
#define pthread_rwlock_timedrdlock(...) lf_rwlock_timedrdlock(__VA_ARGS__)
#define pthread_rwlock_wrlock(...) lf_rwlock_wrlock(__VA_ARGS__)
#define pthread_rwlock_trywrlock(...) lf_rwlock_trywrlock(__VA_ARGS__)
#define pthread_rwlock_timedwrlock(...) lf_rwlock_timedwrlock(__VA_ARGS__)
#define pthread_rwlock_unlock(...) lf_rwlock_unlock(__VA_ARGS__)
#define pthread_spin_lock(...) lf_spin_lock(__VA_ARGS__)
#define pthread_spin_trylock(...) lf_spin_trylock(__VA_ARGS__)
#define pthread_spin_unlock(...) lf_spin_unlock(__VA_ARGS__)
#define pthread_cond_wait(...) lf_cond_wait(__VA_ARGS__)
#define pthread_cond_timedwait(...) lf_cond_timedwait(__VA_ARGS__)
#define pthread_cond_signal(...) lf_cond_signal(__VA_ARGS__)
#define pthread_cond_broadcast(...) lf_cond_broadcast(__VA_ARGS__)
#define sem_wait(...) lf_sem_wait(__VA_ARGS__)
#define sem_trywait(...) lf_sem_trywait(__VA_ARGS__)
#define sem_timedwait(...) lf_sem_timedwait(__VA_ARGS__)
#define sem_post(...) lf_sem_post(__VA_ARGS__)
#define sched_yield(...) lf_sched_yield(__VA_ARGS__)
#define usleep(...) lf_usleep(__VA_ARGS__)
#define nanosleep(...) lf_nanosleep(__VA_ARGS__)
#define sleep(...) lf_sleep(__VA_ARGS__)
#define poll(...) lf_poll(__VA_ARGS__)
#define free(...) lf_free(__VA_ARGS__)
#define realloc(...) lf_realloc(__VA_ARGS__)

#endif
