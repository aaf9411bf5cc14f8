/* Weak memory models of controlled runs (weak_memory.h; the design, its sources and its limits are in
 * docs/memory-models.md).
 *
 *  c11: every 8-byte word touched (a cell) has a store history in modification order (mo), each element with
 *       its writer, the writer's clock component, the release clock an acquire of it obtains and, per thread,
 *       when that thread first read it. A load may read any element of its window: from the newest down to
 *       the first one that happens-before it or that a load happening-before it read (RC11's coherence).
 *       Memory always holds the newest element; a plain load that chooses an older one gets it written into
 *       memory for the length of its access (restored at its thread's next callback). seq_cst stores, RMWs and
 *       fences join one clock both ways ("tier 1": a valid total order S, at the price of two RC11 outcomes);
 *       a seq_cst load reads the newest seq_cst store to its word or a newer one, and joins nothing.
 *  tso: every thread has a FIFO store buffer; memory holds the running thread's view (global memory with its
 *       buffered stores applied), swapped at every switch; a buffered store drains when its delay (in
 *       scheduling points) is over or when its thread drains (locked instructions, mfence, stamps, locks).
 *
 * Everything is per run: cells live in an open-addressing table cleared by a generation counter, elements
 * and clocks in an arena reset at the start of each run. */
#include "sched/weak_memory.h"

#include <stdlib.h>
#include <string.h>

#if __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "the weak memory models assume little-endian words"
#endif

#define HIST_MAX 16   /* elements kept per cell (the oldest are dropped: fewer choices, never a wrong one) */
#define HIST_KEEP 8   /* a full history keeps its newest HIST_KEEP (one move per HIST_MAX - HIST_KEEP stores) */
#define TSO_CAP 32    /* buffered stores per thread (a full buffer drains its oldest) */
#define STREAK_MAX 8  /* stale reads of one cell in a row by one thread before it reads the newest */
#define DELAY_OPTIONS 65 /* tso: a store waits 0..64 scheduling points */

enum { F_RMW = 1, F_PLAIN = 2, F_SC = 4 };

typedef struct elem {
    uint64_t val;            /* the whole word after the store */
    const uint32_t *rel;     /* what an acquire reading it obtains (NULL: nothing) */
    const uint32_t *own_rel; /* the writer's own releasing store to this cell, for later stores of the same
                                thread (RC11's release sequence); NULL: none */
    uintptr_t pc;
    uint32_t seq; /* the run's store number (from 1); 0: the value from before the run, or adopted */
    uint32_t ts;  /* the writer's clock component at the store; 0: happens-before everything */
    uint32_t first_read[LF_WM_MAX_THREADS]; /* thread u's clock at its first read of it; 0: not read */
    uint8_t tid, mask, flags;
} elem;

typedef struct cell {
    uintptr_t addr; /* the word's address; 0: a free slot */
    uint32_t gen;
    uint16_t n, cap;
    uint16_t buffered; /* tso: stores to it in store buffers */
    elem *e;        /* oldest first */
} cell;

typedef struct tso_entry {
    uintptr_t cell;
    uint64_t val;
    uint64_t due;       /* drains when the point counter reaches it */
    uintptr_t pc;       /* the store's site */
    uintptr_t passed_pc;/* the first load of its thread (another word) made while it was buffered */
    uint32_t seq;
    uint8_t mask;
    bool observed;      /* another thread loaded the word while it was buffered */
} tso_entry;

typedef struct overlay {
    uintptr_t cell;
    uint64_t global; /* the word in global memory while the running thread's view is in memory */
} overlay;

typedef struct wthread {
    uint32_t C[LF_WM_MAX_THREADS];    /* what happens-before the thread's current point */
    uint32_t Facq[LF_WM_MAX_THREADS]; /* release clocks of stores read by relaxed loads: at the next acquire fence */
    const uint32_t *Frel;             /* the clock at the last release fence (NULL: none) */
    const uint32_t *snap;             /* a copy of C, valid until C changes */
    bool need_tick;                   /* a snapshot was taken: the next event gets a new clock component */
    /* the plain store of the previous callback, captured at the next one */
    bool pend_store;
    uintptr_t ps_cell, ps_pc;
    uint8_t ps_mask, ps_order;
    /* c11: an older value was put into memory for a plain load; the newest goes back at the next callback */
    bool pend_restore;
    uintptr_t pr_cell;
    uint64_t pr_stale; /* the older word shown */
    uint8_t pr_mask;
    int pend_fence; /* a fix asked for a fence of this order after the previous access (-1: none) */
    uintptr_t streak_cell;
    unsigned streak;
    /* tso */
    tso_entry buf[TSO_CAP];
    unsigned head, n;
} wthread;

typedef struct sync_object {
    const void *key; /* NULL: a free slot */
    uint32_t gen;
    const uint32_t *clock; /* released by the last sync on it (NULL: none) */
} sync_object;

typedef struct chunk {
    struct chunk *next;
    size_t used, size;
    _Alignas(16) unsigned char data[];
} chunk;

struct lf_wm {
    lf_memory_model model;
    unsigned nthreads;
    int running; /* -1: nobody */
    wthread th[LF_WM_MAX_THREADS];
    uint32_t S[LF_WM_MAX_THREADS]; /* the seq_cst clock */
    uint32_t seq;                  /* stores made this run */
    uint64_t points, next_due;     /* tso */
    overlay ov[TSO_CAP];           /* tso: the running thread's overlaid words */
    unsigned n_ov;
    /* cells */
    cell *cells;
    size_t cap, used;
    uint32_t gen;
    /* arena */
    chunk *chunks, *cur;
    /* hooks */
    lf_wm_chooser choose;
    void *choose_ctx;
    lf_wm_observer observe;
    void *observe_ctx;
    lf_wm_fix fixes[LF_WM_MAX_FIXES];
    unsigned n_fixes;
    lf_wm_stats stats;
    /* the clocks of synchronisation objects (locks, the recorder's counter) */
    struct sync_object *objects;
    size_t n_objects, cap_objects;
};

/* ---- names ---- */

static const char *const MODEL_NAMES[LF_MM_COUNT] = {"sc", "tso", "c11"};

const char *lf_memory_model_name(lf_memory_model m) { return (unsigned)m < LF_MM_COUNT ? MODEL_NAMES[m] : "?"; }

bool lf_memory_model_from_name(const char *name, lf_memory_model *out) {
    for (unsigned i = 0; i < LF_MM_COUNT; i++)
        if (name && !strcmp(name, MODEL_NAMES[i])) {
            *out = (lf_memory_model)i;
            return true;
        }
    return false;
}

/* ---- words in memory ---- */

static inline uint64_t expand(uint8_t m) {
    uint64_t r = 0;
    for (unsigned i = 0; i < 8; i++)
        if (m >> i & 1) r |= (uint64_t)0xff << (8 * i);
    return r;
}

static inline uint8_t byte_mask(unsigned off, unsigned size) { return (uint8_t)(((1u << size) - 1) << off); }

/* The whole aligned word holding a modelled access: readable and writable (it shares the page of the
 * accessed bytes), but it may extend past the object into memory AddressSanitizer poisons. */
__attribute__((no_sanitize("address"))) static uint64_t mem_word(uintptr_t word) {
    return *(volatile uint64_t *)word;
}

