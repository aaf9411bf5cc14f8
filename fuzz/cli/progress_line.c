/* The progress line of `linfuzz check` (progress_line.h): a reporter thread that wakes a few times a second and
 * draws the current file's progress once it has run for a second, then about once a second. */
#include "progress_line.h"

#include <inttypes.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include "util/clock.h"

#define FIRST_DRAW_S 1.0 /* a file that is done within this never gets a line */
#define REFRESH_S 1.0
#define WAKE_MS 200

struct lf_progress_line {
    FILE *out;
    bool in_place;
    pthread_t thread;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    bool stop;
    /* the current file, under mu */
    const char *what;
    lf_progress *progress;
    double start, check_start, budget, last_draw; /* check_start: 0 while reading */
    bool active, drawn;
};

/* "45.1M" for counts that would otherwise be long. */
static void fmt_count(char *buf, size_t len, uint64_t x) {
    if (x >= 1000000000)
        snprintf(buf, len, "%.1fG", (double)x / 1e9);
    else if (x >= 1000000)
        snprintf(buf, len, "%.1fM", (double)x / 1e6);
    else if (x >= 10000)
        snprintf(buf, len, "%.1fk", (double)x / 1e3);
    else
        snprintf(buf, len, "%" PRIu64, x);
}

static size_t terminal_width(FILE *out) {
    struct winsize ws;
    if (ioctl(fileno(out), TIOCGWINSZ, &ws) == 0 && ws.ws_col >= 20) return ws.ws_col;
    return 80;
}

/* Draws the line for the current file; mu held. */
static void draw(lf_progress_line *pl, double now) {
    lf_progress p;
    lf_progress_read(pl->progress, &p);
    char line[512], steps[32];
    int len = snprintf(line, sizeof line, "linfuzz check: %s: %.0f s, %s", pl->what, now - pl->start,
                       pl->check_start == 0 ? "reading" : p.stage ? p.stage : "checking");
    if (p.stage && p.steps && len < (int)sizeof line) {
        fmt_count(steps, sizeof steps, p.steps);
        len += snprintf(line + len, sizeof line - len, ", %s steps", steps);
    }
    if (p.parts_total > 1 && len < (int)sizeof line)
        len += snprintf(line + len, sizeof line - len, ", part %" PRIu64 " of %" PRIu64,
                        p.parts_done < p.parts_total ? p.parts_done + 1 : p.parts_total, p.parts_total);
    if (pl->check_start > 0 && pl->budget > 0 && len < (int)sizeof line) {
        double left = pl->check_start + pl->budget - now;
        len += snprintf(line + len, sizeof line - len, ", %.0f s left of the %g s budget", left > 0 ? left : 0,
                        pl->budget);
    }
    if (pl->in_place) {
        size_t width = terminal_width(pl->out) - 1; /* never wrap: a wrapped line cannot be redrawn */
        if (strlen(line) > width) line[width] = '\0';
        fprintf(pl->out, "\r%s\033[K", line);
    } else {
        fprintf(pl->out, "%s\n", line);
    }
    fflush(pl->out);
    pl->drawn = true;
    pl->last_draw = now;
}

static void *reporter(void *arg) {
    lf_progress_line *pl = arg;
    pthread_mutex_lock(&pl->mu);
    while (!pl->stop) {
        struct timespec ts;
        clock_gettime(CLOCK_MONOTONIC, &ts); /* the condition variable's clock (see start) */
        ts.tv_nsec += WAKE_MS * 1000000L;
        if (ts.tv_nsec >= 1000000000L) {
            ts.tv_sec++;
            ts.tv_nsec -= 1000000000L;
        }
        pthread_cond_timedwait(&pl->cv, &pl->mu, &ts);
        if (pl->stop || !pl->active) continue;
        double now = lf_now_s();
        if (now - pl->start >= FIRST_DRAW_S && (!pl->drawn || now - pl->last_draw >= REFRESH_S)) draw(pl, now);
    }
    pthread_mutex_unlock(&pl->mu);
    return NULL;
}

lf_progress_line *lf_progress_line_start(FILE *out, bool in_place) {
    lf_progress_line *pl = calloc(1, sizeof *pl);
    if (!pl) return NULL;
    pl->out = out;
    pl->in_place = in_place;
    pthread_mutex_init(&pl->mu, NULL);
    pthread_condattr_t ca;
    pthread_condattr_init(&ca);
    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC); /* timed waits that a wall-clock jump cannot stretch */
    pthread_cond_init(&pl->cv, &ca);
    pthread_condattr_destroy(&ca);
    if (pthread_create(&pl->thread, NULL, reporter, pl) != 0) {
        pthread_mutex_destroy(&pl->mu);
        pthread_cond_destroy(&pl->cv);
        free(pl);
        return NULL;
    }
    return pl;
}

void lf_progress_line_begin(lf_progress_line *pl, const char *what, lf_progress *p, double budget_s) {
    memset(p, 0, sizeof *p); /* before the reporter may read it */
    if (!pl) return;
    pthread_mutex_lock(&pl->mu);
    pl->what = what;
    pl->progress = p;
    pl->start = lf_now_s();
    pl->check_start = 0;
    pl->budget = budget_s;
    pl->active = true;
    pl->drawn = false;
    pthread_mutex_unlock(&pl->mu);
}

void lf_progress_line_checking(lf_progress_line *pl) {
    if (!pl) return;
    pthread_mutex_lock(&pl->mu);
    pl->check_start = lf_now_s();
    pthread_mutex_unlock(&pl->mu);
}

void lf_progress_line_end(lf_progress_line *pl) {
    if (!pl) return;
    pthread_mutex_lock(&pl->mu);
    if (pl->drawn && pl->in_place) {
        fputs("\r\033[K", pl->out);
        fflush(pl->out);
    }
    pl->active = pl->drawn = false;
    pthread_mutex_unlock(&pl->mu);
}

void lf_progress_line_stop(lf_progress_line *pl) {
    if (!pl) return;
    pthread_mutex_lock(&pl->mu);
    pl->stop = true;
    pthread_cond_signal(&pl->cv);
    pthread_mutex_unlock(&pl->mu);
    pthread_join(pl->thread, NULL);
    pthread_mutex_destroy(&pl->mu);
    pthread_cond_destroy(&pl->cv);
    free(pl);
}
