/* One WGL search (shared/reference/seed-001.md §2): the call/return entry list with O(1) lift/unlift, an
 * explicit stack of linearized calls (no recursion), spec states kept one per depth so that backtracking
 * copies nothing, and Lowe's cache of explored configurations.
 *
 * Configuration key. The linearized set is downward closed under real-time order, so for a history
 * whose threads are sequential it is one prefix per thread: the key is a packed array of per-thread
 * counters, each just wide enough for its thread's op count (never wider than a bitset over the ops).
 * Linearizing op o adds 1 to its thread's field. If some thread's ops overlap, every op gets its own
 * 1-bit field instead (a bitset), through the same code. The hash of the set is maintained incrementally
 * by XOR of per-op random words (Zobrist), and the key is copied into the cache only on a miss.
 *
 * Pending ops: their return entries come after every completed return, and the search stops as soon as
 * every completed op is linearized, so a pending op takes effect anywhere after its call, or never. */
#include "wgl/wgl_search.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "wgl/wgl_cache.h"

#define NIL_ENTRY (-1)
#define CHECK_EVERY 1024 /* iterations between budget checks */

double wgl_now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

void wgl_part_result_free(wgl_part_result *p) {
    free(p->order);
    free(p->culprits);
    p->order = p->culprits = NULL;
    p->order_len = p->n_culprits = 0;
}

/* An entry of the history list: a call (match = index of its return entry) or a return (match = -1). */
typedef struct entry {
    int32_t prev, next, match;
    uint32_t op;
} entry;

typedef struct event {
    uint64_t time;
    uint32_t kind; /* 0 call, 1 return, 2 return of a pending op (after everything) */
    uint32_t op;
} event;

static int cmp_event(const void *a, const void *b) {
    const event *x = a, *y = b;
    if (x->time != y->time) return x->time < y->time ? -1 : 1;
    /* Equal stamps are concurrent (precedes is strict), so calls go before returns. */
    if (x->kind != y->kind) return x->kind < y->kind ? -1 : 1;
    return (x->op > y->op) - (x->op < y->op);
}

typedef struct thread_slot {
    uint32_t thread, op;
    uint64_t call;
} thread_slot;

static int cmp_thread_slot(const void *a, const void *b) {
    const thread_slot *x = a, *y = b;
    if (x->thread != y->thread) return x->thread < y->thread ? -1 : 1;
    if (x->call != y->call) return x->call < y->call ? -1 : 1;
    return (x->op > y->op) - (x->op < y->op);
}

static unsigned bits_for(uint64_t count) {
    unsigned b = 1;
    while (b < 64 && (count >> b) != 0) b++;
    return b;
}

/* Lays out the configuration key: sets kword/kinc per op and returns the number of key words.
 * Per-thread counters when every thread is sequential (and bitset_key is off), else one bit per op. */
static size_t layout_key(const lf_op *ops, size_t n, bool bitset_key, uint32_t *kword, uint64_t *kinc,
                         bool *per_thread, thread_slot *slots) {
    for (size_t i = 0; i < n; i++) slots[i] = (thread_slot){ops[i].thread, (uint32_t)i, ops[i].call};
    qsort(slots, n, sizeof *slots, cmp_thread_slot);
    bool sequential = !bitset_key;
    for (size_t i = 1; i < n && sequential; i++) {
        if (slots[i].thread != slots[i - 1].thread) continue;
        const lf_op *a = &ops[slots[i - 1].op], *b = &ops[slots[i].op];
        if (lf_op_pending(a) || !(a->ret < b->call)) sequential = false;
    }
    *per_thread = sequential;
    size_t word = 0;
    unsigned bit = 0;
    for (size_t i = 0; i < n;) {
        size_t j = i + 1;
        if (sequential)
            while (j < n && slots[j].thread == slots[i].thread) j++;
        unsigned width = bits_for(j - i); /* the counter runs from 0 to j - i */
        if (bit + width > 64) {
            word++;
            bit = 0;
        }
        for (size_t k = i; k < j; k++) {
            kword[slots[k].op] = (uint32_t)word;
            kinc[slots[k].op] = (uint64_t)1 << bit;
        }
        bit += width;
        i = j;
    }
    return word + 1;
}

