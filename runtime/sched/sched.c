/* Controlled scheduling: the run life cycle, scheduling points, baton handoffs, blocking and waking,
 * deadlock detection and release to free running (sched.h describes the model). */
#include "runtime/sched.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sched/sched_internal.h"
#include "sched/one_cpu.h"
#include "util/env.h"
#include "util/hang.h"

_Thread_local lf_sched_thread *lf_sched_self __attribute__((tls_model("initial-exec")));

#ifndef LINFUZZ_SCHED_BUILD
#define LINFUZZ_SCHED_BUILD "unknown"
#endif
/* Bumped whenever strategies, the derivation of repetitions' schedules or the choice of scheduling points
 * change: the same input then takes another interleaving, so entries recorded before say so on replay. */
#define LF_SCHED_ALGORITHM "s3"
const char *lf_sched_build_id(void) { return LINFUZZ_SCHED_BUILD "-" LF_SCHED_ALGORITHM; }

/* LINFUZZ_ACCESS_POINTS is defined by the build when the adapters are compiled with the access
 * instrumentation and tsan_access.c is linked (fuzz/CMakeLists.txt). */
bool lf_sched_access_points_available(void) {
#ifdef LINFUZZ_ACCESS_POINTS
    return true;
#else
    return false;
#endif
}

void lf_sched_options_default(lf_sched_options *o) {
    o->point_budget = (uint64_t)1 << 22;
    o->idle_limit = 128;
    o->watchdog_cpu_s = 0.02;
    o->watchdog_wall_s = 1.0;
    o->spin_iterations = 50;
    o->one_cpu = true;
}

lf_sched *lf_sched_create(const lf_sched_options *o) {
    lf_sched *s = aligned_alloc(64, (sizeof *s + 63) / 64 * 64);
    if (!s) return NULL;
    memset(s, 0, sizeof *s);
    if (o)
        s->opt = *o;
    else
        lf_sched_options_default(&s->opt);
    if (!s->opt.idle_limit) s->opt.idle_limit = 1;
    char err[160];
    if (s->opt.one_cpu && !lf_env_flag("LINFUZZ_ONE_CPU", true, &s->opt.one_cpu, err, sizeof err)) {
        fprintf(stderr, "linfuzz: %s\n", err);
        free(s);
        exit(2);
    }
    atomic_init(&s->owner, -1);
    atomic_init(&s->flags, 0);
    atomic_init(&s->release_reason, LF_RELEASE_NONE);
    atomic_init(&s->arrived, 0);
    atomic_init(&s->progress, 0);
    atomic_init(&s->run_id, 0);
    atomic_init(&s->wd_active, false);
    s->wm = lf_wm_create();
    if (!s->wm) {
        free(s);
        return NULL;
    }
    for (unsigned t = 0; t < LF_SCHED_MAX_THREADS; t++) {
        s->threads[t].sched = s;
        s->threads[t].index = t;
        atomic_init(&s->threads[t].cpu_clock, -1);
        atomic_init(&s->threads[t].tid, 0);
        lf_baton_init(&s->threads[t].baton);
    }
    if (!lf_watchdog_start(s)) {
        free(s);
        return NULL;
    }
    return s;
}

void lf_sched_destroy(lf_sched *s) {
    if (!s) return;
    lf_watchdog_stop(s);
    lf_feedback_free(&s->feedback);
    lf_wm_destroy(s->wm);
    free(s);
}

/* ---- hooks ---- */

void lf_sched_set_event_hook(lf_sched *s, lf_sched_event_fn fn, void *ctx) {
    s->event_fn = fn;
    s->event_ctx = ctx;
}

static bool add_region(lf_sched *s, uintptr_t lo, uintptr_t hi, bool pair) {
    if (s->n_regions >= LF_SCHED_MAX_REGIONS) return false;
    s->regions[s->n_regions++] = (lf_region){lo, hi, pair};
    return true;
}

