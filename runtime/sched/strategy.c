/* Schedule strategies: which thread runs next at a scheduling point (schedule.h describes PCT, CHOICES,
 * PREEMPT, WALK, POS, SURW and ABA). Every decision is a function of the schedule and of what happened so far in
 * the run, so a run replays exactly.
 *
 * Demotion, for every strategy: a thread whose idle weight (points since it last changed memory; a pause
 * such as sched_yield weighs more) reaches opt.idle_limit is spinning on another thread's progress. It gives
 * way: under PCT, PREEMPT and ABA its priority drops below every other (so the thread it waits for gets to
 * run; under ABA a parked thread resumes first),
 * under CHOICES, WALK and SURW the next runnable thread in thread order takes over, under POS the runnable thread
 * of the highest other priority. Without this, a strategy that
 * keeps a spinning thread running would never let the awaited thread move. */
#include <limits.h>
#include <stdint.h>
#include <string.h>

#include "util/prng.h"
#include "sched/sched_internal.h"

static bool runnable(const lf_sched *s, unsigned t) { return s->threads[t].state == LF_TS_RUNNABLE; }

/* The runnable thread of highest priority (ties: lowest index), skipping `skip` (-1: none); -1 if none. */
static int highest(const lf_sched *s, int skip) {
    int best = -1;
    for (unsigned t = 0; t < s->nthreads; t++)
        if ((int)t != skip && runnable(s, t) && (best < 0 || s->prio[t] > s->prio[best])) best = (int)t;
    return best;
}

/* The first runnable thread after `from` in thread order (wrapping), not `from` itself; -1 if none. */
static int next_in_order(const lf_sched *s, unsigned from) {
    for (unsigned k = 1; k < s->nthreads; k++) {
        unsigned t = (from + k) % s->nthreads;
        if (runnable(s, t)) return (int)t;
    }
    return -1;
}

/* The k-th (modulo their number) runnable thread other than `from`, counted in thread order after it. */
static int kth_other(const lf_sched *s, unsigned from, unsigned k) {
    unsigned n = 0;
    for (unsigned j = 1; j < s->nthreads; j++) n += runnable(s, (from + j) % s->nthreads);
    if (!n) return -1;
    k %= n;
    for (unsigned j = 1; j < s->nthreads; j++) {
        unsigned t = (from + j) % s->nthreads;
        if (runnable(s, t) && k-- == 0) return (int)t;
    }
    return -1;
}

/* ---- POS ---- */

/* A memory event of kind k: conflicts are between accesses to one address, one of them a write (an RMW, a
 * lock's or a pause's synchronisation writes too). Calls and returns are no accesses. */
static bool pos_access(uint8_t k) { return k != LF_EV_CALL && k != LF_EV_RETURN; }
static bool pos_writes(uint8_t k) { return k != LF_EV_READ; }

static uint32_t pos_draw(lf_sched *s) { return (uint32_t)(lf_rand_next(&s->rng) >> 32); }

/* The runnable thread whose event has the highest priority (ties: lowest index), skipping `skip`; -1 if
 * none. */
static int pos_highest(const lf_sched *s, int skip) {
    int best = -1;
    for (unsigned t = 0; t < s->nthreads; t++)
        if ((int)t != skip && runnable(s, t) && (best < 0 || s->threads[t].pos_prio > s->threads[best].pos_prio))
            best = (int)t;
    return best;
}

/* th stands at a new event (kind, addr): the one it stood at before has been made since it last went on, so
 * the events of the other threads that conflict with that one draw new priorities; the new event draws its
 * own. */
static void pos_step(lf_sched *s, lf_sched_thread *th, lf_sched_event_kind kind, const void *addr) {
    if (pos_access(th->pos_kind) && th->pos_addr)
        for (unsigned t = 0; t < s->nthreads; t++) {
            lf_sched_thread *u = &s->threads[t];
            if (u == th || u->pos_addr != th->pos_addr || !pos_access(u->pos_kind)) continue;
            if (pos_writes(u->pos_kind) || pos_writes(th->pos_kind)) u->pos_prio = pos_draw(s);
        }
    th->pos_kind = (uint8_t)kind;
    th->pos_addr = (uintptr_t)addr;
    th->pos_prio = pos_draw(s);
}

/* ---- SURW ---- */

