/* The k-relaxed monitor: k-relaxed queues and stacks with distinct values (docs/contracts.md, "Checkers"), in
 * O(n log n). It decides most histories and leaves the rest to the general checkers (unknown): no polynomial
 * algorithm is known for k-relaxed histories, so it pairs a witness search that never backtracks with
 * violations that hold for every linearization.
 *
 * Violations for sure: a value never inserted, removed twice or before it was inserted (relaxed.c); an empty
 * answer while some value is certainly inside (its insert returned before, its remove not yet called: relaxed.c);
 * a queue's remove of v that overtakes K values for sure: K values whose inserts returned before v's was called
 * and whose removes were called after v's returned, or never came (every linearization puts them before v and
 * still inside when v leaves, so v is not among the K oldest).
 *
 * The witness: a sweep over the calls and returns in real-time order that linearizes each op between its call and
 * its return, and so builds a legal linearization when it gets through:
 *   - a remove takes effect as soon as it is called, its value is inside and among the K oldest (newest): taking a
 *     value out never hurts another (the others only get nearer the front, and a queue's value once among the K
 *     oldest stays there), so early is best;
 *   - an insert takes effect at its return, or when the remove of its value is called, and the inserts in flight
 *     whose values must leave sooner (queue; later for a stack) may go in with it, in that order: the order in
 *     which values go in should follow the order in which they come out (in a stack, the reverse). Which ones go
 *     is the policy: all of them; none; in a queue, not one before which an insert called later, but before it must
 *     go in, could go to advantage (LOOKAHEAD); in a stack, only those that would otherwise land on a value still
 *     inside (BELOW_IF_NEEDED). Never one that would sit inside through an empty answer;
 *   - an empty answer takes effect at a moment of it when nothing is inside.
 * Each policy is a sweep of its own, tried in turn. When a remove returns before its value is among the K oldest
 * (newest), or an empty answer finds no empty moment, that sweep failed, which proves nothing: with every policy
 * failed the history goes on to the search. Measured on generated histories (ci/bench_contracts.sh): LOOKAHEAD
 * decides nearly every linearizable queue history, up to millions of ops; stacks with K = 1 mostly, with K >= 2
 * up to a few hundred ops. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "monitor/monitor.h"
#include "monitor/range_min.h"
#include "monitor/relaxed.h"

/* ---- Fenwick trees over insertion positions ---- */

typedef struct fenwick {
    int32_t *t;
    size_t n;
} fenwick;

static bool fw_init(fenwick *f, size_t n) {
    f->n = n;
    f->t = calloc(n + 1, sizeof *f->t);
    return f->t != NULL;
}

static void fw_add(fenwick *f, size_t i, int32_t d) {
    for (size_t x = i + 1; x <= f->n; x += x & (~x + 1)) f->t[x] += d;
}

/* The sum over positions 0..i-1. */
static int64_t fw_prefix(const fenwick *f, size_t i) {
    int64_t s = 0;
    for (size_t x = i; x > 0; x -= x & (~x + 1)) s += f->t[x];
    return s;
}

/* The smallest position p with sum over 0..p >= k (k >= 1), or n when there is none. */
static size_t fw_find(const fenwick *f, int64_t k) {
    size_t pos = 0, step = 1;
    while (step * 2 <= f->n) step *= 2;
    for (; step; step /= 2)
        if (pos + step <= f->n && f->t[pos + step] < k) {
            pos += step;
            k -= f->t[pos];
        }
    return pos; /* 0-based position */
}

/* ---- violations for sure: overtaking in a queue ---- */

typedef struct ev2 {
    uint64_t key; /* points: remove call (UINT64_MAX: never); queries: remove return */
    uint32_t op;
    bool query;
} ev2;

/* For every removed value v of a queue: the values certainly inserted before it and certainly still inside when it
 * leaves. 1, 0 with r a violation when some v has at least K, -1 with r unknown. */
