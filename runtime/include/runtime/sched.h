/* Controlled scheduling: worker threads stay real pthreads, but only one runs at a time and the processor
 * changes hands only at scheduling points, as a schedule (schedule.h) decides. The same schedule on the same
 * test gives the same interleaving, the same history and the same verdict on any machine (docs/scheduling.md).
 *
 * Scheduling points:
 *   - the harness: each operation's call and return (lf_sched_op_begin / lf_sched_op_end);
 *   - LF_YIELD() in adapter code;
 *   - the lock and blocking primitives (lf_sync.h: pthread mutexes, rwlocks, spinlocks, condition variables,
 *     semaphores, sched_yield and sleeps, redirected in adapter code by a forced include); a thread that
 *     would block is marked blocked on that object and passes the baton, so the baton holder never waits for
 *     a parked thread;
 *   - every shared-memory access of instrumented adapter code (tsan_access.c: the ThreadSanitizer callback
 *     ABI, compiled in with -fsanitize=thread and implemented by linfuzz);
 *   - every call into and return from a function of an uninstrumented shared library the fuzz target was
 *     linked with (call_out.c: the wrappers linfuzz_add_fuzz_target makes).
 *
 * Escape hatches, all counted in lf_sched_stats and reported:
 *   - a thread that passes many points without changing memory (a spin loop on another thread's progress) or
 *     yields repeatedly is demoted (forced to give way, deterministically);
 *   - the watchdog: a baton holder that reaches no point for a while (a busy-wait inside uninstrumented
 *     library code, or a block in an unwrapped primitive) makes the rest of the run free-running; the run is
 *     then marked not deterministic;
 *   - a run that passes more points than its budget (a livelock) becomes free-running too, marked the same;
 *   - every thread blocked, none able to time out: a deterministic deadlock, the outcome LF_SCHED_STUCK. The
 *     blocked threads leave their operations (longjmp to the worker's escape point, see
 *     lf_sched_thread_start); the object is abandoned, not destroyed.
 *
 * Hooks for tools built on top (root causing, issue 13), both only in controlled mode:
 *   - lf_sched_set_event_hook: every scheduling point as an event (thread, op index, kind, address, size,
 *     program counter of the access site) in trace order, i.e. the order in which the accesses happen: a
 *     point's event is given when its thread goes on to make the access (after the other threads a switch at
 *     the point let run first); a blocking lock's event is its acquisition (after the holder's
 *     release, however long it waited);
 *   - lf_sched_add_atomic_region / lf_sched_add_atomic_pair: "virtual atomic regions" in which the scheduler
 *     never preempts (a switch the schedule asks for is deferred until the thread leaves the region). */
#ifndef LINFUZZ_SCHED_H
#define LINFUZZ_SCHED_H

#include <setjmp.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "runtime/memory_model.h"
#include "runtime/schedule.h"

typedef struct lf_sched lf_sched;
typedef struct lf_sched_thread lf_sched_thread;

/* What a scheduling point is. */
typedef enum lf_sched_event_kind {
    LF_EV_READ,   /* a load of adapter code */
    LF_EV_WRITE,  /* a store */
    LF_EV_RMW,    /* an atomic read-modify-write (exchange, fetch-op, compare-exchange) */
    LF_EV_FENCE,  /* an atomic fence */
    LF_EV_CALL,   /* the harness is about to call an operation */
    LF_EV_RETURN, /* an operation returned */
    LF_EV_YIELD,  /* LF_YIELD() */
    LF_EV_SYNC,   /* a lock/unlock/wait/post/signal of lf_sync.h (addr = the object) */
    LF_EV_PAUSE,  /* sched_yield, a sleep: the thread waits for the others */
    LF_EV_LIBCALL, /* a call into (addr = the call's first argument, usually the library's object) or a return
                    * from (addr NULL) an uninstrumented library (sched/call_out.c) */
    LF_EV_KIND_COUNT
} lf_sched_event_kind;

#define LF_SCHED_MAX_CALLS 8
#define LF_SCHED_REGION_POINTS 5000 /* points of one thread inside one open atomic pair at most */

