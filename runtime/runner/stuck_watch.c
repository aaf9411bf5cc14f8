/* The STUCK watchdog (see stuck_watch.h): a polling thread over the recorder's progress counters. The
 * deadline is judged by util/hang.h: past it, the run is STUCK when every other thread of the process is
 * blocked (three polls in a row) or when the process has used the deadline in CPU time without a call or a
 * return (a livelock); threads that wait for a CPU on a busy machine are waited for, never declared STUCK. */
#include "runtime/stuck_watch.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "util/env.h"
#include "util/parse.h"
#include "util/clock.h"
#include "util/escape.h"
#include "util/hang.h"

#define POLL_NS 20000000L /* 20 ms */

struct lf_stuck_watch {
    pthread_t thread;
    pthread_mutex_t lock; /* guards everything below; held while sampling, so disarm waits for a sample */
    bool stop, armed;
    const lf_recorder *recorder;
    const lf_adapter *adapter;
    double deadline;
    uint64_t last_progress;
    lf_hang_judge judge; /* the wait since the last progress */
    pid_t self;          /* the watch thread (left out of the judge's samples) */
    lf_stuck_fn fn;
    void *ctx;
    double fixed_deadline; /* LINFUZZ_STUCK_SECONDS, 0: from the run's size */
    const lf_sched *sched;  /* the run's scheduler while it controls it (lf_stuck_watch_controlled_by) */
};

/* The deadline of a run of run_ops calls (seconds without progress): LINFUZZ_STUCK_SECONDS, else 2 s + 1 ms
 * per call (stuck_watch.h). */
static double stuck_deadline(const lf_stuck_watch *w, size_t run_ops) {
    if (w && w->fixed_deadline > 0) return w->fixed_deadline;
    return 2.0 + 0.001 * (double)run_ops;
}

static void default_handler(void *ctx, const lf_stuck_event *ev) {
    (void)ctx;
    fprintf(stderr, "\nlinfuzz: STUCK: %zu operation%s never returned (no call and no return for %.1f s):\n", ev->stuck,
            ev->stuck == 1 ? "" : "s", ev->waited_s);
    for (size_t i = 0; i < ev->history->n; i++) {
        const lf_op *op = &ev->history->ops[i];
        if (!lf_op_pending(op)) continue;
        char d[160];
        lf_history_describe_op(ev->history, op, d, sizeof d);
        fprintf(stderr, "  %s\n", d);
    }
    fflush(stderr);
}

/* Declares the armed run STUCK (lock held): builds the history so far and calls the handler. */
static void fire(lf_stuck_watch *w, double waited, bool deadlock) {
    lf_history h;
    lf_adapter_history_init(&h, w->adapter); /* its type, a custom type's declaration and the capacity */
    size_t stuck = 0;
    if (lf_recorder_snapshot(w->recorder, &h))
        for (size_t i = 0; i < h.n; i++) stuck += lf_op_pending(&h.ops[i]);
    lf_stuck_event ev = {
        .history = &h, .stuck = stuck, .waited_s = waited, .deadline_s = w->deadline, .deadlock = deadlock};
    if (w->fn)
        w->fn(w->ctx, &ev);
    else
        default_handler(NULL, &ev);
    /* The stuck threads cannot be taken back: nothing sensible can continue in this process. */
    fflush(NULL);
    _exit(LF_STUCK_EXIT_STATUS);
}

static void *watch_main(void *arg) {
    lf_stuck_watch *w = arg;
    pthread_mutex_lock(&w->lock);
    w->self = lf_thread_id();
    pthread_mutex_unlock(&w->lock);
    struct timespec tick = {0, POLL_NS};
    for (;;) {
        nanosleep(&tick, NULL);
        pthread_mutex_lock(&w->lock);
        if (w->stop) {
            pthread_mutex_unlock(&w->lock);
            return NULL;
        }
        if (w->armed) {
            unsigned in_flight = 0;
            uint64_t p = lf_recorder_progress(w->recorder, &in_flight);
            double now = lf_now_s();
            if (p != w->last_progress || !in_flight || lf_sched_controlling(w->sched)) {
                w->last_progress = p;
                lf_hang_judge_start(&w->judge, 0, w->self, w->deadline, now);
            } else {
                w->judge.skip = w->self; /* (arm may have started the wait before this thread knew its id) */
                if (lf_hang_judge_hung(&w->judge, now, NULL))
                    fire(w, lf_hang_judge_waited(&w->judge, now), false);
            }
        }
        pthread_mutex_unlock(&w->lock);
    }
}

/* Whether a handler was set (lf_stuck_watch_set_handler). */
static bool stuck_watch_has_handler(const lf_stuck_watch *w) { return w && w->fn; }

void lf_stuck_watch_deadlock(lf_stuck_watch *w) {
    if (!stuck_watch_has_handler(w)) return;
    pthread_mutex_lock(&w->lock);
    bool armed = w->armed;
    if (armed) fire(w, 0, true); /* does not return */
    pthread_mutex_unlock(&w->lock);
}

lf_stuck_watch *lf_stuck_watch_create(void) {
    lf_stuck_watch *w = calloc(1, sizeof *w);
    if (!w) return NULL;
    char err[256];
    if (!lf_env_seconds("LINFUZZ_STUCK_SECONDS", 0, 0.001, LF_MAX_SECONDS, &w->fixed_deadline, err, sizeof err)) {
        lf_esc_printf(stderr, "linfuzz: %s\n", err);
        exit(2);
    }
    if (pthread_mutex_init(&w->lock, NULL) != 0) {
        free(w);
        return NULL;
    }
    if (pthread_create(&w->thread, NULL, watch_main, w) != 0) {
        pthread_mutex_destroy(&w->lock);
        free(w);
        return NULL;
    }
    return w;
}

void lf_stuck_watch_destroy(lf_stuck_watch *w) {
    if (!w) return;
    pthread_mutex_lock(&w->lock);
    w->stop = true;
    pthread_mutex_unlock(&w->lock);
    pthread_join(w->thread, NULL);
    pthread_mutex_destroy(&w->lock);
    free(w);
}

void lf_stuck_watch_set_handler(lf_stuck_watch *w, lf_stuck_fn fn, void *ctx) {
    pthread_mutex_lock(&w->lock);
    w->fn = fn;
    w->ctx = ctx;
    pthread_mutex_unlock(&w->lock);
}

void lf_stuck_watch_arm(lf_stuck_watch *w, const lf_recorder *r, const lf_adapter *a, size_t run_ops) {
    pthread_mutex_lock(&w->lock);
    w->recorder = r;
    w->adapter = a;
    w->deadline = stuck_deadline(w, run_ops);
    w->last_progress = lf_recorder_progress(r, NULL);
    lf_hang_judge_start(&w->judge, 0, w->self, w->deadline, lf_now_s());
    w->sched = NULL;
    w->armed = true;
    pthread_mutex_unlock(&w->lock);
}

void lf_stuck_watch_disarm(lf_stuck_watch *w) {
    pthread_mutex_lock(&w->lock);
    w->armed = false;
    w->recorder = NULL;
    w->sched = NULL;
    pthread_mutex_unlock(&w->lock);
}

void lf_stuck_watch_controlled_by(lf_stuck_watch *w, const lf_sched *s) {
    pthread_mutex_lock(&w->lock);
    w->sched = s;
    pthread_mutex_unlock(&w->lock);
}
