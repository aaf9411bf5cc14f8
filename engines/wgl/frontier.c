/* The frontier sweep (see frontier.h; docs/frontier.md has the algorithm and why each rule keeps the answer).
 *
 * Events are visited in time order (calls before returns at equal stamps). Each op holds a *slot* from
 * its call to its return (a pending op keeps it to the end), so the ops open at any moment are named by at
 * most K slots, K the largest number of ops open at once, and a configuration is (mask of the open slots
 * whose ops are already linearized, spec state): every op that returned earlier is linearized, no op
 * called later is. The frontier is the set of configurations reachable so far; at the return of op o,
 *   - a configuration that has linearized o keeps going (o's bit is cleared: the slot is freed);
 *   - any other one must linearize o now, possibly after other open ops: a breadth-first closure over
 *     (mask, state) from all of them at once explores those sequences, each distinct configuration once
 *     per return, and every configuration in which o got linearized joins the next frontier.
 * The history is linearizable iff the frontier is not empty after the last event. What keeps the frontier
 * and the closures small:
 *   - just in time: an op is only linearized in the closure of a return (its own or a later one's);
 *   - observers (lf_spec.observer) are linearized as soon as they are legal, at their call or after any
 *     step, and never branched on;
 *   - identical ops (same method, arguments and result) open at once are linearized in the order of
 *     their returns (identical pending ops in index order), so their permutations are tried once;
 *   - overwriting ops (lf_spec.overwrites) that nothing observed are killed instead of linearized;
 *   - dominated configurations are dropped (after every return, and in the closure before expansion);
 *   - queues and stacks use block states (spec/spec_blocks.h), one state for all orders of the values
 *     inserted together at one return.
 * A pending op may take effect at any step after its call, or never; one that would change nothing is
 * never tried (the configuration without it is as good). With a beam width, only the configurations that
 * linearized the most are kept: a prover that never says violation. */
#include "wgl/frontier.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "budget/deadline.h"
#include "budget/progress.h"
#include "spec/spec_blocks.h"
#include "util/clock.h"
#include "util/grow.h"
#include "util/hash.h"
#include "util/radix_sort.h"
#include "wgl/frontier_order.h"
#include "wgl/frontier_path.h"
#include "wgl/frontier_set.h"

#define CHECK_EVERY 1024
/* The most ops open at once (crashed ops stay open) the sweep takes: masks of 32 words, and the identical-op
 * relation as a K x K bit matrix (512 KiB). Wider histories are left to WGL. */
#define FRONTIER_MAX_OPEN 2048

/* A chained index of the configurations of s->next by a 64-bit key: heads of chains per key bucket. */
typedef struct chain_index {
    uint32_t *heads, *chain;
    size_t heads_cap, heads_n, chain_cap;
} chain_index;

/* A candidate dominator of a configuration: slot i removed, slot j added (or none), the t-value it needs
 * (at least need), its hash. */
typedef struct dom_cand {
    uint32_t i, j;
    uint32_t need;
    uint64_t h;
} dom_cand;

typedef struct sweep {
    const lf_op *ops;
    size_t n;
    const uint32_t *orig;
    lf_spec_inst inst;
    size_t ss;
    /* events in time order: op * 2 + is_return */
    uint32_t *ev;
    size_t n_ev;
    uint32_t *slot;    /* per op */
    uint32_t *cls;     /* per op: ops with the same class are identical */
    uint32_t *order;   /* per op: rank among identical ops (return event, pending ops last by index) */
    unsigned char *observer;
    unsigned char *blind;  /* per op: lf_spec_overwrites */
    uint32_t *call_ev;     /* per op: its call's event index */
    size_t K, W;
    /* the ops open now, by slot */
    uint32_t *slot_op;
    uint64_t *better; /* K * W: open slots whose identical op returns first */
    uint64_t *open, *obs, *pend;
    /* sets */
    lf_fset cur, next, seen;
    lf_fpaths paths;
    size_t limit;     /* bytes the sets and paths may still take */
    size_t fixed_bytes;
    size_t gc_at;
    /* scratch */
    uint64_t *x;      /* masks: W words each, a few of them */
    unsigned char *st; /* states: a few of them */
    bool blocks;      /* the spec is a block variant (spec_blocks.h): products are sealed, covering dominates */
    uint32_t *added;  /* observers linearized by one saturation */
    uint64_t added_hash; /* the XOR of their slots' words */
    uint64_t *zob;    /* per slot: its Zobrist word */
    dom_cand *cands;  /* dominated_in's candidates */
    size_t cands_cap;
    size_t *queue;    /* the closure's FIFO of configurations of s->seen to expand */
    size_t queue_cap;
    chain_index by_mask, by_content; /* s->next by mask, and (block states) by mask and contents */
    uint64_t *keys;   /* per configuration of s->next: mask hash; then (blocks) the mask-and-contents key */
    size_t keys_cap;
    /* budget */
    wgl_budget *budget;
    uint64_t steps, closures;
    const char *stop_why;
} sweep;

/* A configuration's payload: its path (bits 0..31); T + 1, T the last event at whose return an overwriting
 * op was linearized on that path (bits 32..61, 0: none); in the closure sets, what the closure need not do
 * from it (the moves every way that reached it leaves out as redundant): no overwriting op next (bit 63),
 * no overwriting op at all in the rest of this closure (bit 62). */
#define NO_BLIND ((uint64_t)1 << 63)
#define NO_OVERWRITE ((uint64_t)1 << 62)
#define SKIPS (NO_BLIND | NO_OVERWRITE)
#define KILLED LF_FPATH_KILLED /* a path node of an overwritten op, placed just before its overwriter */
#define SEALED LF_FPATH_SEALED /* a path node marking the end of a step (block states: blocks close) */
static inline uint32_t pay_path(uint64_t p) { return (uint32_t)p; }
static inline uint32_t pay_t(uint64_t p) { return (uint32_t)(p >> 32) & 0x3fffffffu; }
static inline uint64_t pay_make(uint32_t path, uint32_t t, uint64_t skips) {
    return (uint64_t)path | (uint64_t)t << 32 | (skips & SKIPS);
}

static inline bool bit_get(const uint64_t *m, size_t i) { return (m[i >> 6] >> (i & 63)) & 1; }
static inline void bit_set(uint64_t *m, size_t i) { m[i >> 6] |= (uint64_t)1 << (i & 63); }
static inline void bit_clear(uint64_t *m, size_t i) { m[i >> 6] &= ~((uint64_t)1 << (i & 63)); }