/* One scheduling point, as the event hook sees it. */
typedef struct lf_sched_event {
    uint64_t seq;     /* position in the trace: 0, 1, 2, ... per run (the order of the accesses) */
    unsigned thread;  /* worker index */
    uint32_t op;      /* the thread's op index (its n-th call of the run) */
    uint32_t step;    /* points of this op so far (0 = its call) */
    uint8_t kind;     /* lf_sched_event_kind */
    uint8_t size;     /* bytes accessed (0 when not an access; range accesses are capped at 255) */
    const void *addr; /* the address accessed, or the synchronisation object, or NULL */
    uintptr_t pc;     /* the access site (a return address inside the instrumented code), or 0 */
    /* the call sites of the instrumented functions the thread is in during its op, outermost first (the
     * first is the call of the adapter's op function, made by uninstrumented code); empty without function
     * entry/exit instrumentation (the ThreadSanitizer build) */
    const uintptr_t *calls;
    unsigned n_calls; /* at most LF_SCHED_MAX_CALLS */
} lf_sched_event;
typedef void (*lf_sched_event_fn)(void *ctx, const lf_sched_event *e);

typedef enum lf_sched_outcome {
    LF_SCHED_DONE,  /* every thread finished (deterministically unless stats say otherwise) */
    LF_SCHED_STUCK, /* deadlock: every unfinished thread blocked (lf_sched_stuck_info says where) */
} lf_sched_outcome;

typedef struct lf_sched_stats {
    uint64_t points;          /* scheduling points passed */
    uint64_t switches;        /* baton handoffs */
    uint64_t preemptions;     /* switches the strategy made while the running thread could go on */
    uint64_t demotions;       /* threads forced to give way (spinning / yielding without progress) */
    uint64_t blocks;          /* waits on a lock, condition or semaphore */
    uint64_t timeouts;        /* timed waits that timed out because nothing else could run */
    uint64_t region_blocks;   /* waits inside an open atomic pair, its end point included (a lock there that
                                 blocks): the pair did not run uninterrupted */
    uint64_t region_spins;    /* 1 when an open atomic pair passed LF_SCHED_REGION_POINTS points (a spin loop
                                 inside the region, waiting for a thread it does not let run): the run was
                                 released there (not deterministic) */
    bool watchdog;            /* the watchdog released the run (not deterministic) */
    bool budget_exceeded;     /* the point budget ran out (livelock?): released (not deterministic) */
    bool deterministic;       /* neither of the two */
    uint8_t memory_model;     /* the model the run had (lf_memory_model): the schedule's, or sc when the run
                                 could not have it (more than LF_WM_MAX_THREADS threads, no access points) */
    lf_wm_stats weak;         /* what the weak model did (zero under sc) */
} lf_sched_stats;

typedef struct lf_sched_options {
    uint64_t point_budget;    /* points per run before it is released (default 1 << 22) */
    uint32_t idle_limit;      /* idle weight that demotes a thread (default 128: a re-read of one of the thread's
                                 last 8 addresses counts 1, an LF_YIELD() 1, a pause 32; a change resets it) */
    double watchdog_cpu_s;    /* CPU time the baton holder may spend without a point (default 0.02 s) */
    double watchdog_wall_s;   /* wall time likewise, for a holder blocked outside the scheduler (default 1 s) */
    unsigned spin_iterations; /* busy-wait before sleeping for the baton (default 50 pauses; none on one CPU) */
    bool one_cpu;             /* a run's workers share the CPU it started on (default true; sched/one_cpu.h) */
} lf_sched_options;

void lf_sched_options_default(lf_sched_options *o);

/* A scheduler for runs of up to LF_SCHED_MAX_THREADS workers, with its watchdog thread. NULL when out of
 * memory or threads. o may be NULL (defaults). */
lf_sched *lf_sched_create(const lf_sched_options *o);
void lf_sched_destroy(lf_sched *s);

/* Whether shared-memory accesses of adapter code are scheduling points in this build (false in the
 * ThreadSanitizer build, where the real TSan runtime owns the callbacks, and in builds whose adapters were
 * compiled without the instrumentation). */
bool lf_sched_access_points_available(void);
/* Calls made so far through the wrappers of uninstrumented library functions (sched/call_out.c), by every
 * thread; 0 in a program without wrappers. */
uint64_t lf_call_out_count(void);
/* Forgets the calling thread's open wrapped calls (a worker that left its op by the STUCK escape). */
void lf_call_out_reset(void);

/* Which build this is, as far as scheduling goes ("clang-14.0.6-<hash of the adapters' flags>-s<version of the
 * scheduling algorithms>"): the same input replays exactly within one build; entries record it (meta
 * schedule_build). */