__attribute__((no_sanitize("address"))) static void mem_put(uintptr_t word, uint64_t v, uint8_t m) {
    volatile uint64_t *p = (volatile uint64_t *)word;
    if (m == 0xff) {
        *p = v;
    } else if (m) {
        uint64_t M = expand(m);
        *p = (*p & ~M) | (v & M);
    }
}

static inline uint64_t merge(uint64_t under, uint64_t v, uint8_t m) {
    uint64_t M = expand(m);
    return (under & ~M) | (v & M);
}

static inline uint64_t extract(uint64_t word, unsigned off, unsigned size) {
    uint64_t x = word >> (8 * off);
    return size >= 8 ? x : x & (((uint64_t)1 << (8 * size)) - 1);
}

static inline uint64_t place(uint64_t v, unsigned off) { return off ? v << (8 * off) : v; }

static inline uint64_t truncate(uint64_t v, unsigned size) {
    return size >= 8 ? v : v & (((uint64_t)1 << (8 * size)) - 1);
}

/* ---- arena ---- */

static void *arena_alloc(lf_wm *w, size_t size) {
    size = (size + 15) & ~(size_t)15;
    while (!w->cur || w->cur->used + size > w->cur->size) {
        if (w->cur && w->cur->next) {
            w->cur = w->cur->next;
            w->cur->used = 0;
            continue;
        }
        size_t want = size > (1u << 20) ? size : (1u << 20);
        chunk *c = malloc(sizeof *c + want);
        if (!c) abort(); /* the model cannot go on without memory: a run must not silently turn sc */
        c->next = NULL;
        c->used = 0;
        c->size = want;
        if (w->cur) w->cur->next = c;
        else w->chunks = c;
        w->cur = c;
    }
    void *p = w->cur->data + w->cur->used;
    w->cur->used += size;
    return p;
}

static void arena_reset(lf_wm *w) {
    w->cur = w->chunks;
    if (w->cur) w->cur->used = 0;
}

/* ---- clocks ---- */

static const uint32_t *clock_copy(lf_wm *w, const uint32_t *c) {
    uint32_t *r = arena_alloc(w, w->nthreads * sizeof *r);
    memcpy(r, c, w->nthreads * sizeof *r);
    return r;
}

/* a ⊔ b as an immutable clock (a or b itself when one contains the other). */
static const uint32_t *clock_join(lf_wm *w, const uint32_t *a, const uint32_t *b) {
    if (!a) return b;
    if (!b || a == b) return a;
    bool a_ge = true, b_ge = true;
    for (unsigned u = 0; u < w->nthreads; u++) {
        if (a[u] < b[u]) a_ge = false;
        if (b[u] < a[u]) b_ge = false;
    }
    if (a_ge) return a;
    if (b_ge) return b;
    uint32_t *r = arena_alloc(w, w->nthreads * sizeof *r);
    for (unsigned u = 0; u < w->nthreads; u++) r[u] = a[u] > b[u] ? a[u] : b[u];
    return r;
}

/* C_t ⊔= c */
static void acquire(lf_wm *w, wthread *th, const uint32_t *c) {
    if (!c) return;
    for (unsigned u = 0; u < w->nthreads; u++)
        if (c[u] > th->C[u]) {
            th->C[u] = c[u];
            th->snap = NULL;
        }
}

static void join_into(lf_wm *w, uint32_t *dst, const uint32_t *c) {
    if (!c) return;
    for (unsigned u = 0; u < w->nthreads; u++)
        if (c[u] > dst[u]) dst[u] = c[u];
}

/* The next event of the thread gets a new component when a snapshot of its clock was taken since its last. */
static inline void tick(wthread *th, unsigned t) {
    if (th->need_tick) {
        th->C[t]++;
        th->need_tick = false;
        th->snap = NULL;
    }
}

static const uint32_t *snapshot(lf_wm *w, wthread *th) {
    if (!th->snap) th->snap = clock_copy(w, th->C);
    th->need_tick = true;
    return th->snap;
}

/* seq_cst, before and after the event: C_t ⊔= S, then S = C_t. */
static void sc_before(lf_wm *w, wthread *th) { acquire(w, th, w->S); }
static void sc_after(lf_wm *w, wthread *th) {
    memcpy(w->S, th->C, w->nthreads * sizeof *w->S);
    th->need_tick = true;
}

static inline bool releases(int mo) { return mo >= LF_MO_RELEASE; }
static inline bool acquires(int mo) { return mo == LF_MO_CONSUME || mo == LF_MO_ACQUIRE || mo >= LF_MO_ACQ_REL; }

/* The order an access at pc is performed with: its own, strengthened by a fix; *fence_after gets the order of
 * a fence a fix adds after it (-1: none). */
static int fixed_order(const lf_wm *w, uintptr_t pc, int mo, int *fence_after) {
    for (unsigned i = 0; i < w->n_fixes; i++) {
        const lf_wm_fix *f = &w->fixes[i];
        if (f->pc != pc) continue;
        if (f->kind == LF_WM_FIX_FENCE) {
            if (f->order > *fence_after) *fence_after = f->order;
        } else if (f->order == LF_MO_SEQ_CST || mo == LF_MO_SEQ_CST) {
            mo = LF_MO_SEQ_CST;
        } else {
            bool acq = acquires(mo) || acquires(f->order), rel = releases(mo) || releases(f->order);
            mo = acq && rel ? LF_MO_ACQ_REL : rel ? LF_MO_RELEASE : acq ? LF_MO_ACQUIRE : LF_MO_RELAXED;
        }
    }
    return mo;
}

/* ---- cells ---- */

static inline size_t hash_addr(uintptr_t a) { return (size_t)((uint64_t)(a >> 3) * 0x9e3779b97f4a7c15ull >> 20); }

static void table_grow(lf_wm *w) {
    size_t ncap = w->cap ? w->cap * 2 : 4096;
    cell *nc = calloc(ncap, sizeof *nc);
    if (!nc) abort();
    for (size_t i = 0; i < w->cap; i++) {
        cell *c = &w->cells[i];
        if (!c->addr || c->gen != w->gen) continue;
        size_t j = hash_addr(c->addr) & (ncap - 1);
        while (nc[j].addr) j = (j + 1) & (ncap - 1);
        nc[j] = *c;
    }
    free(w->cells);
    w->cells = nc;
    w->cap = ncap;
}

static cell *cell_find(lf_wm *w, uintptr_t a) {
    if (!w->cap) return NULL;
    size_t j = hash_addr(a) & (w->cap - 1);
    for (;;) {
        cell *c = &w->cells[j];
        if (!c->addr || c->gen != w->gen) return NULL;
        if (c->addr == a) return c;
        j = (j + 1) & (w->cap - 1);
    }
}

static elem *push_slot(lf_wm *w, cell *c);

/* The cell of word a, created with its current memory as an element that happens-before everything. */
static cell *cell_get(lf_wm *w, uintptr_t a) {
    if (w->used * 2 >= w->cap) table_grow(w);
    size_t j = hash_addr(a) & (w->cap - 1);
    for (;;) {
        cell *c = &w->cells[j];
        if (!c->addr || c->gen != w->gen) {
            memset(c, 0, sizeof *c);
            c->addr = a;
            c->gen = w->gen;
            w->used++;
            elem *e = push_slot(w, c);
            e->val = mem_word(a);
            e->mask = 0xff;
            return c;
        }
        if (c->addr == a) return c;
        j = (j + 1) & (w->cap - 1);
    }
}

