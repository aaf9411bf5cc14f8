/* One WGL search ([Horn15]): the call/return entry list with O(1) lift/unlift, an
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
 * Pending ops have no return entry: their calls sit in a second list, in call order. A pending op is a
 * candidate whenever its call comes before the first return still in the main list, and is tried after
 * the completed candidates (an op that may never have happened is the last resort, which finds witnesses
 * of linearizable histories far sooner). The search stops as soon as every completed op is linearized, so
 * a pending op takes effect anywhere after its call, or never. Identical pending ops (same method and
 * arguments; results are not observed) are interchangeable, so the later-called one may only be
 * linearized after the earlier one: any linearization can be rearranged that way, which prunes the
 * permutations of duplicate crashed ops (common in Jepsen histories) without losing any answer. And a
 * pending op that would leave the state unchanged (a failing cas, a write of the current value) is not
 * tried: the same configuration without it is the one being searched, and it may still go later.
 *
 * Forced moves. An observer (lf_spec.observer: a completed op that changes no state wherever it is legal:
 * a read, a contains, a failed cas) that is legal now can always be linearized right away: any
 * linearization from here that places it later stays legal with it moved to the front (it is minimal,
 * and it changes no state where it was). So once it is taken, its configuration's other candidates need
 * not be tried: when it fails, the configuration below it fails too. (Being a no-op only *here* is not
 * enough: a write of the current value may be needed later, where it changes the state.) */
#include "wgl/wgl_search.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "budget/deadline.h"
#include "budget/progress.h"
#include "util/hash.h"
#include "util/radix_sort.h"
#include "wgl/wgl_cache.h"
#include "util/clock.h"
#include "util/prng.h"

#define NIL_ENTRY (-1)
#define PENDING_CALL (-2)
#define FORCED_DEAD (-3) /* scan position meaning "dead end, already explained deeper" */
#define CHECK_EVERY 1024 /* units of work (a step, an element copied) between budget checks; the first at once */


void lf_wgl_part_result_free(wgl_part_result *p) {
    free(p->order);
    free(p->culprits);
    p->order = p->culprits = NULL;
    p->order_len = p->n_culprits = 0;
}

/* An entry of the history lists: a call (match = index of its return entry), a return (match = -1), or the
 * call of a pending op (match = PENDING_CALL). Entry indices follow the global event order, so comparing
 * indices compares positions in time. */
typedef struct entry {
    int32_t prev, next, match;
    uint32_t op;
} entry;

static unsigned bits_for(uint64_t count) {
    unsigned b = 1;
    while (b < 64 && (count >> b) != 0) b++;
    return b;
}

/* Lays out the configuration key: sets kword/kinc per op and returns the number of key words.
 * Per-thread counters when every thread is sequential (and bitset_key is off), else one bit per op.
 * by_call lists the ops in call order; slots is scratch for n entries. Returns 0 when out of memory. */
static size_t layout_key(const lf_op *ops, size_t n, const uint32_t *by_call, bool bitset_key, uint32_t *kword,
                         uint64_t *kinc, bool *per_thread, lf_keyed *slots, lf_deadline *dl) {
    /* A stable sort by thread of the ops in call order: each thread's ops, in order. */
    LF_FOR_CHUNKS(ck, ck_end, 0, n, dl) {
        for (size_t i = ck; i < ck_end; i++) {
            slots[i] = (lf_keyed){ops[by_call[i]].thread, by_call[i]};
        }
    }
    if (lf_deadline_expired(dl)) return 0;
    if (!lf_sort_within(slots, n, dl)) return 0;
    bool sequential = !bitset_key;
    for (size_t i = 1; i < n && sequential; i++) {
        if (lf_deadline_every(dl, i)) return 0;
        if (slots[i].key != slots[i - 1].key) continue;
        const lf_op *a = &ops[slots[i - 1].payload], *b = &ops[slots[i].payload];
        if (lf_op_pending(a) || !(a->ret < b->call)) sequential = false;
    }
    *per_thread = sequential;
    size_t word = 0;
    unsigned bit = 0;
    for (size_t i = 0; i < n;) {
        if (lf_deadline_spend(dl, 2)) return 0;
        size_t j = i + 1;
        if (sequential)
            while (j < n && slots[j].key == slots[i].key) j++;
        unsigned width = bits_for(j - i); /* the counter runs from 0 to j - i */
        if (bit + width > 64) {
            word++;
            bit = 0;
        }
        for (size_t k = i; k < j; k++) {
            kword[slots[k].payload] = (uint32_t)word;
            kinc[slots[k].payload] = (uint64_t)1 << bit;
        }
        bit += width;
        i = j;
    }
    return word + 1;
}