/* The number of code site pc in this run, in the order of first use; from 127 on, all share 127. Sites, not
 * the addresses accessed: an address can differ between two replays of one schedule (a library's helper
 * thread frees memory at its own pace, and malloc hands the block out again or not: measured on
 * urcu_lfht_kv, 2 of 300 replays under load), which would shift the numbers of all later ones; code sites
 * are the same, and their order of first use is the run's. */
static unsigned surw_number(lf_sched *s, uintptr_t pc) {
    unsigned slot = (unsigned)((pc * 0x9e3779b97f4a7c15ull) >> 56); /* (LF_SURW_SLOTS == 256) */
    for (unsigned i = 0; i < LF_SURW_SLOTS; i++, slot = (slot + 1) % LF_SURW_SLOTS) {
        if (s->surw_site[slot] == pc) return s->surw_ordinal[slot];
        if (s->surw_site[slot]) continue;
        if (s->surw_numbered >= 127) return 127; /* (the table stays at most half full) */
        s->surw_site[slot] = pc;
        s->surw_ordinal[slot] = (uint8_t)s->surw_numbered++;
        return s->surw_ordinal[slot];
    }
    return 127;
}

static bool surw_interesting(lf_sched *s, lf_sched_event_kind kind, uintptr_t pc) {
    if (!pos_access((uint8_t)kind) || !pc) return false;
    unsigned n = surw_number(s, pc);
    return (s->surw_mask[n / 64] >> (n % 64)) & 1;
}

uint64_t lf_surw_weight(uint64_t ops_left, uint64_t per_op, uint32_t made, bool standing) {
    uint64_t left = ops_left * per_op, used = (uint64_t)made * 16;
    uint64_t w = (left > used ? left - used : 0) + (standing ? 16 : 0);
    return w ? w : 1;
}

int lf_surw_pick(const uint64_t *weight, unsigned n, uint64_t *rng) {
    uint64_t total = 0;
    for (unsigned t = 0; t < n; t++) total += weight[t];
    if (!total) return -1;
    uint64_t r = lf_rand_below(rng, total);
    for (unsigned t = 0; t < n; t++) {
        if (r < weight[t]) return (int)t;
        r -= weight[t];
    }
    return -1;
}

/* A runnable thread drawn with the weight of its remaining interesting events (lf_surw_weight), estimated
 * from the interesting events per op of the run's finished ops (8 before any); -1 when none is runnable. */
static int surw_draw(lf_sched *s) {
    uint64_t done = 0, weight[LF_SCHED_MAX_THREADS];
    for (unsigned t = 0; t < s->nthreads; t++) done += s->threads[t].op;
    uint64_t per_op = done ? s->surw_done * 16 / done : 16 * 8;
    for (unsigned t = 0; t < s->nthreads; t++) {
        const lf_sched_thread *th = &s->threads[t];
        weight[t] = !runnable(s, t) ? 0
                    : lf_surw_weight(s->ops[t] > th->op ? s->ops[t] - th->op : 0, per_op, th->surw_made,
                                     th->surw_interesting);
    }
    return lf_surw_pick(weight, s->nthreads, &s->rng);
}

/* th stands at (kind, addr): whether that event is interesting, counted in its op's events. */
static void surw_classify(lf_sched *s, lf_sched_thread *th, lf_sched_event_kind kind, uintptr_t pc) {
    if (th->op != th->surw_op) { /* its earlier op is done */
        s->surw_done += th->surw_made;
        th->surw_made = 0;
        th->surw_op = th->op;
    }
    th->surw_interesting = surw_interesting(s, kind, pc);
    th->surw_made += th->surw_interesting;
}

/* t goes on: when the event it stands at is interesting, that is the drawn event; otherwise it is drawn to
 * make its next interesting event, and runs its other events until then. */
static int surw_hand(lf_sched *s, int t) {
    if (t >= 0) s->surw_next = s->threads[t].surw_interesting ? -1 : t;
    return t;
}

/* Arms th's earliest unfired change point (PCT, PREEMPT). */
static void arm(lf_sched *s, lf_sched_thread *th) {
    th->cp_op = th->cp_step = UINT32_MAX;
    for (unsigned i = 0; i < s->n_change; i++) {
        if (s->change[i].fired || s->change[i].thread != th->index) continue;
        if (s->change[i].op < th->cp_op || (s->change[i].op == th->cp_op && s->change[i].step < th->cp_step)) {
            th->cp_op = s->change[i].op;
            th->cp_step = s->change[i].step;
        }
    }
}