/* Room for one more element at the end (the oldest is dropped when the history is full). */
static elem *push_slot(lf_wm *w, cell *c) {
    if (c->n == c->cap) {
        if (c->cap < HIST_MAX) {
            uint16_t ncap = c->cap ? (uint16_t)(c->cap * 2) : 2;
            elem *ne = arena_alloc(w, ncap * sizeof *ne);
            if (c->n) memcpy(ne, c->e, c->n * sizeof *ne);
            c->e = ne;
            c->cap = ncap;
        } else {
            memmove(c->e, c->e + (c->n - HIST_KEEP), HIST_KEEP * sizeof *c->e);
            c->n = HIST_KEEP;
        }
    }
    elem *e = &c->e[c->n++];
    memset(e, 0, sizeof *e);
    return e;
}

/* Memory changed behind the model's back (uninstrumented code, a range copy): the history restarts from what
 * memory holds, as a store that happens-before everything. It keeps the release clock of the newest element:
 * an acquire of the word still synchronises with what it would have. */
static void adopt(lf_wm *w, cell *c, uint64_t word) {
    elem last = c->e[c->n - 1];
    c->n = 0;
    elem *e = push_slot(w, c);
    e->val = word;
    e->mask = 0xff;
    e->rel = last.rel;
    w->stats.adopted++;
}

static cell *cell_checked(lf_wm *w, uintptr_t a) {
    cell *c = cell_get(w, a);
    uint64_t word = mem_word(a);
    if (word != c->e[c->n - 1].val) adopt(w, c, word);
    return c;
}

/* ---- c11 ---- */

/* The window of a load of thread t: the newest elements down to the first that happens-before t's point or
 * was read by a load that does. Returns its size (>= 1): elements n-k .. n-1. */
static unsigned window(const lf_wm *w, const wthread *th, const cell *c) {
    unsigned k = 0;
    for (int i = c->n - 1; i >= 0; i--) {
        const elem *e = &c->e[i];
        k++;
        if (e->ts <= th->C[e->tid]) break;
        bool seen = false;
        for (unsigned u = 0; u < w->nthreads && !seen; u++)
            seen = e->first_read[u] && e->first_read[u] <= th->C[u];
        if (seen) break;
    }
    return k;
}

/* Whether a store of mask m may go in mo right before element i (moving it and every newer one after it):
 * element i is no RMW (an RMW follows the store it read immediately) and every element from i on writes
 * at least the bytes of m (their words do not depend on the new store's). */
static bool may_insert_before(const cell *c, unsigned i, uint8_t m) {
    if (c->e[i].flags & F_RMW) return false;
    for (unsigned j = i; j < c->n; j++)
        if ((c->e[j].mask & m) != m) return false;
    return true;
}

static unsigned choose(lf_wm *w, lf_wm_choice_kind kind, unsigned n) {
    if (n < 2) return 0;
    w->stats.choices++;
    unsigned k = w->choose ? w->choose(w->choose_ctx, kind, n) : 0;
    return k < n ? k : 0;
}

/* A stale read of thread th: counted, and after STREAK_MAX in a row on one cell the newest is read. */
static unsigned limit_streak(wthread *th, uintptr_t word, unsigned j) {
    if (!j) {
        if (th->streak_cell == word) th->streak = 0;
        return 0;
    }
    if (th->streak_cell != word) {
        th->streak_cell = word;
        th->streak = 0;
    }
    if (++th->streak > STREAK_MAX) {
        th->streak = 0;
        return 0;
    }
    return j;
}

/* The release clock of a thread's own earlier releasing store to the cell (RC11's release sequence). */
static const uint32_t *own_release(const cell *c, unsigned t) {
    for (int i = c->n - 1; i >= 0; i--)
        if (c->e[i].tid == t && c->e[i].seq && c->e[i].own_rel) return c->e[i].own_rel;
    return NULL;
}

static uint64_t c11_load(lf_wm *w, unsigned t, uintptr_t a, unsigned size, int mo, uintptr_t pc, bool plain,
                         const elem **read) {
    wthread *th = &w->th[t];
    cell *c = cell_checked(w, a & ~(uintptr_t)7);
    tick(th, t);
    unsigned k = window(w, th, c);
    /* a seq_cst load reads the newest seq_cst store to the word or a newer one (C11 29.3p3, in S = the order
     * of execution), and is no fence: it joins nothing into S and takes nothing from it */
    if (mo == LF_MO_SEQ_CST)
        for (unsigned i = 1; i < k; i++)
            if (c->e[c->n - i].flags & F_SC) {
                k = i;
                break;
            }
    unsigned j = limit_streak(th, c->addr, choose(w, LF_WM_CHOOSE_READ, k));
    elem *e = &c->e[c->n - 1 - j];
    if (k > 1 && plain) w->stats.races++;
    if (j) w->stats.stale++;
    if (!e->first_read[t]) e->first_read[t] = th->C[t];
    if (acquires(mo))
        acquire(w, th, e->rel);
    else
        join_into(w, th->Facq, e->rel);
    if (w->observe) {
        lf_wm_event ev = {.kind = plain ? LF_WM_EV_PLAIN_LOAD : LF_WM_EV_LOAD, .order = (uint8_t)mo,
                          .thread = (uint8_t)t, .cell = c->addr, .pc = pc, .read_seq = e->seq, .read_thread = e->tid,
                          .read_pc = e->pc, .stale = j > 0, .window = k};
        const elem *nw = &c->e[c->n - 1];
        ev.newest_seq = nw->seq;
        ev.newest_thread = nw->tid;
        ev.newest_pc = nw->pc;
        w->observe(w->observe_ctx, &ev);
    }
    if (read) *read = e;
    return extract(e->val, (unsigned)(a & 7), size);
}

/* Inserts element `in` at position p (p == c->n: appended, and memory written). */
static elem *insert_at(lf_wm *w, cell *c, unsigned p, const elem *in) {
    bool at_end = p == c->n;
    if (c->n == c->cap && c->cap >= HIST_MAX) { /* full: the oldest go, but not the one the store follows */
        unsigned drop = c->n - HIST_KEEP;
        if (drop > p - 1) drop = p - 1;
        memmove(c->e, c->e + drop, (c->n - drop) * sizeof *c->e);
        c->n -= drop;
        p -= drop;
    }
    push_slot(w, c); /* grows the array; the new slot is at the end */
    memmove(&c->e[p + 1], &c->e[p], (c->n - 1 - p) * sizeof *c->e);
    c->e[p] = *in;
    if (at_end) mem_put(c->addr, in->val, 0xff);
    return &c->e[p];
}

static void observe_store(lf_wm *w, unsigned t, lf_wm_event_kind kind, int mo, uintptr_t word, const elem *e) {
    if (!w->observe) return;
    lf_wm_event ev = {.kind = (uint8_t)kind, .order = (uint8_t)mo, .thread = (uint8_t)t, .cell = word, .pc = e->pc,
                      .seq = e->seq};
    w->observe(w->observe_ctx, &ev);
}

/* A new store element of thread t (its value set by the caller): writer, clock component, number, and the
 * release clocks — a release store's own clock, else the release fence's, joined with the thread's own
 * earlier releasing store to the cell (RC11's release sequence). */