static uint64_t splitmix64(uint64_t *s) {
    uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static inline void lift(entry *E, int32_t e) {
    int32_t r = E[e].match;
    E[E[e].prev].next = E[e].next;
    E[E[e].next].prev = E[e].prev; /* a call always has a successor: at least its own return */
    E[E[r].prev].next = E[r].next;
    if (E[r].next != NIL_ENTRY) E[E[r].next].prev = E[r].prev;
}

static inline void unlift(entry *E, int32_t e) {
    int32_t r = E[e].match;
    E[E[r].prev].next = r;
    if (E[r].next != NIL_ENTRY) E[E[r].next].prev = r;
    E[E[e].prev].next = e;
    E[E[e].next].prev = e;
}

/* Appends printf output to a fixed buffer, keeping it terminated; marks truncation with "...". */
typedef struct text {
    char *buf;
    size_t cap, len;
} text;

static void text_add(text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void text_add(text *t, const char *fmt, ...) {
    if (t->len + 1 >= t->cap) return;
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(t->buf + t->len, t->cap - t->len, fmt, ap);
    va_end(ap);
    if (k < 0) return;
    if (t->len + (size_t)k >= t->cap) {
        t->len = t->cap - 1;
        if (t->cap > 4) memcpy(t->buf + t->cap - 4, "...", 4);
    } else {
        t->len += (size_t)k;
    }
}

/* Everything one search holds, so helpers can share it. */
typedef struct search {
    const lf_op *ops;
    size_t n;
    const uint32_t *orig;
    lf_spec_inst inst;
    size_t ss; /* state size */
    entry *E;
    uint32_t *stack;      /* call entries linearized, bottom first */
    unsigned char *S;     /* S + d*ss: state after the first d linearized ops */
    uint64_t *zobrist;
    uint32_t *kword;
    uint64_t *kinc;
    uint64_t *key;
    size_t key_words;
    bool per_thread_key;
    /* deepest dead end so far: the longest linearizable prefix found and who could not go next */
    long best;
    size_t agree;         /* stack[0..agree) == best_order[0..agree) */
    uint32_t *best_order;
    unsigned char *best_state;
    uint32_t *cand;       /* candidates at the best dead end: the must-go op first */
    unsigned char *cand_ok; /* per candidate: the spec accepts it there (then it led to a dead end) */
    size_t n_cand;
    unsigned char *scratch; /* one state */
    size_t fixed_bytes;
} search;

static uint32_t name_of(const search *s, uint32_t op) { return s->orig ? s->orig[op] : op; }

/* At a dead end at depth d (the return entry ret is reached and nothing before it could go next):
 * remembers it when it is the deepest so far. */
static void record_dead_end(search *s, size_t d, int32_t ret) {
    if ((long)d <= s->best) return;
    s->best = (long)d;
    for (size_t i = s->agree; i < d; i++) s->best_order[i] = s->E[s->stack[i]].op;
    s->agree = d;
    const unsigned char *cur = s->S + d * s->ss;
    memcpy(s->best_state, cur, s->ss);
    uint32_t must = s->E[ret].op;
    s->n_cand = 0;
    s->cand[s->n_cand] = must;
    s->cand_ok[s->n_cand++] = lf_spec_step(&s->inst, cur, &s->ops[must], s->scratch);
    for (int32_t e = s->E[0].next; e != ret; e = s->E[e].next) {
        uint32_t o = s->E[e].op;
        if (o == must) continue;
        s->cand[s->n_cand] = o;
        s->cand_ok[s->n_cand++] = lf_spec_step(&s->inst, cur, &s->ops[o], s->scratch);
    }
}

static void explain_violation(search *s, wgl_part_result *out) {
    text t = {out->reason, sizeof out->reason, 0};
    out->reason[0] = '\0';
    char st[160], od[200];
    lf_spec_describe_state(&s->inst, s->best_state, st, sizeof st);
    text_add(&t, "after the longest linearizable prefix (%ld of %zu ops", s->best, s->n);
    if (st[0]) text_add(&t, ", state %s", st);
    text_add(&t, "), no op can take effect next: ");
    for (size_t i = 0; i < s->n_cand; i++) {
        uint32_t o = s->cand[i];
        lf_spec_describe_op(&s->inst, &s->ops[o], od, sizeof od);
        text_add(&t, "%sop %" PRIu32 " (%s) %s%s", i ? "; " : "", name_of(s, o), od,
                 i == 0 ? "must take effect before the ops called after its return, but " : "",
                 s->cand_ok[i] ? "leads to a dead end" : "is not allowed there");
    }
    out->culprits = malloc((s->n_cand ? s->n_cand : 1) * sizeof *out->culprits);
    if (out->culprits) {
        /* The must-go op, then those the spec rejects outright: the ops in conflict with the prefix. */
        out->culprits[out->n_culprits++] = s->cand[0];
        for (size_t i = 1; i < s->n_cand; i++)
            if (!s->cand_ok[i]) out->culprits[out->n_culprits++] = s->cand[i];
    }
    out->order = malloc((s->best ? (size_t)s->best : 1) * sizeof *out->order);
    if (out->order) {
        memcpy(out->order, s->best_order, (size_t)s->best * sizeof *out->order);
        out->order_len = (size_t)s->best;
    }
}

static void search_free(search *s) {
    lf_spec_close(&s->inst);
    free(s->E);
    free(s->stack);
    free(s->S);
    free(s->zobrist);
    free(s->kword);
    free(s->kinc);
    free(s->key);
    free(s->best_order);
    free(s->best_state);
    free(s->cand);
    free(s->cand_ok);
    free(s->scratch);
}

static void set_unknown(wgl_part_result *out, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void set_unknown(wgl_part_result *out, const char *fmt, ...) {
    out->verdict = LF_UNKNOWN;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(out->reason, sizeof out->reason, fmt, ap);
    va_end(ap);
}

/* Builds the entry list; false when out of memory. */
static bool build_entries(search *s) {
    size_t n = s->n;
    event *ev = malloc(2 * n * sizeof *ev);
    if (!ev) return false;
    for (size_t i = 0; i < n; i++) {
        const lf_op *op = &s->ops[i];
        ev[2 * i] = (event){op->call, 0, (uint32_t)i};
        ev[2 * i + 1] = lf_op_pending(op) ? (event){UINT64_MAX, 2, (uint32_t)i} : (event){op->ret, 1, (uint32_t)i};
    }
    qsort(ev, 2 * n, sizeof *ev, cmp_event);
    entry *E = s->E;
    E[0] = (entry){NIL_ENTRY, n > 0 ? 1 : NIL_ENTRY, NIL_ENTRY, 0};
    int32_t *call_entry = (int32_t *)(void *)s->stack; /* borrowed: the stack is unused until the search */
    for (size_t k = 0; k < 2 * n; k++) {
        int32_t e = (int32_t)k + 1;
        E[e] = (entry){e - 1, k + 1 < 2 * n ? e + 1 : NIL_ENTRY, NIL_ENTRY, ev[k].op};
        if (ev[k].kind == 0)
            call_entry[ev[k].op] = e;
        else
            E[call_entry[ev[k].op]].match = e;
    }
    free(ev);
    return true;
}

void wgl_search(const lf_spec *spec, const lf_spec_env *env, const uint32_t *orig, const wgl_search_opts *opts,
                wgl_budget *budget, wgl_part_result *out) {
    search s;
    memset(&s, 0, sizeof s);
    s.ops = env->ops;
    s.n = env->n;
    s.orig = orig;
    s.best = -1;
    size_t n = s.n;
    if (n >= ((size_t)1 << 30)) {
        set_unknown(out, "history too long for the WGL search (%zu ops)", n);
        return;
    }
    /* Cheap arrays first, counted against the budget before anything big is allocated. */
    if (!lf_spec_open(spec, env, &s.inst)) {
        set_unknown(out, "out of memory opening the %s spec", spec->name);
        return;
    }
    s.ss = s.inst.state_size;
    size_t ss_alloc = s.ss ? s.ss : 1;
    s.fixed_bytes = (2 * n + 1) * sizeof *s.E + n * (sizeof *s.stack + sizeof *s.zobrist + sizeof *s.kword +
                                                     sizeof *s.kinc + sizeof *s.best_order + sizeof *s.cand + 1) +
                    (n + 3) * ss_alloc + n * sizeof(thread_slot);
    if (s.fixed_bytes + lf_spec_ctx_bytes(&s.inst) > budget->max_bytes) {
        set_unknown(out, "memory budget of %zu bytes is too small for %zu ops (needs %zu before searching)",
                    budget->max_bytes, n, s.fixed_bytes + lf_spec_ctx_bytes(&s.inst));
        lf_spec_close(&s.inst);
        return;
    }
    s.E = malloc((2 * n + 1) * sizeof *s.E);
    s.stack = malloc((n ? n : 1) * sizeof *s.stack);
    s.S = malloc((n + 1) * ss_alloc);
    s.zobrist = malloc((n ? n : 1) * sizeof *s.zobrist);
    s.kword = malloc((n ? n : 1) * sizeof *s.kword);
    s.kinc = malloc((n ? n : 1) * sizeof *s.kinc);
    s.best_order = malloc((n ? n : 1) * sizeof *s.best_order);
    s.best_state = malloc(ss_alloc);
    s.cand = malloc((n ? n : 1) * sizeof *s.cand);
    s.cand_ok = malloc(n ? n : 1);
    s.scratch = malloc(ss_alloc);
    thread_slot *slots = malloc((n ? n : 1) * sizeof *slots);
    if (!s.E || !s.stack || !s.S || !s.zobrist || !s.kword || !s.kinc || !s.best_order || !s.best_state ||
        !s.cand || !s.cand_ok || !s.scratch || !slots || !build_entries(&s)) {
        free(slots);
        search_free(&s);
        set_unknown(out, "out of memory setting up the search of %zu ops", n);
        return;
    }
    s.key_words = layout_key(s.ops, n, opts->bitset_key, s.kword, s.kinc, &s.per_thread_key, slots);
    free(slots);
    s.key = calloc(s.key_words, sizeof *s.key);
    if (!s.key) {
        search_free(&s);
        set_unknown(out, "out of memory setting up the search of %zu ops", n);
        return;
    }
    s.fixed_bytes += s.key_words * sizeof *s.key;
    uint64_t seed = 0x243f6a8885a308d3ULL ^ n;
    for (size_t i = 0; i < n; i++) s.zobrist[i] = splitmix64(&seed);
    size_t remaining = 0; /* completed ops not linearized yet */
    for (size_t i = 0; i < n; i++) remaining += !lf_op_pending(&s.ops[i]);

    wgl_cache cache;
    wgl_cache_init(&cache, s.key_words, &s.inst, budget->max_bytes - s.fixed_bytes - lf_spec_ctx_bytes(&s.inst));
    /* The cache is switched on at the first backtrack: before it no configuration can repeat, so a
     * history that needs no backtracking pays nothing for it (seed-001 §7.3, adaptive cache). */
    bool cache_on = false;
    entry *E = s.E;
    unsigned char *S = s.S;
    const size_t ss = s.ss;
    const lf_op *ops = s.ops;
    uint64_t *key = s.key;
    uint64_t lin_hash = 0, steps = 0, backtracks = 0, hits = 0;
    size_t d = 0;
    int32_t e = E[0].next;
    lf_spec_init(&s.inst, S);
    enum { RUNNING, FOUND, NONE, STOPPED } status = RUNNING;
    const char *stop_why = NULL;
    while (status == RUNNING) {
        if (remaining == 0) {
            status = FOUND;
            break;
        }
        if ((++steps & (CHECK_EVERY - 1)) == 0) {
            size_t used = s.fixed_bytes + lf_spec_ctx_bytes(&s.inst) + cache.bytes;
            if (used > budget->peak_bytes) budget->peak_bytes = used;
            if (budget->max_steps && budget->steps + steps >= budget->max_steps) {
                stop_why = "step budget";
            } else if (budget->deadline > 0 && wgl_now() > budget->deadline) {
                stop_why = "time budget";
            } else if (used > budget->max_bytes || lf_spec_failed(&s.inst)) {
                stop_why = "memory budget";
            }
            if (stop_why) {
                status = STOPPED;
                break;
            }
            cache.limit = budget->max_bytes - (used - cache.bytes);
        }
        entry *ent = &E[e];
        if (ent->match != NIL_ENTRY) {
            /* A minimal op: try to linearize it now. */
            uint32_t o = ent->op;
            unsigned char *cur = S + d * ss;
            if (lf_spec_step(&s.inst, cur, &ops[o], cur + ss)) {
                key[s.kword[o]] += s.kinc[o];
                uint64_t h = lin_hash ^ s.zobrist[o];
                wgl_cache_outcome got = WGL_CACHE_NEW;
                if (cache_on) {
                    uint64_t hs = lf_spec_hash(&s.inst, cur + ss);
                    got = wgl_cache_insert(&cache, h ^ (hs * 0x9e3779b97f4a7c15ULL), key, cur + ss);
                }
                if (got == WGL_CACHE_NEW) {
                    s.stack[d++] = (uint32_t)e;
                    lin_hash = h;
                    lift(E, e);
                    remaining -= !lf_op_pending(&ops[o]);
                    e = E[0].next;
                    continue;
                }
                key[s.kword[o]] -= s.kinc[o];
                if (got == WGL_CACHE_NOMEM) {
                    stop_why = "memory budget";
                    status = STOPPED;
                    break;
                }
                hits++;
            }
            e = ent->next;
        } else {
            /* The return of an op not linearized: it had to go before everything after this point, and
             * every candidate failed, so this configuration is a dead end. */
            record_dead_end(&s, d, e);
            if (d == 0) {
                status = NONE;
                break;
            }
            backtracks++;
            cache_on = opts->use_cache;
            e = (int32_t)s.stack[--d];
            if (s.agree > d) s.agree = d;
            uint32_t o = E[e].op;
            key[s.kword[o]] -= s.kinc[o];
            lin_hash ^= s.zobrist[o];
            unlift(E, e);
            remaining += !lf_op_pending(&ops[o]);
            e = E[e].next;
        }
    }
    budget->steps += steps;
    budget->backtracks += backtracks;
    budget->cache_hits += hits;
    budget->configs += cache.n_recs;
    size_t used = s.fixed_bytes + lf_spec_ctx_bytes(&s.inst) + cache.bytes;
    if (used > budget->peak_bytes) budget->peak_bytes = used;
    if (status == NONE && lf_spec_failed(&s.inst)) {
        status = STOPPED; /* a step may have failed for lack of memory, not because the op is illegal */
        stop_why = "memory budget";
    }
    switch (status) {
    case FOUND:
        out->verdict = LF_LINEARIZABLE;
        if (opts->want_order) {
            out->order = malloc((d ? d : 1) * sizeof *out->order);
            if (out->order) {
                for (size_t i = 0; i < d; i++) out->order[i] = E[s.stack[i]].op;
                out->order_len = d;
            }
        }
        break;
    case NONE:
        out->verdict = LF_VIOLATION;
        explain_violation(&s, out);
        break;
    case STOPPED:
    case RUNNING:
        set_unknown(out,
                    "%s exhausted after %" PRIu64 " search steps on %zu ops (%" PRIu64 " backtracks, %zu cached "
                    "configurations, %zu bytes)",
                    stop_why ? stop_why : "budget", budget->steps, n, backtracks, cache.n_recs, used);
        break;
    }
    wgl_cache_free(&cache);
    search_free(&s);
}
