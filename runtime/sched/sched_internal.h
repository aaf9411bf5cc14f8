/* Controlled scheduling, internals shared by its modules: the scheduler and thread records, the calling
 * thread's binding, and the entry points the access callbacks, the synchronisation wrappers, the strategies
 * and the watchdog use. Not for code outside runtime/sched (sched.h is the interface). */
#ifndef LINFUZZ_SCHED_INTERNAL_H
#define LINFUZZ_SCHED_INTERNAL_H

#include <pthread.h>
#include <setjmp.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#include "sched/baton.h"
#include "sched/weak_memory.h"
#include "runtime/feedback.h"
#include "runtime/sched.h"

enum { LF_TS_IDLE, LF_TS_RUNNABLE, LF_TS_BLOCKED, LF_TS_FINISHED };

/* What a blocked thread waits for (lf_sched_block). */
typedef enum lf_wait_kind {
    LF_WAIT_MUTEX,
    LF_WAIT_RWLOCK_READ,
    LF_WAIT_RWLOCK_WRITE,
    LF_WAIT_SPIN,
    LF_WAIT_COND,
    LF_WAIT_SEM,
} lf_wait_kind;

/* What lf_sched_block answers. */
typedef enum lf_wait_result {
    LF_WAIT_WOKEN,    /* another thread released the object: try again */
    LF_WAIT_TIMEDOUT, /* a timed wait, and nothing else could run */
    LF_WAIT_RELEASED, /* the run became free-running: use the real primitive */
} lf_wait_result;

/* Bits of lf_sched.flags. */
enum { LF_FLAG_RELEASED = 1, LF_FLAG_STUCK = 2 };
/* Why a run was released (lf_sched.release_reason). */
enum { LF_RELEASE_NONE, LF_RELEASE_WATCHDOG, LF_RELEASE_BUDGET };

#define LF_SCHED_MAX_HELD 8     /* locks a thread holds, remembered for deadlock reports */
#define LF_SCHED_MAX_REGIONS 16 /* atomic regions and pairs */
#define LF_SCHED_RECENT 8       /* addresses remembered for the spin detection */
#define LF_SURW_SLOTS 256       /* SURW: code sites numbered per run (at most 127 get their own number) */

struct lf_sched_thread {
    _Alignas(64) lf_sched *sched;
    unsigned index;
    lf_baton baton;
    _Atomic int cpu_clock; /* the thread's CPU-time clock (a clockid_t), -1 when unknown: read by the watchdog */
    _Atomic int tid;       /* the thread's id (gettid), 0 when unknown: the watchdog reads its state */
    uintptr_t stack_lo, stack_hi; /* the worker's stack (lf_sched_progressed), empty when unknown */
    lf_wm *wm;          /* the run's weak memory model (NULL: sc), set at the run's start */
    bool weak_released; /* the run was released: this thread's part of the model was put into memory */
    /* Bookkeeping below is touched only by the thread holding the baton (handoffs order it). */
    uint8_t state;      /* LF_TS_* */
    uint8_t wait_kind;  /* lf_wait_kind, while blocked */
    bool timed;         /* a timed wait: may time out when nothing else can run */
    bool timed_out;
    const void *wait_obj;
    uint64_t wait_seq;  /* order of the waits: condition signals wake the oldest waiter */
    uint32_t op, step;  /* current op index; points of this op so far */
    uint32_t idle;      /* weight of points since memory last changed (demotion at opt.idle_limit) */
    uintptr_t recent[LF_SCHED_RECENT]; /* the last addresses read: re-reading one of them is spinning */
    uint8_t recent_pos;
    /* call sites of the instrumented functions this thread is in (__tsan_func_entry / __tsan_func_exit),
     * outermost first; n_calls may exceed LF_SCHED_MAX_CALLS (the deeper ones are not kept) */
    uintptr_t calls[LF_SCHED_MAX_CALLS];
    unsigned n_calls;
    /* n_calls when the innermost call into an uninstrumented library began (call_out.c), UINT_MAX outside one:
     * an instrumented function entered at that depth is the library calling back (a weak model's fence) */
    unsigned library_at;
    uint32_t cp_op, cp_step; /* this thread's next armed change point (UINT32_MAX: none) */
    /* POS: the event this thread stands at (made when it goes on), and its priority */
    uintptr_t pos_addr;
    uint8_t pos_kind;   /* lf_sched_event_kind */
    uint32_t pos_prio;
    bool one_cpu;          /* confined to the run's CPU (sched/one_cpu.h): it sleeps at once for the baton */
    bool surw_interesting; /* SURW: the event this thread stands at is interesting */
    uint32_t surw_made;    /* SURW: interesting events of op surw_op so far, the one it stands at included */
    uint32_t surw_op;
    uintptr_t parked_pc; /* the site of the point where this thread last gave the baton away (0: none yet) */
    uintptr_t pair_end; /* an atomic pair is open until the point at this pc (0: none) */
    uint32_t pair_points; /* points since the open pair began */
    bool quiet_point;   /* the next point gives no event (a blocking lock gives it when it is acquired) */
    bool event_first;   /* the next point's access is already made (an unlock): its event before any switch */
    bool pair_closing;  /* this point closed a pair: a wait in it (a lock that blocks) is still inside */
    const void *held[LF_SCHED_MAX_HELD];
    uint8_t n_held;
    jmp_buf escape;     /* where a STUCK run sends the thread (lf_sched_thread_attach) */
};

