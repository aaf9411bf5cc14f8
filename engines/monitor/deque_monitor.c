/* Deque monitor: unambiguous double-ended queues, decided by decomposition (docs/monitors.md, "Deques", has the
 * proofs and the history that rules out peeling one value at a time).
 *
 * Classify each value by the end it is pushed at and the end it is popped at (never popped: the end it was
 * pushed at). In every legal run the deque reads [FF values] [middle] [BB values]: FF (pushed and popped at the
 * front) form a stack at the front, BB one at the back, and the middle holds only BF values (pushed at the back,
 * popped at the front) or only FB values at a time, first in first out. So a middle op needs one of the stacks
 * empty, and since a stack history can be made empty at any set of moments no critical interval covers, the
 * parts decouple: H is linearizable iff the FF ops are a linearizable stack history, so are the BB ops, and the
 * middle is a linearizable FIFO queue (directions never overlapping) whose every op takes effect at a moment the
 * critical intervals of the stack it needs empty leave free. A stack value seen at the far end (an FF value by
 * peek_back) was pushed onto an empty front stack and is alone there: it joins the middle as the value where
 * the middle turns round (SF, SB).
 *
 * The stacks go to the stack monitor on their projections. The middle: a peeling with tests that are necessary
 * for the oldest value proves violations; a search over FIFO orders (least pop first, backtracking, bounded)
 * builds the schedule that proves linearizability, each op at the earliest moment the needed stack leaves free
 * (O(1) from prefix tables). O(n log n) with few values in flight; the bounded search answers unknown beyond its
 * budget, which no test has reached. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reason/reason.h"
#include "monitor/monitor.h"
#include "monitor/monitors.h"
#include "monitor/segment_tree.h"
#include "util/grow.h"
#include "util/radix_sort.h"

#define NONE UINT32_MAX

enum { FRONT = 0, BACK = 1 };
/* Classes of values: push end * 2 + pop end (a value never popped counts as popped where it was pushed), and
 * the two stack classes' values seen at the far end (SF: pushed and popped at the front, peeked at the back;
 * SB the mirror), which belong to the middle (see below). */
enum { C_FF = 0, C_FB = 1, C_BF = 2, C_BB = 3, C_SF = 4, C_SB = 5, C_NONE = 6 /* a value with no op left */ };

static int end_of(lf_method m) {
    return m == LF_M_PUSH_FRONT || m == LF_M_POP_FRONT || m == LF_M_PEEK_FRONT ? FRONT : BACK;
}

static int push_end(int c) { return c == C_FF || c == C_FB || c == C_SF ? FRONT : BACK; }
static int pop_end(int c) { return c == C_FF || c == C_BF || c == C_SF ? FRONT : BACK; }
static bool in_middle(int c) { return c == C_FB || c == C_BF || c == C_SF || c == C_SB; }

/* The middle flows one way at a time: phase 0, values pushed at the back leave at the front (BF); phase 1,
 * the other way (FB). An SF value arrives like an FB value (at the front, behind the FB values there) and
 * leaves like a BF value (at the front, ahead of the BF values that came after it): it is where the middle
 * turns round, and its peek at the back finds it alone in the middle. SB is the mirror. */
static int arrival_phase(int c) { return c == C_FB || c == C_SF; }
static int departure_phase(int c) { return c == C_FB || c == C_SB; }

/* What a middle value's peek at `end` requires of the other middle values. */
enum {
    PK_HEAD, /* it is the oldest: every older one has left (BF at the front, FB at the back) */
    PK_TAIL, /* it is the youngest: no younger one has come (BF at the back, FB at the front) */
    PK_FAR,  /* SF at the back, SB at the front: it is alone, both of the above */
    PK_FREE  /* SF at the front, SB at the back: nothing (it is at that end of the middle all its life) */
};
static int peek_kind(int c, int end) {
    switch (c) {
    case C_BF: return end == FRONT ? PK_HEAD : PK_TAIL;
    case C_FB: return end == BACK ? PK_HEAD : PK_TAIL;
    case C_SF: return end == BACK ? PK_FAR : PK_FREE;
    default: return end == FRONT ? PK_FAR : PK_FREE;
    }
}

static const char *class_name(int c) {
    switch (c) {
    case C_FF: return "pushed and popped at the front";
    case C_BB: return "pushed and popped at the back";
    case C_BF: return "pushed at the back and popped at the front";
    case C_FB: return "pushed at the front and popped at the back";
    case C_SF: return "pushed and popped at the front and seen at the back";
    default: return "pushed and popped at the back and seen at the front";
    }
}

typedef struct {
    const lf_history *h;
    const lf_std *s;
    uint8_t *cls;      /* per value */
    uint32_t M;        /* tuned stamps 1..M, partitions 1..M-1 */
    uint32_t *nf[2];   /* per partition: first partition >= p free of the FF (0) / BB (1) critical intervals, or M */
    uint32_t *pf[2];   /* per partition: last partition <= p free of them, or 0 */
} deque_ctx;