static int overtaking(const lf_history *h, lf_deadline *dl, const uint32_t *remover, lf_result *r) {
    size_t n = h->n, m = 0, nk = 0;
    uint32_t k = h->contract.k;
    /* the events at their stamps (points: insert returns; queries: insert calls), queries first at equal stamps (a
     * query at t counts the points strictly before t): queries are listed first, and the sort is stable */
    ev2 *ev = malloc((2 * n + 1) * sizeof *ev);
    lf_keyed *at = malloc((2 * n + 1) * sizeof *at);
    uint64_t *keys = malloc((n + 1) * sizeof *keys);
    fenwick f = {0};
    if (!ev || !at || !keys) goto gave_up;
    for (int points = 0; points < 2; points++)
        LF_FOR_CHUNKS(lo, hi, 0, n, dl) {
            for (size_t i = lo; i < hi; i++) {
                const lf_op *op = &h->ops[i];
                if ((op->method != LF_M_ENQ && op->method != LF_M_PUSH) || lf_op_pending(op)) continue;
                if (points) {
                    uint64_t key = remover[i] == UINT32_MAX ? UINT64_MAX : h->ops[remover[i]].call;
                    at[m] = (lf_keyed){op->ret, (uint32_t)m};
                    ev[m++] = (ev2){key, (uint32_t)i, false};
                    keys[nk++] = key;
                } else if (remover[i] != UINT32_MAX) {
                    at[m] = (lf_keyed){op->call, (uint32_t)m};
                    ev[m++] = (ev2){h->ops[remover[i]].ret, (uint32_t)i, true};
                }
            }
        }
    if (lf_deadline_expired(dl) || !lf_sort_u64_within(keys, nk, 0, dl) || !lf_sort_within(at, m, dl)) goto gave_up;
    if (!fw_init(&f, nk)) goto gave_up;
    int64_t added = 0;
    for (size_t j = 0; j < m; j++) {
        if (lf_deadline_every(dl, j)) goto gave_up;
        const ev2 *e = &ev[at[j].payload];
        if (!e->query) { /* the rank of its key */
            size_t lo = 0, hi = nk;
            while (lo < hi) {
                size_t mid = lo + (hi - lo) / 2;
                if (keys[mid] < e->key)
                    lo = mid + 1;
                else
                    hi = mid;
            }
            fw_add(&f, lo, 1);
            added++;
            continue;
        }
        size_t lo = 0, hi = nk; /* points with key > the remove's return */
        while (lo < hi) {
            size_t mid = lo + (hi - lo) / 2;
            if (keys[mid] <= e->key)
                lo = mid + 1;
            else
                hi = mid;
        }
        int64_t ahead = added - fw_prefix(&f, lo);
        if (ahead < k) continue;
        uint32_t v = e->op;
        char da[200], db[200];
        lf_relaxed_describe(h, remover[v], da, sizeof da);
        lf_relaxed_describe(h, v, db, sizeof db);
        lf_result_set(r, LF_VIOLATION, "monitor", "%s takes the value of %s, but %" PRId64 " values were inserted before "
                      "it for sure (their inserts returned before its insert was called) and were still inside when it "
                      "returned (their removes were called later, or never): it is not among the %" PRIu32 " oldest",
                      da, db, ahead, k);
        lf_result_add_culprit(r, remover[v]);
        lf_result_add_culprit(r, v);
        free(ev), free(at), free(keys), free(f.t);
        return 0;
    }
    free(ev), free(at), free(keys), free(f.t);
    return 1;
gave_up:
    free(ev), free(at), free(keys), free(f.t);
    return lf_relaxed_gave_up(dl, r);
}

/* ---- the witness sweep ---- */

/* The sweep's events: the calls and returns by stamp, calls first at equal stamps (equal stamps overlap), then by
 * op: lf_keyed with the stamp as key and as payload the op (a call) or n + the op (a return). */

