/* Watchdog of controlled runs: a thread that notices when the baton holder reaches no scheduling point for
 * too long and then releases the run (every thread runs freely to the end; the run is marked not
 * deterministic). That happens when the holder busy-waits inside code without scheduling points (an
 * uninstrumented library's internal spin loop waiting for a parked thread) or blocks in a primitive the
 * scheduler does not see (a library's own mutex held by a parked thread): without the watchdog the run
 * would hang.
 *
 * "Too long" is measured in the holder's CPU time (opt.watchdog_cpu_s): a thread that the operating system
 * merely did not schedule for a while on a loaded machine uses none and is not suspected. A holder that
 * burns no CPU either, because it is blocked, is caught by a wall-clock bound (opt.watchdog_wall_s), and only
 * when it is blocked indeed (its state in /proc, util/hang.h): a holder still runnable past that bound waits
 * for a CPU on a busy machine, and releasing its run would make a replay that should be exact
 * nondeterministic. Between runs the thread sleeps on a condition variable; during a run it checks every
 * 2 ms. */
#include <time.h>

#include "sched/sched_internal.h"
#include "util/clock.h"
#include "util/hang.h"

/* A thread's CPU time in seconds (0 when the clock cannot be read). */
static double seconds_of(clockid_t clock) {
    struct timespec ts;
    if (clock_gettime(clock, &ts) != 0) return 0;
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Watches one run until it ends or is released. */
static void watch_run(lf_sched *s) {
    uint64_t last_progress = atomic_load(&s->progress), last_run = atomic_load(&s->run_id);
    int last_owner = -2;
    double wall_base = lf_now_s(), cpu_base = 0;
    struct timespec tick = {0, 2000000};
    while (atomic_load(&s->wd_active) && !lf_sched_released(s)) {
        nanosleep(&tick, NULL);
        uint64_t run = atomic_load(&s->run_id), p = atomic_load(&s->progress);
        int owner = atomic_load(&s->owner);
        if (owner < 0) {
            last_owner = -2; /* no holder (start-up or the end): nothing to watch */
            continue;
        }
        int clock = atomic_load(&s->threads[owner].cpu_clock);
        double cpu = clock != -1 ? seconds_of((clockid_t)clock) : 0, wall = lf_now_s();
        if (p != last_progress || owner != last_owner || run != last_run) {
            last_progress = p;
            last_run = run;
            last_owner = owner;
            cpu_base = cpu;
            wall_base = wall;
            continue;
        }
        /* (thread CPU clocks are negative numbers: -1, never one of them, marks an unknown clock) */
        bool spun = clock != -1 && cpu - cpu_base > s->opt.watchdog_cpu_s;
        if (!spun && wall - wall_base <= s->opt.watchdog_wall_s) continue;
        if (!spun) {
            int tid = atomic_load(&s->threads[owner].tid);
            if (tid > 0 && !lf_thread_blocked((pid_t)tid)) { /* runnable: starved, not blocked; wait on */
                wall_base = wall;
                continue;
            }
        }
        if (atomic_load(&s->run_id) == run) lf_sched_release(s, LF_RELEASE_WATCHDOG); /* not a later run */
    }
}

static void *watchdog_main(void *arg) {
    lf_sched *s = arg;
    uint64_t seen = 0;
    pthread_mutex_lock(&s->wd_lock);
    for (;;) {
        while (!s->wd_stop && s->wd_generation == seen) pthread_cond_wait(&s->wd_cond, &s->wd_lock);
        if (s->wd_stop) break;
        seen = s->wd_generation;
        pthread_mutex_unlock(&s->wd_lock);
        watch_run(s);
        pthread_mutex_lock(&s->wd_lock);
    }
    pthread_mutex_unlock(&s->wd_lock);
    return NULL;
}

bool lf_watchdog_start(lf_sched *s) {
    if (pthread_mutex_init(&s->wd_lock, NULL) != 0) return false;
    if (pthread_cond_init(&s->wd_cond, NULL) != 0) {
        pthread_mutex_destroy(&s->wd_lock);
        return false;
    }
    s->wd_stop = false;
    s->wd_generation = 0;
    if (pthread_create(&s->wd_thread, NULL, watchdog_main, s) != 0) {
        pthread_cond_destroy(&s->wd_cond);
        pthread_mutex_destroy(&s->wd_lock);
        return false;
    }
    s->wd_started = true;
    return true;
}

void lf_watchdog_stop(lf_sched *s) {
    if (!s->wd_started) return;
    pthread_mutex_lock(&s->wd_lock);
    s->wd_stop = true;
    atomic_store(&s->wd_active, false);
    pthread_cond_signal(&s->wd_cond);
    pthread_mutex_unlock(&s->wd_lock);
    pthread_join(s->wd_thread, NULL);
    pthread_cond_destroy(&s->wd_cond);
    pthread_mutex_destroy(&s->wd_lock);
    s->wd_started = false;
}

void lf_watchdog_run_begin(lf_sched *s) {
    pthread_mutex_lock(&s->wd_lock);
    atomic_store(&s->wd_active, true);
    s->wd_generation++;
    pthread_cond_signal(&s->wd_cond);
    pthread_mutex_unlock(&s->wd_lock);
}

bool lf_sched_controlling(const lf_sched *s) {
    return s && atomic_load(&((lf_sched *)s)->wd_active) && !lf_sched_released(s);
}

void lf_watchdog_run_end(lf_sched *s) {
    /* The watcher notices within one tick. It never touches a run's bookkeeping, only the flags and the
     * batons, and it re-reads run_id before releasing, so a check that straddles the end of a run cannot
     * release the next one (short of a nanosecond-wide race, which would only mark a run not deterministic). */
    atomic_store(&s->wd_active, false);
}
