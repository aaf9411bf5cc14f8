/* Schedule feedback: features of a controlled run's interleaving as libFuzzer extra counters.
 *
 * Code coverage of a lock-free stack is the same whether or not two pops raced; what changes is which store
 * each load read. The reads-from part keeps, per address, the access site and thread of the last store
 * (a direct-mapped shadow table, valid for one run) and counts, for every load that reads another thread's
 * store, the pair (load site, store site) into a counter. The preemption part counts the access sites at
 * which the schedule preempted a thread. libFuzzer treats a counter that becomes non-zero (or moves to a new
 * power-of-two bucket) as new coverage, so inputs whose schedules produce new communication are kept.
 * Sites are program counters, stable within one process, which is all libFuzzer needs. The measured effect
 * is in docs/scheduling.md. */
#ifndef LINFUZZ_FEEDBACK_H
#define LINFUZZ_FEEDBACK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Parts; LF_FEEDBACK_PRESENCE: a counter only records that its pair occurred in the execution (set to 1),
 * not how often (libFuzzer buckets counts, so counts make more inputs look new). */
/* LF_FEEDBACK_SWITCH: interleaving pairs, counted in the preemption part's counters: at every switch, the pair
 * (the site where the thread was switched out, the site where the next thread goes on), the interleaving of
 * the two operations there. */
enum { LF_FEEDBACK_RF = 1, LF_FEEDBACK_PREEMPT = 2, LF_FEEDBACK_PRESENCE = 4, LF_FEEDBACK_SWITCH = 8 };

#define LF_FEEDBACK_SHADOW_BITS 16

typedef struct lf_shadow_entry {
    uintptr_t addr;
    uint32_t site;   /* hash of the store's pc */
    uint16_t thread;
    uint16_t generation;
} lf_shadow_entry;

typedef struct lf_feedback {
    uint8_t *counters; /* NULL: off */
    size_t n_rf, n;    /* counters[0, n_rf): reads-from pairs; [n_rf, n): preemption sites, interleaving pairs */
    unsigned parts;    /* LF_FEEDBACK_* */
    lf_shadow_entry *shadow; /* 1 << LF_FEEDBACK_SHADOW_BITS entries */
    uint16_t generation;
} lf_feedback;

/* Feedback into counters[0..n-1] (parts: LF_FEEDBACK_*); counters NULL switches it off. False when out of
 * memory (then off). */
bool lf_feedback_configure(lf_feedback *f, uint8_t *counters, size_t n, unsigned parts);
void lf_feedback_free(lf_feedback *f);
/* Forgets the previous run's stores. */
void lf_feedback_run_begin(lf_feedback *f);

static inline uint32_t lf_feedback_site(uintptr_t pc) {
    uint64_t x = (uint64_t)pc * 0x9e3779b97f4a7c15ull;
    return (uint32_t)(x >> 32);
}

static inline void lf_feedback_bump(const lf_feedback *f, uint8_t *c) {
    if (f->parts & LF_FEEDBACK_PRESENCE)
        *c = 1;
    else if (*c != 255)
        (*c)++;
}

static inline lf_shadow_entry *lf_feedback_slot(lf_feedback *f, const void *addr) {
    uint64_t x = (uint64_t)(uintptr_t)addr * 0xd1342543de82ef95ull;
    return &f->shadow[x >> (64 - LF_FEEDBACK_SHADOW_BITS)];
}

static inline void lf_feedback_read(lf_feedback *f, unsigned thread, const void *addr, uintptr_t pc) {
    if (!(f->parts & LF_FEEDBACK_RF) || !f->n_rf) return;
    lf_shadow_entry *e = lf_feedback_slot(f, addr);
    if (e->generation != f->generation || e->addr != (uintptr_t)addr || e->thread == thread) return;
    uint32_t h = (lf_feedback_site(pc) * 31u) ^ e->site;
    lf_feedback_bump(f, &f->counters[h % f->n_rf]);
}

static inline void lf_feedback_write(lf_feedback *f, unsigned thread, const void *addr, uintptr_t pc) {
    if (!(f->parts & LF_FEEDBACK_RF) || !f->n_rf) return;
    lf_shadow_entry *e = lf_feedback_slot(f, addr);
    e->addr = (uintptr_t)addr;
    e->site = lf_feedback_site(pc);
    e->thread = (uint16_t)thread;
    e->generation = f->generation;
}

/* A load at load_pc read the store made at store_pc (weak memory models: the store the model chose, `stale`
 * when a newer one existed). */
static inline void lf_feedback_pair(const lf_feedback *f, uintptr_t load_pc, uintptr_t store_pc, bool stale) {
    if (!(f->parts & LF_FEEDBACK_RF) || !f->n_rf) return;
    uint32_t h = (lf_feedback_site(load_pc) * 31u) ^ lf_feedback_site(store_pc) ^ (stale ? 0x5bd1e995u : 0);
    lf_feedback_bump(f, &f->counters[h % f->n_rf]);
}

/* Counts h in the second part, counters[n_rf, n) (preemption sites, interleaving pairs), if it has any. */
static inline void lf_feedback_bump_switches(const lf_feedback *f, uint32_t h) {
    if (f->n > f->n_rf) lf_feedback_bump(f, &f->counters[f->n_rf + h % (f->n - f->n_rf)]);
}

static inline void lf_feedback_preempt(lf_feedback *f, uintptr_t pc) {
    if (f->parts & LF_FEEDBACK_PREEMPT) lf_feedback_bump_switches(f, lf_feedback_site(pc));
}

/* A switch from the thread at out_pc to the one that goes on at in_pc (0: it had not stopped at a point yet). */
static inline void lf_feedback_switch(lf_feedback *f, uintptr_t out_pc, uintptr_t in_pc) {
    if (!(f->parts & LF_FEEDBACK_SWITCH)) return;
    lf_feedback_bump_switches(f, (lf_feedback_site(out_pc) * 31u) ^ lf_feedback_site(in_pc ? in_pc : 1) ^ 0x27d4eb2du);
}

#endif