/* Which inserts in flight go in before an insert that must take effect now (force_insert). */
enum {
    SOONER_FIRST = 0,    /* all those whose values must leave sooner (queue; later for a stack: deeper) */
    ALONE = 1,           /* none */
    LOOKAHEAD = 2,       /* as SOONER_FIRST, but not one that an insert called later could precede to advantage */
    BELOW_IF_NEEDED = 3, /* stack: as SOONER_FIRST, but only those that must go in before its value is removed */
    BY_REMOVE_CALL = 16, /* flag: "sooner" by the calls of the removes instead of their returns */
    WAIT_OUT = 32,       /* flag: an insert that may wait until an empty answer is over does */
};

typedef struct heap_item {
    uint64_t key;
    uint32_t op;
} heap_item;

typedef struct sweep {
    const lf_history *h;
    lf_deadline *dl;
    bool stack;
    uint32_t k;
    const uint32_t *remover;
    uint32_t *remove_of;     /* per remove op: its insert op */
    uint32_t *pos;           /* per insert op: its position once inside (UINT32_MAX before) */
    uint32_t *at_pos;        /* per position: the insert op */
    uint8_t *state;          /* per op: 0 not called, 1 in flight, 2 linearized */
    fenwick present, ready;  /* over positions: values inside; inside with their remove called */
    size_t next_pos;
    int64_t inside;
    heap_item *heap;         /* inserts in flight, by how soon their value must leave */
    size_t heap_n;
    uint32_t *empties;       /* empty answers in flight, not yet given an empty moment */
    size_t n_empties;
    uint32_t *order;         /* the linearization built */
    size_t order_len;
    int policy;
    bool by_call;            /* values leave in the order of their removes' calls (else returns) */
    bool wait_out;           /* inserts that may wait until an empty answer is over do (blocks_empty) */
    heap_item *skipped;
    uint64_t now;            /* the stamp of the event being handled */
    uint64_t *ins_call;      /* the inserts' calls, sorted, and the minima of their leave keys */
    lf_range_min ins_min;
    size_t n_ins;
    uint64_t *empty_calls;   /* the calls of the empty answers, sorted, and the minima of their returns */
    lf_range_min empty_min;
    size_t n_empty_calls;
} sweep;

static void order_push(sweep *s, uint32_t op) {
    s->order[s->order_len++] = op;
    s->state[op] = 2;
}

static bool heap_less(const heap_item *a, const heap_item *b) {
    return a->key != b->key ? a->key < b->key : a->op < b->op;
}

static void heap_push(sweep *s, heap_item it) {
    size_t i = s->heap_n++;
    while (i && heap_less(&it, &s->heap[(i - 1) / 2])) {
        s->heap[i] = s->heap[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    s->heap[i] = it;
}

static heap_item heap_pop(sweep *s) {
    heap_item top = s->heap[0], last = s->heap[--s->heap_n];
    size_t i = 0;
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= s->heap_n) break;
        if (c + 1 < s->heap_n && heap_less(&s->heap[c + 1], &s->heap[c])) c++;
        if (!heap_less(&s->heap[c], &last)) break;
        s->heap[i] = s->heap[c];
        i = c;
    }
    if (s->heap_n) s->heap[i] = last;
    return top;
}

/* How soon the value of insert op i must leave: the return of its remove (never: last). A stack takes the values
 * that leave later first (deeper), so its keys are reversed. */
static uint64_t leave_key(const sweep *s, uint32_t i) {
    uint64_t d = s->remover[i] == UINT32_MAX ? UINT64_MAX
                 : s->by_call                 ? s->h->ops[s->remover[i]].call
                                              : s->h->ops[s->remover[i]].ret;
    return s->stack ? UINT64_MAX - d : d;
}

static void put_inside(sweep *s, uint32_t i) {
    uint32_t p = (uint32_t)s->next_pos++;
    s->pos[i] = p;
    s->at_pos[p] = i;
    fw_add(&s->present, p, 1);
    s->inside++;
    order_push(s, i);
    uint32_t rm = s->remover[i];
    if (rm != UINT32_MAX && s->state[rm] == 1) fw_add(&s->ready, p, 1);
}

static uint64_t leave_key(const sweep *s, uint32_t i);

