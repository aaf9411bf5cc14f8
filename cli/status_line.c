/* The live progress line (status_line.h): a reporter thread that wakes ten times a second and, once the
 * command has run for the first delay, draws the line: redrawn in place on a terminal, a new line every
 * period elsewhere.
 *
 * Commands that fork (triage and repro replay inputs in a child, testcase/case_replay.c) must not fork while
 * the reporter is inside the allocator: the child would inherit the allocator's lock held by a thread it does
 * not have, and hang at its first allocation from another thread. glibc's malloc takes its locks around
 * fork(), AddressSanitizer's allocator (clang 14) does not: `linfuzz triage` under ASan hung in about one
 * replay of twenty on a loaded machine, its child's worker threads waiting for the lock in their start-up
 * calloc while the parent's reporter thread had been starting when it forked. So lf_status_start returns only
 * once the reporter runs its loop (its start-up allocations done), and a fork handler holds the line's mutex
 * across fork(): the reporter then waits in pthread_cond_timedwait, which allocates nothing. */
#include "status_line.h"

#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include "util/clock.h"
#include "util/env.h"
#include "util/escape.h"

#define TTY_DELAY_S 0.5   /* a command done within this never draws on a terminal */
#define TTY_REDRAW_S 0.2  /* how often the terminal line is redrawn */
#define LOG_PERIOD_S 5.0  /* off a terminal: a line this often, the first one after as long */
#define WAKE_NS 100000000 /* the reporter's tick, or the period when that is shorter */

struct lf_status_line {
    char command[64];
    int fd; /* stderr's descriptor */
    bool tty;
    double delay, period, start, last;
    long tick_ns; /* how often the reporter wakes: WAKE_NS, or a shorter period (LINFUZZ_PROGRESS_SECONDS) */
    pthread_t thread;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    /* under mu */
    bool stop, drawn, running;
    char text[512];
    lf_status_source source;
    void *source_ctx;
};

static void write_all(int fd, const char *p, size_t n) {
    while (n) {
        ssize_t w = write(fd, p, n);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) return; /* stderr is gone: nothing to report to */
        p += w;
        n -= (size_t)w;
    }
}

static size_t terminal_width(int fd) {
    struct winsize ws;
    return ioctl(fd, TIOCGWINSZ, &ws) == 0 && ws.ws_col >= 20 ? ws.ws_col : 80;
}

/* Erases a drawn terminal line; mu held. */
static void erase(lf_status_line *s) {
    if (s->tty && s->drawn) write_all(s->fd, "\r\033[K", 4);
    s->drawn = false;
}

/* Draws the line; mu held. */
static void draw(lf_status_line *s, double now) {
    char raw[512], text[512], line[640];
    if (s->source)
        s->source(s->source_ctx, raw, sizeof raw);
    else
        snprintf(raw, sizeof raw, "%s", s->text);
    if (!raw[0]) return;
    lf_esc_str(text, sizeof text, raw, 0); /* file names in it: shown escaped (util/escape.h) */
    unsigned secs = (unsigned)(now - s->start);
    char elapsed[32];
    if (secs < 10)
        snprintf(elapsed, sizeof elapsed, "%.1f s", now - s->start);
    else if (secs < 60)
        snprintf(elapsed, sizeof elapsed, "%u s", secs);
    else
        snprintf(elapsed, sizeof elapsed, "%u min %02u s", secs / 60, secs % 60);
    int n = snprintf(line, sizeof line, "%s%s [%s]: %s", s->tty ? "\r" : "", s->command, elapsed, text);
    size_t len = n < 0 ? 0 : (size_t)n < sizeof line ? (size_t)n : sizeof line - 1;
    if (s->tty) {
        size_t width = terminal_width(s->fd); /* never wrap: a wrapped line cannot be redrawn in place */
        if (len > width) len = width;         /* the \r does not take a column */
        while (len > 1 && (line[len] & 0xc0) == 0x80) len--; /* never a character cut in two */
        memcpy(line + len, "\033[K", 4);
        len += 3;
    } else {
        line[len++] = '\n';
    }
    write_all(s->fd, line, len);
    s->drawn = true;
    s->last = now;
}

/* The line that is running (a command has one at a time), for the fork handlers. */
static lf_status_line *_Atomic active_line;
static pthread_once_t fork_handlers_once = PTHREAD_ONCE_INIT;