/* The end an op acts at (artificial removes: their value's push end). */
static int op_end(const deque_ctx *d, uint32_t i) {
    if (i >= d->s->n_ops) return pop_end(d->cls[d->s->val[i]]);
    return end_of((lf_method)d->h->ops[i].method);
}

/* Earliest partition >= lo inside op i's interval that the stack at `end` leaves free, or NONE. */
static uint32_t earliest(const deque_ctx *d, uint32_t i, uint32_t lo, int end) {
    uint32_t a = d->s->inv[i] > lo ? d->s->inv[i] : lo, b = d->s->res[i]; /* partitions a..b-1 */
    if (a >= b) return NONE;
    uint32_t p = d->nf[end][a];
    return p < b ? p : NONE;
}

/* Latest partition inside op i's interval that the stack at `end` leaves free, or NONE. */
static uint32_t latest(const deque_ctx *d, uint32_t i, int end) {
    uint32_t a = d->s->inv[i], b = d->s->res[i];
    if (a >= b) return NONE;
    uint32_t p = d->pf[end][b - 1];
    return p >= a && p != 0 ? p : NONE;
}

/* Checks the ops of the values of class c (FF or BB) as a stack history. Returns LF_LINEARIZABLE, or the
 * stack monitor's verdict with r filled in (ops named by their index in h). */
static lf_verdict check_stack_part(const deque_ctx *d, int c, lf_result *r) {
    const lf_history *h = d->h;
    const lf_std *s = d->s;
    lf_history sub;
    lf_history_init(&sub, LF_TYPE_STACK);
    uint32_t *map = malloc((s->n_ops ? s->n_ops : 1) * sizeof *map);
    bool ok = map != NULL;
    size_t n = 0;
    bool late = false;
    for (uint32_t i = 0; ok && i < s->n_ops; i++) {
        if ((late = lf_deadline_every(s->dl, i))) break;
        uint8_t k = s->kind[i];
        if ((k != STD_ADD && k != STD_REM && k != STD_OTHER) || d->cls[s->val[i]] != c) continue;
        lf_op op = h->ops[i];
        switch ((lf_method)op.method) {
        case LF_M_PUSH_FRONT:
        case LF_M_PUSH_BACK: op.method = LF_M_PUSH; break;
        case LF_M_POP_FRONT:
        case LF_M_POP_BACK: op.method = LF_M_POP; break;
        default: op.method = LF_M_PEEK; break;
        }
        map[n++] = i;
        ok = lf_history_push(&sub, &op);
    }
    lf_verdict v = LF_LINEARIZABLE;
    if (late) {
        v = lf_monitor_late(r, "deque");
    } else if (!ok) {
        lf_result_set(r, LF_UNKNOWN, "monitor", "out of memory in the deque monitor");
        v = LF_UNKNOWN;
    } else if (sub.n) {
        lf_result sr;
        lf_result_init(&sr);
        lf_monitor_check(&sub, s->dl, &sr);
        if (lf_deadline_expired(s->dl)) {
                v = lf_monitor_late(r, "deque");
            } else if (sr.verdict != LF_LINEARIZABLE) {
                char t[sizeof sr.reason];
                lf_reason_map_ops(sr.reason, map, n, t, sizeof t);
                lf_result_set(r, sr.verdict, "monitor", "the values %s form a stack, and as a stack (push = push_%s, "
                              "pop = pop_%s) they are not linearizable: %.380s",
                              class_name(c), c == C_FF ? "front" : "back", c == C_FF ? "front" : "back", t);
                for (size_t k = 0; k < sr.n_culprits; k++)
                    if (sr.culprits[k] < n) lf_result_add_culprit(r, map[sr.culprits[k]]);
                v = sr.verdict;
        }
        lf_result_free(&sr);
    }
    free(map);
    lf_history_free(&sub);
    return v;
}