/* A configuration's hash is the XOR of its mask's slot words (Zobrist: adding or removing a slot is one
 * XOR, so every hash is derived from its parent's) and its state's mixed hash. */
static inline uint64_t state_hash(const sweep *s, const void *state) {
    return lf_mix64(lf_spec_hash(&s->inst, state) + 0x9e3779b97f4a7c15ULL);
}

/* ---- setup ---- */

static bool same_content(const lf_op *x, const lf_op *y) {
    return lf_op_same_call(x, y) && x->res_kind == y->res_kind && (x->res_kind != LF_K_INT || x->res == y->res);
}

static uint64_t content_hash(const lf_op *x) {
    uint64_t h = lf_mix64((uint64_t)x->arg[0] ^ ((uint64_t)x->method << 8 | x->arg_nil) ^ (uint64_t)x->res_kind << 16);
    h = lf_mix64(h ^ (uint64_t)x->arg[1]);
    return x->res_kind == LF_K_INT ? lf_mix64(h ^ (uint64_t)x->res) : h;
}

/* Classes of identical ops: same method, arguments, result (a pending op's "result" is LF_K_PENDING, so
 * pending ops only match pending ops). The spec's step depends on nothing else (spec.h contract). Classes are
 * numbered in order of first appearance, through a hash table from content to the class's first op. False
 * when out of memory or out of time (dl expired). */
static bool classify(sweep *s, lf_deadline *dl) {
    size_t cap = 16;
    while (cap < 2 * s->n) cap *= 2;
    uint32_t *first = calloc(cap, sizeof *first); /* an op index + 1, or 0 for an empty slot */
    if (!first) return false;
    uint32_t c = 0;
    LF_FOR_CHUNKS(ck, ck_end, 0, s->n, dl) {
        for (size_t i = ck; i < ck_end; i++) {
            const lf_op *op = &s->ops[i];
            size_t j = content_hash(op) & (cap - 1);
            while (first[j] && !same_content(&s->ops[first[j] - 1], op)) j = (j + 1) & (cap - 1);
            if (!first[j]) {
                first[j] = (uint32_t)i + 1;
                s->cls[i] = c++;
            } else {
                s->cls[i] = s->cls[first[j] - 1];
            }
        }
    }
    if (lf_deadline_expired(dl)) {
        free(first);
        return false;
    }
    free(first);
    return true;
}

/* Sorts the events (calls before returns at equal stamps, ties by op index), gives every op a slot and
 * its rank among identical ops. */
static bool build_events(sweep *s, lf_deadline *dl) {
    size_t n = s->n, m = 0;
    lf_keyed *ev = malloc(2 * (n ? n : 1) * sizeof *ev);
    uint32_t *free_slots = malloc((n ? n : 1) * sizeof *free_slots);
    if (!ev || !free_slots) {
        free(ev);
        free(free_slots);
        return false;
    }
    LF_FOR_CHUNKS(ck, ck_end, 0, n, dl) {
        for (size_t i = ck; i < ck_end; i++) ev[m++] = (lf_keyed){s->ops[i].call, (uint32_t)(2 * i)};
    }
    LF_FOR_CHUNKS(ck, ck_end, 0, n, dl) {
        for (size_t i = ck; i < ck_end; i++)
            if (!lf_op_pending(&s->ops[i])) ev[m++] = (lf_keyed){s->ops[i].ret, (uint32_t)(2 * i + 1)};
    }
    if (lf_deadline_expired(dl) || !lf_sort_within(ev, m, dl)) {
        free(ev);
        free(free_slots);
        return false;
    }
    size_t n_free = 0, k = 0;
    LF_FOR_CHUNKS(ck, ck_end, 0, m, dl) {
        for (size_t e = ck; e < ck_end; e++) {
            uint32_t o = ev[e].payload >> 1;
            s->ev[e] = ev[e].payload;
            if (ev[e].payload & 1) {
                free_slots[n_free++] = s->slot[o];
                s->order[o] = (uint32_t)e;
            } else {
                s->slot[o] = n_free ? free_slots[--n_free] : (uint32_t)k++;
                s->call_ev[o] = (uint32_t)e;
                if (lf_op_pending(&s->ops[o])) s->order[o] = (uint32_t)(m + o);
            }
        }
    }
    if (lf_deadline_expired(dl)) {
        free(ev);
        free(free_slots);
        return false;
    }
    s->n_ev = m;
    s->K = k ? k : 1;
    s->W = (s->K + 63) / 64;
    free(ev);
    free(free_slots);
    return true;
}

/* ---- the sweep ---- */

/* Whether the budget allows going on; sets stop_why when not. Called every CHECK_EVERY steps. */
static bool budget_ok(sweep *s) {
    wgl_budget *b = s->budget;
    size_t ctx = lf_spec_ctx_bytes(&s->inst);
    size_t held = s->cur.bytes + s->next.bytes + s->seen.bytes + s->paths.bytes;
    size_t used = s->fixed_bytes + ctx + held;
    if (used > b->peak_bytes) b->peak_bytes = used;
    lf_progress_steps(b->progress, b->steps + s->steps);
    if (b->max_steps && b->steps + s->steps >= b->max_steps)
        s->stop_why = "step budget";
    else if (b->deadline > 0 && lf_now_s() > b->deadline)
        s->stop_why = "time budget";
    else if (wgl_cancelled(b))
        s->stop_why = "portfolio (another search decided first)";
    else if (used + 2 * ctx > b->max_bytes || lf_spec_failed(&s->inst))
        s->stop_why = "memory budget";
    if (s->stop_why) return false;
    /* The spec's store may double between two checks: keep room for it. */
    s->limit = b->max_bytes - used - 2 * ctx;
    return true;
}

/* The first step looks at the budget at once, then every CHECK_EVERY steps. */
static inline bool tick(sweep *s) { return (s->steps++ & (CHECK_EVERY - 1)) != 0 || budget_ok(s); }

/* Linearizes every open, not yet linearized observer that is legal in state (it changes nothing), and
 * lists them in added (their slots' words XORed in added_hash); returns how many. */
static size_t saturate(sweep *s, uint64_t *mask, const void *state, unsigned char *scratch) {
    size_t k = 0;
    uint64_t h = 0;
    for (size_t w = 0; w < s->W; w++) {
        uint64_t c = s->obs[w] & ~mask[w];
        while (c) {
            size_t i = w * 64 + (size_t)__builtin_ctzll(c);
            c &= c - 1;
            uint32_t o = s->slot_op[i];
            if (lf_spec_step(&s->inst, state, &s->ops[o], scratch)) {
                bit_set(mask, i);
                s->added[k++] = o;
                h ^= s->zob[i];
            }
        }
    }
    s->added_hash = h;
    return k;
}