static void before_fork(void) {
    lf_status_line *s = active_line;
    if (s) pthread_mutex_lock(&s->mu);
}
static void after_fork(void) {
    lf_status_line *s = active_line;
    if (s) pthread_mutex_unlock(&s->mu);
}
static void install_fork_handlers(void) { pthread_atfork(before_fork, after_fork, after_fork); }

static void *reporter(void *arg) {
    lf_status_line *s = arg;
    pthread_mutex_lock(&s->mu);
    s->running = true;
    pthread_cond_broadcast(&s->cv); /* lf_status_start waits for this */
    while (!s->stop) {
        struct timespec ts;
        clock_gettime(CLOCK_MONOTONIC, &ts); /* the condition variable's clock (see lf_status_start) */
        ts.tv_nsec += s->tick_ns;
        if (ts.tv_nsec >= 1000000000L) {
            ts.tv_sec++;
            ts.tv_nsec -= 1000000000L;
        }
        pthread_cond_timedwait(&s->cv, &s->mu, &ts);
        double now = lf_now_s();
        if (!s->stop && now - s->start >= s->delay && (s->last == 0 || now - s->last >= s->period)) draw(s, now);
    }
    pthread_mutex_unlock(&s->mu);
    return NULL;
}

lf_status_line *lf_status_start(const char *command, bool quiet) {
    bool on;
    double period;
    char err[200];
    if (quiet) return NULL;
    if (!lf_env_flag("LINFUZZ_PROGRESS", true, &on, err, sizeof err) ||
        !lf_env_seconds("LINFUZZ_PROGRESS_SECONDS", LOG_PERIOD_S, 0.01, 3600, &period, err, sizeof err)) {
        lf_esc_printf(stderr, "%s: %s (progress line off)\n", command, err);
        return NULL;
    }
    if (!on) return NULL;
    lf_status_line *s = calloc(1, sizeof *s);
    if (!s) return NULL;
    snprintf(s->command, sizeof s->command, "%s", command);
    s->fd = STDERR_FILENO;
    s->tty = isatty(s->fd);
    s->delay = s->tty ? TTY_DELAY_S : period;
    s->period = s->tty ? TTY_REDRAW_S : period;
    /* a period shorter than the tick is honoured: a 0.01 s period drew nothing for a 70 ms command */
    s->tick_ns = s->period * 1e9 < WAKE_NS ? (long)(s->period * 1e9) : WAKE_NS;
    s->start = lf_now_s();
    pthread_mutex_init(&s->mu, NULL);
    pthread_condattr_t ca;
    pthread_condattr_init(&ca);
    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC); /* timed waits that a wall-clock jump cannot stretch */
    pthread_cond_init(&s->cv, &ca);
    pthread_condattr_destroy(&ca);
    pthread_once(&fork_handlers_once, install_fork_handlers);
    if (pthread_create(&s->thread, NULL, reporter, s) != 0) {
        pthread_cond_destroy(&s->cv);
        pthread_mutex_destroy(&s->mu);
        free(s);
        return NULL;
    }
    pthread_mutex_lock(&s->mu);
    while (!s->running) pthread_cond_wait(&s->cv, &s->mu);
    pthread_mutex_unlock(&s->mu);
    active_line = s;
    return s;
}

void lf_status_set(lf_status_line *s, const char *fmt, ...) {
    if (!s) return;
    va_list ap;
    va_start(ap, fmt);
    pthread_mutex_lock(&s->mu);
    vsnprintf(s->text, sizeof s->text, fmt, ap);
    pthread_mutex_unlock(&s->mu);
    va_end(ap);
}

void lf_status_set_source(lf_status_line *s, lf_status_source source, void *ctx) {
    if (!s) return;
    pthread_mutex_lock(&s->mu);
    s->source = source;
    s->source_ctx = ctx;
    pthread_mutex_unlock(&s->mu);
}

void lf_status_printf(lf_status_line *s, FILE *out, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    if (s) {
        pthread_mutex_lock(&s->mu);
        erase(s);
    }
    lf_esc_vprintf(out, fmt, ap); /* messages name files and quote inputs */
    fflush(out);
    if (s) pthread_mutex_unlock(&s->mu); /* the next tick draws the line again */
    va_end(ap);
}

void lf_status_stop(lf_status_line *s) {
    if (!s) return;
    if (active_line == s) active_line = NULL;
    pthread_mutex_lock(&s->mu);
    s->stop = true;
    pthread_cond_signal(&s->cv);
    pthread_mutex_unlock(&s->mu);
    pthread_join(s->thread, NULL);
    erase(s);
    pthread_cond_destroy(&s->cv);
    pthread_mutex_destroy(&s->mu);
    free(s);
}