static inline void lift(entry *E, int32_t e) {
    if (E[e].match == PENDING_CALL) {
        E[E[e].prev].next = E[e].next;
        if (E[e].next != NIL_ENTRY) E[E[e].next].prev = E[e].prev;
        return;
    }
    int32_t r = E[e].match;
    E[E[e].prev].next = E[e].next;
    E[E[e].next].prev = E[e].prev; /* a call always has a successor: at least its own return */
    E[E[r].prev].next = E[r].next;
    if (E[r].next != NIL_ENTRY) E[E[r].next].prev = E[r].prev;
}

static inline void unlift(entry *E, int32_t e) {
    if (E[e].match == PENDING_CALL) {
        E[E[e].prev].next = e;
        if (E[e].next != NIL_ENTRY) E[E[e].next].prev = e;
        return;
    }
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
    int32_t pending_head; /* sentinel of the list of pending calls */
    uint32_t *stack;      /* call entries linearized, bottom first */
    int32_t *first_ret;   /* per depth: the first return in the main list while pending ops are tried */
    uint32_t *pend_before; /* pending op: the identical pending op called just before it, or UINT32_MAX */
    unsigned char *forced; /* per depth: the op linearized there is an observer, so it was the only choice */
    unsigned char *observer; /* per op: lf_spec_observer */
    unsigned char *linearized; /* per op */
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
static size_t record_dead_end(search *s, size_t d, int32_t ret) {
    if ((long)d <= s->best) return 0;
    s->best = (long)d;
    size_t work = d - s->agree + 1; /* what it costs, charged to the budget checks */
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
    /* Pending candidates the spec accepts are left out: at the deepest dead end they can only be ones that
     * change nothing (or wait for an identical twin), which explain nothing. */
    for (int32_t e = s->E[s->pending_head].next; e != NIL_ENTRY && e < ret; e = s->E[e].next) {
        uint32_t o = s->E[e].op;
        if (lf_spec_step(&s->inst, cur, &s->ops[o], s->scratch)) continue;
        s->cand[s->n_cand] = o;
        s->cand_ok[s->n_cand++] = false;
    }
    return work + s->n_cand;
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
    free(s->first_ret);
    free(s->pend_before);
    free(s->forced);
    free(s->observer);
    free(s->linearized);
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

void lf_wgl_part_set_unknown(wgl_part_result *out, const char *fmt, ...) {
    out->verdict = LF_UNKNOWN;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(out->reason, sizeof out->reason, fmt, ap);
    va_end(ap);
}

bool lf_wgl_may_start(const wgl_budget *budget, lf_deadline *dl, const char *what, size_t n, wgl_part_result *out) {
    lf_deadline_init(dl, budget->deadline);
    if (!lf_deadline_passed(dl) && !wgl_cancelled(budget)) return true;
    lf_wgl_part_set_unknown(out, "%s before the %s of %zu ops started",
                            dl->passed ? "time budget exhausted" : "stopped (another search decided first)", what, n);
    return false;
}

static bool same_invocation(const lf_op *x, const lf_op *y) {
    return lf_op_same_call(x, y);
}

static uint64_t invocation_hash(const lf_op *x) {
    return lf_mix64(lf_mix64((uint64_t)x->arg[0] ^ ((uint64_t)x->method << 8 | x->arg_nil)) ^ (uint64_t)x->arg[1]);
}

/* Links identical pending ops in call order (pend_before): the pending ops sorted by call (ties by index), and
 * a hash table from an invocation to the last pending op of it seen so far. False when out of memory or out of
 * time (dl expired). */
static bool link_identical_pending(search *s, lf_deadline *dl) {
    size_t np = 0;
    LF_FOR_CHUNKS(ck, ck_end, 0, s->n, dl) {
        for (size_t i = ck; i < ck_end; i++) {
            s->pend_before[i] = UINT32_MAX;
            np += lf_op_pending(&s->ops[i]);
        }
    }
    if (lf_deadline_expired(dl)) return false;
    if (np < 2) return true;
    size_t cap = 16;
    while (cap < 2 * np) cap *= 2;
    lf_keyed *ps = malloc(np * sizeof *ps);
    uint32_t *last = malloc(cap * sizeof *last); /* an op index + 1, or 0 for an empty slot */
    bool ok = ps && last;
    size_t k = 0;
    for (size_t i = 0; ok && i < s->n; i++) {
        if ((ok = !lf_deadline_every(dl, i)) && lf_op_pending(&s->ops[i]))
            ps[k++] = (lf_keyed){s->ops[i].call, (uint32_t)i};
    }
    ok = ok && lf_sort_within(ps, np, dl);
    if (ok) memset(last, 0, cap * sizeof *last);
    for (size_t i = 0; ok && i < np; i++) {
        if (!(ok = !lf_deadline_every(dl, i))) break;
        const lf_op *p = &s->ops[ps[i].payload];
        size_t j = invocation_hash(p) & (cap - 1);
        while (last[j] && !same_invocation(&s->ops[last[j] - 1], p)) j = (j + 1) & (cap - 1);
        if (last[j]) s->pend_before[ps[i].payload] = last[j] - 1;
        last[j] = ps[i].payload + 1;
    }
    free(ps);
    free(last);
    return ok;
}

/* Number of entries: a call per op, a return per completed op, and the two list heads. */
static size_t entry_count(const lf_op *ops, size_t n) {
    size_t m = 2;
    for (size_t i = 0; i < n; i++) m += lf_op_pending(&ops[i]) ? 1 : 2;
    return m;
}

/* Builds the main list (calls and returns of completed ops, and nothing else) and the pending list
 * (calls of pending ops), both in event order, and lists the ops in call order into by_call; ev is
 * scratch for 2n events. False when out of memory. */
static bool build_entries(search *s, lf_keyed *ev, uint32_t *by_call, lf_deadline *dl) {
    size_t n = s->n, m = 0;
    /* Calls first, then returns: the sort is stable, so at equal stamps calls come before returns
     * (equal stamps are concurrent: precedes is strict). Payload: op * 2 + is_return. */
    LF_FOR_CHUNKS(ck, ck_end, 0, n, dl) {
        for (size_t i = ck; i < ck_end; i++) {
            ev[m++] = (lf_keyed){s->ops[i].call, (uint32_t)(2 * i)};
        }
    }
    if (lf_deadline_expired(dl)) return false;
    LF_FOR_CHUNKS(ck, ck_end, 0, n, dl) {
        for (size_t i = ck; i < ck_end; i++) {
            if (!lf_op_pending(&s->ops[i])) ev[m++] = (lf_keyed){s->ops[i].ret, (uint32_t)(2 * i + 1)};
        }
    }
    if (lf_deadline_expired(dl)) return false;
    if (!lf_sort_within(ev, m, dl)) return false;
    entry *E = s->E;
    int32_t ph = (int32_t)m + 1, last_main = 0, last_pending = ph;
    s->pending_head = ph;
    E[0] = (entry){NIL_ENTRY, NIL_ENTRY, NIL_ENTRY, 0};
    E[ph] = (entry){NIL_ENTRY, NIL_ENTRY, NIL_ENTRY, 0};
    int32_t *call_entry = s->first_ret; /* borrowed: unused until the search starts */
    size_t calls = 0;
    LF_FOR_CHUNKS(ck, ck_end, 0, m, dl) {
        for (size_t k = ck; k < ck_end; k++) {
            int32_t e = (int32_t)k + 1;
            uint32_t o = ev[k].payload >> 1;
            bool is_ret = ev[k].payload & 1;
            bool pending_call = !is_ret && lf_op_pending(&s->ops[o]);
            int32_t *last = pending_call ? &last_pending : &last_main;
            E[e] = (entry){*last, NIL_ENTRY, pending_call ? PENDING_CALL : NIL_ENTRY, o};
            E[*last].next = e;
            *last = e;
            if (is_ret) {
                E[call_entry[o]].match = e;
            } else {
                call_entry[o] = e;
                by_call[calls++] = o;
            }
        }
    }
    if (lf_deadline_expired(dl)) return false;
    return true;
}

/* Everything the search needs before its first step, the cheap arrays counted against the budget before
 * anything big is allocated: the entries and lists, the twins of pending ops, the key layout, the Zobrist
 * values, and *remaining_out, the completed ops to linearize. False once it has reported why it cannot start
 * (the search freed). */
static bool search_setup(search *s, const lf_spec *spec, const lf_spec_env *env, const wgl_search_opts *opts,
                         wgl_budget *budget, lf_deadline *dl, size_t *remaining_out, wgl_part_result *out) {
    size_t n = s->n;
    /* Cheap arrays first, counted against the budget before anything big is allocated. */
    if (!lf_spec_open(spec, env, &s->inst)) {
        lf_wgl_part_set_unknown(out, "out of memory opening the %s spec", spec->name);
        return false;
    }
    s->ss = s->inst.state_size;
    size_t ss_alloc = s->ss ? s->ss : 1;
    size_t n_entries = entry_count(s->ops, n), n1 = n ? n : 1;
    s->fixed_bytes = n_entries * sizeof *s->E +
                     n * (sizeof *s->stack + sizeof *s->first_ret + sizeof *s->pend_before + 3 + sizeof *s->zobrist +
                          sizeof *s->kword + sizeof *s->kinc + sizeof *s->best_order + sizeof *s->cand + 1) +
                     (n + 3) * ss_alloc + 2 * n * sizeof(lf_keyed) + n * sizeof(uint32_t);
    if (s->fixed_bytes + lf_spec_ctx_bytes(&s->inst) > budget->max_bytes) {
        lf_wgl_part_set_unknown(out, "memory budget of %zu bytes is too small for %zu ops (needs %zu before searching)",
                    budget->max_bytes, n, s->fixed_bytes + lf_spec_ctx_bytes(&s->inst));
        lf_spec_close(&s->inst);
        return false;
    }
    s->E = malloc(n_entries * sizeof *s->E);
    s->stack = malloc(n1 * sizeof *s->stack);
    s->first_ret = malloc(n1 * sizeof *s->first_ret);
    s->pend_before = malloc(n1 * sizeof *s->pend_before);
    s->forced = malloc(n1);
    s->observer = malloc(n1);
    s->linearized = calloc(n1, 1);
    s->S = malloc((n + 1) * ss_alloc);
    s->zobrist = malloc(n1 * sizeof *s->zobrist);
    s->kword = malloc(n1 * sizeof *s->kword);
    s->kinc = malloc(n1 * sizeof *s->kinc);
    s->best_order = malloc(n1 * sizeof *s->best_order);
    s->best_state = malloc(ss_alloc);
    s->cand = malloc(n1 * sizeof *s->cand);
    s->cand_ok = malloc(n1);
    s->scratch = malloc(ss_alloc);
    lf_keyed *scratch_ev = malloc(2 * n1 * sizeof *scratch_ev);
    uint32_t *by_call = malloc(n1 * sizeof *by_call);
    bool ready = s->E && s->stack && s->first_ret && s->pend_before && s->forced && s->observer && s->linearized &&
                 s->S && s->zobrist && s->kword && s->kinc && s->best_order && s->best_state && s->cand &&
                 s->cand_ok && s->scratch && scratch_ev && by_call &&
                 build_entries(s, scratch_ev, by_call, dl) && link_identical_pending(s, dl);
    if (ready)
        s->key_words =
            layout_key(s->ops, n, by_call, opts->bitset_key, s->kword, s->kinc, &s->per_thread_key, scratch_ev, dl);
    free(scratch_ev);
    free(by_call);
    s->key = ready && s->key_words ? calloc(s->key_words, sizeof *s->key) : NULL;
    size_t remaining = 0;
    uint64_t seed = 0x243f6a8885a308d3ULL ^ n;
    for (size_t i = 0; s->key && i < n; i++) {
        if (lf_deadline_spend(dl, 4)) break;
        s->zobrist[i] = lf_rand_next(&seed);
        s->observer[i] = lf_spec_observer(spec, &s->ops[i]);
        remaining += !lf_op_pending(&s->ops[i]);
    }
    if (!s->key || dl->passed) {
        search_free(s);
        lf_wgl_part_set_unknown(out, "%s setting up the search of %zu ops",
                                dl->passed ? "time budget exhausted" : "out of memory", n);
        return false;
    }
    s->fixed_bytes += s->key_words * sizeof *s->key;
    *remaining_out = remaining;
    return true;
}

/* The budgets, looked at every CHECK_EVERY units of work: why the search must stop, or NULL, the cache's
 * limit then set to the memory left. Off the hot path. */
static const char *search_over_budget(search *s, wgl_budget *budget, wgl_cache *cache, uint64_t steps) {
    size_t ctx_bytes = lf_spec_ctx_bytes(&s->inst);
    size_t used = s->fixed_bytes + ctx_bytes + cache->bytes;
    /* The spec's stores grow by doubling between two checks (realloc may copy: old and new block live
     * at once), so keep room for that growth inside the budget instead of discovering it after. */
    size_t headroom = 2 * ctx_bytes;
    if (used > budget->peak_bytes) budget->peak_bytes = used;
    lf_progress_steps(budget->progress, budget->steps + steps);
    if (budget->max_steps && budget->steps + steps >= budget->max_steps) return "step budget";
    if (budget->deadline > 0 && lf_now_s() > budget->deadline) return "time budget";
    if (wgl_cancelled(budget)) return "portfolio (another search decided first)";
    if (used + headroom > budget->max_bytes || lf_spec_failed(&s->inst)) return "memory budget";
    cache->limit = budget->max_bytes - (used - cache->bytes) - headroom;
    return NULL;
}

enum search_status { RUNNING, FOUND, NONE, STOPPED };

/* After the search: the counters into the budget, and the verdict, with the order found (d ops on the stack)
 * or the violation explained or why it stopped. */
static void search_finish(search *s, const wgl_cache *cache, enum search_status status, const char *stop_why,
                          size_t d, uint64_t steps, uint64_t backtracks, uint64_t hits, const wgl_search_opts *opts,
                          wgl_budget *budget, wgl_part_result *out) {
    const entry *E = s->E;
    budget->steps += steps;
    budget->backtracks += backtracks;
    budget->cache_hits += hits;
    budget->configs += cache->n_recs;
    size_t used = s->fixed_bytes + lf_spec_ctx_bytes(&s->inst) + cache->bytes;
    if (used > budget->peak_bytes) budget->peak_bytes = used;
    if (status == NONE && lf_spec_failed(&s->inst)) {
        status = STOPPED; /* a step may have failed for lack of memory, not because the op is illegal */
        stop_why = "memory budget";
    }
    switch (status) {
    case FOUND:
        out->verdict = LF_LINEARIZABLE;
        if (opts->want_order) {
            out->order = malloc((d ? d : 1) * sizeof *out->order);
            if (out->order) {
                for (size_t i = 0; i < d; i++) out->order[i] = E[s->stack[i]].op;
                out->order_len = d;
            }
        }
        break;
    case NONE:
        out->verdict = LF_VIOLATION;
        explain_violation(s, out);
        break;
    case STOPPED:
    case RUNNING:
        lf_wgl_part_set_unknown(out,
                    "%s exhausted after %" PRIu64 " search steps on %zu ops (%" PRIu64 " backtracks, %zu cached "
                    "configurations, %zu bytes)",
                    stop_why ? stop_why : "budget", budget->steps, s->n, backtracks, cache->n_recs, used);
        break;
    }
}

void lf_wgl_search(const lf_spec *spec, const lf_spec_env *env, const uint32_t *orig, const wgl_search_opts *opts,
                wgl_budget *budget, wgl_part_result *out) {
    search s;
    memset(&s, 0, sizeof s);
    s.ops = env->ops;
    s.n = env->n;
    s.orig = orig;
    s.best = -1;
    size_t n = s.n;
    if (n >= ((size_t)1 << 30)) {
        lf_wgl_part_set_unknown(out, "history too long for the WGL search (%zu ops)", n);
        return;
    }
    /* The deadline is looked at before anything else and in every loop of the setup (docs/budgets.md). */
    lf_deadline dl;
    if (!lf_wgl_may_start(budget, &dl, "search", n, out)) return;
    size_t remaining; /* completed ops not linearized yet */
    if (!search_setup(&s, spec, env, opts, budget, &dl, &remaining, out)) return;

    wgl_cache cache;
    lf_wgl_cache_init(&cache, s.key_words, &s.inst, budget->max_bytes - s.fixed_bytes - lf_spec_ctx_bytes(&s.inst));
    cache.deadline = budget->deadline;
    /* The cache is switched on at the first backtrack: before it no configuration can repeat, so a
     * history that needs no backtracking pays nothing for it ([Horn15], adaptive cache). */
    bool cache_on = false;
    entry *E = s.E;
    unsigned char *S = s.S;
    const size_t ss = s.ss;
    const lf_op *ops = s.ops;
    uint64_t *key = s.key;
    uint64_t lin_hash = 0, steps = 0, backtracks = 0, hits = 0;
    uint64_t work = 0, next_check = 0; /* units of work; the budgets are looked at whenever work reaches next_check */
    size_t d = 0;
    /* The scan: e walks the main list's calls up to its first return; then (pending phase) the pending
     * calls placed before that return, first_ret being that return. Nothing left to try is a dead end. */
    int32_t e = E[0].next, first_ret = NIL_ENTRY;
    bool pending_phase = false;
    lf_spec_init(&s.inst, S);
    enum search_status status = RUNNING;
    const char *stop_why = NULL;
    while (status == RUNNING) {
        if (remaining == 0) {
            status = FOUND;
            break;
        }
        steps++;
        if (++work >= next_check) {
            next_check = work + CHECK_EVERY;
            if ((stop_why = search_over_budget(&s, budget, &cache, steps))) {
                status = STOPPED;
                break;
            }
        }
        if (!pending_phase && E[e].match == NIL_ENTRY) {
            /* The first return in the main list: its op had to go before everything after it. Completed
             * candidates are exhausted; the pending ones called before it come next. */
            first_ret = e;
            pending_phase = true;
            e = E[s.pending_head].next;
            continue;
        }
        if (pending_phase && (e < 0 || e > first_ret)) {
            /* Every candidate failed: this configuration is a dead end. */
            if (e != FORCED_DEAD) work += record_dead_end(&s, d, first_ret);
            if (d == 0) {
                status = NONE;
                break;
            }
            backtracks++;
            cache_on = opts->use_cache;
            int32_t x = (int32_t)s.stack[--d];
            if (s.agree > d) s.agree = d;
            uint32_t o = E[x].op;
            key[s.kword[o]] -= s.kinc[o];
            lin_hash ^= s.zobrist[o];
            s.linearized[o] = 0;
            unlift(E, x);
            remaining += !lf_op_pending(&ops[o]);
            if (s.forced[d]) {
                /* The undone op changed nothing: the configuration below fails exactly when the one above
                 * does, so it is a dead end too, without trying its other candidates. */
                pending_phase = true;
                first_ret = s.first_ret[d];
                e = FORCED_DEAD;
                continue;
            }
            /* Resume the scan of the configuration below just after the undone candidate. */
            pending_phase = E[x].match == PENDING_CALL;
            if (pending_phase) first_ret = s.first_ret[d];
            e = E[x].next;
            continue;
        }
        /* A minimal op: try to linearize it now. */
        uint32_t o = E[e].op;
        uint32_t twin = s.pend_before[o];
        unsigned char *cur = S + d * ss;
        if ((twin == UINT32_MAX || s.linearized[twin]) && lf_spec_step(&s.inst, cur, &ops[o], cur + ss) &&
            !(pending_phase && lf_spec_equal(&s.inst, cur, cur + ss))) {
            key[s.kword[o]] += s.kinc[o];
            uint64_t h = lin_hash ^ s.zobrist[o];
            wgl_cache_outcome got = WGL_CACHE_NEW;
            if (cache_on) {
                uint64_t hs = lf_spec_hash(&s.inst, cur + ss);
                got = lf_wgl_cache_insert(&cache, h ^ (hs * 0x9e3779b97f4a7c15ULL), key, cur + ss);
            }
            if (got == WGL_CACHE_NEW) {
                s.forced[d] = s.observer[o];
                s.first_ret[d] = first_ret;
                s.stack[d++] = (uint32_t)e;
                s.linearized[o] = 1;
                lin_hash = h;
                lift(E, e);
                remaining -= !lf_op_pending(&ops[o]);
                pending_phase = false;
                e = E[0].next;
                continue;
            }
            key[s.kword[o]] -= s.kinc[o];
            if (got == WGL_CACHE_NOMEM || got == WGL_CACHE_LATE) {
                stop_why = got == WGL_CACHE_LATE ? "time budget" : "memory budget";
                status = STOPPED;
                break;
            }
            hits++;
        }
        e = E[e].next;
    }
    search_finish(&s, &cache, status, stop_why, d, steps, backtracks, hits, opts, budget, out);
    lf_wgl_cache_free(&cache);
    search_free(&s);
}
