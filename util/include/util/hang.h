/* Telling a hung process from one the machine is too busy to run. linfuzz waits for things that may never
 * come: a replay child's answer (testcase/case_replay.c), a free run's next call or return (the STUCK watchdog,
 * runtime/runner/stuck_watch.c), a controlled run's baton holder (runtime/sched/watchdog.c). A wall-clock
 * deadline alone gives a wrong answer on a loaded machine: a process whose threads wait for a CPU is not
 * hung, only slow. So a wait is judged by what the waited-for threads do, read from /proc:
 *
 *  - all of them blocked (none runnable, in three samples in a row): hung once the wall-clock limit has
 *    passed (a deadlock, a lost wakeup; blocked threads get nothing from a less busy machine);
 *  - some of them runnable and using CPU: hung once they have used the limit in CPU time without progress
 *    (a livelock, a spin on something that never comes);
 *  - runnable but getting little CPU: starved by other work; not hung, wait on.
 *
 * Without /proc (or a thread that cannot be read), the wall-clock limit alone decides, as before. */
#ifndef LINFUZZ_UTIL_HANG_H
#define LINFUZZ_UTIL_HANG_H

#include <stdbool.h>
#include <sys/types.h>

/* A sample of a process's threads (all but `skip`, the sampling thread itself when it is one of them). */
typedef struct lf_proc_sample {
    bool known;        /* /proc/PID could be read */
    double cpu_s;      /* CPU time of the whole process (user + system, every thread) */
    unsigned threads;  /* threads looked at */
    unsigned runnable; /* of them, running or waiting for a CPU (state R) */
} lf_proc_sample;

/* Samples process pid (0: this process), leaving out thread skip (0: none). */
bool lf_proc_sample_read(pid_t pid, pid_t skip, lf_proc_sample *s);

/* Whether thread tid of this process is blocked (sleeping or in uninterruptible wait: not runnable, not
 * stopped); also true when its state cannot be read (then a caller's wall-clock bound alone decides). */
bool lf_thread_blocked(pid_t tid);

/* The calling thread's id (gettid). */
pid_t lf_thread_id(void);

/* One wait for a process's progress. */
typedef struct lf_hang_judge {
    pid_t pid, skip;
    double limit_s;
    double since_wall, since_cpu; /* at the last progress */
    unsigned blocked_samples;     /* consecutive samples with no runnable thread */
    bool cpu_known;
} lf_hang_judge;

/* Starts (or restarts, at progress) a wait of process pid (0: this one; skip as in lf_proc_sample_read). */
void lf_hang_judge_start(lf_hang_judge *j, pid_t pid, pid_t skip, double limit_s, double now);

/* Whether the process is hung (the rules above); `why` (may be NULL) gets a short reason: "blocked",
 * "busy" (the CPU limit) or "no /proc" (the wall limit alone). Call it every few tens of milliseconds while
 * waiting. It reads /proc only once the wall-clock limit has passed (so a wait costs nothing before), and
 * the blocked rule then needs three calls in a row. */
bool lf_hang_judge_hung(lf_hang_judge *j, double now, const char **why);

/* How long the current wait has lasted, in wall-clock seconds. */
double lf_hang_judge_waited(const lf_hang_judge *j, double now);

#endif
