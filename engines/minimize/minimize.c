/* Sound history minimisation: a binary search for the first impossible return (first, so that the op that
 * went wrong stays), delta debugging over whole values, state-preserving ops and (counters) incs that every
 * get orders, and a binary search for the last forced state (see minimize.h for why each reduction is sound).
 * Under any other spec than a built-in one (custom types, the self-spec) only the spec-independent
 * reductions run: the cut, declared observers, whole keys, and prefixes that return to the initial state. */
#include "linfuzz/minimize.h"

#include "linfuzz/selfspec.h"
#include "linfuzz/spec.h"
#include "minimize/initial_prefix.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "util/clock.h"

void lf_minimize_options_default(lf_minimize_options *o) {
    memset(o, 0, sizeof *o);
    lf_check_options_default(&o->check);
    o->check.engine = LF_ENGINE_AUTO;
    o->check.timeout_s = 2;
    o->cut_prefix = true;
    o->drop_forced_prefix = true;
    o->shift_counters = true;
    o->max_checks = LF_MINIMIZE_DEFAULT_CHECKS;
    o->timeout_s = 60;
}

bool lf_op_state_preserving(lf_type t, const lf_op *op) {
    const lf_method_info *mi = lf_method_info_of(t, (lf_method)op->method);
    if (!mi) return false;
    if (mi->role == LF_ROLE_OBSERVE) return true;
    if (lf_op_pending(op)) return false; /* it may have taken effect */
    /* add -> false (present), remove/delete -> false (absent), pop/deq/poll -> empty, cas -> fail,
     * push/enq/insert -> full */
    return op->res_kind == LF_K_EMPTY || op->res_kind == LF_K_FALSE || op->res_kind == LF_K_FAIL ||
           op->res_kind == LF_K_FULL;
}

bool lf_op_value_key(lf_type t, const lf_op *op, lf_value_key *key) {
    const lf_method_info *mi = lf_method_info_of(t, (lf_method)op->method);
    if (!mi) return false;
    switch (t) {
    case LF_TYPE_SET:
    case LF_TYPE_KV: /* every method is keyed by its first argument */
        key->nil = lf_arg_is_nil(op, 0);
        key->value = key->nil ? 0 : op->arg[0];
        return true;
    case LF_TYPE_REGISTER:
    case LF_TYPE_STACK:
    case LF_TYPE_QUEUE:
    case LF_TYPE_PQUEUE:
    case LF_TYPE_DEQUE:
        if (mi->role == LF_ROLE_INSERT) {
            key->nil = lf_arg_is_nil(op, 0);
            key->value = key->nil ? 0 : op->arg[0];
            return true;
        }
        if (op->res_kind == LF_K_INT || op->res_kind == LF_K_NIL) {
            key->nil = op->res_kind == LF_K_NIL;
            key->value = key->nil ? 0 : op->res;
            return true;
        }
        return false; /* empty, pending: no value */
    default:
        return false; /* cas-register, counter: no sound value projection */
    }
}

/* ---- search state ---- */

typedef struct minimizer {
    const lf_minimize_options *o;
    lf_minimize_stats *st;
    double deadline; /* 0: none */
    bool exhausted;  /* a budget ran out: stop trying */
    size_t unknown;  /* checks that answered unknown (a per-check budget ran out) */
    /* Checked against something other than a built-in spec (a custom type, o->check.spec, a self-spec): only
     * the reductions that hold for every specification apply, the prefix cut and dropping ops of methods
     * declared observers (LF_MF_OBSERVER), whole keys when every op is of a method declared keyed
     * (LF_MF_KEYED), and the generic forced state (drop_initial_prefix); whole values, forced states and the
     * counter's inc shifts and lost-update witness are facts of the built-in types' specs. The first
     * impossible return is kept in both modes (kept_for_good). */
    bool generic;
} minimizer;

/* The ops of the first impossible return: never removed once it is known. Stamps identify them in every
 * later candidate (reductions remove ops, they never move one). */
static bool kept_for_good(const minimizer *m, const lf_op *op) {
    return m->st->first_bad && !lf_op_pending(op) && op->ret == m->st->first_bad_stamp;
}

/* Whether op may be dropped as state-preserving in a minimisation of h. */
static bool preserves_state(const minimizer *m, const lf_history *h, const lf_op *op) {
    if (!m->generic) return lf_op_state_preserving(h->type, op);
    const lf_method_decl *d = lf_history_method(h, op->method);
    return d && (d->flags & LF_MF_OBSERVER);
}

/* out := an empty history of h's type and initial value. */
static bool init_like(lf_history *out, const lf_history *h) {
    lf_history_init(out, h->type);
    out->has_init = h->has_init;
    out->init_kind = h->init_kind;
    out->init = h->init;
    out->capacity = h->capacity;
    out->contract = h->contract;
    return lf_history_set_type_of(out, h);
}