static void new_element(lf_wm *w, unsigned t, const cell *c, uint8_t m, int mo, uintptr_t pc, uint8_t flags, elem *ne) {
    wthread *th = &w->th[t];
    memset(ne, 0, sizeof *ne);
    ne->tid = (uint8_t)t;
    ne->mask = m;
    ne->pc = pc;
    ne->flags = flags;
    ne->ts = th->C[t];
    ne->seq = ++w->seq;
    const uint32_t *own = own_release(c, t);
    if (releases(mo)) {
        ne->own_rel = snapshot(w, th);
        ne->rel = ne->own_rel;
    } else {
        ne->own_rel = own;
        ne->rel = clock_join(w, th->Frel, own);
    }
}

static void c11_store(lf_wm *w, unsigned t, uintptr_t a, unsigned size, uint64_t v, int mo, uintptr_t pc) {
    wthread *th = &w->th[t];
    cell *c = cell_checked(w, a & ~(uintptr_t)7);
    unsigned off = (unsigned)(a & 7);
    uint8_t m = byte_mask(off, size);
    tick(th, t);
    if (mo == LF_MO_SEQ_CST) sc_before(w, th);
    elem ne;
    new_element(w, t, c, m, mo, pc, mo == LF_MO_SEQ_CST ? F_SC : 0, &ne);
    /* where in mo: appended, or before newer elements that neither happen-before it nor are pinned */
    unsigned k = window(w, th, c), p = c->n;
    if (k > 1) {
        unsigned options = 1;
        while (options < k && may_insert_before(c, c->n - options, m)) options++;
        unsigned j = choose(w, LF_WM_CHOOSE_STORE, options);
        if (j) {
            p = c->n - j;
            w->stats.reordered++;
        }
    }
    const elem *pred = &c->e[p - 1];
    ne.val = merge(pred->val, place(truncate(v, size), off), m);
    if (p == c->n && (pred->mask & ~m)) ne.rel = clock_join(w, ne.rel, pred->rel); /* the word's other bytes */
    elem *e = insert_at(w, c, p, &ne);
    if (mo == LF_MO_SEQ_CST) sc_after(w, th);
    observe_store(w, t, LF_WM_EV_STORE, mo, c->addr, e);
}

static uint64_t apply_rmw(lf_wm_rmw_op op, uint64_t old, uint64_t v, unsigned size) {
    uint64_t r;
    switch (op) {
    case LF_RMW_XCHG: r = v; break;
    case LF_RMW_ADD: r = old + v; break;
    case LF_RMW_SUB: r = old - v; break;
    case LF_RMW_AND: r = old & v; break;
    case LF_RMW_OR: r = old | v; break;
    case LF_RMW_XOR: r = old ^ v; break;
    default: r = ~(old & v); break;
    }
    return truncate(r, size);
}

/* A read-modify-write that read element index i (c11); writes `nv` (the access's bytes) right after it. */
static void c11_rmw_write(lf_wm *w, unsigned t, cell *c, unsigned i, unsigned off, unsigned size, uint64_t nv, int mo,
                          uintptr_t pc) {
    uint8_t m = byte_mask(off, size);
    const elem *read = &c->e[i];
    elem ne;
    new_element(w, t, c, m, mo, pc, F_RMW | (mo == LF_MO_SEQ_CST ? F_SC : 0), &ne);
    ne.val = merge(read->val, place(nv, off), m);
    ne.rel = clock_join(w, ne.rel, read->rel); /* release sequences continue through RMWs */
    lf_wm_event ev = {.kind = LF_WM_EV_RMW, .order = (uint8_t)mo, .thread = (uint8_t)t, .cell = c->addr, .pc = pc,
                      .seq = ne.seq, .read_seq = read->seq, .read_thread = read->tid, .read_pc = read->pc,
                      .window = 1};
    bool reordered = i + 1 < c->n;
    if (reordered) w->stats.reordered++;
    insert_at(w, c, i + 1, &ne);
    if (w->observe) w->observe(w->observe_ctx, &ev);
}

/* The acquire side of an RMW (or of a failed CAS, a load) that read e. */
static void read_effects(lf_wm *w, wthread *th, unsigned t, elem *e, int mo) {
    if (!e->first_read[t]) e->first_read[t] = th->C[t];
    if (acquires(mo))
        acquire(w, th, e->rel);
    else
        join_into(w, th->Facq, e->rel);
}

/* Options of an RMW of mask m on c for thread th: the newest element, and each older one of the window after
 * which the RMW's store may go. Fills idx[] (newest first); returns their number. */
static unsigned rmw_options(const lf_wm *w, const wthread *th, const cell *c, uint8_t m, unsigned *idx) {
    unsigned k = window(w, th, c), n = 0;
    idx[n++] = c->n - 1u;
    for (unsigned j = 1; j < k; j++) {
        unsigned i = c->n - 1u - j;
        if (may_insert_before(c, i + 1, m)) idx[n++] = i;
    }
    return n;
}

static uint64_t c11_rmw(lf_wm *w, unsigned t, uintptr_t a, unsigned size, lf_wm_rmw_op op, uint64_t v, int mo,
                        uintptr_t pc) {
    wthread *th = &w->th[t];
    cell *c = cell_checked(w, a & ~(uintptr_t)7);
    unsigned off = (unsigned)(a & 7);
    tick(th, t);
    if (mo == LF_MO_SEQ_CST) sc_before(w, th);
    unsigned idx[HIST_MAX];
    unsigned n = rmw_options(w, th, c, byte_mask(off, size), idx);
    unsigned i = idx[choose(w, LF_WM_CHOOSE_RMW, n)];
    elem *e = &c->e[i];
    uint64_t old = extract(e->val, off, size);
    read_effects(w, th, t, e, mo);
    c11_rmw_write(w, t, c, i, off, size, apply_rmw(op, old, v, size), mo, pc);
    if (mo == LF_MO_SEQ_CST) sc_after(w, th);
    return old;
}

static bool c11_cas(lf_wm *w, unsigned t, uintptr_t a, unsigned size, uint64_t *expected, uint64_t desired, int mo,
                    int fail_mo, uintptr_t pc) {
    wthread *th = &w->th[t];
    cell *c = cell_checked(w, a & ~(uintptr_t)7);
    unsigned off = (unsigned)(a & 7);
    uint8_t m = byte_mask(off, size);
    uint64_t want = truncate(*expected, size);
    tick(th, t);
    bool sc = mo == LF_MO_SEQ_CST || fail_mo == LF_MO_SEQ_CST;
    if (sc) sc_before(w, th);
    /* options: the newest (success or failure as its value says), then older elements of the window that
     * either fail (a value other than the expected one) or may be followed by the RMW's store */
    unsigned k = window(w, th, c), n = 0, idx[HIST_MAX];
    idx[n++] = c->n - 1u;
    for (unsigned j = 1; j < k; j++) {
        unsigned i = c->n - 1u - j;
        bool equal = extract(c->e[i].val, off, size) == want;
        if (!equal || may_insert_before(c, i + 1, m)) idx[n++] = i;
    }
    unsigned i = idx[choose(w, LF_WM_CHOOSE_RMW, n)];
    elem *e = &c->e[i];
    uint64_t old = extract(e->val, off, size);
    bool ok = old == want;
    read_effects(w, th, t, e, ok ? mo : fail_mo);
    if (!ok && e != &c->e[c->n - 1]) w->stats.stale++;
    if (w->observe && !ok) {
        lf_wm_event ev = {.kind = LF_WM_EV_LOAD, .order = (uint8_t)fail_mo,
                          .thread = (uint8_t)t, .cell = c->addr, .pc = pc, .read_seq = e->seq, .read_thread = e->tid,
                          .read_pc = e->pc, .stale = !ok && e != &c->e[c->n - 1], .window = k};
        ev.newest_seq = c->e[c->n - 1].seq;
        ev.newest_thread = c->e[c->n - 1].tid;
        ev.newest_pc = c->e[c->n - 1].pc;
        w->observe(w->observe_ctx, &ev);
    }
    if (ok) c11_rmw_write(w, t, c, i, off, size, truncate(desired, size), mo, pc);
    if (sc) sc_after(w, th);
    if (!ok) *expected = old;
    return ok;
}