/* Free-partition tables of the FF and BB critical intervals. */
static bool build_free_tables(deque_ctx *d) {
    const lf_std *s = d->s;
    uint32_t M = d->M;
    int32_t *cov = calloc((size_t)M + 2, sizeof *cov);
    for (int e = 0; e < 2; e++) {
        d->nf[e] = malloc(((size_t)M + 2) * sizeof *d->nf[e]);
        d->pf[e] = malloc(((size_t)M + 2) * sizeof *d->pf[e]);
    }
    if (!cov || !d->nf[0] || !d->nf[1] || !d->pf[0] || !d->pf[1]) {
        free(cov);
        return false;
    }
    for (int e = 0; e < 2; e++) {
        int c = e == FRONT ? C_FF : C_BB;
        memset(cov, 0, ((size_t)M + 2) * sizeof *cov);
        LF_FOR_CHUNKS(ck, ck_end, 0, s->n_values, s->dl) {
            for (uint32_t v = (uint32_t)ck; v < ck_end; v++) {
                uint32_t lo, hi;
                if (d->cls[v] == c && lf_std_ci(s, v, &lo, &hi)) {
                    cov[lo]++;
                    cov[hi]--;
                }
            }
        }
        if (lf_deadline_expired(s->dl)) {
            free(cov);
            return false;
        }
        int32_t run = 0;
        uint32_t last = 0;
        LF_FOR_CHUNKS(ck, ck_end, 1, (size_t)M + 1, s->dl) {
            for (uint32_t p = (uint32_t)ck; p < ck_end; p++) {
                run += cov[p];
                cov[p] = run; /* now the coverage of partition p */
                if (p < M && run == 0) last = p;
                d->pf[e][p] = last;
            }
        }
        if (lf_deadline_expired(s->dl)) {
            free(cov);
            return false;
        }
        d->pf[e][0] = 0;
        uint32_t next = M;
        d->nf[e][M] = d->nf[e][M + 1] = M;
        for (uint32_t p = M; p-- > 1;) {
            if (lf_deadline_every(s->dl, p)) {
                free(cov);
                return false;
            }
            if (cov[p] == 0) next = p;
            d->nf[e][p] = next;
        }
        d->nf[e][0] = d->nf[e][1];
    }
    free(cov);
    return true;
}

/* One middle value, as the peeling sees it (all moments are partitions). */
typedef struct {
    uint32_t v;       /* value id */
    uint32_t e;       /* earliest free moment of its push */
    uint32_t t;       /* latest of the earliest free moments of its tail peeks (peeks at its push end), or e */
    uint32_t q;       /* earliest free moment of its pop after its push and all its peeks */
    uint32_t le;      /* latest free moment of its push */
    uint32_t ld;      /* latest free moment of its pop and of its head peeks (peeks at its pop end) */
    uint32_t peeks;   /* first of its peeks (linked through peek_next), or NONE */
} mid_value;

#define FAR ((int32_t)1 << 30) /* a removed value's key in the min trees: above every partition */

static int32_t tree_min_except(lf_mintree *t, size_t k, size_t x) {
    int32_t a = x > 0 ? lf_mintree_min(t, 0, x) : FAR, b = x + 1 < k ? lf_mintree_min(t, x + 1, k) : FAR;
    return a < b ? a : b;
}

typedef struct {
    uint32_t key, idx;
} heap_item;