/* The earliest return of an empty answer called in (lo, hi], or UINT64_MAX. */
static uint64_t empty_called(const sweep *s, uint64_t lo, uint64_t hi) {
    size_t first, a;
    lf_keys_between(s->empty_calls, s->n_empty_calls, lo, hi, &first, &a);
    return a <= first ? UINT64_MAX : lf_range_min_query(&s->empty_min, first, a);
}

/* Whether insert op w had better not go in now, for an empty answer in flight or called before w must go in: w
 * would be inside through all of it (it ends before w's remove is called, or w is never removed), or w can wait
 * until it is over (w must go in only after it returns). */
static bool blocks_empty(const sweep *s, uint32_t w) {
    uint32_t rm = s->remover[w];
    if (rm != UINT32_MAX && s->state[rm] == 1) return false; /* it can go out at once */
    uint64_t out = rm == UINT32_MAX ? UINT64_MAX : s->h->ops[rm].call, end = UINT64_MAX;
    lf_deadline_spend(s->dl, (uint32_t)(s->n_empties < UINT32_MAX ? s->n_empties : UINT32_MAX));
    for (size_t e = 0; e < s->n_empties; e++)
        if (s->state[s->empties[e]] == 1 && s->h->ops[s->empties[e]].ret < end) end = s->h->ops[s->empties[e]].ret;
    uint64_t later = empty_called(s, s->now, s->h->ops[w].ret);
    if (later < end) end = later;
    /* it would sit through it, or it can wait until it is over */
    return end != UINT64_MAX && (end < out || (s->wait_out && s->h->ops[w].ret > end));
}

/* Whether an insert called after now and before insert op w returns has a value that must leave sooner than w's:
 * then w is better left to go in later, behind it. */
static bool later_sooner(const sweep *s, uint32_t w) {
    size_t first, a; /* the inserts called after now and before w returns */
    lf_keys_between(s->ins_call, s->n_ins, s->now, s->h->ops[w].ret, &first, &a);
    return a > first && lf_range_min_query(&s->ins_min, first, a) < leave_key(s, w);
}

/* Insert op i takes effect now, after the inserts in flight whose values must leave sooner (queue) or later
 * (stack), as the policy says. */
static void force_insert(sweep *s, uint32_t i) {
    if (s->policy == ALONE) {
        put_inside(s, i);
        return;
    }
    /* the candidates: the inserts in flight that come before i, in order */
    size_t n = 0;
    while (s->heap_n) {
        heap_item it = heap_pop(s);
        if (s->state[it.op] != 1) continue;
        if (it.op == i) break;
        s->skipped[n++] = it;
    }
    if (s->policy == BELOW_IF_NEEDED) {
        /* from the top down: one goes in now when a value above it would still be inside (its remove not even
         * called) when it must go in anyway; else it would go in on top of that value */
        const lf_op *ops = s->h->ops;
        uint64_t until = s->remover[i] == UINT32_MAX ? UINT64_MAX : ops[s->remover[i]].call;
        for (size_t c = n; c-- > 0;) {
            uint32_t w = s->skipped[c].op, rm = s->remover[w];
            bool now = until > ops[w].ret && !blocks_empty(s, w);
            s->skipped[c].key = now ? 0 : 1; /* marks the chosen */
            uint64_t out = rm == UINT32_MAX ? UINT64_MAX : ops[rm].call;
            if (now && out > until) until = out;
        }
        for (size_t c = 0; c < n; c++) {
            uint32_t w = s->skipped[c].op;
            if (s->skipped[c].key == 0)
                put_inside(s, w);
            else
                heap_push(s, (heap_item){leave_key(s, w), w});
        }
        put_inside(s, i);
        return;
    }
    size_t back = 0;
    for (size_t c = 0; c < n; c++) {
        heap_item it = s->skipped[c];
        if (blocks_empty(s, it.op) || (s->policy == LOOKAHEAD && later_sooner(s, it.op)))
            s->skipped[back++] = it;
        else
            put_inside(s, it.op);
    }
    put_inside(s, i);
    while (back) heap_push(s, s->skipped[--back]);
}