/* Whether candidate is a violation; false when a budget is spent (and from then on). */
static bool is_violation(minimizer *m, const lf_history *candidate) {
    if (m->exhausted) return false;
    size_t max_checks = m->o->max_checks ? m->o->max_checks : LF_MINIMIZE_DEFAULT_CHECKS;
    if (m->st->checks >= max_checks || (m->deadline > 0 && lf_now_s() > m->deadline)) {
        m->exhausted = true;
        return false;
    }
    m->st->checks++;
    lf_result r;
    lf_result_init(&r);
    lf_check(candidate, &m->o->check, &r);
    bool violation = r.verdict == LF_VIOLATION;
    m->unknown += r.verdict == LF_UNKNOWN;
    lf_result_free(&r);
    return violation;
}

/* A removable item: a group of ops of cur (a whole value, or one state-preserving op). */
typedef struct item {
    size_t first, count; /* range in the members array */
    bool removed;
} item;

typedef struct key_ref {
    lf_value_key key;
    uint32_t op;
} key_ref;

static int cmp_key_ref(const void *pa, const void *pb) {
    const key_ref *a = pa, *b = pb;
    if (a->key.nil != b->key.nil) return a->key.nil ? 1 : -1;
    if (a->key.value != b->key.value) return a->key.value < b->key.value ? -1 : 1;
    return a->op < b->op ? -1 : a->op > b->op;
}

/* Builds the candidate made of the ops of cur selected by keep. Returns false when out of memory; *admissible
 * false: the candidate breaks a rule of the reduction and must not even be checked. */
typedef bool (*build_fn)(const lf_history *cur, const bool *keep, lf_history *out, bool *admissible);

static bool build_select(const lf_history *cur, const bool *keep, lf_history *out, bool *admissible) {
    *admissible = true;
    return lf_history_select(out, cur, keep);
}

/* Delta debugging over items: tries to remove chunks of n/2, n/4, ..., 1 items; a removal is kept when the
 * rest (as build makes it) is still a violation. keep[] (ops of cur) is updated; returns the number of items
 * removed, or SIZE_MAX when memory runs out. */
static size_t reduce_items(minimizer *m, const lf_history *cur, bool *keep, item *items, size_t n_items,
                           const uint32_t *members, build_fn build) {
    size_t removed_items = 0;
    bool *trial = malloc((cur->n ? cur->n : 1) * sizeof *trial);
    if (!trial) return SIZE_MAX;
    for (size_t size = (n_items + 1) / 2; size >= 1 && !m->exhausted; size /= 2) {
        for (size_t start = 0; start < n_items && !m->exhausted; start += size) {
            size_t end = start + size < n_items ? start + size : n_items, live = 0;
            memcpy(trial, keep, cur->n * sizeof *trial);
            for (size_t i = start; i < end; i++) {
                if (items[i].removed) continue;
                live++;
                for (size_t k = 0; k < items[i].count; k++) trial[members[items[i].first + k]] = false;
            }
            if (!live) continue;
            lf_history cand;
            bool admissible;
            if (!build(cur, trial, &cand, &admissible)) {
                free(trial);
                return SIZE_MAX;
            }
            if (admissible && is_violation(m, &cand)) {
                memcpy(keep, trial, cur->n * sizeof *keep);
                for (size_t i = start; i < end; i++)
                    if (!items[i].removed) {
                        items[i].removed = true;
                        removed_items++;
                    }
            }
            lf_history_free(&cand);
        }
        if (size == 1) break;
    }
    free(trial);
    return removed_items;
}

/* Replaces *cur by the candidate that build makes of the ops selected in keep. */
static bool apply_keep(lf_history *cur, const bool *keep, build_fn build) {
    lf_history next;
    bool admissible;
    if (!build(cur, keep, &next, &admissible)) return false;
    lf_history_free(cur);
    *cur = next;
    return true;
}

/* One pass of whole-value dropping. Returns values removed, or SIZE_MAX when out of memory. Not for bounded
 * containers: a value's ops change the size, and with it which full answers are legal (capacity 1:
 * `enq 1; enq 2 -> full; deq -> 1` is linearizable, without value 1 it is not). */
