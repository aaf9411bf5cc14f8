/* Sound minimisation of a non-linearizable history ([Cirisci20]).
 *
 * Deleting arbitrary operations from a history can invent violations (drop a push and a later pop looks
 * impossible), so the minimiser only uses reductions R with the property "R(H) non-linearizable implies H
 * non-linearizable". Every history it returns is therefore a genuine proof of the violation in H:
 *
 *  - drop a whole value: the insert(s) of value v together with every op that returned or observed v
 *    (register, stack, queue, pqueue, deque), or every op on key k (set, kv: P-compositionality). Projecting a
 *    legal sequential history of these types onto the other values leaves it legal, so a linearizable H
 *    would give a linearizable R(H). Not for bounded containers (a capacity): a value's ops change the
 *    size, and with it which "full" answers are legal; nor under lagging or quiescent full/empty answers
 *    (docs/contracts.md), which are judged by counting every value;
 *  - drop a state-preserving op: an observer (read, contains, peek, get) or an update whose result says it
 *    did nothing (add/remove/delete -> false, pop/deq/poll -> empty, cas -> fail, push/enq/insert -> full).
 *    Removing such an op from
 *    a witness leaves the witness legal;
 *  - cut a prefix by time (optional): linearizability is prefix-closed, so the shortest prefix of events that
 *    is still a violation ends at the first impossible return; ops in flight at the cut become pending;
 *  - on a counter, drop an inc that is ordered in real time with every get (it returned before the get was
 *    called, or was called after the get returned), lowering by one the result of every get it precedes:
 *    every linearisation places such an inc between the same gets, so the smaller history is linearizable
 *    exactly when the larger one is (both directions are proved in docs/fuzzing.md);
 *  - on a counter whose first impossible return is a get that returned v although more than v incs returned
 *    before it was called (a lost update), keep that get and two overlapping incs that returned before it (one
 *    inc when none overlap), the get lowered to 1 (0): the same certificate makes both histories violations;
 *  - drop the capacity of a bounded history, with its full answers, when what is left is a violation of the
 *    unbounded type (and the first impossible return is not a full answer): full answers are
 *    state-preserving (dropping them is sound), and a legal bounded sequence without full answers is a legal
 *    unbounded one, so an unbounded violation is a bounded one. The rest of the minimisation (value drops
 *    included) then works on the unbounded history;
 *  - drop everything before a forced state (optional): at a quiescent op (every other op returned before
 *    it was called or was called after it returned) that fixes the state whatever came before and is legal
 *    on the initial state (a register write; an empty result of a stack, queue, pqueue or deque; on a set or
 *    kv history of one key, a result saying the key was absent, or a put), every linearisation passes through
 *    that same state, so a violating suffix from there proves the whole history a violation (not under lagging
 *    or quiescent full/empty answers, where an empty answer forces nothing).
 *
 * Contracts (docs/contracts.md): a relaxed order keeps every reduction above (dropping a value only brings the
 * others nearer the front, never out of reach); lagging and quiescent full/empty answers keep the cut, the
 * state-preserving ops and the capacity drop.
 *
 * A reduction is kept only when the checker says "violation" for the smaller history; "unknown" (a budget ran
 * out) keeps the larger one, so budgets only make the result less minimal, never unsound. cas-register and
 * counter histories have no value reduction (a cas or an inc is meaningful only with all the others).
 *
 * Keeping the bug, not a consequence: with the prefix cut on, the cut comes first, on the recorded history,
 * and the ops whose return is the first impossible one are never removed afterwards. Every reduction above
 * keeps a linearizable history linearizable, and the cut history without that return is linearizable, so the
 * minimised history is still impossible exactly at that return: the first thing that went wrong in the run,
 * not a later symptom of the damage (a drain that finds a value missing). Counters stop dropping incs before
 * a get would return a negative count, and keep two overlapping incs when the history has any: the race that
 * loses an update needs two incs in flight, and which two raced is not written in the history.
 *
 * Any other specification (a custom type, check.spec, the self-spec check.self): the values, state-preserving
 * results and forced states above are facts of the built-in specs, so only what holds for every spec is used:
 * the prefix cut, dropping ops of methods declared observers, dropping whole keys when every op's method is
 * declared keyed, and dropping what precedes a quiescent point when every order of the ops before it returns
 * to the initial state. The counter reductions are not tried (shift_counters is ignored). The first
 * impossible return is kept in this mode too. */