static void c11_fence(lf_wm *w, unsigned t, int mo) {
    wthread *th = &w->th[t];
    tick(th, t);
    if (acquires(mo)) acquire(w, th, th->Facq);
    if (mo == LF_MO_SEQ_CST) {
        sc_before(w, th);
        sc_after(w, th);
    }
    if (releases(mo)) th->Frel = snapshot(w, th);
}

/* The plain store of thread t's previous callback, now in memory: a new element. (Miri drops the older elements
 * when the store happens-after all of them; here they stay, because a racy load of another thread may still
 * read them, and that stale read is the bug to show.) */
static void c11_capture(lf_wm *w, unsigned t) {
    wthread *th = &w->th[t];
    th->pend_store = false;
    cell *c = cell_get(w, th->ps_cell);
    tick(th, t);
    int mo = th->ps_order;
    if (mo == LF_MO_SEQ_CST) sc_before(w, th);
    elem ne;
    memset(&ne, 0, sizeof ne);
    ne.val = mem_word(c->addr);
    ne.tid = (uint8_t)t;
    ne.mask = th->ps_mask;
    ne.pc = th->ps_pc;
    ne.flags = F_PLAIN;
    ne.ts = th->C[t];
    ne.seq = ++w->seq;
    const elem *pred = &c->e[c->n - 1];
    if (releases(mo)) {
        ne.own_rel = snapshot(w, th);
        ne.rel = ne.own_rel;
    } else {
        ne.own_rel = own_release(c, t);
        if (pred->mask & ~ne.mask) ne.rel = pred->rel;
    }
    elem *e = push_slot(w, c);
    *e = ne;
    if (mo == LF_MO_SEQ_CST) sc_after(w, th);
    observe_store(w, t, LF_WM_EV_PLAIN_STORE, mo, c->addr, e);
}

/* ---- tso ---- */

static inline tso_entry *buf_at(wthread *th, unsigned k) { return &th->buf[(th->head + k) % TSO_CAP]; }

static overlay *overlay_find(lf_wm *w, uintptr_t word) {
    for (unsigned i = 0; i < w->n_ov; i++)
        if (w->ov[i].cell == word) return &w->ov[i];
    return NULL;
}

/* The running thread's buffered stores go over the word: its saved global value is kept. */
static overlay *overlay_ensure(lf_wm *w, uintptr_t word) {
    overlay *o = overlay_find(w, word);
    if (o) return o;
    o = &w->ov[w->n_ov++];
    o->cell = word;
    o->global = mem_word(word);
    return o;
}

/* The view of thread th of a word whose global value is g: its buffered stores applied, oldest first. */
static uint64_t view_of(wthread *th, uintptr_t word, uint64_t g, uint8_t *covered) {
    uint8_t cov = 0;
    for (unsigned k = 0; k < th->n; k++) {
        tso_entry *e = buf_at(th, k);
        if (e->cell != word) continue;
        g = merge(g, e->val, e->mask);
        cov |= e->mask;
    }
    if (covered) *covered = cov;
    return g;
}

static void tso_cell_buffered(lf_wm *w, uintptr_t cellp, int delta) {
    cell *c = delta > 0 ? cell_get(w, cellp) : cell_find(w, cellp);
    if (c) c->buffered = (uint16_t)(c->buffered + delta);
}

/* The oldest buffered store of thread u reaches global memory. */
static void tso_drain_one(lf_wm *w, unsigned u) {
    wthread *th = &w->th[u];
    tso_entry e = *buf_at(th, 0);
    th->head = (th->head + 1) % TSO_CAP;
    th->n--;
    tso_cell_buffered(w, e.cell, -1);
    if ((int)u == w->running) {
        overlay *o = overlay_find(w, e.cell);
        if (o) {
            o->global = merge(o->global, e.val, e.mask);
            bool more = false;
            for (unsigned k = 0; k < th->n && !more; k++) more = buf_at(th, k)->cell == e.cell;
            if (!more) *o = w->ov[--w->n_ov]; /* memory shows the global word now */
        }
    } else {
        overlay *o = w->running >= 0 ? overlay_find(w, e.cell) : NULL;
        if (o) { /* under the running thread's overlay: the saved global word changes, and the view's other bytes */
            o->global = merge(o->global, e.val, e.mask);
            uint8_t cov;
            uint64_t view = view_of(&w->th[w->running], e.cell, o->global, &cov);
            mem_put(e.cell, view, (uint8_t)(e.mask & ~cov));
        } else {
            mem_put(e.cell, e.val, e.mask);
        }
    }
    if (w->observe) {
        lf_wm_event ev = {.kind = LF_WM_EV_DRAIN, .thread = (uint8_t)u, .cell = e.cell, .pc = e.pc, .seq = e.seq,
                          .read_pc = e.passed_pc, .stale = e.observed};
        w->observe(w->observe_ctx, &ev);
    }
}

static void tso_drain(lf_wm *w, unsigned u) {
    while (w->th[u].n) tso_drain_one(w, u);
}

static void tso_update_due(lf_wm *w) {
    uint64_t due = UINT64_MAX;
    for (unsigned u = 0; u < w->nthreads; u++)
        if (w->th[u].n && buf_at(&w->th[u], 0)->due < due) due = buf_at(&w->th[u], 0)->due;
    w->next_due = due;
}

/* A store of thread t enters its buffer (memory, t's view, already shows it for a plain store; an atomic one
 * is written here). */
static void tso_buffer(lf_wm *w, unsigned t, uintptr_t cellp, uint64_t word, uint8_t m, uintptr_t pc, bool atomic) {
    wthread *th = &w->th[t];
    if (th->n == TSO_CAP) tso_drain_one(w, t);
    overlay_ensure(w, cellp);
    if (atomic) mem_put(cellp, word, m);
    unsigned d = choose(w, LF_WM_CHOOSE_DELAY, DELAY_OPTIONS);
    if (d) w->stats.delayed++;
    uint64_t due = w->points + (uint64_t)d + 1;
    if (th->n && buf_at(th, th->n - 1)->due > due) due = buf_at(th, th->n - 1)->due; /* FIFO */
    tso_entry *e = buf_at(th, th->n++);
    *e = (tso_entry){.cell = cellp, .val = word, .due = due, .pc = pc, .seq = ++w->seq, .mask = m};
    tso_cell_buffered(w, cellp, +1);
    if (due < w->next_due) w->next_due = due;
    if (w->observe) {
        lf_wm_event ev = {.kind = atomic ? LF_WM_EV_STORE : LF_WM_EV_PLAIN_STORE, .thread = (uint8_t)t, .cell = cellp,
                          .pc = pc, .seq = e->seq};
        w->observe(w->observe_ctx, &ev);
    }
}

