/* util/hang.h: a process whose threads are all blocked is hung once the limit has passed, one that spins
 * without progress once it has used the limit in CPU time, and one that cannot run (stopped here, as a
 * starved process on a busy machine gets no CPU) is never declared hung however long the wait; a thread's
 * blocked state is read right. Margins are generous: only the verdicts are asserted, never a tight time. */
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "test_util.h"
#include "util/clock.h"
#include "util/hang.h"

#define LIMIT_S 0.3

static void sleep_s(double s) {
    struct timespec ts = {(time_t)s, (long)((s - (double)(time_t)s) * 1e9)};
    nanosleep(&ts, NULL);
}

/* Waits (at most give_up_s) for the judge to call pid hung; the reason, or NULL when it did not. */
static const char *judge_child(pid_t pid, double give_up_s, double *after) {
    lf_hang_judge j;
    double t0 = lf_now_s();
    lf_hang_judge_start(&j, pid, 0, LIMIT_S, t0);
    const char *why = NULL;
    while (lf_now_s() - t0 < give_up_s) {
        sleep_s(0.02);
        if (lf_hang_judge_hung(&j, lf_now_s(), &why)) {
            *after = lf_now_s() - t0;
            return why;
        }
    }
    *after = lf_now_s() - t0;
    return NULL;
}

static pid_t child(int kind) {
    pid_t pid = fork();
    if (pid != 0) return pid;
    if (kind == 0)
        for (;;) sleep_s(10); /* blocked */
    volatile unsigned long spin = 0;
    for (;;) spin++; /* busy without progress */
}

static void reap(pid_t pid) {
    kill(pid, SIGKILL);
    waitpid(pid, NULL, 0);
}

static void children(void) {
    double after;
    pid_t blocked = child(0);
    const char *why = judge_child(blocked, 60, &after);
    CHECKF(why && !strcmp(why, "blocked"), "a sleeping child: %s after %.2f s", why ? why : "not hung", after);
    CHECKF(after >= LIMIT_S, "hung before the limit: %.2f s", after);
    reap(blocked);

    pid_t busy = child(1);
    why = judge_child(busy, 120, &after);
    CHECKF(why && !strcmp(why, "busy"), "a spinning child: %s after %.2f s", why ? why : "not hung", after);
    reap(busy);

    /* a stopped child gets no CPU, as one the machine is too busy to run: never hung */
    pid_t stopped = child(1);
    kill(stopped, SIGSTOP);
    waitpid(stopped, NULL, WUNTRACED);
    why = judge_child(stopped, 2.0, &after);
    CHECKF(why == NULL, "a child that cannot run was called hung (%s) after %.2f s", why, after);
    kill(stopped, SIGCONT);
    reap(stopped);
}

/* ---- threads of this process ---- */

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
static bool release;
static _Atomic int waiter_tid, spinner_tid;
static atomic_bool stop_spinning;

static void *waiter(void *arg) {
    (void)arg;
    atomic_store(&waiter_tid, (int)lf_thread_id());
    pthread_mutex_lock(&mu);
    while (!release) pthread_cond_wait(&cv, &mu);
    pthread_mutex_unlock(&mu);
    return NULL;
}

static void *spinner(void *arg) {
    (void)arg;
    atomic_store(&spinner_tid, (int)lf_thread_id());
    while (!atomic_load(&stop_spinning)) {
    }
    return NULL;
}

static void threads(void) {
    pthread_t w, sp;
    pthread_create(&w, NULL, waiter, NULL);
    while (!atomic_load(&waiter_tid)) sleep_s(0.001);
    /* this process: every thread but the judging one blocked: hung */
    lf_hang_judge j;
    double t0 = lf_now_s();
    lf_hang_judge_start(&j, 0, lf_thread_id(), LIMIT_S, t0);
    bool hung = false;
    const char *why = NULL;
    while (!hung && lf_now_s() - t0 < 60) {
        sleep_s(0.02);
        hung = lf_hang_judge_hung(&j, lf_now_s(), &why);
    }
    CHECKF(hung && !strcmp(why, "blocked"), "this process, one thread waiting: %s", hung ? why : "not hung");
    bool blocked = false;
    for (int i = 0; i < 500 && !blocked; i++) {
        blocked = lf_thread_blocked((pid_t)atomic_load(&waiter_tid));
        if (!blocked) sleep_s(0.01);
    }
    CHECK(blocked);

    pthread_create(&sp, NULL, spinner, NULL);
    while (!atomic_load(&spinner_tid)) sleep_s(0.001);
    unsigned runnable = 0;
    for (int i = 0; i < 20; i++) runnable += !lf_thread_blocked((pid_t)atomic_load(&spinner_tid));
    CHECKF(runnable == 20, "a spinning thread read as blocked in %u of 20 samples", 20 - runnable);
    lf_proc_sample s;
    CHECK(lf_proc_sample_read(0, lf_thread_id(), &s) && s.threads >= 2 && s.runnable >= 1);
    atomic_store(&stop_spinning, true);
    pthread_join(sp, NULL);

    pthread_mutex_lock(&mu);
    release = true;
    pthread_cond_signal(&cv);
    pthread_mutex_unlock(&mu);
    pthread_join(w, NULL);
}

int main(void) {
    children();
    threads();
    TEST_DONE();
}