/* path + op + added[0..k) (+ a SEALED mark when sealed); UINT32_MAX when out of memory. */
static uint32_t extend_path(sweep *s, uint32_t path, uint32_t op, size_t k, bool sealed) {
    if (op != UINT32_MAX) path = lf_fpaths_add(&s->paths, path, op);
    for (size_t i = 0; i < k && path != UINT32_MAX; i++) path = lf_fpaths_add(&s->paths, path, s->added[i]);
    if (sealed && path != UINT32_MAX) path = lf_fpaths_add(&s->paths, path, SEALED);
    return path;
}

/* Inserts (mask, state) with hash h into set, reached by path_parent + op + s->added[0..k) with last overwrite t and
 * the skip bits. A configuration already there keeps the larger t (with the path that gave it) and only
 * the skips both ways have (skips only leave out redundant moves: allowing more is always right); *grown
 * tells whether it is new, got a larger t or lost a skip (then its successors must be looked at again).
 * False when out of memory (stop_why set). */
static bool put(sweep *s, lf_fset *set, uint64_t h, const uint64_t *mask, const void *state, uint32_t path_parent,
                uint32_t op, size_t k, uint32_t t, uint64_t skips, bool *grown, size_t *idx) {
    size_t i;
    lf_fset_outcome got = lf_fset_insert(set, h, mask, state, 0, &i);
    if (got == LF_FSET_NOMEM) {
        s->stop_why = "memory budget";
        return false;
    }
    uint64_t *pay = lf_fset_payload(set, lf_fset_rec(set, i));
    bool more = got == LF_FSET_NEW;
    if (!more) {
        uint64_t old = *pay;
        skips &= old;
        if (t > pay_t(old)) {
            more = true;
        } else if ((old & SKIPS) != (skips & SKIPS)) {
            *pay = (old & ~SKIPS) | (skips & SKIPS);
            more = true;
        }
    }
    if (more && (got == LF_FSET_NEW || t > pay_t(*pay))) {
        uint32_t path = extend_path(s, path_parent, op, k, s->blocks && set == &s->next && op != UINT32_MAX);
        if (path == UINT32_MAX) {
            s->stop_why = "memory budget";
            return false;
        }
        *pay = pay_make(path, t, skips);
    }
    if (grown) *grown = more;
    if (idx) *idx = i;
    return true;
}

/* Whether (mask, state) with hash h and t-value tv is dominated by a configuration of set (docs/wgl.md,
 * "Domination"): the same without one of its linearized open overwriting ops w, in the same state, where w
 * is killable (an overwrite after w's call); the same without one of its linearized pending ops, in the
 * same state (that op may as well never take effect), with an overwrite as late; or the same with a
 * linearized open op p replaced by an identical open op that returns before p (the later deadline stays
 * open), with an overwrite as late. */
static bool dominated_in(sweep *s, const lf_fset *set, uint64_t h, const uint64_t *mask, const void *state,
                         uint32_t tv) {
    size_t W = s->W;
    uint64_t *x = s->x + 2 * W;
    /* The candidates first (slot i removed, slot j added or none, the t-value needed), their table slots
     * prefetched, then the lookups: they mostly miss, and in parallel the misses cost one wait. */
    dom_cand *cs = s->cands;
    size_t nc = 0, cap = s->cands_cap; /* (past the capacity, candidates are left out: only less pruning) */
    for (size_t w = 0; w < W; w++) {
        for (uint64_t c = s->pend[w] & mask[w]; c && nc < cap; c &= c - 1) {
            size_t i = w * 64 + (size_t)__builtin_ctzll(c);
            cs[nc++] = (dom_cand){(uint32_t)i, UINT32_MAX, tv, h ^ s->zob[i]};
        }
        for (uint64_t c = s->open[w] & mask[w] & ~s->obs[w] & ~s->pend[w]; c && nc < cap; c &= c - 1) {
            size_t i = w * 64 + (size_t)__builtin_ctzll(c);
            uint32_t o = s->slot_op[i];
            if (s->blind[o]) cs[nc++] = (dom_cand){(uint32_t)i, UINT32_MAX, s->call_ev[o] + 2, h ^ s->zob[i]};
            const uint64_t *better = s->better + i * W;
            for (size_t v = 0; v < W; v++)
                for (uint64_t d = better[v] & ~mask[v]; d && nc < cap; d &= d - 1) {
                    size_t j = v * 64 + (size_t)__builtin_ctzll(d);
                    cs[nc++] = (dom_cand){(uint32_t)i, (uint32_t)j, tv, h ^ s->zob[i] ^ s->zob[j]};
                }
        }
    }
    for (size_t k = 0; k < nc; k++) lf_fset_prefetch(set, cs[k].h);
    for (size_t k = 0; k < nc; k++) {
        memcpy(x, mask, W * sizeof *x);
        bit_clear(x, cs[k].i);
        if (cs[k].j != UINT32_MAX) bit_set(x, cs[k].j);
        size_t j = lf_fset_find(set, cs[k].h, x, state);
        if (j != SIZE_MAX && pay_t(*lf_fset_payload(set, lf_fset_rec(set, j))) >= cs[k].need) return true;
    }
    return false;
}

static bool enqueue(sweep *s, size_t idx, size_t *qn) {
    if (*qn == s->queue_cap) {
        size_t cap = lf_grow_capacity(s->queue_cap, *qn + 1, sizeof *s->queue, 256);
        size_t add = (cap - s->queue_cap) * sizeof *s->queue;
        size_t *st = cap && add <= s->limit ? realloc(s->queue, cap * sizeof *st) : NULL;
        if (!st) {
            s->stop_why = "memory budget";
            return false;
        }
        s->limit -= add;
        s->fixed_bytes += add;
        s->queue = st;
        s->queue_cap = cap;
    }
    s->queue[(*qn)++] = idx;
    return true;
}

/* The closure at the return of the op in slot t (event e), from the configurations queued in s->seen:
 * every sequence of open ops that ends by linearizing it; the configurations reached go to s->next. The
 * search is breadth first, so a configuration with one op fewer is found before the one with it, and a
 * configuration dominated by one already found is not expanded (its successors are dominated by the
 * other's). An overwriting op is never followed by another one inside a closure (it would be overwritten
 * unobserved: leaving it open, killable, is at least as good), and the returning op, when it overwrites,
 * is killed wherever an overwrite happened after its call. A configuration marked NO_OVERWRITE is
 * dominated for every sequence that overwrites (covered_for_overwrite): only the others are explored.
 * False on a stop. */