static size_t drop_values(minimizer *m, lf_history *cur) {
    /* Lagging and quiescent full/empty answers (docs/contracts.md) are judged by counting every value: a value's ops
     * change the counts too. */
    if (cur->capacity || cur->contract.full_empty != LF_FULL_EMPTY_EXACT) return 0;
    size_t n = cur->n, n_refs = 0;
    if (m->generic) { /* only keys, and only when every op is keyed (P-compositionality, [Horn15]) */
        for (size_t i = 0; i < n; i++) {
            const lf_method_decl *d = lf_history_method(cur, cur->ops[i].method);
            if (!d || !(d->flags & LF_MF_KEYED)) return 0;
        }
    }
    key_ref *refs = malloc((n ? n : 1) * sizeof *refs);
    if (!refs) return SIZE_MAX;
    for (size_t i = 0; i < n; i++) {
        lf_value_key k;
        if (m->generic) {
            k.nil = lf_arg_is_nil(&cur->ops[i], 0);
            k.value = k.nil ? 0 : cur->ops[i].arg[0];
            refs[n_refs++] = (key_ref){k, (uint32_t)i};
        } else if (lf_op_value_key(cur->type, &cur->ops[i], &k)) {
            refs[n_refs++] = (key_ref){k, (uint32_t)i};
        }
    }
    qsort(refs, n_refs, sizeof *refs, cmp_key_ref);
    /* A value that the first impossible return belongs to stays whole: leave its ops out of the items. */
    size_t w = 0;
    for (size_t a = 0, b; a < n_refs; a = b) {
        bool stays = false;
        for (b = a; b < n_refs && cmp_key_ref(&(key_ref){refs[b].key, 0}, &(key_ref){refs[a].key, 0}) == 0; b++)
            stays = stays || kept_for_good(m, &cur->ops[refs[b].op]);
        for (size_t k = a; k < b && !stays; k++) refs[w++] = refs[k];
    }
    n_refs = w;
    item *items = malloc((n_refs ? n_refs : 1) * sizeof *items);
    uint32_t *members = malloc((n_refs ? n_refs : 1) * sizeof *members);
    bool *keep = malloc((n ? n : 1) * sizeof *keep);
    size_t n_items = 0, result = SIZE_MAX;
    if (items && members && keep) {
        for (size_t i = 0; i < n_refs; i++) {
            members[i] = refs[i].op;
            if (i == 0 || cmp_key_ref(&(key_ref){refs[i].key, 0}, &(key_ref){refs[i - 1].key, 0}) != 0)
                items[n_items++] = (item){.first = i, .count = 0};
            items[n_items - 1].count++;
        }
        for (size_t i = 0; i < n; i++) keep[i] = true;
        result = reduce_items(m, cur, keep, items, n_items, members, build_select);
        if (result != SIZE_MAX && result && !apply_keep(cur, keep, build_select)) result = SIZE_MAX;
    }
    free(refs);
    free(items);
    free(members);
    free(keep);
    return result;
}

/* One pass of dropping single ops, each op for which eligible says so an item of its own; build makes a
 * candidate. Returns ops removed, or SIZE_MAX when out of memory. */
static size_t drop_single_ops(minimizer *m, lf_history *cur, bool (*eligible)(const minimizer *, const lf_history *, size_t),
                              build_fn build) {
    size_t n = cur->n, n_items = 0, result = SIZE_MAX;
    item *items = malloc((n ? n : 1) * sizeof *items);
    uint32_t *members = malloc((n ? n : 1) * sizeof *members);
    bool *keep = malloc((n ? n : 1) * sizeof *keep);
    if (items && members && keep) {
        for (size_t i = 0; i < n; i++) {
            keep[i] = true;
            if (!eligible(m, cur, i)) continue;
            members[n_items] = (uint32_t)i;
            items[n_items] = (item){.first = n_items, .count = 1};
            n_items++;
        }
        result = reduce_items(m, cur, keep, items, n_items, members, build);
        if (result != SIZE_MAX && result && !apply_keep(cur, keep, build)) result = SIZE_MAX;
    }
    free(items);
    free(members);
    free(keep);
    return result;
}

/* A state-preserving op that nothing keeps. */
static bool observer_droppable(const minimizer *m, const lf_history *cur, size_t i) {
    return preserves_state(m, cur, &cur->ops[i]) && !kept_for_good(m, &cur->ops[i]);
}

/* One pass of state-preserving op dropping. Returns ops removed, or SIZE_MAX when out of memory. */
static size_t drop_observers(minimizer *m, lf_history *cur) {
    return drop_single_ops(m, cur, observer_droppable, build_select);
}

/* The prefix of h made of every event stamped <= cut: ops returned by then are kept, ops called by then
 * become pending, later ops are dropped. */
static bool prefix_at(const lf_history *h, uint64_t cut, lf_history *out, size_t *n_cut, size_t *n_pending) {
    *n_cut = *n_pending = 0;
    if (!init_like(out, h)) {
        lf_history_free(out);
        return false;
    }
    for (size_t i = 0; i < h->n; i++) {
        lf_op op = h->ops[i];
        if (op.call > cut) {
            (*n_cut)++;
            continue;
        }
        if (!lf_op_pending(&op) && op.ret > cut) {
            lf_op_make_pending(&op);
            (*n_pending)++;
        }
        if (!lf_history_push(out, &op)) {
            lf_history_free(out);
            return false;
        }
    }
    return true;
}