static void all_empty_now(sweep *s) {
    for (size_t e = 0; e < s->n_empties; e++)
        if (s->state[s->empties[e]] == 1) order_push(s, s->empties[e]);
    s->n_empties = 0;
}

/* Takes out every value whose remove is in flight and that is among the K oldest (newest), as long as there is one. */
static void take_ready(sweep *s) {
    for (;;) {
        int64_t ready = fw_prefix(&s->ready, s->ready.n);
        if (!ready) return;
        /* the ready value nearest the front (queue) or the top (stack) is the one with the fewest values before it */
        size_t p = fw_find(&s->ready, s->stack ? ready : 1);
        int64_t before = fw_prefix(&s->present, p), rank = s->stack ? s->inside - before - 1 : before;
        if (rank >= s->k) return;
        uint32_t i = s->at_pos[p];
        fw_add(&s->present, p, -1);
        fw_add(&s->ready, p, -1);
        s->inside--;
        order_push(s, s->remover[i]);
        if (!s->inside) all_empty_now(s);
    }
}

/* The sweep; true when it built a linearization (in s->order), false when it did not or the deadline passed. */
static bool run_sweep(sweep *s, const lf_keyed *ev, size_t m) {
    const lf_history *h = s->h;
    for (size_t e = 0; e < m; e++) {
        if (lf_deadline_every(s->dl, e) || lf_deadline_expired(s->dl)) return false;
        bool ret = ev[e].payload >= h->n;
        uint32_t o = ret ? (uint32_t)(ev[e].payload - h->n) : ev[e].payload;
        const lf_op *op = &h->ops[o];
        s->now = ev[e].key;
        bool insert = op->method == LF_M_ENQ || op->method == LF_M_PUSH;
        bool remove = (op->method == LF_M_DEQ || op->method == LF_M_POP) && op->res_kind != LF_K_EMPTY;
        if (!ret) {
            s->state[o] = 1;
            if (insert) {
                heap_push(s, (heap_item){leave_key(s, o), o});
                continue;
            }
            if (remove) { /* its value goes in now if it is in flight, and out as soon as it may */
                uint32_t i = s->remove_of[o];
                if (s->state[i] == 1)
                    force_insert(s, i); /* put_inside marks it ready */
                else if (s->state[i] == 2)
                    fw_add(&s->ready, s->pos[i], 1);
                take_ready(s);
                continue;
            }
            if (!s->inside) order_push(s, o); /* an empty answer at an empty moment */
            else s->empties[s->n_empties++] = o;
            continue;
        }
        if (s->state[o] == 2) continue;
        if (insert) {
            force_insert(s, o);
            take_ready(s);
        } else if (remove) {
            uint32_t i = s->remove_of[o];
            if (s->state[i] == 1) { /* cannot happen: the remove's call put it in */
                force_insert(s, i);
                take_ready(s);
            }
            if (s->state[o] != 2) return false; /* its value is not among the K oldest (newest) */
        } else {
            if (s->inside) return false; /* no empty moment found */
            order_push(s, o);
        }
    }
    return true;
}

/* The ops that `pick` takes (the inserts, or the empty answers) sorted by call into *calls, with the minima of
 * what `key` gives them into *mins; false when out of memory or time. */
static bool call_table(sweep *s, bool (*pick)(const lf_op *), uint64_t (*key)(const sweep *, uint32_t),
                       uint64_t **calls, size_t *n_calls, lf_range_min *mins) {
    const lf_history *h = s->h;
    lf_keyed *ck = malloc((h->n + 1) * sizeof *ck);
    uint64_t *keys = malloc((h->n + 1) * sizeof *keys);
    *calls = malloc((h->n + 1) * sizeof **calls);
    size_t n = 0;
    bool ok = ck && keys && *calls;
    if (ok)
        LF_FOR_CHUNKS(lo, hi, 0, h->n, s->dl) {
            for (size_t i = lo; i < hi; i++)
                if (pick(&h->ops[i])) ck[n++] = (lf_keyed){h->ops[i].call, (uint32_t)i};
        }
    ok = ok && !lf_deadline_expired(s->dl) && lf_sort_within(ck, n, s->dl);
    for (size_t i = 0; ok && i < n; i++) (*calls)[i] = ck[i].key, keys[i] = key(s, ck[i].payload);
    *n_calls = n;
    ok = ok && lf_range_min_init(mins, keys, n);
    free(ck), free(keys);
    return ok;
}