/* A load of thread t: what it misses (another thread's buffered store to the word) is recorded; its own
 * buffered stores to other words were overtaken by it. */
static void tso_load_seen(lf_wm *w, unsigned t, uintptr_t cellp, int mo, uintptr_t pc, bool plain) {
    wthread *th = &w->th[t];
    for (unsigned k = 0; k < th->n; k++) {
        tso_entry *e = buf_at(th, k);
        if (e->cell != cellp && !e->passed_pc) e->passed_pc = pc;
    }
    cell *c = cell_find(w, cellp);
    unsigned own = 0;
    if (c && c->buffered)
        for (unsigned k = 0; k < th->n; k++) own += buf_at(th, k)->cell == cellp;
    bool stale = c && c->buffered > own;
    tso_entry *missed = NULL;
    if (stale) {
        w->stats.stale++;
        for (unsigned u = 0; u < w->nthreads; u++) {
            if (u == t) continue;
            for (unsigned k = 0; k < w->th[u].n; k++) {
                tso_entry *e = buf_at(&w->th[u], k);
                if (e->cell == cellp) {
                    e->observed = true;
                    missed = e;
                }
            }
        }
    }
    if (w->observe) {
        lf_wm_event ev = {.kind = plain ? LF_WM_EV_PLAIN_LOAD : LF_WM_EV_LOAD, .order = (uint8_t)mo,
                          .thread = (uint8_t)t, .cell = cellp, .pc = pc, .stale = stale, .window = 1};
        if (missed) {
            ev.newest_seq = missed->seq;
            ev.newest_pc = missed->pc;
            for (unsigned u = 0; u < w->nthreads; u++)
                for (unsigned k = 0; k < w->th[u].n; k++)
                    if (buf_at(&w->th[u], k) == missed) ev.newest_thread = (uint8_t)u;
        }
        w->observe(w->observe_ctx, &ev);
    }
}

/* ---- life cycle ---- */

lf_wm *lf_wm_create(void) {
    lf_wm *w = calloc(1, sizeof *w);
    if (w) w->running = -1;
    return w;
}

void lf_wm_destroy(lf_wm *w) {
    if (!w) return;
    for (chunk *c = w->chunks, *next; c; c = next) {
        next = c->next;
        free(c);
    }
    free(w->cells);
    free(w->objects);
    free(w);
}

lf_memory_model lf_wm_model(const lf_wm *w) { return w->model; }

void lf_wm_set_chooser(lf_wm *w, lf_wm_chooser fn, void *ctx) {
    w->choose = fn;
    w->choose_ctx = ctx;
}

void lf_wm_set_observer(lf_wm *w, lf_wm_observer fn, void *ctx) {
    w->observe = fn;
    w->observe_ctx = ctx;
}

void lf_wm_set_fixes(lf_wm *w, const lf_wm_fix *fixes, unsigned n) {
    if (n > LF_WM_MAX_FIXES) n = LF_WM_MAX_FIXES;
    if (n) memcpy(w->fixes, fixes, n * sizeof *fixes);
    w->n_fixes = n;
}

void lf_wm_run_begin(lf_wm *w, lf_memory_model m, unsigned threads) {
    w->model = m;
    w->nthreads = threads > LF_WM_MAX_THREADS ? LF_WM_MAX_THREADS : threads ? threads : 1;
    w->running = -1;
    memset(w->th, 0, sizeof w->th);
    for (unsigned t = 0; t < w->nthreads; t++) {
        w->th[t].C[t] = 1;
        w->th[t].pend_fence = -1;
    }
    memset(w->S, 0, sizeof w->S);
    w->seq = 0;
    w->points = 0;
    w->next_due = UINT64_MAX;
    w->n_ov = 0;
    if (++w->gen == 0) { /* wrapped: clear the table once */
        if (w->cells) memset(w->cells, 0, w->cap * sizeof *w->cells);
        w->gen = 1;
    }
    w->used = 0;
    w->n_objects = 0;
    if (w->gen == 1 && w->objects) memset(w->objects, 0, w->cap_objects * sizeof *w->objects);
    arena_reset(w);
    memset(&w->stats, 0, sizeof w->stats);
}

/* A fence a fix adds after an access (c11: of its order; tso: seq_cst drains, the others are nothing). */
static void fence_after(lf_wm *w, unsigned t, int order) {
    if (w->model == LF_MM_C11) c11_fence(w, t, order);
    else if (w->model == LF_MM_TSO && order == LF_MO_SEQ_CST) tso_drain(w, t);
}

/* What thread t left pending at its last callback. */
static void resolve(lf_wm *w, unsigned t) {
    wthread *th = &w->th[t];
    if (th->pend_restore) {
        th->pend_restore = false;
        cell *c = cell_find(w, th->pr_cell);
        if (c) mem_put(c->addr, c->e[c->n - 1].val, th->pr_mask);
    }
    if (th->pend_store) {
        if (w->model == LF_MM_C11) {
            c11_capture(w, t);
        } else {
            th->pend_store = false;
            tso_buffer(w, t, th->ps_cell, mem_word(th->ps_cell), th->ps_mask, th->ps_pc, false);
            if (th->ps_order == LF_MO_SEQ_CST) tso_drain(w, t);
        }
    }
    if (th->pend_fence >= 0) {
        int order = th->pend_fence;
        th->pend_fence = -1;
        fence_after(w, t, order);
    }
}

void lf_wm_run_end(lf_wm *w, lf_wm_stats *st) {
    if (w->model != LF_MM_SC) {
        if (w->running >= 0) lf_wm_switch_out(w, (unsigned)w->running);
        for (unsigned t = 0; t < w->nthreads; t++) tso_drain(w, t);
    }
    if (st) *st = w->stats;
}

