/* Memory models of controlled runs (docs/memory-models.md): their names, and what tools built on the
 * scheduler see of the weak ones (root causing, feedback): one event per modelled access, and fixes that
 * strengthen the access made at a site. The models themselves are private to the scheduler
 * (sched/weak_memory.h); lf_schedule selects one per run (runtime/schedule.h), lf_sched_set_weak_observer and
 * lf_sched_set_weak_fixes (runtime/sched.h) reach them. */
#ifndef LINFUZZ_MEMORY_MODEL_H
#define LINFUZZ_MEMORY_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum lf_memory_model {
    LF_MM_SC,  /* the last store: no model at all */
    LF_MM_TSO, /* x86-TSO: FIFO store buffers, locked instructions and mfence drain */
    LF_MM_C11, /* RC11 without consume: coherence windows, release/acquire/seq_cst by vector clocks */
    LF_MM_COUNT
} lf_memory_model;

const char *lf_memory_model_name(lf_memory_model m);
bool lf_memory_model_from_name(const char *name, lf_memory_model *out);

/* Memory orders as the ThreadSanitizer ABI numbers them. */
enum { LF_MO_RELAXED, LF_MO_CONSUME, LF_MO_ACQUIRE, LF_MO_RELEASE, LF_MO_ACQ_REL, LF_MO_SEQ_CST };

#define LF_WM_MAX_THREADS 16 /* runs with more threads run sc */

/* What the model tells an observer (reads-from feedback, root causing): one event per modelled access. */
typedef enum lf_wm_event_kind {
    LF_WM_EV_LOAD,       /* an atomic load, or a failed compare-exchange */
    LF_WM_EV_PLAIN_LOAD, /* a plain load */
    LF_WM_EV_STORE,      /* an atomic store */
    LF_WM_EV_PLAIN_STORE,/* a plain store (given when its value is captured) */
    LF_WM_EV_RMW,        /* an atomic read-modify-write (successful compare-exchange included) */
    LF_WM_EV_FENCE,      /* an atomic fence */
    LF_WM_EV_DRAIN,      /* tso: a buffered store reached memory (seq: the store's; pc: its site) */
} lf_wm_event_kind;

typedef struct lf_wm_event {
    uint32_t op;      /* the thread's op index (set by the scheduler, runtime/sched.h) */
    uint8_t kind;     /* lf_wm_event_kind */
    uint8_t order;    /* the order performed (after any strengthening), LF_MO_* */
    uint8_t thread;
    uintptr_t cell;   /* the 8-byte word accessed */
    uintptr_t pc;     /* the access site */
    uint32_t seq;     /* the store element written (stores, RMWs), 0 otherwise */
    /* loads and RMWs: the store element read */
    uint32_t read_seq;    /* 0: the cell's value from before the run (or adopted) */
    uint8_t read_thread;
    uintptr_t read_pc;
    bool stale;           /* a store newer in mo than the one read existed (c11), or another thread had a
                             newer store to the cell in its buffer (tso) */
    uint32_t newest_seq;  /* stale: the newest store element (c11) or the buffered store (tso) */
    uint8_t newest_thread;
    uintptr_t newest_pc;
    unsigned window;      /* c11 loads: how many elements it could read */
} lf_wm_event;
typedef void (*lf_wm_observer)(void *ctx, const lf_wm_event *e);

/* Strengthening an access at a site (root causing: is this the order that is too weak?). */
typedef enum lf_wm_fix_kind {
    LF_WM_FIX_ORDER, /* perform the access at pc with at least `order` (plain accesses as atomics) */
    LF_WM_FIX_FENCE, /* a fence of `order` right after the access at pc */
} lf_wm_fix_kind;

typedef struct lf_wm_fix {
    uintptr_t pc;
    uint8_t kind;  /* lf_wm_fix_kind */
    uint8_t order; /* LF_MO_ACQUIRE, LF_MO_RELEASE, LF_MO_ACQ_REL or LF_MO_SEQ_CST */
} lf_wm_fix;
#define LF_WM_MAX_FIXES 8

/* Statistics of a run. */
typedef struct lf_wm_stats {
    uint64_t accesses;   /* modelled accesses */
    uint64_t choices;    /* weak choices offered (a window of 2 or more, a store that could be buffered ...) */
    uint64_t stale;      /* loads that read an older store than the newest (c11) or missed a buffered one (tso) */
    uint64_t reordered;  /* c11: stores placed before newer ones in mo */
    uint64_t delayed;    /* tso: stores that stayed buffered past the next point */
    uint64_t races;      /* c11: plain loads with a window of 2 or more (C11 data races) */
    uint64_t adopted;    /* cells whose memory changed behind the model's back (uninstrumented code) */
} lf_wm_stats;

#endif