static int cmp_u64(const void *pa, const void *pb) {
    uint64_t a = *(const uint64_t *)pa, b = *(const uint64_t *)pb;
    return a < b ? -1 : a > b;
}

/* Binary search for the shortest violating prefix (violations are prefix-closed, so the predicate is monotone
 * in the cut). Returns 1 when cur was cut, 0 when not, -1 when out of memory. */
static int cut_prefix(minimizer *m, lf_history *cur) {
    size_t n_rets = 0;
    uint64_t *rets = malloc((cur->n ? cur->n : 1) * sizeof *rets);
    if (!rets) return -1;
    for (size_t i = 0; i < cur->n; i++)
        if (!lf_op_pending(&cur->ops[i])) rets[n_rets++] = cur->ops[i].ret;
    qsort(rets, n_rets, sizeof *rets, cmp_u64);
    int status = 0;
    size_t unknown_before = m->unknown;
    if (n_rets) {
        size_t lo = 0, hi = n_rets - 1, n_cut, n_pending;
        lf_history cand;
        /* The longest candidate is not always cur itself (pending ops called after the last return). */
        if (!prefix_at(cur, rets[hi], &cand, &n_cut, &n_pending)) {
            free(rets);
            return -1;
        }
        bool top_ok = (n_cut == 0 && n_pending == 0) || is_violation(m, &cand);
        lf_history_free(&cand);
        while (top_ok && lo < hi && !m->exhausted) {
            size_t mid = lo + (hi - lo) / 2;
            if (!prefix_at(cur, rets[mid], &cand, &n_cut, &n_pending)) {
                free(rets);
                return -1;
            }
            if (is_violation(m, &cand))
                hi = mid;
            else
                lo = mid + 1;
            lf_history_free(&cand);
        }
        /* hi is a verified violating cut (or the top, which is cur or was verified): its return is the first
         * impossible one, unless a budget stopped the search half-way or a check could not decide (then it is
         * only some violating cut, and nothing is claimed of it). */
        if (top_ok && !m->exhausted && m->unknown == unknown_before) {
            m->st->first_bad = true;
            m->st->first_bad_stamp = rets[hi];
        }
        if (top_ok) {
            if (!prefix_at(cur, rets[hi], &cand, &n_cut, &n_pending)) {
                free(rets);
                return -1;
            }
            if (n_cut || n_pending) {
                lf_history_free(cur);
                *cur = cand;
                m->st->cut = true;
                m->st->cut_stamp = rets[hi];
                m->st->ops_cut += n_cut;
                m->st->ops_made_pending += n_pending;
                status = 1;
            } else {
                lf_history_free(&cand);
            }
        }
    }
    free(rets);
    return status;
}

/* Whether op leaves the object in a state that does not depend on anything before it, and is legal as the
 * first op on the initial state (so that the suffix it starts needs no other initial state): a register
 * write; an empty result of a collection; for a set or kv history on a single key, a result that says the
 * key was absent (add -> true, remove/delete -> false, contains -> false, get -> nil) or a put. */
static bool forces_state(lf_type t, const lf_op *op, bool single_key) {
    if (lf_op_pending(op)) return false;
    switch (t) {
    case LF_TYPE_REGISTER:
    case LF_TYPE_CAS_REGISTER: return op->method == LF_M_WRITE;
    case LF_TYPE_STACK:
    case LF_TYPE_QUEUE:
    case LF_TYPE_PQUEUE:
    case LF_TYPE_DEQUE: return op->res_kind == LF_K_EMPTY;
    case LF_TYPE_SET:
        return single_key && ((op->method == LF_M_ADD && op->res_kind == LF_K_TRUE) ||
                              (op->method != LF_M_ADD && op->res_kind == LF_K_FALSE));
    case LF_TYPE_KV:
        return single_key && (op->method == LF_M_PUT || (op->method == LF_M_GET && op->res_kind == LF_K_NIL) ||
                              (op->method == LF_M_DELETE && op->res_kind == LF_K_FALSE));
    default: return false;
    }
}

/* Set and kv: every op of h is on the same key (the other keys' states would not be forced). */
static bool single_key(const lf_history *h) {
    for (size_t i = 1; i < h->n; i++)
        if (h->ops[i].arg[0] != h->ops[0].arg[0] || lf_arg_is_nil(&h->ops[i], 0) != lf_arg_is_nil(&h->ops[0], 0))
            return false;
    return true;
}