typedef struct lf_region {
    uintptr_t lo, hi; /* a range [lo, hi) */
    bool pair;        /* or a pair: lo = begin pc, hi = end pc */
} lf_region;

struct lf_sched {
    lf_sched_thread threads[LF_SCHED_MAX_THREADS];
    lf_sched_options opt;
    unsigned nthreads;
    size_t ops[LF_SCHED_MAX_THREADS];
    lf_schedule sch;

    int cpu;             /* the CPU the run's workers share (-1: none, they run where they are) */
    _Atomic int owner;   /* the thread that may run, -1 before the first decision and after the last */
    _Atomic int flags;   /* LF_FLAG_* */
    _Atomic int release_reason;
    _Atomic unsigned arrived;
    _Atomic uint64_t progress; /* points passed: written by the baton holder, watched by the watchdog */
    _Atomic uint64_t run_id;   /* bumped by every run */

    /* Owned by the baton holder. */
    uint64_t points, wait_seq;
    uint64_t events; /* events given to the event hook this run */
    lf_sched_stats stats;
    int32_t prio[LF_SCHED_MAX_THREADS];
    int32_t lowest; /* the next priority given to a lowered thread (below every other) */
    struct {
        uint32_t thread, op, step;
        bool fired;
    } change[LF_SCHED_MAX_CHANGES];
    unsigned n_change;
    unsigned next_choice;
    uint64_t since_switch; /* points since the last switch */
    bool resched;          /* a thread became runnable since the last decision (PCT re-ranks) */
    uint64_t rng;          /* WALK, POS, SURW */
    /* SURW: the thread drawn to make the next interesting event (-1: none pending), which code sites are
     * interesting (bit k: the k-th site used in the run, the last bit for all later ones), and the run's
     * sites numbered by first use (an open-addressing table of LF_SURW_SLOTS slots) */
    int surw_next;
    uint64_t surw_mask[2];
    uintptr_t surw_site[LF_SURW_SLOTS];
    uint8_t surw_ordinal[LF_SURW_SLOTS];
    unsigned surw_numbered;
    uint64_t surw_done; /* interesting events of the threads' finished ops */
    /* ABA: the thread parked at a read-modify-write (-1: none), the word it targets (address, size, its value
     * when the thread parked) and whether it has changed since; aba_writer: the thread whose access at its
     * last point writes the word (-1: none), which reads it at its next point, once the write is made */
    int aba_parked, aba_writer;
    const void *aba_addr;
    unsigned aba_size;
    uint8_t aba_value[16];
    bool aba_changed;

    /* Hooks (set between runs). */
    lf_sched_event_fn event_fn;
    void *event_ctx;
    lf_region regions[LF_SCHED_MAX_REGIONS];
    unsigned n_regions;
    lf_feedback feedback;

    /* Weak memory (weak_memory.h, docs/memory-models.md): the model of this run when it is not sc. */
    lf_wm *wm;
    bool weak;                  /* this run has a weak model */
    lf_wm_random weak_rng;      /* its choices */
    lf_wm_observer weak_observer; /* a tool's observer of modelled accesses (root causing), or NULL */
    void *weak_observer_ctx;

    /* Watchdog (watchdog.c). */
    pthread_t wd_thread;
    bool wd_started;
    pthread_mutex_t wd_lock;
    pthread_cond_t wd_cond;
    bool wd_stop;            /* under wd_lock */
    uint64_t wd_generation;  /* under wd_lock: bumped by every run */
    _Atomic bool wd_active;  /* a run is in progress */
};

/* The calling worker's binding in controlled mode (NULL: not controlled, i.e. free-running). */
extern _Thread_local lf_sched_thread *lf_sched_self __attribute__((tls_model("initial-exec")));

