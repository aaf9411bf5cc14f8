/* The synchronisation primitives of lf_sync.h: the real POSIX functions for free-running threads,
 * scheduling points and scheduler-managed blocking for controlled ones.
 *
 * Controlled, the real object is still the state: a lock is taken with its try-variant (only one thread
 * runs, so the attempt cannot race) and released with the real unlock; when the attempt fails the thread
 * blocks on the object in the scheduler's bookkeeping and the baton moves on; an unlock, post or signal
 * makes the waiters runnable, and they retry when the strategy schedules them. Condition variables live
 * entirely in the bookkeeping (signal wakes the oldest waiter, broadcast all), as do timeouts: a timed wait
 * times out only when nothing else can run. If the run is released to free running while a thread waits,
 * the wait falls back to the real primitive (a condition wait returns: a spurious wake-up, which POSIX
 * allows). */
#include <errno.h>
#include <malloc.h>
#include <stdlib.h>
#include <sched.h>
#include <unistd.h>

#include "linfuzz/sync.h"
#include "sched/sched_internal.h"

#define RET_PC ((uintptr_t)__builtin_return_address(0))

/* The calling thread if it is controlled and its run not released, else NULL (use the real function). */
static inline lf_sched_thread *ctl(void) {
    lf_sched_thread *th = lf_sched_self;
    return th && !lf_sched_released(th->sched) ? th : NULL;
}

/* The common shape of a controlled lock: a point, then try until it succeeds, blocking on the object in
 * between. try_fn returns 0 on success and busy on contention (anything else is an error to return). */
typedef int (*try_fn)(void *obj);
typedef int (*real_fn)(void *obj);
typedef int (*timed_fn)(void *obj, const struct timespec *abstime);

static int controlled_lock(lf_sched_thread *th, void *obj, lf_wait_kind kind, try_fn try_lock, int busy,
                           real_fn real_lock, timed_fn real_timed, const struct timespec *abstime, uintptr_t pc) {
    th->quiet_point = true; /* the event is the acquisition, below */
    lf_sched_point(th, LF_EV_SYNC, obj, 0, pc);
    th->quiet_point = false;
    for (;;) {
        int rc = try_lock(obj);
        if (rc != busy) {
            if (rc == 0) {
                lf_sched_note_held(th, obj, true);
                lf_sched_note_access(th, LF_EV_SYNC, obj, 0, pc);
            }
            return rc;
        }
        switch (lf_sched_block(th, kind, obj, abstime != NULL)) {
        case LF_WAIT_WOKEN: break;
        case LF_WAIT_TIMEDOUT: return ETIMEDOUT;
        case LF_WAIT_RELEASED: return abstime ? real_timed(obj, abstime) : real_lock(obj);
        }
    }
}

static void controlled_unlock(lf_sched_thread *th, const void *obj, uintptr_t pc) {
    lf_sched_note_held(th, obj, false);
    lf_sched_wake_waiters(th, obj, false);
    th->event_first = true; /* released already */
    lf_sched_point(th, LF_EV_SYNC, obj, 0, pc);
}

/* ---- mutexes ---- */

static int mutex_try(void *m) { return pthread_mutex_trylock(m); }
static int mutex_real(void *m) { return pthread_mutex_lock(m); }
static int mutex_timed(void *m, const struct timespec *t) { return pthread_mutex_timedlock(m, t); }

int lf_mutex_lock(pthread_mutex_t *m) {
    lf_sched_thread *th = ctl();
    if (!th) return pthread_mutex_lock(m);
    return controlled_lock(th, m, LF_WAIT_MUTEX, mutex_try, EBUSY, mutex_real, mutex_timed, NULL, RET_PC);
}

int lf_mutex_timedlock(pthread_mutex_t *m, const struct timespec *abstime) {
    lf_sched_thread *th = ctl();
    if (!th) return pthread_mutex_timedlock(m, abstime);
    return controlled_lock(th, m, LF_WAIT_MUTEX, mutex_try, EBUSY, mutex_real, mutex_timed, abstime, RET_PC);
}

int lf_mutex_trylock(pthread_mutex_t *m) {
    lf_sched_thread *th = ctl();
    if (!th) return pthread_mutex_trylock(m);
    lf_sched_point(th, LF_EV_SYNC, m, 0, RET_PC);
    int rc = pthread_mutex_trylock(m);
    if (rc == 0) lf_sched_note_held(th, m, true);
    return rc;
}

int lf_mutex_unlock(pthread_mutex_t *m) {
    int rc = pthread_mutex_unlock(m);
    lf_sched_thread *th = ctl();
    if (th && rc == 0) controlled_unlock(th, m, RET_PC);
    return rc;
}

/* ---- reader-writer locks ---- */

static int rd_try(void *l) { return pthread_rwlock_tryrdlock(l); }
static int rd_real(void *l) { return pthread_rwlock_rdlock(l); }
static int rd_timed(void *l, const struct timespec *t) { return pthread_rwlock_timedrdlock(l, t); }
static int wr_try(void *l) { return pthread_rwlock_trywrlock(l); }
static int wr_real(void *l) { return pthread_rwlock_wrlock(l); }
static int wr_timed(void *l, const struct timespec *t) { return pthread_rwlock_timedwrlock(l, t); }

