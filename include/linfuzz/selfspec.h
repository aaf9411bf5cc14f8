/* The self-spec: checking a history with the implementation itself as the sequential specification, after
 * Line-Up ([Burckhardt10]). If a component is meant to be deterministic, its own serial runs are its
 * specification: a concurrent history is linearizable when some order of its ops that respects real time,
 * replayed serially on a fresh instance, returns every recorded result. docs/custom-types.md explains what
 * it can and cannot see, and what it costs.
 *
 * The implementation is reached through an oracle (below): reset to a fresh instance, apply one op and say
 * what it returned, optionally fingerprint the state. The checker never needs the implementation's code or
 * a model of it; the fuzzing layer wraps an adapter into an oracle (runtime/include/runtime/adapter_oracle.h).
 *
 * How a history is checked (lf_selfspec_check, or lf_check with lf_check_options.self):
 *  1. a determinism probe: the history's ops in call order are run serially on a fresh instance, and again
 *     on probe_replays more, and must give the same results (and fingerprints); if not, the answer is unknown
 *     with lf_result.serial_nondeterminism set (category SERIAL_NONDETERMINISM), never a violation;
 *  2. the schedules of the strong d-hitting families ([Ozkan19]), d = 1, 2, ... (each a serial replay), which
 *     can prove the history linearizable and report the depth d of the witness;
 *  3. the complete search (WGL with Lowe's cache) for what the families leave;
 *  4. a violation is classified into Line-Up's two levels (lf_result.level: no serial order gives the
 *     results, or only orders that real time rules out do), naming the ops.
 * Stages 2-4 see the oracle as an lf_spec whose states are nodes of a memo of replayed prefixes: a trie
 * keyed by (state, method, arguments), so each prefix is run on the implementation once per memo (one fuzz
 * case), and with a fingerprint, nodes of equal fingerprint are one state (so the search's cache of
 * (linearized set, state) configurations works as with a written spec). Every time a stored prefix is
 * replayed again (to reach a state on the one live instance), its results and fingerprints are compared
 * with the stored ones: a difference is serial nondeterminism, unless the method is declared LF_MF_NONDET.
 *
 * Method flags (lf_method_decl.flags): LF_MF_NONDET — several results may follow one state; a recorded
 * result is accepted when some serial replay produced it (up to nondet_tries replays per state), and a
 * violation whose search rejected such a result is reported unknown (a rarer result may exist);
 * LF_MF_BLOCKS — the oracle may answer LF_ORACLE_BLOCKED: the op cannot complete in that state (it is
 * ordered after an op that unblocks it, or, pending, never takes effect there); LF_MF_OBSERVER — the
 * search linearizes a legal observer at once (checked against the fingerprint when there is one). */
#ifndef LINFUZZ_SELFSPEC_H
#define LINFUZZ_SELFSPEC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "linfuzz/check.h"
#include "linfuzz/history.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum lf_oracle_status {
    LF_ORACLE_OK,      /* performed; *kind and *value hold its result */
    LF_ORACLE_BLOCKED, /* an LF_MF_BLOCKS method that would block in this state: not performed */
    LF_ORACLE_ERROR,   /* the instance cannot go on (out of memory, ...): reset before the next op */
} lf_oracle_status;

/* The implementation, seen serially. Called from one thread at a time. */
typedef struct lf_oracle {
    void *self;
    /* Discards the current instance and makes a fresh one in the initial state. False on failure. */
    bool (*reset)(void *self);
    /* Performs op (its method, arguments and nil flags; op->thread names the thread that recorded it, which a
     * thread-affine oracle runs it on; stamps and result are to be ignored) on the current instance and
     * writes the result kind (LF_K_NONE for methods without a result) and, for LF_K_INT, the value. */
    lf_oracle_status (*apply)(void *self, const lf_op *op, lf_kind *kind, int64_t *value);
    /* Optional: a fingerprint of the current instance's abstract state. Equal fingerprints must mean equal
     * behaviour from then on (the memo merges such states); NULL: no fingerprint. */
    uint64_t (*fingerprint)(void *self);
} lf_oracle;