static inline bool lf_sched_released(const lf_sched *s) {
    return atomic_load_explicit(&((lf_sched *)s)->flags, memory_order_relaxed) != 0;
}

/* A scheduling point of the calling (baton-holding) thread: the strategy may hand the baton on; returns
 * when this thread holds it again (or the run was released). */
void lf_sched_point(lf_sched_thread *th, lf_sched_event_kind kind, const void *addr, unsigned size, uintptr_t pc);

/* After an access that changed memory at addr: the thread made progress (resets its idle weight), unless addr
 * is on its own stack (a spin loop may well store to a local whose address it passed to a CAS: that is no
 * news for any other thread). */
static inline void lf_sched_progressed(lf_sched_thread *th, const void *addr) {
    if ((uintptr_t)addr - th->stack_lo >= th->stack_hi - th->stack_lo) th->idle = 0;
}

/* Blocks the calling thread on obj (see lf_wait_result). Longjmps to its escape point when this makes the
 * run STUCK or the run became STUCK while it waited. */
lf_wait_result lf_sched_block(lf_sched_thread *th, lf_wait_kind kind, const void *obj, bool timed);
/* Makes the threads blocked on obj runnable: all of them, or (one_only) the one that has waited longest. */
void lf_sched_wake_waiters(lf_sched_thread *th, const void *obj, bool one_only);
/* Remembers / forgets that th holds lock obj (deadlock reports). */
void lf_sched_note_held(lf_sched_thread *th, const void *obj, bool held);
/* An access made without a scheduling point, for the event hook: a blocking lock's acquisition. Its point
 * (th->quiet_point set before it) gives no event; this one goes where the lock is acquired, after the
 * previous holder's release however long the thread waited (the waiting itself is no access). */
void lf_sched_note_access(lf_sched_thread *th, lf_sched_event_kind kind, const void *addr, unsigned size,
                          uintptr_t pc);

/* Synchronisation the weak memory model cannot see, made by th (NULL: not controlled, nothing): a seq_cst
 * fence that drains (tso): LF_OPAQUE_SYNC(), the calls into uninstrumented libraries (call_out.c). */
void lf_sched_opaque_sync(lf_sched_thread *th);

/* Ends controlled scheduling for the rest of the run (why: LF_RELEASE_*): every thread runs freely. Safe
 * from any thread (the watchdog uses it). */
void lf_sched_release(lf_sched *s, int why);

/* ---- strategies (strategy.c) ---- */
/* SURW's draw (strategy.c; pure, for tests/unit/test_surw.c). The weight of a thread, in sixteenths of an
 * event: its ops left (its current one included) times per_op (interesting events per op, in sixteenths),
 * less the `made` interesting events of its current op, plus the one it stands at when that is interesting;
 * at least 1 (a thread that seems to have none left may still run). With exact counts, picking a thread with
 * the share of the remaining events it holds makes every interleaving of them equally likely. */
uint64_t lf_surw_weight(uint64_t ops_left, uint64_t per_op, uint32_t made, bool standing);
/* Index t with chance weight[t] / (their sum), from rng; -1 when every weight is 0. */
int lf_surw_pick(const uint64_t *weight, unsigned n, uint64_t *rng);
/* Sets up the strategy state of a run from s->sch. */
void lf_strategy_begin(lf_sched *s);
/* The first thread to run (every thread runnable). */
int lf_strategy_first(lf_sched *s);
/* At a point of runnable thread th: the thread to run next (th->index: go on). may_preempt is false inside
 * an atomic region: the schedule's switches wait until it ends. Preemptions and demotions are counted. kind,
 * addr and size: the event th stands at (what POS compares, where ABA parks); pc: its code site (what SURW
 * selects by). */
int lf_strategy_at_point(lf_sched *s, lf_sched_thread *th, bool may_preempt, lf_sched_event_kind kind,
                         const void *addr, unsigned size, uintptr_t pc);
/* th blocked or finished: the next runnable thread, or -1 when none is. */
int lf_strategy_after_stop(lf_sched *s, lf_sched_thread *th);
/* [p, p + size) is handed back to the allocator: an ABA watch on a word in it ends (the parked thread then
 * resumes when no other can run, or one spins). */
void lf_strategy_freeing(lf_sched *s, const void *p, size_t size);

/* ---- watchdog (watchdog.c) ---- */
bool lf_watchdog_start(lf_sched *s);
void lf_watchdog_stop(lf_sched *s);
void lf_watchdog_run_begin(lf_sched *s);
void lf_watchdog_run_end(lf_sched *s);

#endif