/* Fires th's change points that its position has reached; true when one fired. */
static bool fire(lf_sched *s, lf_sched_thread *th) {
    bool fired = false;
    for (unsigned i = 0; i < s->n_change; i++) {
        if (s->change[i].fired || s->change[i].thread != th->index) continue;
        if (th->op > s->change[i].op || (th->op == s->change[i].op && th->step >= s->change[i].step)) {
            s->change[i].fired = true;
            fired = true;
        }
    }
    arm(s, th);
    return fired;
}

/* ---- ABA ---- */

/* The bytes of the parked word as they are now. The code under test runs one thread at a time, and the word is
 * read only at the point after a thread wrote it (or at the point where a thread is about to access it), so
 * the read races with nothing; it is not instrumented, and byte by byte, not through an intercepted memcpy: a
 * node freed since (and kept in a sanitizer's quarantine) is read without a report, as the code under test
 * would have read it. */
#if defined(__clang__) || (defined(__GNUC__) && __GNUC__ >= 8)
__attribute__((no_sanitize("address", "thread", "undefined")))
#endif
static void aba_read(const void *addr, unsigned size, uint8_t *out) {
    const volatile uint8_t *p = addr;
    for (unsigned i = 0; i < size; i++) out[i] = p[i];
}

/* The parked thread resumes: returned, or -1 when none is parked or it cannot run. */
static int aba_resume(lf_sched *s) {
    int parked = s->aba_parked;
    if (parked < 0 || !runnable(s, (unsigned)parked)) return -1;
    s->aba_parked = s->aba_writer = -1;
    return parked;
}

/* The runnable thread of highest priority other than `skip` and the parked one; when there is none, the parked
 * one resumes (returned); -1 when no thread can run. */
static int aba_next(lf_sched *s, int skip) {
    int best = -1;
    for (unsigned t = 0; t < s->nthreads; t++)
        if ((int)t != skip && (int)t != s->aba_parked && runnable(s, t) && (best < 0 || s->prio[t] > s->prio[best]))
            best = (int)t;
    if (best < 0 && s->aba_parked != skip) best = aba_resume(s);
    return best;
}

/* ABA at a point of th (see schedule.h): the thread to run next, th->index to go on. *demote: th spins (cleared
 * when the parked thread resumes for its word instead). */
static int aba_at_point(lf_sched *s, lf_sched_thread *th, bool may_preempt, bool *demote, lf_sched_event_kind kind,
                        const void *addr, unsigned size) {
    int me = (int)th->index;
    /* th's access at its last point wrote the watched word, and is made: back at the parked value, after a
     * change? (inside an atomic region the check waits for its end, the first point where th may switch) */
    if (s->aba_writer == me && may_preempt) {
        s->aba_writer = -1;
        if (s->aba_parked >= 0 && s->aba_addr) {
            uint8_t now[16];
            aba_read(s->aba_addr, s->aba_size, now);
            if (memcmp(now, s->aba_value, s->aba_size) != 0) {
                s->aba_changed = true;
            } else if (s->aba_changed) {
                int parked = aba_resume(s);
                if (parked >= 0) {
                    s->stats.preemptions++;
                    *demote = false;
                    return parked;
                }
            }
        }
    }
    if (s->aba_parked >= 0 && s->aba_addr && addr && (kind == LF_EV_WRITE || kind == LF_EV_RMW) &&
        (uintptr_t)addr < (uintptr_t)s->aba_addr + s->aba_size && (uintptr_t)s->aba_addr < (uintptr_t)addr + size)
        s->aba_writer = me;
    if (*demote) { /* spinning: perhaps on the parked thread, which resumes first */
        s->prio[me] = s->lowest--;
        int next = aba_resume(s);
        if (next < 0) next = aba_next(s, -1);
        return next >= 0 ? next : me;
    }
    unsigned chance = s->sch.walk_chance ? s->sch.walk_chance : LF_SCHED_ABA_CHANCE;
    if (s->aba_parked < 0 && may_preempt && kind == LF_EV_RMW && addr && size >= 1 && size <= sizeof s->aba_value &&
        lf_rand_below(&s->rng, 256) < chance) {
        int next = aba_next(s, me);
        if (next >= 0) {
            s->aba_parked = me;
            s->aba_addr = addr;
            s->aba_size = size;
            aba_read(addr, size, s->aba_value);
            s->aba_changed = false;
            s->stats.preemptions++;
            return next;
        }
    }
    return me;
}