bool lf_sched_add_atomic_region(lf_sched *s, uintptr_t lo, uintptr_t hi) { return add_region(s, lo, hi, false); }
bool lf_sched_add_atomic_pair(lf_sched *s, uintptr_t begin_pc, uintptr_t end_pc) {
    return add_region(s, begin_pc, end_pc, true);
}
void lf_sched_clear_atomic_regions(lf_sched *s) { s->n_regions = 0; }

void lf_sched_set_weak_observer(lf_sched *s, lf_wm_observer fn, void *ctx) {
    s->weak_observer = fn;
    s->weak_observer_ctx = ctx;
}

void lf_sched_set_weak_fixes(lf_sched *s, const lf_wm_fix *fixes, unsigned n) { lf_wm_set_fixes(s->wm, fixes, n); }

/* What the weak model saw, for the reads-from feedback (the pair of the load's site and the site of the store
 * it read, with whether that store was older than the newest) and for a tool's observer. */
static void weak_observe(void *ctx, const lf_wm_event *e) {
    lf_sched *s = ctx;
    if (s->feedback.counters && e->pc &&
        (e->kind == LF_WM_EV_LOAD || e->kind == LF_WM_EV_PLAIN_LOAD || e->kind == LF_WM_EV_RMW))
        lf_feedback_pair(&s->feedback, e->pc, e->read_pc, e->stale);
    if (s->weak_observer) {
        lf_wm_event ev = *e;
        ev.op = s->threads[e->thread].op;
        s->weak_observer(s->weak_observer_ctx, &ev);
    }
}

void lf_sched_set_feedback(lf_sched *s, uint8_t *counters, size_t n, unsigned parts) {
    if (!lf_feedback_configure(&s->feedback, counters, n, parts)) lf_feedback_configure(&s->feedback, NULL, 0, 0);
}

/* ---- run life cycle ---- */

void lf_sched_run_begin(lf_sched *s, unsigned threads, const size_t *ops, const lf_schedule *sch) {
    if (threads > LF_SCHED_MAX_THREADS) threads = LF_SCHED_MAX_THREADS;
    s->nthreads = threads;
    s->cpu = s->opt.one_cpu ? lf_one_cpu_here() : -1;
    for (unsigned t = 0; t < threads; t++) s->ops[t] = ops[t];
    s->sch = *sch;
    lf_schedule_normalize(&s->sch);
    atomic_store(&s->owner, -1);
    atomic_store(&s->flags, 0);
    atomic_store(&s->release_reason, LF_RELEASE_NONE);
    atomic_store(&s->arrived, 0);
    atomic_store(&s->progress, 0);
    atomic_fetch_add(&s->run_id, 1);
    s->points = 0;
    s->wait_seq = 0;
    s->events = 0;
    memset(&s->stats, 0, sizeof s->stats);
    for (unsigned t = 0; t < threads; t++) {
        lf_sched_thread *th = &s->threads[t];
        th->state = LF_TS_IDLE;
        th->wait_obj = NULL;
        th->timed = th->timed_out = false;
        th->op = th->step = th->idle = 0;
        memset(th->recent, 0, sizeof th->recent);
        th->recent_pos = 0;
        th->pair_end = 0;
        th->parked_pc = 0;
        th->pair_closing = false;
        th->quiet_point = th->event_first = false;
        th->n_calls = 0;
        th->library_at = UINT_MAX;
        th->n_held = 0;
    }
    s->weak = (s->sch.memory_model == LF_MM_TSO || s->sch.memory_model == LF_MM_C11) && threads <= LF_WM_MAX_THREADS &&
              lf_sched_access_points_available();
    s->stats.memory_model = s->weak ? s->sch.memory_model : LF_MM_SC;
    if (s->weak) {
        lf_wm_random_init(&s->weak_rng, s->sch.weak_chance, s->sch.weak_seed);
        lf_wm_set_chooser(s->wm, lf_wm_random_choose, &s->weak_rng);
        lf_wm_set_observer(s->wm, s->feedback.counters || s->weak_observer ? weak_observe : NULL, s);
        lf_wm_run_begin(s->wm, (lf_memory_model)s->sch.memory_model, threads);
    }
    for (unsigned t = 0; t < threads; t++) {
        s->threads[t].wm = s->weak ? s->wm : NULL;
        s->threads[t].weak_released = false;
    }
    lf_strategy_begin(s);
    lf_feedback_run_begin(&s->feedback);
    lf_watchdog_run_begin(s);
}