/* The suffix of h from op `from` on: that op and every op called after it. */
static bool suffix_from(const lf_history *h, size_t from, lf_history *out, size_t *n_dropped) {
    *n_dropped = 0;
    if (!init_like(out, h)) {
        lf_history_free(out);
        return false;
    }
    for (size_t i = 0; i < h->n; i++) {
        if (i != from && h->ops[i].call <= h->ops[from].call) {
            (*n_dropped)++;
            continue;
        }
        if (!lf_history_push(out, &h->ops[i])) {
            lf_history_free(out);
            return false;
        }
    }
    return true;
}

/* Replaces cur by its suffix from op `point` on, noting it in the statistics: 1 when replaced, 0 when the suffix
 * drops nothing and only_if_shorter, -1 when out of memory. */
static int take_suffix(minimizer *m, lf_history *cur, size_t point, bool only_if_shorter) {
    lf_history cand;
    size_t dropped;
    if (!suffix_from(cur, point, &cand, &dropped)) return -1;
    if (!dropped && only_if_shorter) {
        lf_history_free(&cand);
        return 0;
    }
    m->st->suffix = true;
    m->st->suffix_stamp = cur->ops[point].call;
    m->st->ops_before_suffix += dropped;
    lf_history_free(cur);
    *cur = cand;
    return 1;
}

#define LF_SUFFIX_NOMEM (-2L)

/* Binary search for the latest of points[0..n) (ascending) whose suffix of cur is a violation; a suffix that
 * drops nothing counts as one when empty_is_violation (it is cur itself). -1 when none, LF_SUFFIX_NOMEM when out
 * of memory. Stops early, with what it has, when the minimizer's budget is exhausted. */
static long latest_violating_suffix(minimizer *m, const lf_history *cur, const size_t *points, size_t n,
                                    bool empty_is_violation) {
    long lo = -1, hi = (long)n - 1;
    while (lo < hi && !m->exhausted) {
        long mid = lo + (hi - lo + 1) / 2;
        lf_history cand;
        size_t dropped;
        if (!suffix_from(cur, points[mid], &cand, &dropped)) return LF_SUFFIX_NOMEM;
        bool violation = dropped == 0 ? empty_is_violation : is_violation(m, &cand);
        lf_history_free(&cand);
        if (violation)
            lo = mid;
        else
            hi = mid - 1;
    }
    return lo;
}

/* Drops everything before the latest quiescent state-forcing op that leaves a violation. At a quiescent op F
 * (every other op returned before F's call or was called after F's return) that forces the state, every
 * linearisation of the history passes through F with the same state after it, so the history is a violation
 * whenever the suffix from F is. Later such points give shorter suffixes, and a violating suffix makes every
 * longer one a violation, so the search is a binary search. Returns 1 when cur was cut, 0 if not, -1 on OOM. */
static int drop_forced_prefix(minimizer *m, lf_history *cur) {
    /* a lagging or quiescent empty answer forces nothing: values may be inside (docs/contracts.md) */
    if (cur->contract.full_empty != LF_FULL_EMPTY_EXACT) return 0;
    size_t n = cur->n, n_points = 0;
    size_t *points = malloc((n ? n : 1) * sizeof *points);
    if (!points) return -1;
    bool one_key = single_key(cur);
    for (size_t i = 0; i < n; i++) {
        const lf_op *f = &cur->ops[i];
        if (!forces_state(cur->type, f, one_key)) continue;
        bool quiescent = true;
        for (size_t j = 0; j < n && quiescent; j++)
            if (j != i) quiescent = lf_precedes(&cur->ops[j], f) || lf_precedes(f, &cur->ops[j]);
        if (quiescent) points[n_points++] = i;
    }
    /* quiescent ops are totally ordered in time: sort by call */
    for (size_t a = 1; a < n_points; a++) {
        size_t v = points[a], b = a;
        while (b > 0 && cur->ops[points[b - 1]].call > cur->ops[v].call) {
            points[b] = points[b - 1];
            b--;
        }
        points[b] = v;
    }
    /* the latest point whose suffix is a violation (lo: a known violating one, -1 = cur itself) */
    /* a suffix that drops nothing is cur itself, a violation: the predicate stays monotone */
    long lo = latest_violating_suffix(m, cur, points, n_points, true);
    if (lo == LF_SUFFIX_NOMEM) {
        free(points);
        return -1;
    }
    int status = lo >= 0 ? take_suffix(m, cur, points[lo], true) : 0;
    free(points);
    return status;
}

/* ---- counters: incs that every get orders ---- */

/* Whether the counter reductions (inc shifts, the lost-update witness) apply to cur: only under the built-in
 * counter spec. A custom spec or the self-spec of a counter adapter need not count: an inc that every get
 * orders may matter to it in other ways, and "get -> v with more than v incs before" certifies nothing. */