static bool closure(sweep *s, size_t t, size_t e, size_t qn) {
    size_t W = s->W, ss = s->ss ? s->ss : 1;
    uint64_t *x = s->x + W;
    unsigned char *st = s->st + ss, *scratch = s->st + 2 * ss;
    uint32_t target = s->slot_op[t];
    bool target_blind = s->blind[target];
    uint32_t now = (uint32_t)e + 1, kill_after = s->call_ev[target] + 1; /* t-values above kill_after may kill */
    bool grown;
    size_t idx;
    for (size_t head = 0; head < qn; head++) {
        uint64_t *rec = lf_fset_rec(&s->seen, s->queue[head]);
        const uint64_t *mask = lf_fset_mask(&s->seen, rec);
        const void *state = lf_fset_state(&s->seen, rec);
        uint64_t pay = *lf_fset_payload(&s->seen, rec);
        uint32_t path = pay_path(pay), tv = pay_t(pay);
        bool no_blind = (pay & SKIPS) != 0, sticky = (pay & NO_OVERWRITE) != 0;
        if (!tick(s)) return false;
        uint64_t h = rec[0], hm = h ^ state_hash(s, state);
        if (dominated_in(s, &s->seen, h, mask, state, tv)) continue;
        s->closures++;
        if (target_blind && tv > kill_after &&
            !put(s, &s->next, h, mask, state, path, target | KILLED, 0, tv, 0, NULL, NULL)) /* (no blocks here) */
            return false;
        for (size_t w = 0; w < W; w++) {
            uint64_t c = s->open[w] & ~mask[w] & ~s->obs[w];
            while (c) {
                size_t i = w * 64 + (size_t)__builtin_ctzll(c);
                c &= c - 1;
                if (!tick(s)) return false;
                uint32_t o = s->slot_op[i];
                if (no_blind && s->blind[o]) continue;
                const uint64_t *b = s->better + i * W;
                bool blocked = false;
                for (size_t v = 0; v < W && !blocked; v++) blocked = (b[v] & ~mask[v]) != 0;
                if (blocked) continue;
                if (!lf_spec_step(&s->inst, state, &s->ops[o], st)) continue;
                if (bit_get(s->pend, i) && lf_spec_equal(&s->inst, state, st)) continue;
                memcpy(x, mask, W * sizeof *x);
                bit_set(x, i);
                size_t k = saturate(s, x, st, scratch);
                uint64_t h2 = hm ^ s->zob[i] ^ s->added_hash ^ state_hash(s, st);
                uint32_t t2 = s->blind[o] ? now : tv;
                if (bit_get(x, t)) {
                    bit_clear(x, t);
                    if (s->blocks) { /* the step ends: its inserts are one block, later ones come after */
                        uint64_t before = state_hash(s, st);
                        lf_spec_blocks_seal(s->inst.ctx, st);
                        h2 ^= before ^ state_hash(s, st);
                    }
                    if (!put(s, &s->next, h2 ^ s->zob[t], x, st, path, o, k, t2, 0, NULL, NULL)) return false;
                    continue;
                }
                /* An overwrite that no observer saw must not be overwritten next (it would be dead). */
                uint64_t skips = s->blind[o] && k == 0 ? NO_BLIND : sticky ? SKIPS : 0;
                if (!put(s, &s->seen, h2, x, st, path, o, k, t2, skips, &grown, &idx)) return false;
                if (grown && !enqueue(s, idx, &qn)) return false;
            }
        }
    }
    return true;
}

/* Compacts the path arena when it has grown well beyond what the frontier holds. */
static void collect_paths(sweep *s) {
    if (s->paths.n < s->gc_at) return;
    if (lf_fpaths_gc_begin(&s->paths)) {
        for (size_t i = 0; i < s->cur.n; i++)
            lf_fpaths_mark(&s->paths, pay_path(*lf_fset_payload(&s->cur, lf_fset_rec(&s->cur, i))));
        lf_fpaths_gc_end(&s->paths);
        for (size_t i = 0; i < s->cur.n; i++) {
            uint64_t *p = lf_fset_payload(&s->cur, lf_fset_rec(&s->cur, i));
            *p = (*p & ~(uint64_t)UINT32_MAX) | lf_fpaths_moved(&s->paths, pay_path(*p));
        }
        lf_fpaths_gc_done(&s->paths);
    }
    s->gc_at = 2 * s->paths.n > ((size_t)1 << 20) ? 2 * s->paths.n : (size_t)1 << 20;
}


/* The index walks at most this many configurations per lookup: a bound on the work of the dominations that
 * use it (a configuration not looked at is only not pruned). */
#define CHAIN_WALK 48

static bool index_build(sweep *s, chain_index *ix, const uint64_t *keys) {
    size_t n = s->next.n, need = 1;
    while (need < 2 * n) need <<= 1;
    if (need > ix->heads_cap) {
        size_t add = (need - ix->heads_cap) * sizeof *ix->heads;
        uint32_t *h = add <= s->limit ? realloc(ix->heads, need * sizeof *h) : NULL;
        if (!h) return false;
        s->fixed_bytes += add;
        s->limit -= add;
        ix->heads = h;
        ix->heads_cap = need;
    }
    if (n > ix->chain_cap) {
        size_t add = (n - ix->chain_cap) * sizeof *ix->chain;
        uint32_t *c = add <= s->limit ? realloc(ix->chain, n * sizeof *c) : NULL;
        if (!c) return false;
        s->fixed_bytes += add;
        s->limit -= add;
        ix->chain = c;
        ix->chain_cap = n;
    }
    ix->heads_n = need;
    memset(ix->heads, 0xff, need * sizeof *ix->heads);
    for (size_t r = n; r-- > 0;) { /* chains in record order */
        size_t b = keys[r] & (need - 1);
        ix->chain[r] = ix->heads[b];
        ix->heads[b] = (uint32_t)r;
    }
    return true;
}

static void index_free(chain_index *ix) {
    free(ix->heads);
    free(ix->chain);
}

/* Keys of s->next: mask hashes in s->keys, and with block states (mask, contents) in s->keys2. */
static bool index_next(sweep *s) {
    size_t n = s->next.n;
    if (n > s->keys_cap) {
        size_t add = (n - s->keys_cap) * 2 * sizeof *s->keys;
        uint64_t *k = add <= s->limit ? realloc(s->keys, 2 * n * sizeof *k) : NULL;
        if (!k) return false;
        s->fixed_bytes += add;
        s->limit -= add;
        s->keys = k;
        s->keys_cap = n;
    }
    uint64_t *keys2 = s->keys + n;
    for (size_t r = 0; r < n; r++) {
        uint64_t *rec = lf_fset_rec(&s->next, r);
        const void *state = lf_fset_state(&s->next, rec);
        s->keys[r] = rec[0] ^ state_hash(s, state);
        if (s->blocks) keys2[r] = s->keys[r] ^ lf_mix64(lf_spec_blocks_content(s->inst.ctx, state));
    }
    return index_build(s, &s->by_mask, s->keys) && (!s->blocks || index_build(s, &s->by_content, keys2));
}