lf_sched_outcome lf_sched_run_end(lf_sched *s, lf_sched_stats *st) {
    lf_watchdog_run_end(s);
    int reason = atomic_load(&s->release_reason);
    s->stats.points = s->points;
    s->stats.watchdog = reason == LF_RELEASE_WATCHDOG;
    s->stats.budget_exceeded = reason == LF_RELEASE_BUDGET;
    s->stats.deterministic = reason == LF_RELEASE_NONE;
    if (s->weak) {
        /* released: each thread put its part of the model into memory when it went on freely */
        if (reason == LF_RELEASE_NONE) lf_wm_run_end(s->wm, &s->stats.weak);
        else lf_wm_abandon(s->wm, &s->stats.weak);
        for (unsigned t = 0; t < s->nthreads; t++) s->threads[t].wm = NULL;
    }
    if (st) *st = s->stats;
    return atomic_load(&s->flags) & LF_FLAG_STUCK ? LF_SCHED_STUCK : LF_SCHED_DONE;
}

/* ---- baton ---- */

typedef struct wait_arg {
    lf_sched *s;
    int me;
} wait_arg;

static bool may_continue(void *arg) {
    wait_arg *w = arg;
    return atomic_load_explicit(&w->s->owner, memory_order_seq_cst) == w->me ||
           atomic_load_explicit(&w->s->flags, memory_order_seq_cst) != 0;
}

/* A weak run was released while th was in it: th's part of the model goes into memory, once (its buffered
 * stores, a stale value it was shown), and the thread goes on without the model. */
static void weak_release(lf_sched_thread *th) {
    if (!th->wm || th->weak_released) return;
    th->weak_released = true;
    lf_wm_release_thread(th->wm, th->index);
}

/* th leaves the run's CPU (sched/one_cpu.h): the run is over for it, or released. */
static void leave_cpu(lf_sched_thread *th) {
    if (!th->one_cpu) return;
    th->one_cpu = false;
    lf_one_cpu_leave();
}

/* Waits until th holds the baton, the run is released, or it is STUCK (then: to the escape point). On the
 * run's CPU it sleeps at once: spinning there would only keep the holder from running. Under a weak model
 * the thread's view is put in when it holds the baton again. */
static void wait_for_baton(lf_sched *s, lf_sched_thread *th) {
    wait_arg w = {s, (int)th->index};
    lf_baton_wait(&th->baton, may_continue, &w, th->one_cpu ? 0 : s->opt.spin_iterations);
    if (atomic_load(&s->flags) & LF_FLAG_RELEASED) leave_cpu(th);
    if (atomic_load(&s->flags) & LF_FLAG_STUCK) longjmp(th->escape, 1);
    if (th->wm) {
        if (lf_sched_released(s)) weak_release(th);
        else lf_wm_switch_in(th->wm, th->index);
    }
}

static void hand_to(lf_sched *s, int next) {
    s->stats.switches++;
    atomic_store_explicit(&s->owner, next, memory_order_seq_cst);
    if (next >= 0) lf_baton_wake(&s->threads[next].baton);
}

/* Every record's baton, not only this run's threads: the watchdog calls this too, and must not read the
 * run's bookkeeping (nthreads) while the next run may be setting it up. A wake-up nobody waits for is free. */
static void wake_everyone(lf_sched *s) {
    for (unsigned t = 0; t < LF_SCHED_MAX_THREADS; t++) lf_baton_wake(&s->threads[t].baton);
}