void lf_strategy_freeing(lf_sched *s, const void *p, size_t size) {
    if (s->aba_parked < 0 || !s->aba_addr || !p) return;
    uintptr_t lo = (uintptr_t)p, word = (uintptr_t)s->aba_addr;
    if (word >= lo && word < lo + size) { /* the watch ends: the word may be unmapped, its bytes the allocator's */
        s->aba_addr = NULL;
        s->aba_writer = -1;
    }
}

void lf_strategy_begin(lf_sched *s) {
    const lf_schedule *sch = &s->sch;
    for (unsigned t = 0; t < s->nthreads; t++) s->prio[t] = (int32_t)sch->priority[t];
    s->lowest = -1;
    s->n_change = 0;
    if (sch->strategy == LF_SCHED_PCT || sch->strategy == LF_SCHED_PREEMPT) {
        for (unsigned i = 0; i < sch->bound && i < LF_SCHED_MAX_CHANGES; i++) {
            unsigned t = sch->change[i].thread % s->nthreads;
            if (!s->ops[t]) continue; /* a thread without ops has no positions */
            s->change[s->n_change].thread = t;
            s->change[s->n_change].op = (uint32_t)(sch->change[i].op % s->ops[t]);
            s->change[s->n_change].step = sch->change[i].step;
            s->change[s->n_change].fired = false;
            s->n_change++;
        }
    }
    for (unsigned t = 0; t < s->nthreads; t++) arm(s, &s->threads[t]);
    s->next_choice = 0;
    s->since_switch = 0;
    s->resched = false;
    s->rng = sch->seed ^ 0x243f6a8885a308d3ull;
    for (unsigned t = 0; t < s->nthreads; t++) { /* POS: no event yet, each thread a first priority */
        s->threads[t].pos_kind = LF_EV_CALL;
        s->threads[t].pos_addr = 0;
        s->threads[t].pos_prio = sch->strategy == LF_SCHED_POS ? pos_draw(s) : 0;
        s->threads[t].surw_interesting = false; /* (each thread stands at its first op's call) */
        s->threads[t].surw_made = s->threads[t].surw_op = 0;
    }
    s->surw_done = 0;
    s->surw_next = -1;
    s->aba_parked = s->aba_writer = -1;
    s->aba_changed = false;
    if (sch->strategy == LF_SCHED_SURW) {
        /* every site interesting (bound 0), or each with chance 1/2, 1/4 or 1/8 (bound 1, 2, 3) */
        unsigned level = sch->bound % (LF_SCHED_MAX_CHANGES + 1);
        for (unsigned w = 0; w < 2; w++) {
            s->surw_mask[w] = ~0ull;
            for (unsigned i = 0; i < level; i++) s->surw_mask[w] &= lf_rand_next(&s->rng);
        }
        memset(s->surw_site, 0, sizeof s->surw_site);
        s->surw_numbered = 0;
    }
}

int lf_strategy_first(lf_sched *s) {
    switch ((lf_sched_strategy)s->sch.strategy) {
    case LF_SCHED_CHOICES: return runnable(s, 0) ? 0 : next_in_order(s, 0);
    case LF_SCHED_WALK: {
        /* any runnable thread: the k-th other one after the last thread, which may be the last one itself */
        unsigned k = (unsigned)lf_rand_below(&s->rng, s->nthreads), last = s->nthreads - 1;
        if (k == 0 && runnable(s, last)) return (int)last;
        int t = kth_other(s, last, k);
        return t >= 0 ? t : runnable(s, last) ? (int)last : -1;
    }
    case LF_SCHED_POS: return pos_highest(s, -1);
    case LF_SCHED_SURW: return surw_hand(s, surw_draw(s));
    case LF_SCHED_ABA: return aba_next(s, -1);
    default: return highest(s, -1);
    }
}

/* th gives way (demotion or a PCT change point): below everyone else. */
static void lower(lf_sched *s, lf_sched_thread *th) { s->prio[th->index] = s->lowest--; }