/* Whether some configuration of s->next with mask x (mask hash hx) dominates (x + the op in slot i, state s2) with last
 * overwrite t2: one that can still kill that op (overwriting, its last overwrite after the op's call) in
 * the same state, or one from which linearizing the op leads to s2 (it can do so at the next step; t
 * compatible). */
static bool dominated_by_fewer(sweep *s, uint64_t hx, const uint64_t *x, size_t i, const void *s2, uint32_t t2) {
    uint32_t o = s->slot_op[i];
    bool blind = s->blind[o];
    unsigned char *scratch = s->st + 2 * (s->ss ? s->ss : 1);
    const chain_index *ix = &s->by_mask;
    size_t walked = 0;
    for (uint32_t r = ix->heads[hx & (ix->heads_n - 1)]; r != UINT32_MAX && walked++ < CHAIN_WALK; r = ix->chain[r]) {
        if (s->keys[r] != hx) continue;
        uint64_t *rec = lf_fset_rec(&s->next, r);
        if (memcmp(lf_fset_mask(&s->next, rec), x, s->W * sizeof *x) != 0) continue;
        const void *s1 = lf_fset_state(&s->next, rec);
        uint32_t t1 = pay_t(*lf_fset_payload(&s->next, rec));
        if (!(blind || t1 >= t2) || !lf_spec_step(&s->inst, s1, &s->ops[o], scratch)) continue;
        /* A block left open after the op stands for more than the sealed s2: sealed, it must equal it. */
        if (s->blocks) lf_spec_blocks_seal(s->inst.ctx, scratch);
        if (lf_spec_equal(&s->inst, scratch, s2)) return true;
    }
    return false;
}

/* Drops from s->next every configuration dominated by another one there (docs/wgl.md, "Domination"):
 * (X, state) is dominated by (X - {w}, state') when w is open and either overwriting and killable there
 * (state' = state), or linearizable there with state as its result; and by (X - {w} + {v}, state) when v is
 * an open op identical to w that returns before it. s->seen is the scratch for the survivors. */
/* Block states: whether a configuration of s->next with the same mask and contents, and an overwrite as
 * late, has a state that covers the state of configuration r (stands for every sequence it stands for). */
static bool covered_by_coarser(sweep *s, size_t r, const uint64_t *mask, const void *state, uint32_t t2) {
    const chain_index *ix = &s->by_content;
    const uint64_t *keys2 = s->keys + s->next.n;
    size_t walked = 0;
    for (uint32_t q = ix->heads[keys2[r] & (ix->heads_n - 1)]; q != UINT32_MAX && walked++ < CHAIN_WALK;
         q = ix->chain[q]) {
        if (q == r || keys2[q] != keys2[r]) continue;
        uint64_t *rec = lf_fset_rec(&s->next, q);
        if (memcmp(lf_fset_mask(&s->next, rec), mask, s->W * sizeof *mask) != 0) continue;
        if (pay_t(*lf_fset_payload(&s->next, rec)) < t2) continue;
        if (lf_spec_blocks_covers(s->inst.ctx, lf_fset_state(&s->next, rec), state)) return true;
    }
    return false;
}

static bool prune_dominated(sweep *s) {
    size_t W = s->W;
    uint64_t *x = s->x + W;
    if (!index_next(s)) {
        s->stop_why = "memory budget";
        return false;
    }
    lf_fset_clear(&s->seen);
    size_t dropped = 0;
    for (size_t r = 0; r < s->next.n; r++) {
        if (!tick(s)) return false;
        uint64_t *rec = lf_fset_rec(&s->next, r);
        const uint64_t *mask = lf_fset_mask(&s->next, rec);
        const void *state = lf_fset_state(&s->next, rec);
        uint32_t t2 = pay_t(*lf_fset_payload(&s->next, rec));
        uint64_t hm = s->keys[r];
        bool dominated = dominated_in(s, &s->next, rec[0], mask, state, t2);
        if (!dominated && s->blocks) dominated = covered_by_coarser(s, r, mask, state, t2);
        for (size_t w = 0; w < W && !dominated; w++) {
            uint64_t c = s->open[w] & mask[w] & ~s->obs[w];
            while (c && !dominated) {
                size_t i = w * 64 + (size_t)__builtin_ctzll(c);
                c &= c - 1;
                memcpy(x, mask, W * sizeof *x);
                bit_clear(x, i);
                dominated = dominated_by_fewer(s, hm ^ s->zob[i], x, i, state, t2);
            }
        }
        if (dominated) {
            dropped++;
            continue;
        }
        size_t idx;
        if (lf_fset_insert(&s->seen, rec[0], mask, state, *lf_fset_payload(&s->next, rec), &idx) == LF_FSET_NOMEM) {
            s->stop_why = "memory budget";
            return false;
        }
    }
    if (dropped) {
        lf_fset t = s->next;
        s->next = s->seen;
        s->seen = t;
    }
    return true;
}

/* The beam: keeps the `beam` configurations of s->next that have linearized the most open ops (ties in
 * insertion order), s->seen being the scratch. Only a prover: a configuration dropped here might have been
 * the only way on. */
static bool keep_best(sweep *s, size_t beam) {
    size_t cnt[65] = {0}, n = s->next.n;
    unsigned char *score = malloc(n);
    if (!score) {
        s->stop_why = "memory budget";
        return false;
    }
    for (size_t r = 0; r < n; r++) {
        const uint64_t *m = lf_fset_mask(&s->next, lf_fset_rec(&s->next, r));
        size_t pc = 0;
        for (size_t w = 0; w < s->W; w++) pc += (size_t)__builtin_popcountll(m[w] & s->open[w] & ~s->obs[w]);
        score[r] = (unsigned char)(pc < 64 ? 64 - pc : 0); /* lower is better */
        cnt[score[r]]++;
    }
    size_t taken = 0, cut = 0;
    while (cut < 65 && taken + cnt[cut] <= beam) taken += cnt[cut++];
    size_t room = beam - taken; /* configurations of score cut still admitted */
    lf_fset_clear(&s->seen);
    for (size_t r = 0; r < n; r++) {
        if (score[r] > cut || (score[r] == cut && room == 0)) continue;
        if (score[r] == cut) room--;
        uint64_t *rec = lf_fset_rec(&s->next, r);
        size_t idx;
        if (lf_fset_insert(&s->seen, rec[0], lf_fset_mask(&s->next, rec), lf_fset_state(&s->next, rec),
                          *lf_fset_payload(&s->next, rec), &idx) == LF_FSET_NOMEM) {
            free(score);
            s->stop_why = "memory budget";
            return false;
        }
    }
    free(score);
    lf_fset t = s->next;
    s->next = s->seen;
    s->seen = t;
    return true;
}