void lf_sched_release(lf_sched *s, int why) {
    int none = LF_RELEASE_NONE;
    atomic_compare_exchange_strong(&s->release_reason, &none, why);
    atomic_fetch_or(&s->flags, LF_FLAG_RELEASED);
    wake_everyone(s);
}

/* ---- threads ---- */

/* The calling thread's stack bounds, looked up once per thread. */
static _Thread_local uintptr_t my_stack_lo, my_stack_hi;
static _Thread_local bool my_stack_known;

static void stack_bounds(uintptr_t *lo, uintptr_t *hi) {
    if (!my_stack_known) {
        my_stack_known = true;
        pthread_attr_t attr;
        void *base;
        size_t size;
        if (pthread_getattr_np(pthread_self(), &attr) == 0) {
            if (pthread_attr_getstack(&attr, &base, &size) == 0) {
                my_stack_lo = (uintptr_t)base;
                my_stack_hi = (uintptr_t)base + size;
            }
            pthread_attr_destroy(&attr);
        }
    }
    *lo = my_stack_lo;
    *hi = my_stack_hi;
}

jmp_buf *lf_sched_thread_attach(lf_sched *s, unsigned t) {
    lf_sched_thread *th = &s->threads[t];
    clockid_t clock;
    atomic_store(&th->cpu_clock, pthread_getcpuclockid(pthread_self(), &clock) == 0 ? (int)clock : -1);
    atomic_store(&th->tid, (int)lf_thread_id());
    stack_bounds(&th->stack_lo, &th->stack_hi);
    return &th->escape;
}

void lf_sched_thread_start(lf_sched *s, unsigned t) {
    lf_sched_thread *th = &s->threads[t];
    th->state = LF_TS_RUNNABLE;
    lf_sched_self = th;
    th->one_cpu = s->cpu >= 0 && lf_one_cpu_enter(s->cpu);
    /* The last worker to arrive makes the first decision: every thread is runnable by then, so the choice
     * does not depend on the order of arrival. (The RMW chain orders every record's setup before it.) */
    if (atomic_fetch_add_explicit(&s->arrived, 1, memory_order_acq_rel) + 1 == s->nthreads) {
        int first = lf_strategy_first(s);
        atomic_store_explicit(&s->owner, first, memory_order_seq_cst);
        if (first != (int)t && first >= 0) lf_baton_wake(&s->threads[first].baton);
    }
    wait_for_baton(s, th);
}

/* Sends the baton on after th stopped (blocked or finished); returns the thread chosen (-1: none could run,
 * the run is then STUCK or over). When some threads are blocked and none runnable, a timed waiter times out
 * (the lowest index: deterministic), or else the run is STUCK and every blocked thread is woken to leave. */
static int pass_on(lf_sched *s, lf_sched_thread *th) {
    int next = lf_strategy_after_stop(s, th);
    if (next < 0) {
        bool blocked = false;
        for (unsigned t = 0; t < s->nthreads && next < 0; t++) {
            lf_sched_thread *o = &s->threads[t];
            if (o->state != LF_TS_BLOCKED) continue;
            blocked = true;
            if (o->timed) {
                o->state = LF_TS_RUNNABLE;
                o->timed_out = true;
                s->stats.timeouts++;
                next = (int)t;
            }
        }
        if (next < 0) {
            if (blocked) {
                atomic_fetch_or(&s->flags, LF_FLAG_STUCK);
                atomic_store_explicit(&s->owner, -1, memory_order_seq_cst);
                wake_everyone(s);
            } else {
                atomic_store_explicit(&s->owner, -1, memory_order_seq_cst); /* every thread finished */
            }
            return -1;
        }
    }
    if (next != (int)th->index) hand_to(s, next);
    return next;
}

void lf_sched_thread_end(lf_sched *s) {
    lf_sched_thread *th = lf_sched_self;
    lf_sched_self = NULL;
    if (!th) return;
    if (lf_sched_released(s)) {
        weak_release(th);
        leave_cpu(th);
        return;
    }
    if (th->wm) { /* its buffered stores drain: a thread's end synchronises with the run's end */
        lf_wm_thread_end(th->wm, th->index);
        lf_wm_switch_out(th->wm, th->index);
    }
    th->state = LF_TS_FINISHED;
    pass_on(s, th);
    leave_cpu(th);
}