static bool is_insert_op(const lf_op *op) { return op->method == LF_M_ENQ || op->method == LF_M_PUSH; }
static bool is_empty_answer(const lf_op *op) { return op->res_kind == LF_K_EMPTY; }
static uint64_t return_of(const sweep *s, uint32_t i) { return s->h->ops[i].ret; }

/* The inserts by call, and the minima of their leave keys (for later_sooner). */
static bool insert_table(sweep *s) { return call_table(s, is_insert_op, leave_key, &s->ins_call, &s->n_ins, &s->ins_min); }

/* The empty answers by call, and the minima of their returns (for blocks_empty). */
static bool empty_table(sweep *s) {
    return call_table(s, is_empty_answer, return_of, &s->empty_calls, &s->n_empty_calls, &s->empty_min);
}

/* 1 with the witness in *order when the sweep gets through, 0 when it does not, -1 when out of memory or time (dl
 * expired). */
static int witness(const lf_history *h, lf_deadline *dl, const uint32_t *remover, uint32_t **order, size_t *order_len,
                   int policy) {
    size_t n = h->n, m = 0, ins = 0;
    sweep s;
    memset(&s, 0, sizeof s);
    s.h = h;
    s.dl = dl;
    s.stack = h->type == LF_TYPE_STACK;
    s.k = h->contract.k;
    s.remover = remover;
    s.policy = policy & ~(BY_REMOVE_CALL | WAIT_OUT);
    s.by_call = policy & BY_REMOVE_CALL;
    s.wait_out = policy & WAIT_OUT;
    for (size_t i = 0; i < n; i++) ins += is_insert_op(&h->ops[i]);
    lf_keyed *ev = malloc((2 * n + 1) * sizeof *ev);
    s.remove_of = malloc((n + 1) * sizeof *s.remove_of);
    s.pos = malloc((n + 1) * sizeof *s.pos);
    s.at_pos = malloc((ins + 1) * sizeof *s.at_pos);
    s.state = calloc(n + 1, 1);
    s.heap = malloc((n + 1) * sizeof *s.heap);
    s.skipped = malloc((n + 1) * sizeof *s.skipped);
    s.empties = malloc((n + 1) * sizeof *s.empties);
    s.order = malloc((n + 1) * sizeof *s.order);
    int res = -1;
    if (ev && s.remove_of && s.pos && s.at_pos && s.state && s.heap && s.skipped && s.empties && s.order && fw_init(&s.present, ins) &&
        fw_init(&s.ready, ins)) {
        LF_FOR_CHUNKS(lo, hi, 0, n, dl) {
            for (size_t i = lo; i < hi; i++) {
                s.pos[i] = UINT32_MAX;
                if (remover[i] != UINT32_MAX) s.remove_of[remover[i]] = (uint32_t)i;
                ev[m++] = (lf_keyed){h->ops[i].call, (uint32_t)i};
            }
        }
        for (size_t i = 0; i < n && !lf_deadline_every(dl, i); i++) /* after the calls: at equal stamps, later */
            if (!lf_op_pending(&h->ops[i])) ev[m++] = (lf_keyed){h->ops[i].ret, (uint32_t)(n + i)};
        res = !lf_deadline_expired(dl) && lf_sort_within(ev, m, dl) && empty_table(&s) ? 1 : -1;
        if (res == 1) res = s.policy == LOOKAHEAD && !insert_table(&s) ? -1 : run_sweep(&s, ev, m);
        if (lf_deadline_expired(dl)) res = -1;
    }
    if (res == 1) {
        *order = s.order;
        *order_len = s.order_len;
        s.order = NULL;
    }
    free(ev), free(s.remove_of), free(s.pos), free(s.at_pos), free(s.state), free(s.heap), free(s.skipped), free(s.empties), free(s.order);
    free(s.present.t), free(s.ready.t), free(s.ins_call), free(s.empty_calls);
    lf_range_min_free(&s.ins_min), lf_range_min_free(&s.empty_min);
    return res;
}