static bool counter_shifts(const minimizer *m, const lf_history *cur) {
    return cur->type == LF_TYPE_COUNTER && m->o->shift_counters && !m->generic;
}

/* Whether inc op i of a counter history is ordered in real time with every get (so that every linearisation
 * puts it between the same gets). */
static bool inc_ordered_with_gets(const lf_history *h, size_t i) {
    const lf_op *inc = &h->ops[i];
    if (inc->method != LF_M_INC || lf_op_pending(inc)) return false;
    for (size_t j = 0; j < h->n; j++) {
        const lf_op *g = &h->ops[j];
        if (g->method == LF_M_GET && !lf_precedes(inc, g) && !lf_precedes(g, inc)) return false;
    }
    return true;
}

typedef struct span {
    uint64_t call, ret; /* ret UINT64_MAX: pending */
} span;

static int cmp_span(const void *pa, const void *pb) {
    const span *a = pa, *b = pb;
    return a->call < b->call ? -1 : a->call > b->call;
}

/* Whether two incs of h selected by keep (NULL: all) overlap in time (neither precedes the other). -1 when out
 * of memory. */
static int incs_overlap(const lf_history *h, const bool *keep) {
    span *s = malloc((h->n ? h->n : 1) * sizeof *s);
    if (!s) return -1;
    size_t n = 0;
    for (size_t i = 0; i < h->n; i++)
        if ((!keep || keep[i]) && h->ops[i].method == LF_M_INC)
            s[n++] = (span){h->ops[i].call, lf_op_pending(&h->ops[i]) ? UINT64_MAX : h->ops[i].ret};
    qsort(s, n, sizeof *s, cmp_span);
    int overlap = 0;
    uint64_t latest_ret = 0;
    for (size_t i = 0; i < n && !overlap; i++) {
        /* an earlier inc (by call) that has not returned before this call overlaps it */
        if (i > 0 && s[i].call <= latest_ret) overlap = 1;
        if (s[i].ret > latest_ret) latest_ret = s[i].ret;
    }
    free(s);
    return overlap;
}

/* The counter candidate: the ops kept, every get lowered by the dropped incs that precede it. Admissible
 * when no get goes below 0, and two incs still overlap if two overlapped before (see minimize.h). */
static bool build_shifted(const lf_history *cur, const bool *keep, lf_history *out, bool *admissible) {
    if (!lf_history_select(out, cur, keep)) return false;
    *admissible = true;
    for (size_t j = 0, k = 0; j < cur->n; j++) {
        if (!keep[j]) continue;
        lf_op *g = &out->ops[k++];
        if (g->method != LF_M_GET || g->res_kind != LF_K_INT) continue;
        int64_t lower = 0;
        for (size_t i = 0; i < cur->n; i++)
            if (!keep[i] && cur->ops[i].method == LF_M_INC && lf_precedes(&cur->ops[i], &cur->ops[j])) lower++;
        if (g->res < lower) *admissible = false;
        g->res -= lower;
    }
    int before = incs_overlap(cur, NULL), after = before > 0 ? incs_overlap(cur, keep) : 0;
    if (before < 0 || after < 0) {
        lf_history_free(out);
        return false;
    }
    if (before && !after) *admissible = false;
    return true;
}

static bool inc_droppable(const minimizer *m, const lf_history *cur, size_t i) {
    (void)m;
    return inc_ordered_with_gets(cur, i);
}

/* One pass of dropping counter incs ordered with every get. Returns incs removed, or SIZE_MAX when out of
 * memory. */
static size_t shift_incs(minimizer *m, lf_history *cur) { return drop_single_ops(m, cur, inc_droppable, build_shifted); }

/* A lost update, certified: the first impossible return is a get that returned v while more than v incs had
 * returned before it was called. Any history with that get and v' < (incs returned before it) is a violation
 * for the same reason, and every such history of the run's ops proves the run a violation by it; the smallest
 * that still shows a race is two incs that overlap each other, both returned before the get, and the get
 * lowered to 1 (one inc, get -> 0, when no two of them overlap). Of the overlapping pairs, the one that
 * returned last before the get. Which two incs lost the update is not in the history: these are a pair that
 * could have. Returns 1 when cur was replaced, 0 when the certificate does not hold, -1 when out of memory. */