static void swap_sets(sweep *s) {
    lf_fset t = s->cur;
    s->cur = s->next;
    s->next = t;
    lf_fset_clear(&s->next);
}

/* The linearization a path stands for (frontier_order.h); its length, 0 if out of memory. */
static size_t read_order(const sweep *s, uint32_t path, uint32_t *out) {
    lf_forder_kind kind = !s->blocks ? LF_FORDER_PLAIN
                          : lf_spec_blocks_is_stack(s->inst.spec) ? LF_FORDER_STACK_BLOCKS
                                                                  : LF_FORDER_QUEUE_BLOCKS;
    size_t n = lf_frontier_order(&s->paths, path, s->ops, s->blind, kind, out);
    return n == SIZE_MAX ? 0 : n;
}

static uint32_t name_of(const sweep *s, uint32_t op) { return s->orig ? s->orig[op] : op; }

/* The op in slot t could not be linearized from any configuration of the frontier: explain with the one
 * that got furthest (its path is a linearizable prefix of the history). */
static void explain(sweep *s, size_t t, wgl_part_result *out) {
    uint32_t must = s->slot_op[t];
    size_t best = 0, best_len = 0;
    for (size_t i = 0; i < s->cur.n; i++) {
        size_t len = lf_fpaths_len(&s->paths, pay_path(*lf_fset_payload(&s->cur, lf_fset_rec(&s->cur, i))));
        if (i == 0 || len > best_len) best = i, best_len = len;
    }
    uint64_t *rec = lf_fset_rec(&s->cur, best);
    const uint64_t *mask = lf_fset_mask(&s->cur, rec);
    const void *state = lf_fset_state(&s->cur, rec);
    unsigned char *scratch = s->st;
    out->order = malloc((best_len ? best_len : 1) * sizeof *out->order);
    if (out->order) out->order_len = read_order(s, pay_path(*lf_fset_payload(&s->cur, rec)), out->order);
    out->culprits = malloc(s->K * sizeof *out->culprits + sizeof *out->culprits);
    char st[160], od[200];
    lf_spec_describe_state(&s->inst, state, st, sizeof st);
    lf_spec_describe_op(&s->inst, &s->ops[must], od, sizeof od);
    size_t len = 0, cap = sizeof out->reason;
    int k = snprintf(out->reason, cap,
                     "after the linearizable prefix (%zu of %zu ops%s%s), op %" PRIu32 " (%s) must take effect "
                     "before the ops called after its return, but is not allowed there, nor after any sequence of "
                     "the other open ops (%zu configurations tried)",
                     best_len, s->n, st[0] ? ", state " : "", st, name_of(s, must), od, s->cur.n);
    len = k < 0 ? 0 : (size_t)k < cap ? (size_t)k : cap - 1;
    if (out->culprits) out->culprits[out->n_culprits++] = must;
    for (size_t i = 0; i < s->K; i++) {
        if (i == t || !bit_get(s->open, i) || bit_get(mask, i) || bit_get(s->pend, i)) continue;
        uint32_t o = s->slot_op[i];
        if (lf_spec_step(&s->inst, state, &s->ops[o], scratch)) continue;
        if (out->culprits) out->culprits[out->n_culprits++] = o;
        lf_spec_describe_op(&s->inst, &s->ops[o], od, sizeof od);
        if (len + 1 < cap) {
            k = snprintf(out->reason + len, cap - len, "; op %" PRIu32 " (%s) is not allowed there", name_of(s, o), od);
            len = k < 0 ? len : len + (size_t)k < cap ? len + (size_t)k : cap - 1;
        }
    }
    if (len + 1 >= cap && cap > 4) memcpy(out->reason + cap - 4, "...", 4);
    out->verdict = LF_VIOLATION;
}

/* Call of op o: it takes its slot; an observer is linearized at once wherever it is legal. */
static bool on_call(sweep *s, uint32_t o) {
    size_t i = s->slot[o], W = s->W;
    s->slot_op[i] = o;
    bit_set(s->open, i);
    bool pending = lf_op_pending(&s->ops[o]);
    if (pending) bit_set(s->pend, i);
    if (s->observer[o]) bit_set(s->obs, i);
    uint64_t *bi = s->better + i * W;
    memset(bi, 0, W * sizeof *bi);
    for (size_t j = 0; j < s->K; j++) {
        if (j == i || !bit_get(s->open, j)) continue;
        uint32_t p = s->slot_op[j];
        if (s->cls[p] != s->cls[o]) continue;
        if (s->order[p] < s->order[o])
            bit_set(bi, j);
        else
            bit_set(s->better + j * W, i);
    }
    if (!s->observer[o]) return true;
    uint64_t *x = s->x;
    unsigned char *scratch = s->st;
    for (size_t r = 0; r < s->cur.n; r++) {
        if (!tick(s)) return false;
        uint64_t *rec = lf_fset_rec(&s->cur, r);
        memcpy(x, lf_fset_mask(&s->cur, rec), W * sizeof *x);
        const void *state = lf_fset_state(&s->cur, rec);
        uint64_t pay = *lf_fset_payload(&s->cur, rec);
        uint32_t op = UINT32_MAX;
        uint64_t h = rec[0];
        if (lf_spec_step(&s->inst, state, &s->ops[o], scratch)) {
            bit_set(x, i);
            op = o;
            h ^= s->zob[i];
        }
        if (!put(s, &s->next, h, x, state, pay_path(pay), op, 0, pay_t(pay), 0, NULL, NULL)) return false;
    }
    swap_sets(s);
    return true;
}

/* At the return of the op in slot t, whether the configuration (mask, state, t-value tv) is dominated for
 * every configuration its closure could reach through an overwrite: the same configuration without one of
 * its linearized open overwriting ops w is in the frontier; after any overwrite at this return both reach
 * the same configurations, with w killable in the one that left it open. */