bool lf_krelaxed_monitor_check(const lf_history *h, lf_deadline *dl, lf_result *r, bool want_witness) {
    if (h->contract.order != LF_ORDER_K_RELAXED) {
        lf_result_set(r, LF_UNKNOWN, "monitor", "unsupported: the k-relaxed monitor decides k-relaxed histories");
        return false;
    }
    if (h->n >= UINT32_MAX / 2) { /* the sweep's events name an op's return n + op in 32 bits */
        lf_result_set(r, LF_UNKNOWN, "monitor", "unsupported: more than 2^31 ops");
        return false;
    }
    int ok = lf_relaxed_supported(h, dl, r);
    size_t n = h->n;
    uint32_t *remover = malloc((n ? n : 1) * sizeof *remover);
    uint64_t *rem = malloc((n ? n : 1) * sizeof *rem);
    if (ok > 0) ok = remover && rem ? lf_relaxed_match(h, dl, remover, r) : lf_relaxed_gave_up(dl, r);
    for (size_t i = 0; ok > 0 && i < n; i++) { /* the earliest removal points of every linearization */
        if (lf_deadline_every(dl, i)) ok = lf_relaxed_gave_up(dl, r);
        if (remover[i] != UINT32_MAX) {
            uint64_t c = h->ops[remover[i]].call, ci = h->ops[i].call;
            rem[i] = c > ci ? c : ci;
        }
    }
    if (ok > 0) ok = lf_relaxed_empties(h, dl, remover, rem, r);
    if (ok > 0 && h->type == LF_TYPE_QUEUE) ok = overtaking(h, dl, remover, r);
    uint32_t *order = NULL;
    size_t order_len = 0;
    /* The orders tried, best first (measured on generated histories: the first one finds a witness for nearly
     * every linearizable queue history; stacks are harder, and mostly left to the search). */
    static const int QUEUE_POLICIES[] = {LOOKAHEAD | WAIT_OUT, LOOKAHEAD, SOONER_FIRST}, STACK_POLICIES[] = {
        BELOW_IF_NEEDED | WAIT_OUT, BELOW_IF_NEEDED, BELOW_IF_NEEDED | BY_REMOVE_CALL, SOONER_FIRST, ALONE};
    bool stack = h->type == LF_TYPE_STACK;
    const int *policies = stack ? STACK_POLICIES : QUEUE_POLICIES;
    size_t n_policies = stack ? sizeof STACK_POLICIES / sizeof *STACK_POLICIES : sizeof QUEUE_POLICIES / sizeof *QUEUE_POLICIES;
    int found = 0;
    for (size_t p = 0; ok > 0 && !found && p < n_policies; p++)
        found = witness(h, dl, remover, &order, &order_len, policies[p]);
    free(remover), free(rem);
    if (ok < 0) return false; /* r says why */
    if (found < 0) {
        lf_relaxed_gave_up(dl, r);
        return false;
    }
    if (ok == 0) return true; /* a violation for sure */
    if (!found) {
        lf_result_set(r, LF_UNKNOWN, "monitor", "unsupported: the k-relaxed monitor found neither a linearization by "
                      "its sweep nor a violation that holds for sure");
        return false;
    }
    lf_result_set(r, LF_LINEARIZABLE, "monitor", "%s", "");
    if (want_witness) {
        r->witness = order;
        r->witness_len = order_len;
    } else {
        free(order);
    }
    return true;
}