/* Whether th may be preempted at a point at pc (atomic regions, sched.h). */
static bool may_preempt_at(lf_sched *s, lf_sched_thread *th, uintptr_t pc) {
    if (th->pair_end) {
        if (pc == th->pair_end) {
            /* The pair ends with the access at this point, which comes after it: when it is a lock that has to
             * wait, the region waits inside (lf_sched_block counts it) until the thread's next point. */
            th->pair_end = 0;
            th->pair_closing = true;
        }
        return false;
    }
    for (unsigned i = 0; i < s->n_regions; i++) {
        const lf_region *r = &s->regions[i];
        if (r->pair) {
            if (pc == r->lo && pc) { /* preemptible here, not until the end point */
                th->pair_end = r->hi;
                th->pair_points = 0;
            }
        } else if (pc >= r->lo && pc < r->hi) {
            return false;
        }
    }
    return true;
}

/* What a point adds to the thread's idle weight (spin detection, strategy.c). A spin loop re-reads the same
 * few addresses, so a read counts only when its address is among the thread's last LF_SCHED_RECENT reads; a
 * traversal that reads new nodes all the time is not spinning, however long it is. A pause (sched_yield, a
 * sleep) is an explicit "I wait for someone" and weighs 32; an LF_YIELD() point 1. */
static uint32_t idle_weight(lf_sched_thread *th, lf_sched_event_kind kind, const void *addr) {
    switch (kind) {
    case LF_EV_READ:
    case LF_EV_RMW: {
        uintptr_t a = (uintptr_t)addr;
        for (unsigned i = 0; i < LF_SCHED_RECENT; i++)
            if (th->recent[i] == a) return 1;
        th->recent[th->recent_pos] = a;
        th->recent_pos = (uint8_t)((th->recent_pos + 1) % LF_SCHED_RECENT);
        return 0;
    }
    case LF_EV_PAUSE: return 32;
    case LF_EV_YIELD:
    case LF_EV_LIBCALL: return 1; /* a library call may be a poll of another thread's progress */
    default: return 0;
    }
}

/* The event of an access to the hook, when the thread goes on to make it (after its point, once it holds the
 * baton again if it was preempted there): events come in the order the accesses happen. */
static void emit(lf_sched *s, lf_sched_thread *th, lf_sched_event_kind kind, const void *addr, unsigned size,
                 uintptr_t pc, uint32_t step) {
    if (th->quiet_point) {
        th->quiet_point = false;
        return;
    }
    if (!s->event_fn || lf_sched_released(s)) return;
    lf_sched_event e = {.seq = s->events++, .thread = th->index, .op = th->op, .step = step, .kind = (uint8_t)kind,
                        .size = (uint8_t)(size > 255 ? 255 : size), .addr = addr, .pc = pc, .calls = th->calls,
                        .n_calls = th->n_calls < LF_SCHED_MAX_CALLS ? th->n_calls : LF_SCHED_MAX_CALLS};
    s->event_fn(s->event_ctx, &e);
}

/* Where the weak models keep the synchronisation of the recorder's call and return stamps (seq_cst fetch-adds
 * of its counter: acquire-release through one location; docs/memory-models.md). */
static const char stamp_counter;