static bool covered_for_overwrite(sweep *s, uint64_t h, const uint64_t *mask, const void *state, size_t t) {
    size_t W = s->W;
    uint64_t *x = s->x + W;
    for (size_t w = 0; w < W; w++) {
        uint64_t c = s->open[w] & mask[w] & ~s->obs[w] & ~s->pend[w];
        while (c) {
            size_t i = w * 64 + (size_t)__builtin_ctzll(c);
            c &= c - 1;
            if (i == t || !s->blind[s->slot_op[i]]) continue;
            memcpy(x, mask, W * sizeof *x);
            bit_clear(x, i);
            if (lf_fset_find(&s->cur, h ^ s->zob[i], x, state) != SIZE_MAX) return true;
        }
    }
    return false;
}

/* Return of op o: the configurations that linearized it go on, the others must linearize it now. */
static bool on_return(sweep *s, uint32_t o, size_t e) {
    size_t t = s->slot[o], W = s->W;
    uint64_t *x = s->x;
    lf_fset_clear(&s->seen);
    for (size_t r = 0; r < s->cur.n; r++) {
        if (!tick(s)) return false;
        uint64_t *rec = lf_fset_rec(&s->cur, r);
        const uint64_t *mask = lf_fset_mask(&s->cur, rec);
        if (!bit_get(mask, t)) continue;
        memcpy(x, mask, W * sizeof *x);
        bit_clear(x, t);
        uint64_t pay = *lf_fset_payload(&s->cur, rec);
        if (!put(s, &s->next, rec[0] ^ s->zob[t], x, lf_fset_state(&s->cur, rec), pay_path(pay), UINT32_MAX, 0,
                 pay_t(pay), 0, NULL, NULL))
            return false;
    }
    bool target_blind = s->blind[o];
    size_t qn = 0;
    for (size_t r = 0; r < s->cur.n; r++) {
        uint64_t *rec = lf_fset_rec(&s->cur, r);
        const uint64_t *mask = lf_fset_mask(&s->cur, rec);
        if (bit_get(mask, t)) continue;
        const void *state = lf_fset_state(&s->cur, rec);
        uint64_t pay = *lf_fset_payload(&s->cur, rec);
        bool no_overwrite = covered_for_overwrite(s, rec[0], mask, state, t);
        /* an overwriting o could only be killed, and not after an overwrite it has not had */
        if (no_overwrite && target_blind && pay_t(pay) <= s->call_ev[o] + 1) continue;
        bool grown;
        size_t idx;
        if (!put(s, &s->seen, rec[0], mask, state, pay_path(pay), UINT32_MAX, 0, pay_t(pay),
                 no_overwrite ? SKIPS : 0, &grown, &idx))
            return false;
        if (grown && !enqueue(s, idx, &qn)) return false;
    }
    (void)e;
    return closure(s, t, e, qn);
}

static void release_slot(sweep *s, size_t t) {
    size_t W = s->W;
    bit_clear(s->open, t);
    bit_clear(s->obs, t);
    bit_clear(s->pend, t);
    for (size_t j = 0; j < s->K; j++) bit_clear(s->better + j * W, t);
}

static void sweep_free(sweep *s) {
    lf_fset_free(&s->cur);
    lf_fset_free(&s->next);
    lf_fset_free(&s->seen);
    lf_fpaths_free(&s->paths);
    lf_spec_close(&s->inst);
    free(s->ev);
    free(s->slot);
    free(s->cls);
    free(s->order);
    free(s->observer);
    free(s->blind);
    free(s->call_ev);
    free(s->slot_op);
    free(s->better);
    free(s->open);
    free(s->x);
    free(s->st);
    free(s->added);
    free(s->zob);
    free(s->cands);
    free(s->queue);
    index_free(&s->by_mask);
    index_free(&s->by_content);
    free(s->keys);
}

/* Everything the sweep needs before its first event: the spec (block states for queues and stacks), the
 * classes and events, the open-slot bitsets, the observer and blind flags, the configuration sets. False once
 * it has reported why it cannot start (the sweep freed). */
static bool sweep_setup(sweep *s, const lf_spec *spec, const lf_spec_env *env, wgl_budget *budget, lf_deadline *dl,
                        wgl_part_result *out) {
    size_t n = s->n, n1 = n ? n : 1;
    /* Queues and stacks: block states (one state for all orders of values inserted together). */
    const lf_spec *blocks = lf_spec_blocks_variant(spec, env);
    if (blocks) {
        spec = blocks;
        s->blocks = true;
    }
    if (!lf_spec_open(spec, env, &s->inst)) {
        lf_wgl_part_set_unknown(out, "out of memory opening the %s spec", spec->name);
        return false;
    }
    s->ss = s->inst.state_size;
    size_t ss1 = s->ss ? s->ss : 1;
    s->fixed_bytes = n1 * (2 * sizeof *s->ev + sizeof *s->slot + sizeof *s->cls + sizeof *s->order + 2 +
                           sizeof *s->call_ev + 4 * sizeof(uint32_t)) + /* the classes' hash table */
                     2 * n1 * sizeof(lf_keyed) + n1 * sizeof(uint32_t);
    if (s->fixed_bytes + lf_spec_ctx_bytes(&s->inst) > budget->max_bytes) {
        lf_wgl_part_set_unknown(out, "memory budget of %zu bytes is too small for %zu ops (needs %zu before searching)",
                    budget->max_bytes, n, s->fixed_bytes + lf_spec_ctx_bytes(&s->inst));
        lf_spec_close(&s->inst);
        return false;
    }
    s->ev = malloc(2 * n1 * sizeof *s->ev);
    s->slot = malloc(n1 * sizeof *s->slot);
    s->cls = malloc(n1 * sizeof *s->cls);
    s->order = malloc(n1 * sizeof *s->order);
    s->observer = malloc(n1);
    s->blind = malloc(n1);
    s->call_ev = malloc(n1 * sizeof *s->call_ev);
    bool ready = s->ev && s->slot && s->cls && s->order && s->observer && s->blind && s->call_ev && classify(s, dl) &&
                 build_events(s, dl);
    size_t K = s->K, W = s->W;
    if (ready && K > FRONTIER_MAX_OPEN) {
        sweep_free(s);
        lf_wgl_part_set_unknown(out, "%zu ops open at once: too many for the frontier sweep (at most %d)", K, FRONTIER_MAX_OPEN);
        return false;
    }
    if (ready) {
        s->slot_op = malloc(K * sizeof *s->slot_op);
        s->better = calloc(K * W, sizeof *s->better);
        s->open = calloc(3 * W, sizeof *s->open);
        s->x = malloc(3 * W * sizeof *s->x);
        s->st = calloc(3, ss1);
        s->added = malloc(K * sizeof *s->added);
        s->zob = malloc(K * sizeof *s->zob);
        s->cands_cap = 4 * K + 256;
        s->cands = malloc(s->cands_cap * sizeof *s->cands);
        ready = s->slot_op && s->better && s->open && s->x && s->st && s->added && s->zob && s->cands;
    }
    if (ready) {
        s->obs = s->open + W;
        s->pend = s->open + 2 * W;
        s->fixed_bytes += K * (sizeof *s->slot_op + W * sizeof *s->better + sizeof *s->added + sizeof *s->zob) +
                          s->cands_cap * sizeof *s->cands +
                          3 * W * sizeof *s->x + 3 * ss1;
        uint64_t seed = 0x243f6a8885a308d3ULL ^ K;
        for (size_t i = 0; i < K; i++) s->zob[i] = lf_mix64(seed += 0x9e3779b97f4a7c15ULL);
        for (size_t i = 0; i < n; i++) {
            if (lf_deadline_spend(dl, 2)) {
                ready = false;
                break;
            }
            s->observer[i] = lf_spec_observer(spec, &s->ops[i]);
            s->blind[i] = lf_spec_overwrites(&s->inst, &s->ops[i]);
        }
    }
    size_t base = s->fixed_bytes + lf_spec_ctx_bytes(&s->inst);
    s->limit = base < budget->max_bytes ? budget->max_bytes - base : 0;
    lf_fset_init(&s->cur, W, &s->inst, &s->limit);
    lf_fset_init(&s->next, W, &s->inst, &s->limit);
    lf_fset_init(&s->seen, W, &s->inst, &s->limit);
    if (!ready || !lf_fpaths_init(&s->paths, &s->limit)) {
        sweep_free(s);
        lf_wgl_part_set_unknown(out, "%s setting up the frontier sweep of %zu ops",
                                dl->passed ? "time budget exhausted" : "out of memory", n);
        return false;
    }
    s->gc_at = (size_t)1 << 20;
    return true;
}