int lf_rwlock_rdlock(pthread_rwlock_t *l) {
    lf_sched_thread *th = ctl();
    if (!th) return pthread_rwlock_rdlock(l);
    return controlled_lock(th, l, LF_WAIT_RWLOCK_READ, rd_try, EBUSY, rd_real, rd_timed, NULL, RET_PC);
}

int lf_rwlock_timedrdlock(pthread_rwlock_t *l, const struct timespec *abstime) {
    lf_sched_thread *th = ctl();
    if (!th) return pthread_rwlock_timedrdlock(l, abstime);
    return controlled_lock(th, l, LF_WAIT_RWLOCK_READ, rd_try, EBUSY, rd_real, rd_timed, abstime, RET_PC);
}

int lf_rwlock_tryrdlock(pthread_rwlock_t *l) {
    lf_sched_thread *th = ctl();
    if (!th) return pthread_rwlock_tryrdlock(l);
    lf_sched_point(th, LF_EV_SYNC, l, 0, RET_PC);
    int rc = pthread_rwlock_tryrdlock(l);
    if (rc == 0) lf_sched_note_held(th, l, true);
    return rc;
}

int lf_rwlock_wrlock(pthread_rwlock_t *l) {
    lf_sched_thread *th = ctl();
    if (!th) return pthread_rwlock_wrlock(l);
    return controlled_lock(th, l, LF_WAIT_RWLOCK_WRITE, wr_try, EBUSY, wr_real, wr_timed, NULL, RET_PC);
}

int lf_rwlock_timedwrlock(pthread_rwlock_t *l, const struct timespec *abstime) {
    lf_sched_thread *th = ctl();
    if (!th) return pthread_rwlock_timedwrlock(l, abstime);
    return controlled_lock(th, l, LF_WAIT_RWLOCK_WRITE, wr_try, EBUSY, wr_real, wr_timed, abstime, RET_PC);
}

int lf_rwlock_trywrlock(pthread_rwlock_t *l) {
    lf_sched_thread *th = ctl();
    if (!th) return pthread_rwlock_trywrlock(l);
    lf_sched_point(th, LF_EV_SYNC, l, 0, RET_PC);
    int rc = pthread_rwlock_trywrlock(l);
    if (rc == 0) lf_sched_note_held(th, l, true);
    return rc;
}

int lf_rwlock_unlock(pthread_rwlock_t *l) {
    int rc = pthread_rwlock_unlock(l);
    lf_sched_thread *th = ctl();
    if (th && rc == 0) controlled_unlock(th, l, RET_PC);
    return rc;
}

/* ---- spinlocks ---- */

static int spin_try(void *l) { return pthread_spin_trylock(l); }
static int spin_real(void *l) { return pthread_spin_lock(l); }

int lf_spin_lock(pthread_spinlock_t *l) {
    lf_sched_thread *th = ctl();
    if (!th) return pthread_spin_lock(l);
    return controlled_lock(th, (void *)l, LF_WAIT_SPIN, spin_try, EBUSY, spin_real, NULL, NULL, RET_PC);
}

int lf_spin_trylock(pthread_spinlock_t *l) {
    lf_sched_thread *th = ctl();
    if (!th) return pthread_spin_trylock(l);
    lf_sched_point(th, LF_EV_SYNC, (const void *)l, 0, RET_PC);
    int rc = pthread_spin_trylock(l);
    if (rc == 0) lf_sched_note_held(th, (const void *)l, true);
    return rc;
}

int lf_spin_unlock(pthread_spinlock_t *l) {
    int rc = pthread_spin_unlock(l);
    lf_sched_thread *th = ctl();
    if (th && rc == 0) controlled_unlock(th, (const void *)l, RET_PC);
    return rc;
}

/* ---- condition variables ---- */

static int cond_wait(pthread_cond_t *c, pthread_mutex_t *m, const struct timespec *abstime, uintptr_t pc) {
    lf_sched_thread *th = ctl();
    if (!th) return abstime ? pthread_cond_timedwait(c, m, abstime) : pthread_cond_wait(c, m);
    lf_sched_point(th, LF_EV_SYNC, c, 0, pc);
    int rc = pthread_mutex_unlock(m);
    if (rc != 0) return rc;
    /* Releasing the mutex and waiting are one step: no scheduling point between them, or a signal given by a
     * thread that runs in between (it may take the mutex now) would find no waiter and be lost. */
    lf_sched_note_held(th, m, false);
    lf_sched_wake_waiters(th, m, false);
    lf_wait_result w = lf_sched_block(th, LF_WAIT_COND, c, abstime != NULL);
    /* Re-acquire the mutex (the real way if the run was released meanwhile). */
    th = ctl();
    rc = th ? controlled_lock(th, m, LF_WAIT_MUTEX, mutex_try, EBUSY, mutex_real, mutex_timed, NULL, pc)
            : pthread_mutex_lock(m);
    if (rc != 0) return rc;
    return w == LF_WAIT_TIMEDOUT ? ETIMEDOUT : 0;
}

