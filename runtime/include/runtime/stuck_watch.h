/* The STUCK watchdog of free-running runs: turns "an operation never returned" into a finding instead of a
 * hang of the fuzzer or of `linfuzz stress`.
 *
 * A blocking dequeue on an empty queue, a lock never released, a livelock: in free-running mode nothing can
 * take an operation back from a thread that does not return, so one run stops making progress forever. The
 * watchdog is a thread that samples the recorder's progress (runner/../recorder: every call and every return
 * counts) while a run is armed; when no call and no return happened for the run's deadline while some op is
 * in flight, it declares the run STUCK: it builds the history so far (every op that never returned is
 * pending, named with its thread, method and arguments) and calls the handler, which reports, saves an
 * entry and ends the process (the stuck threads cannot be recovered). The default handler prints the ops
 * that never returned and exits with status LF_STUCK_EXIT_STATUS.
 *
 * The deadline grows with the run's size, because a busy machine can delay a thread that is merely slow:
 * LINFUZZ_STUCK_SECONDS when set (seconds without progress, fractions allowed), else 2 s + 1 ms per planned
 * call (about 4 s for the largest fuzz case). Perturbation delays are microseconds, so only an op that waits
 * or spins for another one that will not come stays silent that long. Past the deadline the run is STUCK only
 * when the process's other threads are all blocked, or when it has used the deadline in CPU time without
 * progress (util/hang.h): threads that merely wait for a CPU on a loaded machine are waited for. Controlled runs (the scheduler of
 * docs/scheduling.md) detect deadlocks deterministically, at once: lf_stuck_watch_deadlock hands them to the
 * same handler, so that both become the same STUCK findings. */
#ifndef LINFUZZ_STUCK_WATCH_H
#define LINFUZZ_STUCK_WATCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "linfuzz/adapter.h"
#include "linfuzz/history.h"
#include "runtime/recorder.h"
#include "runtime/sched.h"

/* The exit status of a process ended by the default handler (the `linfuzz` command's exit code for STUCK). */
#define LF_STUCK_EXIT_STATUS 5

/* What the handler is given. */
typedef struct lf_stuck_event {
    const lf_history *history; /* the run so far: returned ops, and the ops that never returned as pending */
    size_t stuck;              /* how many ops never returned */
    double waited_s;           /* no call and no return for this long */
    double deadline_s;         /* the deadline that was exceeded */
    bool deadlock;             /* a controlled run in which every unfinished thread is blocked (the scheduler
                                * saw it: lf_stuck_watch_deadlock), not a deadline */
} lf_stuck_event;

/* Called on the watchdog thread; it should end the process. If it returns, the process _exits with
 * LF_STUCK_EXIT_STATUS. */
typedef void (*lf_stuck_fn)(void *ctx, const lf_stuck_event *ev);

typedef struct lf_stuck_watch lf_stuck_watch;

/* A watchdog (one thread, polling every 20 ms while a run is armed). NULL when the thread cannot be
 * started. Reads LINFUZZ_STUCK_SECONDS. */
lf_stuck_watch *lf_stuck_watch_create(void);
void lf_stuck_watch_destroy(lf_stuck_watch *w);
/* The handler (NULL: the default one). */
void lf_stuck_watch_set_handler(lf_stuck_watch *w, lf_stuck_fn fn, void *ctx);
/* Watches the run of adapter a recorded by r (`run_ops` calls planned) until disarmed; its history is of a's
 * type (a custom type's declaration included) and capacity. r and a must stay valid while armed. */
void lf_stuck_watch_arm(lf_stuck_watch *w, const lf_recorder *r, const lf_adapter *a, size_t run_ops);
void lf_stuck_watch_disarm(lf_stuck_watch *w);
/* The scheduler of the armed run's controlled part (NULL: none, as after arm): while it controls the run
 * (lf_sched_controlling) the wait does not count, and the deadline starts again when it lets the run go. A
 * controlled run's deadlock is the scheduler's to end, and a run that spins under it (a scheduler that keeps
 * a spinner running, a livelock) runs into its point budget and is released: judged STUCK from there on, not
 * for the time the scheduler took (a seqlock reader spinning for 3 s under a scheduler that favoured it was
 * reported STUCK, and the released run then finished). */
void lf_stuck_watch_controlled_by(lf_stuck_watch *w, const lf_sched *s);

/* A controlled run of the armed run deadlocked (sched/sched.h: LF_SCHED_STUCK; its blocked ops are still in
 * flight in the recorder): the handler is called at once, as for a deadline, with ev->deadlock set, and the
 * process ends. Only where a handler was set; otherwise returns. */
void lf_stuck_watch_deadlock(lf_stuck_watch *w);

#endif