void lf_wm_release_thread(lf_wm *w, unsigned t) {
    wthread *th = &w->th[t];
    if (w->model == LF_MM_SC) return;
    if (th->pend_restore) { /* the newest value back, unless a free-running store changed the word meanwhile */
        th->pend_restore = false;
        const cell *c = cell_find(w, th->pr_cell);
        if (c) {
            uint64_t M = expand(th->pr_mask), now = mem_word(c->addr);
            if ((now & M) == (th->pr_stale & M))
                __atomic_compare_exchange_n((uint64_t *)c->addr, &now, (now & ~M) | (c->e[c->n - 1].val & M), false,
                                            __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
        }
    }
    th->pend_store = false;
    th->pend_fence = -1;
    if (w->model == LF_MM_TSO) {
        if (w->running != (int)t)
            for (unsigned k = 0; k < th->n; k++) mem_put(buf_at(th, k)->cell, buf_at(th, k)->val, buf_at(th, k)->mask);
        th->n = 0;
    }
}

void lf_wm_abandon(lf_wm *w, lf_wm_stats *st) {
    w->running = -1;
    w->n_ov = 0;
    if (st) *st = w->stats;
}

void lf_wm_switch_in(lf_wm *w, unsigned t) {
    if (w->model == LF_MM_SC) return;
    w->running = (int)t;
    if (w->model != LF_MM_TSO) return;
    wthread *th = &w->th[t];
    w->n_ov = 0;
    for (unsigned k = 0; k < th->n; k++) {
        tso_entry *e = buf_at(th, k);
        overlay_ensure(w, e->cell);
        mem_put(e->cell, e->val, e->mask);
    }
}

void lf_wm_switch_out(lf_wm *w, unsigned t) {
    if (w->model == LF_MM_SC) return;
    resolve(w, t);
    if (w->model == LF_MM_TSO) {
        wthread *th = &w->th[t];
        for (unsigned i = 0; i < w->n_ov; i++) {
            overlay *o = &w->ov[i];
            uint64_t now = mem_word(o->cell), view = view_of(th, o->cell, o->global, NULL);
            if (now != view) { /* written by code the model does not see: global at once */
                uint8_t diff = 0;
                for (unsigned b = 0; b < 8; b++)
                    if ((uint8_t)(now >> (8 * b)) != (uint8_t)(view >> (8 * b))) diff |= (uint8_t)(1u << b);
                o->global = merge(o->global, now, diff);
                for (unsigned k = 0; k < th->n; k++)
                    if (buf_at(th, k)->cell == o->cell) buf_at(th, k)->mask &= (uint8_t)~diff;
                w->stats.adopted++;
            }
            mem_put(o->cell, o->global, 0xff);
        }
        w->n_ov = 0;
    }
    w->running = -1;
}

/* What thread t's previous access left pending, resolved (before anything else the thread does). */
static inline void settle(lf_wm *w, unsigned t) {
    const wthread *th = &w->th[t];
    if (th->pend_restore || th->pend_store || th->pend_fence >= 0) resolve(w, t);
}

void lf_wm_enter(lf_wm *w, unsigned t) {
    settle(w, t);
    if (w->model == LF_MM_TSO && ++w->points >= w->next_due) {
        for (unsigned u = 0; u < w->nthreads; u++)
            while (w->th[u].n && buf_at(&w->th[u], 0)->due <= w->points) tso_drain_one(w, u);
        tso_update_due(w);
    }
}

/* ---- accesses ---- */

static inline bool in_one_word(uintptr_t a, unsigned size) { return size && size <= 8 && (a & 7) + size <= 8; }

uint64_t lf_wm_load(lf_wm *w, unsigned t, const volatile void *addr, unsigned size, int mo, uintptr_t pc) {
    uintptr_t a = (uintptr_t)addr;
    int fence = -1;
    if (w->n_fixes) mo = fixed_order(w, pc, mo, &fence);
    w->stats.accesses++;
    uint64_t v;
    if (w->model == LF_MM_C11 && in_one_word(a, size)) {
        v = c11_load(w, t, a, size, mo, pc, false, NULL);
        if (fence >= 0) fence_after(w, t, fence);
        return v;
    }
    if (w->model == LF_MM_TSO && in_one_word(a, size)) tso_load_seen(w, t, a & ~(uintptr_t)7, mo, pc, false);
    if (in_one_word(a, size)) {
        v = extract(mem_word(a & ~(uintptr_t)7), (unsigned)(a & 7), size);
    } else {
        v = 0;
        memcpy(&v, (const void *)a, size > 8 ? 8 : size);
    }
    if (fence >= 0) fence_after(w, t, fence);
    return v;
}

void lf_wm_store(lf_wm *w, unsigned t, volatile void *addr, unsigned size, uint64_t v, int mo, uintptr_t pc) {
    uintptr_t a = (uintptr_t)addr;
    int fence = -1;
    if (w->n_fixes) mo = fixed_order(w, pc, mo, &fence);
    w->stats.accesses++;
    if (!in_one_word(a, size)) return;
    unsigned off = (unsigned)(a & 7);
    uintptr_t cellp = a & ~(uintptr_t)7;
    if (w->model == LF_MM_C11) {
        c11_store(w, t, a, size, v, mo, pc);
        if (fence >= 0) fence_after(w, t, fence);
    } else if (w->model == LF_MM_TSO) {
        uint8_t m = byte_mask(off, size);
        if (mo == LF_MO_SEQ_CST) { /* XCHG: drains, then stores to global memory */
            tso_drain(w, t);
            mem_put(cellp, place(truncate(v, size), off), m);
            observe_store(w, t, LF_WM_EV_STORE, mo, cellp, &(elem){.pc = pc, .seq = ++w->seq});
        } else {
            tso_buffer(w, t, cellp, place(truncate(v, size), off), m, pc, true);
        }
        if (fence >= 0) fence_after(w, t, fence);
    } else {
        mem_put(cellp, place(truncate(v, size), off), byte_mask(off, size));
    }
}

uint64_t lf_wm_rmw(lf_wm *w, unsigned t, volatile void *addr, unsigned size, lf_wm_rmw_op op, uint64_t v, int mo,
                   uintptr_t pc) {
    uintptr_t a = (uintptr_t)addr;
    int fence = -1;
    if (w->n_fixes) mo = fixed_order(w, pc, mo, &fence);
    w->stats.accesses++;
    unsigned off = (unsigned)(a & 7);
    uintptr_t cellp = a & ~(uintptr_t)7;
    if (w->model == LF_MM_C11) {
        uint64_t old = c11_rmw(w, t, a, size, op, v, mo, pc);
        if (fence >= 0) fence_after(w, t, fence);
        return old;
    }
    if (w->model == LF_MM_TSO) tso_drain(w, t); /* LOCK: drains, then the operation on global memory */
    uint64_t old = extract(mem_word(cellp), off, size);
    mem_put(cellp, place(apply_rmw(op, old, v, size), off), byte_mask(off, size));
    if (w->model == LF_MM_TSO) observe_store(w, t, LF_WM_EV_RMW, mo, cellp, &(elem){.pc = pc, .seq = ++w->seq});
    return old;
}

bool lf_wm_cas(lf_wm *w, unsigned t, volatile void *addr, unsigned size, uint64_t *expected, uint64_t desired,
               int mo, int fail_mo, uintptr_t pc) {
    uintptr_t a = (uintptr_t)addr;
    int fence = -1, unused = -1;
    if (w->n_fixes) {
        mo = fixed_order(w, pc, mo, &fence);
        fail_mo = fixed_order(w, pc, fail_mo, &unused);
    }
    w->stats.accesses++;
    unsigned off = (unsigned)(a & 7);
    uintptr_t cellp = a & ~(uintptr_t)7;
    if (w->model == LF_MM_C11) {
        bool ok = c11_cas(w, t, a, size, expected, desired, mo, fail_mo, pc);
        if (fence >= 0) fence_after(w, t, fence);
        return ok;
    }
    if (w->model == LF_MM_TSO) tso_drain(w, t);
    uint64_t old = extract(mem_word(cellp), off, size);
    bool ok = old == truncate(*expected, size);
    if (ok)
        mem_put(cellp, place(truncate(desired, size), off), byte_mask(off, size));
    else
        *expected = old;
    if (w->model == LF_MM_TSO && ok) observe_store(w, t, LF_WM_EV_RMW, mo, cellp, &(elem){.pc = pc, .seq = ++w->seq});
    return ok;
}

void lf_wm_fence(lf_wm *w, unsigned t, int mo, uintptr_t pc) {
    int fence = -1;
    if (w->n_fixes) mo = fixed_order(w, pc, mo, &fence);
    if (w->model == LF_MM_C11) c11_fence(w, t, fence > mo ? fence : mo);
    else if (w->model == LF_MM_TSO && mo == LF_MO_SEQ_CST) tso_drain(w, t);
    if (w->observe && w->model != LF_MM_SC) {
        lf_wm_event ev = {.kind = LF_WM_EV_FENCE, .order = (uint8_t)mo, .thread = (uint8_t)t, .pc = pc};
        w->observe(w->observe_ctx, &ev);
    }
}

void lf_wm_direct_begin(lf_wm *w, unsigned t, volatile void *addr, unsigned size, int mo) {
    if (w->model == LF_MM_TSO) {
        tso_drain(w, t);
        return;
    }
    if (w->model != LF_MM_C11) return;
    wthread *th = &w->th[t];
    uintptr_t a = (uintptr_t)addr;
    tick(th, t);
    if (mo == LF_MO_SEQ_CST) sc_before(w, th);
    for (uintptr_t cp = a & ~(uintptr_t)7; cp < a + size; cp += 8) {
        cell *c = cell_checked(w, cp);
        read_effects(w, th, t, &c->e[c->n - 1], mo);
    }
}

void lf_wm_direct_end(lf_wm *w, unsigned t, volatile void *addr, unsigned size, int mo, bool wrote, uintptr_t pc) {
    if (w->model != LF_MM_C11) return;
    wthread *th = &w->th[t];
    uintptr_t a = (uintptr_t)addr;
    for (uintptr_t cp = a & ~(uintptr_t)7; wrote && cp < a + size; cp += 8) {
        cell *c = cell_get(w, cp);
        unsigned lo = cp < a ? (unsigned)(a - cp) : 0, hi = cp + 8 > a + size ? (unsigned)(a + size - cp) : 8;
        uint64_t word = mem_word(cp);
        c11_rmw_write(w, t, c, c->n - 1u, lo, hi - lo, extract(word, lo, hi - lo), mo, pc);
    }
    if (mo == LF_MO_SEQ_CST) sc_after(w, th);
}

void lf_wm_plain_read(lf_wm *w, unsigned t, const void *addr, unsigned size, uintptr_t pc) {
    uintptr_t a = (uintptr_t)addr;
    if (!in_one_word(a, size)) return;
    w->stats.accesses++;
    int mo = LF_MO_RELAXED, fence = -1;
    if (w->n_fixes) mo = fixed_order(w, pc, mo, &fence);
    if (w->model == LF_MM_C11) {
        const elem *e;
        (void)c11_load(w, t, a, size, mo, pc, true, &e);
        cell *c = cell_find(w, a & ~(uintptr_t)7);
        if (e != &c->e[c->n - 1]) { /* an older value for this load, the newest back at the next callback */
            wthread *th = &w->th[t];
            th->pend_restore = true;
            th->pr_cell = c->addr;
            th->pr_mask = byte_mask((unsigned)(a & 7), size);
            th->pr_stale = e->val;
            mem_put(c->addr, e->val, th->pr_mask);
        }
    } else if (w->model == LF_MM_TSO) {
        tso_load_seen(w, t, a & ~(uintptr_t)7, mo, pc, true);
    }
    if (fence >= 0) w->th[t].pend_fence = fence;
}

void lf_wm_plain_write(lf_wm *w, unsigned t, void *addr, unsigned size, uintptr_t pc) {
    uintptr_t a = (uintptr_t)addr;
    if (!in_one_word(a, size) || w->model == LF_MM_SC) return;
    w->stats.accesses++;
    wthread *th = &w->th[t];
    int mo = LF_MO_RELAXED, fence = -1;
    if (w->n_fixes) mo = fixed_order(w, pc, mo, &fence);
    uintptr_t cellp = a & ~(uintptr_t)7;
    if (w->model == LF_MM_C11) {
        (void)cell_checked(w, cellp); /* memory as it is before the store */
    } else {
        if (mo == LF_MO_SEQ_CST) tso_drain(w, t);
        if (th->n == TSO_CAP) tso_drain_one(w, t);
        overlay_ensure(w, cellp); /* the global word, before the program stores into t's view */
    }
    th->pend_store = true;
    th->ps_cell = cellp;
    th->ps_mask = byte_mask((unsigned)(a & 7), size);
    th->ps_pc = pc;
    th->ps_order = (uint8_t)mo;
    if (fence >= 0) th->pend_fence = fence;
}

void lf_wm_sync(lf_wm *w, unsigned t) {
    settle(w, t);
    if (w->model == LF_MM_C11) c11_fence(w, t, LF_MO_SEQ_CST);
    else if (w->model == LF_MM_TSO) tso_drain(w, t);
}

void lf_wm_drain(lf_wm *w, unsigned t) {
    settle(w, t);
    if (w->model == LF_MM_TSO) tso_drain(w, t);
}

/* The clock of synchronisation object obj (an open-addressing table of the run). */
static const uint32_t **object_clock(lf_wm *w, const void *obj) {
    if (w->n_objects * 2 >= w->cap_objects) {
        size_t ncap = w->cap_objects ? 2 * w->cap_objects : 64;
        sync_object *no = calloc(ncap, sizeof *no);
        if (!no) abort();
        for (size_t i = 0; i < w->cap_objects; i++) {
            if (!w->objects[i].key || w->objects[i].gen != w->gen) continue;
            size_t j = hash_addr((uintptr_t)w->objects[i].key) & (ncap - 1);
            while (no[j].key) j = (j + 1) & (ncap - 1);
            no[j] = w->objects[i];
        }
        free(w->objects);
        w->objects = no;
        w->cap_objects = ncap;
    }
    size_t j = hash_addr((uintptr_t)obj) & (w->cap_objects - 1);
    for (;;) {
        sync_object *o = &w->objects[j];
        if (!o->key || o->gen != w->gen) {
            o->key = obj;
            o->gen = w->gen;
            o->clock = NULL;
            w->n_objects++;
            return &o->clock;
        }
        if (o->key == obj) return &o->clock;
        j = (j + 1) & (w->cap_objects - 1);
    }
}

void lf_wm_sync_object(lf_wm *w, unsigned t, const void *obj) {
    settle(w, t);
    if (w->model == LF_MM_TSO) {
        tso_drain(w, t);
    } else if (w->model == LF_MM_C11) {
        wthread *th = &w->th[t];
        tick(th, t);
        const uint32_t **clock = object_clock(w, obj);
        acquire(w, th, *clock);
        *clock = snapshot(w, th);
    }
}

void lf_wm_spin(lf_wm *w, unsigned t) {
    (void)t;
    if (w->model != LF_MM_TSO) return;
    for (unsigned u = 0; u < w->nthreads; u++) tso_drain(w, u);
    tso_update_due(w);
}

void lf_wm_thread_end(lf_wm *w, unsigned t) {
    if (w->model == LF_MM_SC) return;
    resolve(w, t);
    if (w->model == LF_MM_TSO) {
        tso_drain(w, t);
        tso_update_due(w);
    }
}

/* ---- choices from a seed ---- */

void lf_wm_random_init(lf_wm_random *r, uint8_t chance, uint64_t seed) {
    r->chance = chance;
    r->state = seed ^ 0x6a09e667f3bcc909ull;
}

unsigned lf_wm_random_choose(void *ctx, lf_wm_choice_kind kind, unsigned n) {
    lf_wm_random *r = ctx;
    uint64_t z = (r->state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    z ^= z >> 31;
    unsigned chance = r->chance;
    if (kind == LF_WM_CHOOSE_STORE || kind == LF_WM_CHOOSE_RMW) chance /= 4;
    if ((z & 255) >= chance) return 0;
    return 1 + (unsigned)((z >> 8) % (n - 1));
}