int lf_cond_wait(pthread_cond_t *c, pthread_mutex_t *m) { return cond_wait(c, m, NULL, RET_PC); }

int lf_cond_timedwait(pthread_cond_t *c, pthread_mutex_t *m, const struct timespec *abstime) {
    return cond_wait(c, m, abstime, RET_PC);
}

int lf_cond_signal(pthread_cond_t *c) {
    lf_sched_thread *th = ctl();
    if (!th) return pthread_cond_signal(c);
    lf_sched_wake_waiters(th, c, true);
    lf_sched_point(th, LF_EV_SYNC, c, 0, RET_PC);
    return 0;
}

int lf_cond_broadcast(pthread_cond_t *c) {
    lf_sched_thread *th = ctl();
    if (!th) return pthread_cond_broadcast(c);
    lf_sched_wake_waiters(th, c, false);
    lf_sched_point(th, LF_EV_SYNC, c, 0, RET_PC);
    return 0;
}

/* ---- semaphores (errno style: -1 and errno on failure) ---- */

static int sem_wait_common(sem_t *s, const struct timespec *abstime, uintptr_t pc) {
    lf_sched_thread *th = ctl();
    if (!th) return abstime ? sem_timedwait(s, abstime) : sem_wait(s);
    lf_sched_point(th, LF_EV_SYNC, s, 0, pc);
    for (;;) {
        if (sem_trywait(s) == 0) return 0;
        if (errno != EAGAIN) return -1;
        switch (lf_sched_block(th, LF_WAIT_SEM, s, abstime != NULL)) {
        case LF_WAIT_WOKEN: break;
        case LF_WAIT_TIMEDOUT: errno = ETIMEDOUT; return -1;
        case LF_WAIT_RELEASED: return abstime ? sem_timedwait(s, abstime) : sem_wait(s);
        }
    }
}

int lf_sem_wait(sem_t *s) { return sem_wait_common(s, NULL, RET_PC); }
int lf_sem_timedwait(sem_t *s, const struct timespec *abstime) { return sem_wait_common(s, abstime, RET_PC); }

int lf_sem_trywait(sem_t *s) {
    lf_sched_thread *th = ctl();
    if (th) lf_sched_point(th, LF_EV_SYNC, s, 0, RET_PC);
    return sem_trywait(s);
}

int lf_sem_post(sem_t *s) {
    int rc = sem_post(s);
    lf_sched_thread *th = ctl();
    if (th && rc == 0) {
        lf_sched_wake_waiters(th, s, false);
        th->event_first = true; /* posted already */
        lf_sched_point(th, LF_EV_SYNC, s, 0, RET_PC);
    }
    return rc;
}

/* ---- the allocator: memory handed back must not receive buffered stores later (tso), nor be read for ABA ---- */

void lf_free(void *p) {
    lf_sched_thread *th = ctl();
    if (th && th->wm) lf_wm_drain(th->wm, th->index);
    if (th && p) lf_strategy_freeing(th->sched, p, malloc_usable_size(p));
    free(p);
}

void *lf_realloc(void *p, size_t size) {
    lf_sched_thread *th = ctl();
    if (th && th->wm) lf_wm_drain(th->wm, th->index);
    if (th && p) lf_strategy_freeing(th->sched, p, malloc_usable_size(p)); /* (it may move) */
    return realloc(p, size);
}

/* ---- yielding and sleeping: a pause point, no real waiting (time is not modelled) ---- */

int lf_sched_yield(void) {
    lf_sched_thread *th = ctl();
    if (!th) return sched_yield();
    lf_sched_point(th, LF_EV_PAUSE, NULL, 0, RET_PC);
    return 0;
}

int lf_usleep(unsigned long usec) {
    lf_sched_thread *th = ctl();
    if (!th) return usleep((useconds_t)usec);
    lf_sched_point(th, LF_EV_PAUSE, NULL, 0, RET_PC);
    return 0;
}

int lf_nanosleep(const struct timespec *req, struct timespec *rem) {
    lf_sched_thread *th = ctl();
    if (!th) return nanosleep(req, rem);
    lf_sched_point(th, LF_EV_PAUSE, NULL, 0, RET_PC);
    if (rem) *rem = (struct timespec){0, 0};
    return 0;
}

unsigned lf_sleep(unsigned seconds) {
    lf_sched_thread *th = ctl();
    if (!th) return sleep(seconds);
    lf_sched_point(th, LF_EV_PAUSE, NULL, 0, RET_PC);
    return 0;
}

int lf_poll(struct pollfd *fds, nfds_t nfds, int timeout) {
    lf_sched_thread *th = ctl();
    if (!th || nfds) return poll(fds, nfds, timeout);
    lf_sched_point(th, LF_EV_PAUSE, NULL, 0, RET_PC);
    return 0;
}
