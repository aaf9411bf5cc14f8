/* Hung or merely starved (hang.h): thread states and CPU time from /proc. */
#include "util/hang.h"

#include "util/clock.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define BLOCKED_SAMPLES 3

pid_t lf_thread_id(void) { return (pid_t)syscall(SYS_gettid); }

/* The state letter and, when cpu is not NULL, utime + stime (clock ticks) of a /proc .../stat file; 0 when
 * it cannot be read. The command name in parentheses may hold spaces and parentheses: fields are counted
 * after the last ')'. */
static char stat_of(const char *path, unsigned long long *cpu) {
    char buf[1024];
    FILE *f = fopen(path, "r");
    if (!f) return 0;
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = 0;
    char *p = strrchr(buf, ')');
    if (!p || p[1] != ' ' || !p[2]) return 0;
    char state = p[2];
    if (cpu) { /* fields after the state: ppid pgrp session tty tpgid flags minflt cminflt majflt cmajflt utime stime */
        unsigned long long utime = 0, stime = 0;
        if (sscanf(p + 3, " %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu", &utime, &stime) != 2) return 0;
        *cpu = utime + stime;
    }
    return state;
}

/* A state in which a thread may run: running or waiting for a CPU, or stopped (by a debugger or SIGSTOP:
 * paused, not hung). */
static bool may_run(char state) { return state == 'R' || state == 'T' || state == 't'; }

/* The CPU time of process pid (0: this one), in seconds; false when it cannot be read. */
static bool cpu_of(pid_t pid, double *cpu_s) {
    if (pid == 0) {
        *cpu_s = lf_cpu_now_s();
        return true;
    }
    char path[64];
    unsigned long long ticks;
    snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
    if (!stat_of(path, &ticks)) return false;
    long hz = sysconf(_SC_CLK_TCK);
    *cpu_s = (double)ticks / (double)(hz > 0 ? hz : 100);
    return true;
}

bool lf_proc_sample_read(pid_t pid, pid_t skip, lf_proc_sample *s) {
    memset(s, 0, sizeof *s);
    if (!cpu_of(pid, &s->cpu_s)) return false;
    char dir[64], path[128 + 256];
    if (pid == 0)
        snprintf(dir, sizeof dir, "/proc/self/task");
    else
        snprintf(dir, sizeof dir, "/proc/%d/task", (int)pid);
    DIR *d = opendir(dir);
    if (!d) return false;
    struct dirent *de;
    while ((de = readdir(d)) != NULL) {
        if (de->d_name[0] < '0' || de->d_name[0] > '9') continue;
        if (skip && atoi(de->d_name) == (int)skip) continue;
        snprintf(path, sizeof path, "%s/%s/stat", dir, de->d_name);
        char state = stat_of(path, NULL);
        if (!state) continue; /* the thread ended meanwhile */
        s->threads++;
        s->runnable += may_run(state);
    }
    closedir(d);
    s->known = s->threads > 0;
    return s->known;
}

bool lf_thread_blocked(pid_t tid) {
    char path[96];
    snprintf(path, sizeof path, "/proc/self/task/%d/stat", (int)tid);
    char state = stat_of(path, NULL);
    return !state || !may_run(state);
}

void lf_hang_judge_start(lf_hang_judge *j, pid_t pid, pid_t skip, double limit_s, double now) {
    memset(j, 0, sizeof *j);
    j->pid = pid;
    j->skip = skip;
    j->limit_s = limit_s;
    j->since_wall = now;
    j->cpu_known = cpu_of(pid, &j->since_cpu);
}

double lf_hang_judge_waited(const lf_hang_judge *j, double now) { return now - j->since_wall; }

bool lf_hang_judge_hung(lf_hang_judge *j, double now, const char **why) {
    if (now - j->since_wall <= j->limit_s) return false;
    lf_proc_sample s;
    if (!j->cpu_known || !lf_proc_sample_read(j->pid, j->skip, &s)) {
        if (why) *why = "no /proc";
        return true;
    }
    j->blocked_samples = s.runnable ? 0 : j->blocked_samples + 1;
    if (j->blocked_samples >= BLOCKED_SAMPLES) {
        if (why) *why = "blocked";
        return true;
    }
    if (s.cpu_s - j->since_cpu >= j->limit_s) {
        if (why) *why = "busy";
        return true;
    }
    return false; /* runnable, but the machine gives it little CPU: slow, not hung */
}