static int lost_update_witness(minimizer *m, lf_history *cur) {
    size_t x = SIZE_MAX;
    for (size_t i = 0; i < cur->n; i++)
        if (kept_for_good(m, &cur->ops[i])) {
            if (x != SIZE_MAX) return 0; /* several ops return there: leave it to the other reductions */
            x = i;
        }
    if (x == SIZE_MAX || cur->ops[x].method != LF_M_GET || cur->ops[x].res_kind != LF_K_INT) return 0;
    const lf_op *g = &cur->ops[x];
    int64_t done = 0;
    size_t a = SIZE_MAX, b = SIZE_MAX, last = SIZE_MAX;
    for (size_t i = 0; i < cur->n; i++) {
        const lf_op *inc = &cur->ops[i];
        if (inc->method != LF_M_INC || !lf_precedes(inc, g)) continue;
        done++;
        if (last == SIZE_MAX || inc->ret > cur->ops[last].ret) last = i;
        for (size_t j = 0; j < i; j++) {
            const lf_op *o = &cur->ops[j];
            if (o->method != LF_M_INC || !lf_precedes(o, g) || lf_precedes(o, inc) || lf_precedes(inc, o)) continue;
            uint64_t later = inc->ret > o->ret ? inc->ret : o->ret;
            if (a == SIZE_MAX || later > (cur->ops[a].ret > cur->ops[b].ret ? cur->ops[a].ret : cur->ops[b].ret))
                a = j, b = i;
        }
    }
    if (g->res >= done || cur->n <= (a != SIZE_MAX ? 3u : 2u)) return 0; /* no certificate, or nothing to gain */
    bool *keep = calloc(cur->n, sizeof *keep);
    if (!keep) return -1;
    keep[x] = true;
    if (a != SIZE_MAX)
        keep[a] = keep[b] = true;
    else
        keep[last] = true;
    lf_history cand;
    bool ok = lf_history_select(&cand, cur, keep);
    free(keep);
    if (!ok) return -1;
    size_t removed = cur->n - cand.n;
    for (size_t i = 0; i < cand.n; i++)
        if (cand.ops[i].method == LF_M_GET) cand.ops[i].res = a != SIZE_MAX ? 1 : 0;
    if (!is_violation(m, &cand)) { /* cannot be: the certificate holds in it */
        lf_history_free(&cand);
        return 0;
    }
    lf_history_free(cur);
    *cur = cand;
    m->st->lost_update = true;
    m->st->lost_update_dropped = removed;
    return 1;
}

#define PREFIX_STEPS 200000 /* spec steps to explore one prefix */
#define PREFIX_POINTS 32    /* quiescent points examined, the latest first */

/* The generic counterpart of drop_forced_prefix (any spec, the self-spec included): drops everything before
 * the latest quiescent point whose prefix returns to the initial state in every linearisation
 * (minimize/initial_prefix.h) and whose suffix is still a violation. Among such points a later violating
 * suffix makes every earlier one violating (the ops between two points return to the initial state too), so
 * the search is a binary search. Returns 1 when cur was cut, 0 if not, -1 on OOM. */
static int drop_initial_prefix(minimizer *m, lf_history *cur) {
    const lf_check_options *co = &m->o->check;
    const void *user = co->spec_user;
    const lf_spec *spec = co->self ? lf_selfspec_as_spec(co->self, &user) : co->spec ? co->spec
                                                                                     : lf_spec_of_history(cur);
    if (!spec) return 0;
    size_t n = cur->n, n_points = 0;
    size_t *points = malloc((n ? n : 1) * sizeof *points);
    lf_op *prefix = malloc((n ? n : 1) * sizeof *prefix);
    if (!points || !prefix) {
        free(points);
        free(prefix);
        return -1;
    }
    /* quiescent call points, latest first: every other op returned before, or is called after */
    for (size_t i = 0; i < n; i++) {
        const lf_op *f = &cur->ops[i];
        bool quiescent = true;
        for (size_t j = 0; j < n && quiescent; j++)
            if (j != i) quiescent = lf_precedes(&cur->ops[j], f) || cur->ops[j].call > f->call;
        if (quiescent) points[n_points++] = i;
    }
    for (size_t a = 1; a < n_points; a++) { /* by call, descending */
        size_t v = points[a], b = a;
        while (b > 0 && cur->ops[points[b - 1]].call < cur->ops[v].call) {
            points[b] = points[b - 1];
            b--;
        }
        points[b] = v;
    }
    /* keep the points whose prefix returns to the initial state (and drops something), in ascending call order */
    size_t kept = 0;
    lf_spec_env env;
    lf_spec_env_of_history(cur, &env);
    env.user = user;
    for (size_t k = 0; k < n_points && k < PREFIX_POINTS && !m->exhausted; k++) {
        const lf_op *f = &cur->ops[points[k]];
        size_t np = 0;
        for (size_t j = 0; j < n; j++)
            if (lf_precedes(&cur->ops[j], f)) prefix[np++] = cur->ops[j];
        if (np == 0 || np > LF_PREFIX_MAX_OPS) continue;
        env.ops = prefix;
        env.n = np;
        if (lf_prefix_returns_to_initial(spec, &env, PREFIX_STEPS) == 1) points[kept++] = points[k];
    }
    for (size_t a = 0; a < kept / 2; a++) { /* ascending */
        size_t t = points[a];
        points[a] = points[kept - 1 - a];
        points[kept - 1 - a] = t;
    }
    long lo = latest_violating_suffix(m, cur, points, kept, false);
    if (lo == LF_SUFFIX_NOMEM) {
        free(points);
        free(prefix);
        return -1;
    }
    int status = lo >= 0 ? take_suffix(m, cur, points[lo], false) : 0;
    free(points);
    free(prefix);
    return status;
}