enum sweep_status { RUNNING, FOUND, NONE, STOPPED, BEAM_DIED };

/* The sweep proper: from the initial configuration, each call opens a slot, each return closes the frontier
 * over it and keeps the configurations that linearize the op (pruned, beam-limited); *peak is the largest
 * frontier. RUNNING when every event passed. */
static enum sweep_status sweep_events(sweep *s, size_t beam, wgl_part_result *out, size_t *peak) {
    /* The initial configuration: nothing linearized, the initial state. */
    memset(s->x, 0, s->W * sizeof *s->x);
    lf_spec_init(&s->inst, s->st);
    enum sweep_status status = RUNNING;
    if (!put(s, &s->cur, state_hash(s, s->st), s->x, s->st, LF_FPATH_ROOT, UINT32_MAX, 0, 0, 0, NULL, NULL))
        status = STOPPED;
    for (size_t e = 0; status == RUNNING && e < s->n_ev; e++) {
        uint32_t o = s->ev[e] >> 1;
        if (!(s->ev[e] & 1)) {
            if (!on_call(s, o)) status = STOPPED;
            continue;
        }
        if (!on_return(s, o, e)) {
            status = STOPPED;
            break;
        }
        if (s->next.n == 0) {
            if (beam) {
                char od[200];
                lf_spec_describe_op(&s->inst, &s->ops[o], od, sizeof od);
                lf_wgl_part_set_unknown(out, "the beam of %zu configurations found no way past op %" PRIu32 " (%s)", beam,
                            name_of(s, o), od);
                status = BEAM_DIED;
                break;
            }
            explain(s, s->slot[o], out);
            status = NONE;
            break;
        }
        if (!prune_dominated(s)) {
            status = STOPPED;
            break;
        }
        if (beam && s->next.n > beam && !keep_best(s, beam)) {
            status = STOPPED;
            break;
        }
        swap_sets(s);
        release_slot(s, s->slot[o]);
        if (s->cur.n > *peak) *peak = s->cur.n;
        collect_paths(s);
    }
    return status;
}

void lf_wgl_frontier(const lf_spec *spec, const lf_spec_env *env, const uint32_t *orig, const wgl_search_opts *opts,
                  size_t beam, wgl_budget *budget, wgl_part_result *out) {
    sweep s;
    memset(&s, 0, sizeof s);
    s.ops = env->ops;
    s.n = env->n;
    s.orig = orig;
    s.budget = budget;
    size_t n = s.n;
    if (n >= ((size_t)1 << 29)) { /* events and t-values fit in 30 bits */
        lf_wgl_part_set_unknown(out, "history too long for the frontier sweep (%zu ops)", n);
        return;
    }
    /* The deadline is looked at before anything else and in every loop of the setup (docs/budgets.md). */
    lf_deadline dl;
    if (!lf_wgl_may_start(budget, &dl, "frontier sweep", n, out)) return;
    if (!sweep_setup(&s, spec, env, budget, &dl, out)) return;

    size_t peak = 1;
    enum sweep_status status = sweep_events(&s, beam, out, &peak);
    if (status == RUNNING) status = FOUND;
    if (status == STOPPED && !s.stop_why) s.stop_why = "budget";
    budget->steps += s.steps;
    budget->configs += s.closures;
    size_t used = s.fixed_bytes + lf_spec_ctx_bytes(&s.inst) + s.cur.bytes + s.next.bytes + s.seen.bytes +
                  s.paths.bytes;
    if (used > budget->peak_bytes) budget->peak_bytes = used;
    if (status == NONE && lf_spec_failed(&s.inst)) {
        status = STOPPED; /* a step may have failed for lack of memory, not because the op is illegal */
        s.stop_why = "memory budget";
        lf_wgl_part_result_free(out);
        out->n_culprits = 0;
    }
    switch (status) {
    case FOUND:
        out->verdict = LF_LINEARIZABLE;
        if (opts->want_order && s.cur.n) {
            uint32_t path = pay_path(*lf_fset_payload(&s.cur, lf_fset_rec(&s.cur, 0)));
            size_t len = lf_fpaths_len(&s.paths, path);
            out->order = malloc((len ? len : 1) * sizeof *out->order);
            if (out->order) out->order_len = read_order(&s, path, out->order);
        }
        break;
    case NONE:
    case BEAM_DIED: break;
    case STOPPED:
    case RUNNING:
        lf_wgl_part_set_unknown(out,
                    "%s exhausted after %" PRIu64 " steps of the frontier sweep on %zu ops (largest frontier %zu "
                    "configurations, %zu bytes)",
                    s.stop_why, budget->steps, n, peak, used);
        break;
    }
    sweep_free(&s);
}