typedef struct lf_selfspec_options {
    int hitting_depth;            /* families d = 1..hitting_depth first (0: LF_SELFSPEC_HITTING_DEPTH; -1: none) */
    uint64_t hitting_work_factor; /* their budget: factor x ops^2 steps (0: default; UINT64_MAX: none) */
    size_t hitting_max_size;      /* only histories with ops x width at most this try them (0: default;
                                   * SIZE_MAX: all) */
    unsigned probe_replays;       /* extra serial replays of the call order compared per history (0: no probe) */
    unsigned nondet_tries;        /* serial runs per state to see a result of an LF_MF_NONDET method (>= 1) */
    size_t max_nodes;             /* memo size; a check that needs more answers unknown, and the memo is
                                   * cleared before the next check */
    bool use_fingerprint;         /* merge states by the oracle's fingerprint (default true when it has one) */
    bool classify;                /* classify violations into the two levels (default true) */
} lf_selfspec_options;

#define LF_SELFSPEC_HITTING_DEPTH 3
#define LF_SELFSPEC_HITTING_WORK_FACTOR 8
#define LF_SELFSPEC_HITTING_MAX_SIZE 200
#define LF_SELFSPEC_MAX_NODES ((size_t)1 << 21)

void lf_selfspec_options_default(lf_selfspec_options *o);

/* Counters over every check of one lf_selfspec (benchmarks, tests). */
typedef struct lf_selfspec_stats {
    uint64_t checks;
    uint64_t linearizable, violations, unknown, nondeterministic;
    uint64_t by_hitting[8];  /* linearizable by the families at depth 1..7 (index d; 0 unused) */
    uint64_t by_search;      /* linearizable by the complete search */
    uint64_t level[3];       /* violations by lf_level */
    uint64_t oracle_ops;     /* ops performed on the implementation, all purposes */
    uint64_t new_ops;        /* of which new prefixes (an edge of the memo run for the first time) */
    uint64_t replayed_ops;   /* of which replays of stored prefixes to reach a state (and the probes) */
    uint64_t resets;         /* fresh instances */
    uint64_t steps;          /* spec steps asked by the checkers */
    uint64_t memo_hits;      /* of which answered by the memo without running anything */
    uint64_t nodes;          /* memo nodes made (roots aside) */
    uint64_t merged;         /* of which merged into an earlier node by fingerprint */
} lf_selfspec_stats;

typedef struct lf_selfspec lf_selfspec;

/* A self-spec checker over oracle (which must outlive it). o may be NULL (defaults). NULL when out of memory. */
lf_selfspec *lf_selfspec_new(const lf_oracle *oracle, const lf_selfspec_options *o);
void lf_selfspec_free(lf_selfspec *s);
/* Clears the memo (e.g. for a new fuzz case: other ops, other prefixes). Counters are kept. */
void lf_selfspec_forget(lf_selfspec *s);

/* Checks h against the oracle's serial behaviour (see above). o gives the engine (auto: families then the
 * complete search; hitting: the families alone; wgl: the search alone), timeout, memory and witness
 * options; o->spec is ignored. The oracle starts every replay from its fresh state, so a register history
 * with another initial value (init) answers unknown. r->engine is "self-hitting" or "self-wgl". */
void lf_selfspec_check(lf_selfspec *s, const lf_history *h, const lf_check_options *o, lf_result *r);

const lf_selfspec_stats *lf_selfspec_stats_of(const lf_selfspec *s);

struct lf_spec;
/* The self-spec as an lf_spec, for tools that work on specs (the minimiser explores prefixes with it): *user
 * is the lf_spec_env.user it needs. Its states are nodes of s's memo, valid until the memo is cleared (the next
 * check of another type, lf_selfspec_forget); use it right after checking a history of the type. */
const struct lf_spec *lf_selfspec_as_spec(lf_selfspec *s, const void **user);

/* After a check that found serial nondeterminism (r->serial_nondeterminism): the serial evidence as a
 * history of one thread (thread 0, stamps 1, 2, ...): the ops replayed from a fresh instance, each with the
 * result it gave first, the last one being the op that answered differently on another replay. out is
 * initialised here (of h's type). False when there is none or out of memory. */
bool lf_selfspec_nondeterminism(const lf_selfspec *s, const lf_history *h, lf_history *out);

#ifdef __cplusplus
}
#endif

#endif