/* Values, state-preserving ops and (counters) ordered incs, in turn, until a round removes nothing. */
static bool reduce_to_fixpoint(minimizer *m, lf_history *cur) {
    bool counter = counter_shifts(m, cur);
    for (;;) {
        size_t v = drop_values(m, cur);
        if (v == SIZE_MAX) return false;
        size_t s = drop_observers(m, cur);
        if (s == SIZE_MAX) return false;
        size_t c = counter ? shift_incs(m, cur) : 0;
        if (c == SIZE_MAX) return false;
        m->st->values_dropped += v;
        m->st->observers_dropped += s;
        m->st->incs_dropped += c;
        /* Dropping observers can free a value and vice versa (and a dropped get can free an inc); stop when
         * a full round changes nothing. */
        if ((v == 0 && s == 0 && c == 0) || m->exhausted) return true;
    }
}

/* A bounded history that is a violation even without its capacity and its full answers: that unbounded
 * history replaces it (minimize.h: full answers are state-preserving, and an unbounded violation is a bounded
 * one), so that whole values can go. Not when the first impossible return is a full answer (then the capacity
 * is what went wrong). Returns 1 when cur was replaced, 0 if not, -1 when out of memory. */
static int drop_capacity(minimizer *m, lf_history *cur) {
    bool *keep = malloc((cur->n ? cur->n : 1) * sizeof *keep);
    if (!keep) return -1;
    size_t fulls = 0;
    for (size_t i = 0; i < cur->n; i++) {
        keep[i] = cur->ops[i].res_kind != LF_K_FULL;
        fulls += !keep[i];
        if (!keep[i] && kept_for_good(m, &cur->ops[i])) {
            free(keep);
            return 0;
        }
    }
    lf_history unbounded;
    if (!lf_history_select(&unbounded, cur, keep)) {
        free(keep);
        return -1;
    }
    free(keep);
    unbounded.capacity = 0;
    if (!is_violation(m, &unbounded)) {
        lf_history_free(&unbounded);
        return 0;
    }
    lf_history_free(cur);
    *cur = unbounded;
    m->st->capacity_dropped = fulls;
    m->st->unbounded = true;
    return 1;
}

lf_verdict lf_minimize(const lf_history *h, const lf_minimize_options *o, lf_history *out, lf_minimize_stats *stats) {
    lf_minimize_stats local;
    if (!stats) stats = &local;
    memset(stats, 0, sizeof *stats);
    minimizer m = {.o = o, .st = stats, .deadline = o->timeout_s > 0 ? lf_now_s() + o->timeout_s : 0};
    m.generic = h->type == LF_TYPE_CUSTOM || o->check.spec || o->check.self;

    lf_result r;
    lf_result_init(&r);
    lf_check(h, &o->check, &r);
    lf_verdict verdict = r.verdict;
    lf_result_free(&r);
    stats->checks = 1;
    if (!lf_history_copy(out, h)) {
        lf_history_free(out);
        lf_history_init(out, h->type);
        return LF_UNKNOWN;
    }
    if (verdict != LF_VIOLATION) return verdict;

    /* The cut first, on the history as recorded: its first impossible return is what went wrong first, and
     * the reductions after it keep that return (kept_for_good). */
    bool ok = true;
    if (o->cut_prefix) ok = cut_prefix(&m, out) >= 0;
    if (ok && counter_shifts(&m, out) && !m.exhausted) ok = lost_update_witness(&m, out) >= 0;
    if (ok && out->capacity && !m.exhausted) ok = drop_capacity(&m, out) >= 0;
    if (ok) ok = reduce_to_fixpoint(&m, out);
    if (ok && o->drop_forced_prefix && !m.exhausted) {
        int cut = m.generic ? drop_initial_prefix(&m, out) : drop_forced_prefix(&m, out);
        ok = cut >= 0;
        if (cut > 0) ok = reduce_to_fixpoint(&m, out);
    }
    if (!ok) {
        /* Out of memory half-way: out is still a verified violation (each step replaced it only with one). */
        stats->complete = false;
        return LF_VIOLATION;
    }
    stats->complete = !m.exhausted;
    return LF_VIOLATION;
}