static void heap_push(heap_item *hp, size_t *n, heap_item x) {
    size_t i = (*n)++;
    while (i > 0 && hp[(i - 1) / 2].key > x.key) {
        hp[i] = hp[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    hp[i] = x;
}

static heap_item heap_pop(heap_item *hp, size_t *n) {
    heap_item top = hp[0], last = hp[--(*n)];
    size_t i = 0;
    for (;;) {
        size_t l = 2 * i + 1, m = l;
        if (l >= *n) break;
        if (l + 1 < *n && hp[l + 1].key < hp[l].key) m = l + 1;
        if (hp[m].key >= last.key) break;
        hp[i] = hp[m];
        i = m;
    }
    if (*n) hp[i] = last;
    return top;
}

static void describe(const deque_ctx *d, uint32_t i, char *buf, size_t len) {
    lf_std_describe(d->s, d->h, i, buf, len);
}

/* A middle op with no moment its stack leaves free: name a value of that stack certainly present all along. */
static lf_verdict no_free_moment(const deque_ctx *d, uint32_t i, int end, lf_result *r) {
    const lf_std *s = d->s;
    char a[300], b[300] = "?", c[300] = "?", vs[32] = "?";
    describe(d, i, a, sizeof a);
    int stack = end == FRONT ? C_FF : C_BB;
    uint32_t inv = s->inv[i], res = s->res[i];
    for (uint32_t v = 0; v < s->n_values; v++) {
        uint32_t lo, hi;
        if (d->cls[v] != stack || !lf_std_ci(s, v, &lo, &hi) || hi <= inv || lo >= res) continue;
        lf_std_value_str(s, v, vs, sizeof vs);
        describe(d, s->add_op[v], b, sizeof b);
        describe(d, s->rem_op[v], c, sizeof c);
        lf_std_culprit(s, r, s->add_op[v]);
        lf_std_culprit(s, r, s->rem_op[v]);
        break;
    }
    lf_result_set(r, LF_VIOLATION, "monitor",
                  "%s can only take effect while no value %s is in the deque (it acts at the %s, past them), but at "
                  "every moment of it one is certainly there (e.g. %s, between %s and %s)",
                  a, class_name(stack), end == FRONT ? "front" : "back", vs, b, c);
    lf_std_culprit(s, r, i);
    return LF_VIOLATION;
}

/* Where the middle's schedule stands: the last value placed (in FIFO order) and its moments. */
typedef struct {
    uint32_t enq, deq, tail; /* its push, its pop, the latest of its tail and far peeks (or its push) */
    int phase;               /* the phase it leaves in; -1 before the first value */
} sched_state;

/* Places value m after st: every op at the earliest free moment after what must precede it (the previous push;
 * for a pop or a head or far peek the previous pop; when the previous value leaves in another phase than this
 * one arrives, the previous pop; the previous value's tail and far peeks). Earliest moments are optimal for a
 * fixed FIFO order, since every constraint is a lower bound. Returns false when some op finds no moment. */
static bool place(const deque_ctx *d, const mid_value *m, const uint32_t *peek_next, const sched_state *st,
                  sched_state *out) {
    const lf_std *s = d->s;
    int c = d->cls[m->v];
    uint32_t lo = st->enq > st->tail ? st->enq : st->tail;
    if (st->phase >= 0 && st->phase != arrival_phase(c) && st->deq > lo) lo = st->deq;
    uint32_t e = earliest(d, s->add_op[m->v], lo, push_end(c));
    if (e == NONE) return false;
    uint32_t tail = e, head_lo = e > st->deq ? e : st->deq, deq_lo = head_lo;
    for (uint32_t i = m->peeks; i != NONE; i = peek_next[i]) {
        int end = op_end(d, i), kind = peek_kind(c, end);
        uint32_t at = earliest(d, i, kind == PK_HEAD || kind == PK_FAR ? head_lo : e, end);
        if (at == NONE) return false;
        if (at > deq_lo) deq_lo = at;
        if ((kind == PK_TAIL || kind == PK_FAR) && at > tail) tail = at;
    }
    uint32_t q = earliest(d, s->rem_op[m->v], deq_lo, pop_end(c));
    if (q == NONE) return false;
    *out = (sched_state){e, q, tail, departure_phase(c)};
    return true;
}

/* The remaining middle values in order of their earliest push (a doubly linked list; removals are undone in
 * reverse order, so unlinking and relinking are O(1)), and the min trees of check_middle. */
typedef struct {
    const deque_ctx *d;
    const mid_value *mv;
    const uint32_t *peek_next;
    size_t k;
    uint32_t *nx, *pv; /* list links over slots; k is the head sentinel */
    lf_mintree *t_le, *t_ld, *t_cls;
} middle_set;

static void middle_remove(middle_set *ms, uint32_t x) {
    ms->nx[ms->pv[x]] = ms->nx[x];
    ms->pv[ms->nx[x]] = ms->pv[x];
    lf_mintree_add(ms->t_le, x, x + 1, FAR);
    lf_mintree_add(ms->t_ld, x, x + 1, FAR);
    lf_mintree_add(&ms->t_cls[arrival_phase(ms->d->cls[ms->mv[x].v])], x, x + 1, FAR);
}

static void middle_restore(middle_set *ms, uint32_t x) {
    ms->nx[ms->pv[x]] = x;
    ms->pv[ms->nx[x]] = x;
    lf_mintree_add(ms->t_le, x, x + 1, -FAR);
    lf_mintree_add(ms->t_ld, x, x + 1, -FAR);
    lf_mintree_add(&ms->t_cls[arrival_phase(ms->d->cls[ms->mv[x].v])], x, x + 1, -FAR);
}

/* Whether x can be the next value after it was placed as `at`: its push and tail peeks can precede every other
 * remaining push, its pop every other remaining pop and head or far peek, and every remaining value arriving in
 * another phase than x leaves in can arrive after x's pop. */
static bool middle_feasible(middle_set *ms, uint32_t x, const sched_state *at) {
    size_t k = ms->k;
    int32_t le_ex = tree_min_except(ms->t_le, k, x), ld_ex = tree_min_except(ms->t_ld, k, x);
    int c = ms->d->cls[ms->mv[x].v], other_phase = !departure_phase(c);
    int32_t other = other_phase == arrival_phase(c) ? tree_min_except(&ms->t_cls[other_phase], k, x)
                                                   : lf_mintree_min(&ms->t_cls[other_phase], 0, k);
    return (int32_t)at->enq <= le_ex && (int32_t)at->tail <= le_ex && (int32_t)at->deq <= ld_ex &&
           (int32_t)at->deq <= other;
}

typedef struct {
    uint32_t x;
    sched_state after;
} middle_choice;

static int cmp_choice(const void *a, const void *b) {
    const middle_choice *p = a, *q = b;
    if (p->after.deq != q->after.deq) return p->after.deq < q->after.deq ? -1 : 1;
    if (p->after.enq != q->after.enq) return p->after.enq < q->after.enq ? -1 : 1;
    return (p->x > q->x) - (p->x < q->x);
}

/* Builds a FIFO order of the middle values and its schedule by depth-first search: at each step the values
 * that may come next (their earliest push is at most the least latest push of the others, and placed after
 * the current schedule they leave every other value its chance), the one that leaves first tried first. The
 * first branch almost always succeeds; a dead end backtracks. Returns LF_LINEARIZABLE (an order and its
 * schedule exist: the proof), LF_VIOLATION (the search was exhausted: none exists) or LF_UNKNOWN (more than
 * `budget` placements were tried). */
static lf_verdict order_middle(middle_set *ms, uint64_t budget, lf_deadline *dl) {
    size_t k = ms->k;
    typedef struct {
        sched_state st;
        size_t lo, hi, next;
    } frame;
    frame *fr = malloc((k + 1) * sizeof *fr);
    size_t cap = 4 * k + 64, n_ch = 0;
    middle_choice *ch = malloc(cap * sizeof *ch);
    uint32_t *chosen = malloc((k ? k : 1) * sizeof *chosen);
    lf_verdict v = LF_UNKNOWN;
    if (!fr || !ch || !chosen) goto out;
    uint64_t tried = 0;
    size_t depth = 0;
    sched_state st = {0, 0, 0, -1};
    for (;;) {
        if (depth == k) {
            v = LF_LINEARIZABLE;
            break;
        }
        /* the choices at this depth */
        size_t a_star, d_star;
        int32_t L = lf_mintree_argmin(ms->t_le, &a_star), D = lf_mintree_argmin(ms->t_ld, &d_star);
        size_t lo = n_ch;
        for (uint32_t x = ms->nx[k]; x != k && (int32_t)ms->mv[x].e <= L; x = ms->nx[x]) {
            if ((int32_t)ms->mv[x].q > D && x != d_star) continue; /* its pop cannot precede d*'s */
            sched_state at;
            if (++tried > budget || lf_deadline_tick(dl)) goto out;
            if (!place(ms->d, &ms->mv[x], ms->peek_next, &st, &at) || !middle_feasible(ms, x, &at)) continue;
            if (!LF_GROW(ch, cap, n_ch + 1, 64)) goto out;
            ch[n_ch++] = (middle_choice){x, at};
        }
        qsort(ch + lo, n_ch - lo, sizeof *ch, cmp_choice);
        fr[depth] = (frame){st, lo, n_ch, lo};
        /* take the next untried choice here, backtracking while there is none */
        while (fr[depth].next == fr[depth].hi) {
            n_ch = fr[depth].lo;
            if (depth == 0) {
                v = LF_VIOLATION;
                goto out;
            }
            depth--;
            middle_restore(ms, chosen[depth]);
        }
        middle_choice c = ch[fr[depth].next++];
        middle_remove(ms, c.x);
        chosen[depth] = c.x;
        st = c.after;
        depth++;
    }
out:
    free(fr);
    free(ch);
    free(chosen);
    return v;
}

/* The middle: FIFO peeling with free-moment bounds, then the schedule in the peeling order. */
/* Out of memory or out of time (the deadline tells which): r says so. */
static lf_verdict deque_stopped(const lf_std *s, lf_result *r) {
    if (lf_deadline_expired(s->dl))
        lf_monitor_late(r, "deque");
    else
        lf_result_set(r, LF_UNKNOWN, "monitor", "out of memory in the deque monitor");
    return LF_UNKNOWN;
}

/* How computing the middle values' bounds ended: all set, a verdict (an op without a free moment), or stopped by
 * the deadline. */
typedef enum { BOUNDS_SET, BOUNDS_DECIDED, BOUNDS_STOPPED } bounds_result;

/* Each op needs a free moment at all; then the bounds the peeling compares, per middle value: its pushes (e, le),
 * its pop (ld, q) and the arrivals of younger values (t), its peeks linked through peek_next (slot: a value's
 * index in mv, or NONE). */
static bounds_result middle_bounds(deque_ctx *d, mid_value *mv, size_t k, const uint32_t *slot, uint32_t *peek_next,
                                   lf_verdict *verdict, lf_result *r) {
    const lf_std *s = d->s;
    LF_FOR_CHUNKS(ck, ck_end, 0, k, s->dl) {
        for (size_t x = ck; x < ck_end; x++) {
            mid_value *m = &mv[x];
            int c = d->cls[m->v];
            uint32_t add = s->add_op[m->v], rem = s->rem_op[m->v];
            m->e = earliest(d, add, 0, push_end(c));
            m->le = latest(d, add, push_end(c));
            if (m->e == NONE) {
                *verdict = no_free_moment(d, add, push_end(c), r);
                return BOUNDS_DECIDED;
            }
            m->t = m->e;
            m->ld = latest(d, rem, pop_end(c));
            if (m->ld == NONE) {
                *verdict = no_free_moment(d, rem, pop_end(c), r);
                return BOUNDS_DECIDED;
            }
        }
    }
    if (lf_deadline_expired(s->dl)) return BOUNDS_STOPPED;
    for (uint32_t i = s->n_ops; i-- > 0;) {
        if (lf_deadline_every(s->dl, i)) return BOUNDS_STOPPED;
        if (s->kind[i] != STD_OTHER || slot[s->val[i]] == NONE) continue;
        mid_value *m = &mv[slot[s->val[i]]];
        peek_next[i] = m->peeks;
        m->peeks = i;
    }
    LF_FOR_CHUNKS(ck, ck_end, 0, k, s->dl) {
        for (size_t x = ck; x < ck_end; x++) {
            mid_value *m = &mv[x];
            int c = d->cls[m->v];
            uint32_t peeks = m->e;
            for (uint32_t i = m->peeks; i != NONE; i = peek_next[i]) {
                int end = op_end(d, i), kind = peek_kind(c, end);
                uint32_t at = earliest(d, i, m->e, end), late = latest(d, i, end);
                if (at == NONE || late == NONE) {
                    *verdict = no_free_moment(d, i, end, r);
                    return BOUNDS_DECIDED;
                }
                if (at > peeks) peeks = at; /* every peek before its pop */
                /* A head or far peek comes after every older value left, like the pop: when another value is the
                 * oldest, this one's peek follows that one's pop. A tail or far peek comes before every younger
                 * value arrives. */
                if ((kind == PK_HEAD || kind == PK_FAR) && late < m->ld) m->ld = late;
                if ((kind == PK_TAIL || kind == PK_FAR) && at > m->t) m->t = at;
            }
            m->q = earliest(d, s->rem_op[m->v], peeks, pop_end(c));
            if (m->q == NONE) {
                *verdict = no_free_moment(d, s->rem_op[m->v], pop_end(c), r);
                return BOUNDS_DECIDED;
            }
        }
    }
    if (lf_deadline_expired(s->dl)) return BOUNDS_STOPPED;
    return BOUNDS_SET;
}

/* The peeling's violation: none of the remaining values can be the oldest (a* and d*: the values of the least
 * latest push and pop). */
static void report_no_oldest(deque_ctx *d, const mid_value *mv, size_t a_star, size_t d_star, size_t remaining,
                             lf_result *r) {
    const lf_std *s = d->s;
    char a[300], b2[300];
    uint32_t va = mv[a_star].v, vd = mv[d_star].v;
    describe(d, s->add_op[va], a, sizeof a);
    describe(d, s->rem_op[vd], b2, sizeof b2);
    lf_std_culprit(s, r, s->add_op[va]);
    lf_std_culprit(s, r, s->rem_op[vd]);
    lf_result_set(r, LF_VIOLATION, "monitor",
                  "the values pushed at one end and popped at the other leave in the order they came (first "
                  "in, first out), but none of the %zu remaining ones can be the oldest: %s must take effect "
                  "before the other pushes of such values, and %s before their pops",
                  remaining, a, b2);
}

/* After a peeling that found no violation: the search for the order and schedule (order_middle), on the min
 * trees reset to all values (by_e: the values by earliest push). False when out of memory or time. */
static bool search_middle_order(deque_ctx *d, mid_value *mv, uint32_t *peek_next, size_t k, const lf_keyed *by_e,
                                lf_mintree *t_le, lf_mintree *t_ld, lf_mintree *t_cls, lf_verdict *verdict,
                                lf_result *r) {
    const lf_std *s = d->s;
    /* The peeling proves violations (each step's test is necessary); the order and schedule that prove
     * linearizability come from a search that takes the prefix placed so far into account. */
    for (size_t x = 0; x < k; x++) {
        lf_mintree_add(t_le, x, x + 1, -FAR);
        lf_mintree_add(t_ld, x, x + 1, -FAR);
        lf_mintree_add(&t_cls[arrival_phase(d->cls[mv[x].v])], x, x + 1, -FAR);
    }
    uint32_t *links = malloc(2 * (k + 1) * sizeof *links);
    if (!links) return false;
    middle_set ms = {d, mv, peek_next, k, links, links + k + 1, t_le, t_ld, t_cls};
    uint32_t prev = (uint32_t)k;
    for (size_t j = 0; j < k; j++) {
        uint32_t x = by_e[j].payload;
        ms.nx[prev] = x;
        ms.pv[x] = prev;
        prev = x;
    }
    ms.nx[prev] = (uint32_t)k;
    ms.pv[k] = prev;
    *verdict = order_middle(&ms, 64 * (uint64_t)k + 100000, s->dl);
    free(links);
    if (lf_deadline_expired(s->dl)) return false;
    if (*verdict == LF_VIOLATION) {
        lf_result_set(r, LF_VIOLATION, "monitor",
                      "the %zu values pushed at one end and popped at the other leave in the order they came (first "
                      "in, first out, one direction at a time), and no such order fits their ops' intervals and the "
                      "moments when the stacks they pass are empty",
                      k);
    } else if (*verdict == LF_UNKNOWN) {
        lf_result_set(r, LF_UNKNOWN, "monitor",
                      "the search for an order of the %zu values pushed at one end and popped at the other ran out "
                      "of its budget",
                      k);
    }
    return true;
}

static lf_verdict check_middle(deque_ctx *d, lf_result *r) {
    const lf_std *s = d->s;
    size_t k = 0;
    LF_FOR_CHUNKS(ck, ck_end, 0, s->n_values, s->dl) {
        for (uint32_t v = (uint32_t)ck; v < ck_end; v++) {
            k += in_middle(d->cls[v]);
        }
    }
    if (lf_deadline_expired(s->dl)) return lf_monitor_late(r, "deque");
    if (k == 0) return LF_LINEARIZABLE;
    mid_value *mv = malloc(k * sizeof *mv);
    uint32_t *slot = malloc(s->n_values * sizeof *slot);
    uint32_t *peek_next = malloc(((size_t)s->n_ops + 1) * sizeof *peek_next);
    lf_keyed *by_e = malloc(k * sizeof *by_e);
    heap_item *pool = malloc(k * sizeof *pool), *back = malloc(k * sizeof *back);
    uint8_t *gone = calloc(k, 1), *pooled = calloc(k, 1);
    int32_t *leaf = calloc(k, sizeof *leaf);
    lf_mintree t_le = {0}, t_ld = {0}, t_cls[2] = {{0}, {0}};
    lf_verdict verdict = LF_UNKNOWN;
    if (!mv || !slot || !peek_next || !by_e || !pool || !back || !gone || !pooled || !leaf) goto oom;
    k = 0;
    LF_FOR_CHUNKS(ck, ck_end, 0, s->n_values, s->dl) {
        for (uint32_t v = (uint32_t)ck; v < ck_end; v++) {
            slot[v] = NONE;
            if (!in_middle(d->cls[v])) continue;
            slot[v] = (uint32_t)k;
            mv[k++] = (mid_value){v, 0, 0, 0, 0, 0, NONE};
        }
    }
    if (lf_deadline_expired(s->dl)) goto oom;
    bounds_result br = middle_bounds(d, mv, k, slot, peek_next, &verdict, r);
    if (br == BOUNDS_DECIDED) goto done;
    if (br == BOUNDS_STOPPED) goto oom;

    /* Min trees over the remaining values: latest push, latest pop/head peek, latest push per arrival phase. */
    for (size_t x = 0; x < k; x++) leaf[x] = (int32_t)mv[x].le;
    bool ok = lf_mintree_init(&t_le, k, leaf);
    for (size_t x = 0; x < k; x++) leaf[x] = (int32_t)mv[x].ld;
    ok = lf_mintree_init(&t_ld, k, leaf) && ok;
    for (int c = 0; c < 2; c++) {
        for (size_t x = 0; x < k; x++) leaf[x] = arrival_phase(d->cls[mv[x].v]) == c ? (int32_t)mv[x].le : FAR;
        ok = lf_mintree_init(&t_cls[c], k, leaf) && ok;
    }
    if (!ok) goto oom;
    for (size_t x = 0; x < k; x++) by_e[x] = (lf_keyed){mv[x].e, (uint32_t)x};
    if (lf_deadline_spend(s->dl, k < LF_DEADLINE_STRIDE ? (uint32_t)k : LF_DEADLINE_STRIDE) ||
        !lf_sort_within(by_e, k, s->dl))
        goto oom;

    /* Peel the oldest: a value m may be the first of the remaining ones when its push can precede every other
     * push (e <= their latest), its tail peeks too, its pop every other pop and head peek (q <= their
     * latest), and every push of the other phase can follow its pop. The push bound leaves as candidates
     * the argmin of the latest pushes and the values whose earliest push is at most that minimum; they wait
     * in a heap by q, and only those with q <= the least latest pop can pass. */
    size_t n_pool = 0, next_e = 0, peeled = 0;
    while (peeled < k) {
        if (lf_deadline_tick(s->dl)) goto oom;
        size_t a_star, d_star;
        int32_t L = lf_mintree_argmin(&t_le, &a_star), D = lf_mintree_argmin(&t_ld, &d_star);
        while (next_e < k && (int32_t)by_e[next_e].key <= L) {
            uint32_t x = by_e[next_e++].payload;
            if (!gone[x] && !pooled[x]) {
                pooled[x] = 1;
                heap_push(pool, &n_pool, (heap_item){mv[x].q, x});
            }
        }
        /* Among the candidates that pass, the one that can leave first (least q): a* and d* are candidates
         * whatever their q, the pool is walked in q order while q stays within the least latest pop. */
        uint32_t found = NONE;
        size_t n_back = 0;
        uint32_t extra[2] = {(uint32_t)a_star, (uint32_t)d_star};
        for (;;) {
            if (lf_deadline_tick(s->dl)) goto oom;
            uint32_t x = NONE;
            bool from_pool = false;
            if (n_pool > 0) {
                heap_item it = pool[0];
                if (gone[it.idx]) {
                    heap_pop(pool, &n_pool);
                    continue;
                }
                if ((int32_t)it.key <= D) x = it.idx, from_pool = true;
            }
            /* a* or d* before the pool's head when their q is smaller (or the pool is done) */
            for (int j = 0; j < 2; j++) {
                uint32_t y = extra[j];
                if (y == NONE || gone[y]) continue;
                if (x == NONE || mv[y].q < mv[x].q) x = y, from_pool = false;
            }
            if (x == NONE) break;
            if (from_pool) {
                back[n_back++] = heap_pop(pool, &n_pool);
            } else {
                for (int j = 0; j < 2; j++)
                    if (extra[j] == x) extra[j] = NONE;
            }
            const mid_value *m = &mv[x];
            /* values arriving in another phase than this one leaves in come after its pop */
            int32_t le_ex = tree_min_except(&t_le, k, x), ld_ex = tree_min_except(&t_ld, k, x);
            int other_phase = !departure_phase(d->cls[m->v]);
            int32_t other = other_phase == arrival_phase(d->cls[m->v]) ? tree_min_except(&t_cls[other_phase], k, x)
                                                                       : lf_mintree_min(&t_cls[other_phase], 0, k);
            if ((int32_t)m->e <= le_ex && (int32_t)m->t <= le_ex && (int32_t)m->q <= ld_ex && (int32_t)m->q <= other) {
                found = x;
                break;
            }
        }
        for (size_t b = 0; b < n_back; b++)
            if (back[b].idx != found) heap_push(pool, &n_pool, back[b]);
        if (found == NONE) {
            report_no_oldest(d, mv, a_star, d_star, k - peeled, r);
            verdict = LF_VIOLATION;
            goto done;
        }
        gone[found] = 1;
        peeled++;
        lf_mintree_add(&t_le, found, found + 1, FAR);
        lf_mintree_add(&t_ld, found, found + 1, FAR);
        lf_mintree_add(&t_cls[arrival_phase(d->cls[mv[found].v])], found, found + 1, FAR);
    }
    if (!search_middle_order(d, mv, peek_next, k, by_e, &t_le, &t_ld, t_cls, &verdict, r)) goto oom;
    goto done;
oom:
    verdict = deque_stopped(s, r);
done:
    if (t_le.t) lf_mintree_free(&t_le);
    if (t_ld.t) lf_mintree_free(&t_ld);
    if (t_cls[0].t) lf_mintree_free(&t_cls[0]);
    if (t_cls[1].t) lf_mintree_free(&t_cls[1]);
    free(mv);
    free(slot);
    free(peek_next);
    free(by_e);
    free(pool);
    free(back);
    free(gone);
    free(pooled);
    free(leaf);
    return verdict;
}

lf_verdict lf_monitor_deque(const lf_history *h, const lf_std *s, lf_result *r) {
    deque_ctx d;
    memset(&d, 0, sizeof d);
    d.h = h;
    d.s = s;
    d.M = s->n_stamps;
    lf_verdict verdict = LF_UNKNOWN;
    if (d.M >= (uint32_t)FAR) { /* moments are int32 keys of the min trees, below FAR */
        lf_result_set(r, LF_UNKNOWN, "monitor", "unsupported: %zu ops exceed the deque monitor's limit", h->n);
        return LF_UNKNOWN;
    }
    d.cls = malloc(s->n_values ? s->n_values : 1);
    if (!d.cls) goto oom;
    LF_FOR_CHUNKS(ck, ck_end, 0, s->n_values, s->dl) {
        for (uint32_t v = (uint32_t)ck; v < ck_end; v++) {
            if (s->add_op[v] == NONE) { /* only a pending push nobody saw: dropped */
                d.cls[v] = C_NONE;
                continue;
            }
            int push_end = end_of((lf_method)h->ops[s->add_op[v]].method);
            int pop_at = s->rem_op[v] < s->n_ops ? end_of((lf_method)h->ops[s->rem_op[v]].method) : push_end;
            d.cls[v] = (uint8_t)(push_end * 2 + pop_at);
        }
    }
    if (lf_deadline_expired(s->dl)) goto oom;
    /* A stack value seen at the far end (an FF value by peek_back) is then the only value in the deque that is
     * not an FF value, and the oldest FF value: it was pushed onto an empty front stack, and the middle and
     * the back stack are empty at that peek. It joins the middle as an SF value. */
    LF_FOR_CHUNKS(ck, ck_end, 0, s->n_ops, s->dl) {
        for (uint32_t i = (uint32_t)ck; i < ck_end; i++) {
            if (s->kind[i] != STD_OTHER) continue;
            uint8_t *c = &d.cls[s->val[i]];
            if (*c == C_FF && end_of((lf_method)h->ops[i].method) == BACK) *c = C_SF;
            if (*c == C_BB && end_of((lf_method)h->ops[i].method) == FRONT) *c = C_SB;
        }
    }
    if (lf_deadline_expired(s->dl)) goto oom;
    verdict = check_stack_part(&d, C_FF, r);
    if (verdict == LF_LINEARIZABLE) verdict = check_stack_part(&d, C_BB, r);
    if (verdict != LF_LINEARIZABLE) goto done;
    if (!build_free_tables(&d)) goto oom;
    verdict = check_middle(&d, r);
    goto done;
oom:
    verdict = deque_stopped(s, r);
done:
    free(d.cls);
    for (int e = 0; e < 2; e++) {
        free(d.nf[e]);
        free(d.pf[e]);
    }
    return verdict;
}