void lf_sched_point(lf_sched_thread *th, lf_sched_event_kind kind, const void *addr, unsigned size, uintptr_t pc) {
    lf_sched *s = th->sched;
    if (lf_sched_released(s)) {
        weak_release(th);
        return;
    }
    lf_wm *wm = th->wm;
    if (wm) {
        /* what the thread's previous access left pending, first; then the return stamp (the recorder's
         * seq_cst RMW, made before this point), a lock's release, a pause: synchronisation */
        lf_wm_enter(wm, th->index);
        if (kind == LF_EV_RETURN) lf_wm_sync_object(wm, th->index, &stamp_counter);
        if (kind == LF_EV_SYNC) lf_wm_sync_object(wm, th->index, addr);
        if (kind == LF_EV_PAUSE) lf_wm_drain(wm, th->index);
    }
    uint64_t seq = s->points++;
    atomic_store_explicit(&s->progress, seq + 1, memory_order_relaxed);
    uint32_t step = th->step;
    if (th->event_first) { /* made before the point: the threads a switch here lets run come after it */
        th->event_first = false;
        emit(s, th, kind, addr, size, pc, step);
        th->quiet_point = true;
    }
    if (s->feedback.counters && pc && !wm) { /* (a weak model gives the pairs it really made: weak_observe) */
        if (kind == LF_EV_READ || kind == LF_EV_RMW) lf_feedback_read(&s->feedback, th->index, addr, pc);
        if (kind == LF_EV_WRITE || kind == LF_EV_RMW) lf_feedback_write(&s->feedback, th->index, addr, pc);
    }
    th->idle += idle_weight(th, kind, addr);
    if (s->points > s->opt.point_budget) {
        lf_sched_release(s, LF_RELEASE_BUDGET);
        weak_release(th);
        return;
    }
    th->pair_closing = false; /* the access of the previous point is done */
    bool may_preempt = s->n_regions == 0 || may_preempt_at(s, th, pc);
    if (th->pair_end && ++th->pair_points > LF_SCHED_REGION_POINTS) { /* spinning inside an atomic pair */
        s->stats.region_spins = 1;
        lf_sched_release(s, LF_RELEASE_BUDGET);
        weak_release(th);
        return;
    }
    /* a thread about to be demoted for spinning waits for the others: their buffered stores become visible */
    if (wm && may_preempt && th->idle >= s->opt.idle_limit) lf_wm_spin(wm, th->index);
    int next = lf_strategy_at_point(s, th, may_preempt, kind, addr, size, pc);
    th->step++;
    if (next != (int)th->index) {
        if (s->feedback.counters && pc) {
            lf_feedback_preempt(&s->feedback, pc);
            lf_feedback_switch(&s->feedback, pc, s->threads[next].parked_pc);
        }
        th->parked_pc = pc;
        if (wm) lf_wm_switch_out(wm, th->index);
        hand_to(s, next);
        wait_for_baton(s, th);
    }
    /* the call stamp is made after this point, when the thread goes on */
    if (kind == LF_EV_CALL && th->wm && !lf_sched_released(s)) lf_wm_sync_object(th->wm, th->index, &stamp_counter);
    emit(s, th, kind, addr, size, pc, step);
}

void lf_sched_note_access(lf_sched_thread *th, lf_sched_event_kind kind, const void *addr, unsigned size,
                          uintptr_t pc) {
    th->quiet_point = false;
    if (th->wm && !lf_sched_released(th->sched)) lf_wm_sync_object(th->wm, th->index, addr); /* a lock acquired */
    emit(th->sched, th, kind, addr, size, pc, th->step);
}

void lf_sched_op_begin(lf_sched *s, uint32_t op) {
    lf_sched_thread *th = lf_sched_self;
    (void)s;
    if (!th) return;
    th->op = op;
    th->step = 0;
    th->pair_end = 0;
    th->pair_closing = false;
    th->n_calls = 0;
    lf_sched_point(th, LF_EV_CALL, NULL, 0, 0);
}

void lf_sched_op_end(lf_sched *s) {
    lf_sched_thread *th = lf_sched_self;
    (void)s;
    if (!th) return;
    th->idle = 0; /* an op that returns made progress, whatever it wrote */
    th->pair_end = 0;
    th->pair_closing = false;
    lf_sched_point(th, LF_EV_RETURN, NULL, 0, 0);
}

void lf_sched_opaque_sync(lf_sched_thread *th) {
    if (th && th->wm && !lf_sched_released(th->sched)) lf_wm_sync(th->wm, th->index);
}