int lf_strategy_at_point(lf_sched *s, lf_sched_thread *th, bool may_preempt, lf_sched_event_kind kind,
                         const void *addr, unsigned size, uintptr_t pc) {
    const lf_schedule *sch = &s->sch;
    int me = (int)th->index, next = me;
    s->since_switch++;
    bool demote = may_preempt && th->idle >= s->opt.idle_limit;
    switch ((lf_sched_strategy)sch->strategy) {
    case LF_SCHED_PCT: {
        bool reached = th->op > th->cp_op || (th->op == th->cp_op && th->step >= th->cp_step);
        if (reached && may_preempt && fire(s, th)) {
            lower(s, th);
            next = highest(s, -1);
            if (next != me) s->stats.preemptions++;
            demote = false;
        } else if (demote) {
            lower(s, th);
            next = highest(s, -1);
        } else if (s->resched && may_preempt) {
            /* A thread woken by an unlock may now outrank th. */
            s->resched = false;
            next = highest(s, -1);
        }
        break;
    }
    case LF_SCHED_PREEMPT: {
        bool reached = th->op > th->cp_op || (th->op == th->cp_op && th->step >= th->cp_step);
        if (reached && may_preempt && fire(s, th)) {
            next = highest(s, me);
            if (next < 0) next = me;
            else s->stats.preemptions++;
            demote = false;
        } else if (demote) {
            lower(s, th);
            next = highest(s, -1);
        }
        s->resched = false; /* PREEMPT switches only at its preemptions, at blocks and at the end of threads */
        break;
    }
    case LF_SCHED_CHOICES:
        if (may_preempt && s->next_choice < sch->n_choices &&
            s->since_switch > lf_sched_choice_steps(sch->choices[s->next_choice].after)) {
            int t = kth_other(s, th->index, sch->choices[s->next_choice].target);
            s->next_choice++;
            if (t >= 0) {
                next = t;
                s->stats.preemptions++;
                demote = false;
            }
        } else if (demote) {
            next = next_in_order(s, th->index);
        }
        break;
    case LF_SCHED_WALK:
        if (may_preempt && sch->walk_chance && lf_rand_below(&s->rng, 4096) < sch->walk_chance) {
            int t = kth_other(s, th->index, (unsigned)lf_rand_next(&s->rng));
            if (t >= 0) {
                next = t;
                s->stats.preemptions++;
                demote = false;
            }
        } else if (demote) {
            next = next_in_order(s, th->index);
        }
        break;
    case LF_SCHED_POS:
        pos_step(s, th, kind, addr);
        if (demote) {
            /* spinning: the highest other event goes first, and the spinner's waits below every other until an
             * event that conflicts with it (the store it waits for) draws it a new priority */
            th->pos_prio = 0;
            next = pos_highest(s, me);
        } else if (may_preempt) {
            next = pos_highest(s, -1);
            if (next != me) s->stats.preemptions++;
        }
        break;
    case LF_SCHED_SURW:
        surw_classify(s, th, kind, pc);
        if (demote) {
            next = next_in_order(s, th->index);
            surw_hand(s, next >= 0 ? next : me);
        } else if (th->surw_interesting) {
            if (s->surw_next == me) { /* the event th was drawn for */
                s->surw_next = -1;
            } else if (may_preempt) {
                int t = surw_draw(s);
                next = surw_hand(s, t >= 0 ? t : me);
                if (next != me) s->stats.preemptions++;
            }
        }
        break;
    case LF_SCHED_ABA:
        next = aba_at_point(s, th, may_preempt, &demote, kind, addr, size);
        s->resched = false; /* (threads woken by an unlock wait for a switch, as under PREEMPT) */
        break;
    default:
        break;
    }
    if (demote) {
        th->idle = 0;
        if (next < 0) next = me;
        if (next != me) s->stats.demotions++;
    }
    if (next < 0) next = me;
    if (next != me) s->since_switch = 0;
    return next;
}

int lf_strategy_after_stop(lf_sched *s, lf_sched_thread *th) {
    s->since_switch = 0;
    s->resched = false;
    switch ((lf_sched_strategy)s->sch.strategy) {
    case LF_SCHED_CHOICES: return next_in_order(s, th->index);
    case LF_SCHED_WALK: return kth_other(s, th->index, (unsigned)lf_rand_next(&s->rng));
    case LF_SCHED_POS: return pos_highest(s, -1);
    case LF_SCHED_SURW: return surw_hand(s, surw_draw(s));
    case LF_SCHED_ABA: return aba_next(s, -1);
    default: return highest(s, -1);
    }
}