const char *lf_sched_build_id(void);

/* ---- one controlled run ---- */

/* Prepares a run of `threads` workers whose op counts are ops[0..threads-1], under schedule sch (already
 * derived for this run: lf_schedule_for_run). Then each worker calls lf_sched_thread_attach, setjmp on the
 * returned escape buffer, lf_sched_thread_start, its ops between lf_sched_op_begin/_end, lf_sched_thread_end;
 * afterwards one thread calls lf_sched_run_end. */
void lf_sched_run_begin(lf_sched *s, unsigned threads, const size_t *ops, const lf_schedule *sch);
/* Whether a run is in progress under s's control, not released (any thread may ask, the STUCK watch does):
 * such a run's deadlocks are the scheduler's to end and its livelocks run into the point budget, which
 * releases them. s may be NULL (false). */
bool lf_sched_controlling(const lf_sched *s);

/* Binds worker t to s on the calling thread (no scheduling yet) and returns its escape buffer: the worker
 * must setjmp on it before lf_sched_thread_start. A longjmp there means the run is STUCK and this worker's
 * current operation was abandoned: the worker then calls lf_sched_thread_end and stops. */
jmp_buf *lf_sched_thread_attach(lf_sched *s, unsigned t);
/* Worker t (the calling thread, attached) joins the run and waits until it holds the baton. */
void lf_sched_thread_start(lf_sched *s, unsigned t);
/* The worker's op number `op` begins (a CALL point) / its op returned (a RETURN point). */
void lf_sched_op_begin(lf_sched *s, uint32_t op);
void lf_sched_op_end(lf_sched *s);
/* The worker is done: passes the baton on and unbinds the thread. */
void lf_sched_thread_end(lf_sched *s);

/* After every worker has returned: the outcome and the run's statistics (st may be NULL). */
lf_sched_outcome lf_sched_run_end(lf_sched *s, lf_sched_stats *st);

/* Where a STUCK run's workers were: state "blocked" (on obj, a lock/condition/semaphore) or "finished", the
 * op index, and the thread holding obj when known (-1 otherwise). */
typedef struct lf_sched_stuck_thread {
    bool finished;
    uint32_t op;
    const char *wait; /* "mutex", "rwlock (read)", "rwlock (write)", "spinlock", "condition", "semaphore" */
    const void *obj;
    int holder;
} lf_sched_stuck_thread;
/* Fills out[0..threads-1] for the last run; returns the number of threads. */
unsigned lf_sched_stuck_info(const lf_sched *s, lf_sched_stuck_thread *out, unsigned max);

/* LF_YIELD() of a controlled thread: a YIELD point (pc: the call site). Returns false, doing nothing, when
 * the calling thread is not controlled (the caller then perturbs as in free mode). */
bool lf_sched_yield_point(uintptr_t pc);

/* ---- hooks (see the file comment) ---- */

/* Calls fn(ctx, e) at every scheduling point of controlled runs (NULL: none). Costs a call per point. */
void lf_sched_set_event_hook(lf_sched *s, lf_sched_event_fn fn, void *ctx);
/* No preemption at points whose pc lies in [lo, hi). At most 16 regions and pairs together; false when full. */
bool lf_sched_add_atomic_region(lf_sched *s, uintptr_t lo, uintptr_t hi);
/* No preemption from the point at begin_pc until the same thread's point at end_pc or its op's return. */
bool lf_sched_add_atomic_pair(lf_sched *s, uintptr_t begin_pc, uintptr_t end_pc);
void lf_sched_clear_atomic_regions(lf_sched *s);

/* Weak memory models (docs/memory-models.md): observe every modelled access of weak runs (NULL: stop); the
 * fixes of the next runs (strengthened accesses, root causing; n = 0: none). */
void lf_sched_set_weak_observer(lf_sched *s, lf_wm_observer fn, void *ctx);
void lf_sched_set_weak_fixes(lf_sched *s, const lf_wm_fix *fixes, unsigned n);

/* Schedule feedback (feedback.h): reads-from pairs and preemption sites of controlled runs are counted into
 * counters[0..n-1] (libFuzzer's extra counters); NULL switches it off. */
void lf_sched_set_feedback(lf_sched *s, uint8_t *counters, size_t n, unsigned parts);

#endif