void lf_opaque_sync(void) { lf_sched_opaque_sync(lf_sched_self); }

bool lf_sched_yield_point(uintptr_t pc) {
    lf_sched_thread *th = lf_sched_self;
    if (!th) return false;
    lf_sched_point(th, LF_EV_YIELD, NULL, 0, pc);
    return true;
}

/* ---- blocking ---- */

lf_wait_result lf_sched_block(lf_sched_thread *th, lf_wait_kind kind, const void *obj, bool timed) {
    lf_sched *s = th->sched;
    if (lf_sched_released(s)) {
        weak_release(th);
        return LF_WAIT_RELEASED;
    }
    th->state = LF_TS_BLOCKED;
    th->wait_kind = (uint8_t)kind;
    th->wait_obj = obj;
    th->timed = timed;
    th->timed_out = false;
    th->wait_seq = s->wait_seq++;
    s->stats.blocks++;
    if (th->pair_end || th->pair_closing) s->stats.region_blocks++;
    if (th->wm) lf_wm_switch_out(th->wm, th->index);
    int next = pass_on(s, th);
    if (next < 0) longjmp(th->escape, 1); /* STUCK: this thread leaves its operation too */
    if (next != (int)th->index) wait_for_baton(s, th);
    else if (th->wm && !lf_sched_released(s)) lf_wm_switch_in(th->wm, th->index);
    if (lf_sched_released(s)) {
        weak_release(th);
        return LF_WAIT_RELEASED;
    }
    th->wait_obj = NULL;
    th->idle = 0;
    return th->timed_out ? LF_WAIT_TIMEDOUT : LF_WAIT_WOKEN;
}

void lf_sched_wake_waiters(lf_sched_thread *th, const void *obj, bool one_only) {
    lf_sched *s = th->sched;
    if (lf_sched_released(s)) return;
    int oldest = -1;
    for (unsigned t = 0; t < s->nthreads; t++) {
        lf_sched_thread *o = &s->threads[t];
        if (o->state != LF_TS_BLOCKED || o->wait_obj != obj) continue;
        if (!one_only) {
            o->state = LF_TS_RUNNABLE;
            s->resched = true;
        } else if (oldest < 0 || o->wait_seq < s->threads[oldest].wait_seq) {
            oldest = (int)t;
        }
    }
    if (oldest >= 0) {
        s->threads[oldest].state = LF_TS_RUNNABLE;
        s->resched = true;
    }
}

void lf_sched_note_held(lf_sched_thread *th, const void *obj, bool held) {
    if (held) {
        if (th->n_held < LF_SCHED_MAX_HELD) th->held[th->n_held++] = obj;
        return;
    }
    for (unsigned i = th->n_held; i-- > 0;)
        if (th->held[i] == obj) {
            th->held[i] = th->held[--th->n_held];
            return;
        }
}

/* ---- reports ---- */

unsigned lf_sched_stuck_info(const lf_sched *s, lf_sched_stuck_thread *out, unsigned max) {
    static const char *const WAITS[] = {"mutex", "rwlock (read)", "rwlock (write)", "spinlock", "condition",
                                        "semaphore"};
    unsigned n = s->nthreads < max ? s->nthreads : max;
    for (unsigned t = 0; t < n; t++) {
        const lf_sched_thread *th = &s->threads[t];
        lf_sched_stuck_thread *o = &out[t];
        o->finished = th->state != LF_TS_BLOCKED;
        o->op = th->op;
        o->wait = o->finished ? "" : WAITS[th->wait_kind < 6 ? th->wait_kind : 0];
        o->obj = o->finished ? NULL : th->wait_obj;
        o->holder = -1;
        for (unsigned u = 0; u < s->nthreads && !o->finished; u++)
            for (unsigned i = 0; i < s->threads[u].n_held; i++)
                if (s->threads[u].held[i] == th->wait_obj) o->holder = (int)u;
    }
    return n;
}