#ifndef LINFUZZ_MINIMIZE_H
#define LINFUZZ_MINIMIZE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "linfuzz/check.h"
#include "linfuzz/history.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct lf_minimize_options {
    lf_check_options check; /* how each candidate is checked (engine auto, per-check timeout) */
    bool cut_prefix;        /* also cut at the first impossible return (may leave pending ops) */
    bool drop_forced_prefix; /* also drop what comes before the last quiescent state-forcing op */
    bool shift_counters;    /* counters under the built-in spec: drop incs ordered with every get, lowering the gets
                             * after them, and the lost-update witness */
    size_t max_checks;      /* candidate checks in all; 0: LF_MINIMIZE_DEFAULT_CHECKS */
    double timeout_s;       /* wall-clock budget of the whole minimisation; 0: none */
} lf_minimize_options;

#define LF_MINIMIZE_DEFAULT_CHECKS 20000

typedef struct lf_minimize_stats {
    size_t checks;            /* candidate histories checked */
    size_t values_dropped;    /* whole values (or keys) removed */
    size_t observers_dropped; /* state-preserving ops removed */
    size_t ops_cut;           /* ops removed by the prefix cut (called after it) */
    size_t ops_made_pending;  /* ops in flight at the cut, kept as pending */
    bool cut;                 /* a prefix cut was applied (ops after the first impossible return removed) */
    uint64_t cut_stamp;       /* the cut: the return stamp of the first impossible return */
    bool first_bad;           /* the first impossible return was found (with cut_prefix, unless a budget ran out) */
    uint64_t first_bad_stamp; /* its stamp: the ops returning there are kept, and are the minimised history's
                               * first impossible return too (equal to cut_stamp when cut) */
    size_t incs_dropped;      /* counter incs dropped with the gets after them lowered */
    bool lost_update;         /* counter: replaced by a lost-update witness (below); ... */
    size_t lost_update_dropped; /* ... which dropped this many ops */
    bool suffix;              /* the ops before a forced state were dropped */
    uint64_t suffix_stamp;    /* the call stamp of the op that forces the state (the first op kept) */
    size_t ops_before_suffix; /* ops dropped by that */
    bool complete;            /* no reduction is left to try (false: a budget stopped the search) */
    size_t capacity_dropped;  /* bounded history: its full answers were dropped with the capacity (the
                               * history is a violation even unbounded); 0 when the capacity stayed */
    bool unbounded;           /* a bounded history was minimised without its capacity (see below) */
} lf_minimize_stats;

/* Defaults: engine auto with a 2 s per-check timeout, both cuts and counter shifts on, LF_MINIMIZE_DEFAULT_CHECKS,
 * 60 s. */
void lf_minimize_options_default(lf_minimize_options *o);

/* Minimises h, which should be a violation under o->check. Returns the verdict of h itself: when it is
 * LF_VIOLATION, out (initialised here; free it with lf_history_free) is a violating history obtained from h by
 * the sound reductions above, and usually much smaller; otherwise out is a copy of h. Returns LF_UNKNOWN with
 * out empty when memory runs out. stats may be NULL. */
lf_verdict lf_minimize(const lf_history *h, const lf_minimize_options *o, lf_history *out, lf_minimize_stats *stats);

/* ---- the reductions' building blocks, for tests and triage tools ---- */

/* True when op cannot change the state of its type (see above). Pending ops are state-preserving only when
 * their method is an observer. */
bool lf_op_state_preserving(lf_type t, const lf_op *op);

/* The value (or key) an op belongs to for whole-value dropping: false when the type has no value reduction
 * or the op carries no value (pop -> empty, counter inc, ...). Values are compared with their nil flag. */
typedef struct lf_value_key {
    int64_t value;
    bool nil;
} lf_value_key;
bool lf_op_value_key(lf_type t, const lf_op *op, lf_value_key *key);

#ifdef __cplusplus
}
#endif

#endif
