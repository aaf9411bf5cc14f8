/* Random history generation: well-formed histories of every type, linearizable by construction (or
 * deliberately corrupted), for `linfuzz gen`, benchmarks and differential tests of the checkers.
 *
 * Construction: the sequential object is simulated on a sequence of linearization points; each op goes to a
 * random thread, and its call and return stamps are placed around its linearization point so that every
 * thread stays sequential (prev.ret < next.call) while ops of different threads overlap. Stamps are the
 * distinct integers 1..2n. Everything is deterministic for a given seed. A bounded container (capacity)
 * answers full to an insert chosen while it holds `capacity` values.
 *
 * Corruptions (`bad`): each one changes a returned value, swaps the results of two ops of the same method, or
 * moves an op's interval earlier (onto a fresh thread). The result is USUALLY, NOT ALWAYS, non-linearizable:
 * a changed value can still be explained by another order of concurrent ops, and a moved op may still
 * overlap its linearization point. Decide with a checker; never assume a violation. */
#ifndef LINFUZZ_GENERATE_H
#define LINFUZZ_GENERATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "linfuzz/history.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Small, fast PRNG (xoshiro256**, seeded by splitmix64). */
typedef struct lf_rng {
    uint64_t s[4];
} lf_rng;

void lf_rng_seed(lf_rng *r, uint64_t seed);
uint64_t lf_rng_next(lf_rng *r);
/* Uniform in [0, n); n > 0. */
uint64_t lf_rng_below(lf_rng *r, uint64_t n);
/* Uniform in [0, 1). */
double lf_rng_unit(lf_rng *r);

#define LF_GEN_MAX_VALUES ((uint64_t)1 << 26) /* largest value domain (--values) */

/* How ops are spread over threads. */
typedef enum lf_gen_shape {
    LF_GEN_UNIFORM = 0,    /* every op goes to a random thread (the default) */
    LF_GEN_WORK_STEALING,  /* deque only, threads >= 2: thread 0 owns the deque (push_back, pop_back, peek_back),
                            * the others steal (pop_front, peek_front); half the ops are the owner's */
} lf_gen_shape;

typedef struct lf_gen_options {
    lf_type type;
    size_t n_ops;
    uint32_t threads; /* >= 1 (default 4) */
    uint64_t seed;
    double peek;      /* fraction of observer ops: read, contains, peek*, get (default 0) */
    double empty;     /* chance that a remove/peek chosen on an empty structure (or an absent kv key) is kept,
                       * with its empty/false/nil result, instead of becoming an insert (default 0) */
    uint64_t values;  /* 0: every inserted value is new (unambiguous); V: values drawn from 1..V (repeats,
                       * so ambiguous). kv: keys come from 1..V (1..16 when 0), stored values are new. */
    size_t bad;       /* corruptions applied after construction (default 0); at most one per op (n_ops) */
    double pending;   /* chance that a thread's last op is left pending (default 0) */
    bool spread;      /* pqueue only: new values are distinct priorities spread over [0, 2^40) (not rising with
                       * time), and inserts are likely early and rare late (0.9, 0.5, 0.1 of the non-observer
                       * ops over the first 40%, next 20% and last 40%), so about a third of N values are
                       * present at the peak: the shape where a monitor's memory access order matters */
    lf_gen_shape shape;
    uint64_t capacity; /* stack, queue, pqueue, deque: bounded to this many values; an insert chosen when the
                        * container is full answers full (default 0: unbounded) */
    /* Stack and queue: the history's contract (docs/contracts.md; default: linearizable). A relaxed order is
     * simulated as such (a remove takes a random value among those its order allows). With relaxed full/empty
     * answers (lagging, quiescent, weak, unchecked), extra answers are added on a thread of their own (id threads +
     * bad) where the contract allows them: `spurious` is the chance of one at each stamp (at most n_ops / 4 of
     * them; weak ones span up to 8 stamps). With `bad`, half of the corruptions are then such an answer at a stamp
     * where the contract forbids it (a violation for sure; none under unchecked answers). */
    lf_contract contract;
    double spurious;
} lf_gen_options;

void lf_gen_options_default(lf_gen_options *o);

/* Generates a history into h (initialised here; free it with lf_history_free). Returns false with a message
 * in err when the options are out of range or memory runs out. */
bool lf_gen_history(const lf_gen_options *o, lf_history *h, char *err, size_t errlen);

/* ---- small histories for differential tests ---- */

typedef enum lf_gen_small_mode {
    LF_GEN_CONSTRUCTED, /* linearizable by construction */
    LF_GEN_CORRUPTED,   /* constructed, then 1 or 2 corruptions (usually a violation) */
    LF_GEN_RANDOM,      /* random ops with random results (inserted values distinct; removes and observers
                         * return one of the inserted values or empty): verdict anyone's guess */
} lf_gen_small_mode;

typedef struct lf_gen_small_options {
    lf_type type;
    lf_gen_small_mode mode;
    size_t min_ops, max_ops; /* default 3..10 */
    uint32_t max_threads;    /* threads drawn from 1..max_threads (default 3) */
    uint64_t values;         /* as in lf_gen_options (default 0: distinct) */
    double peek, empty;      /* as in lf_gen_options (defaults 0.3, 0.3) */
    double pending;          /* as in lf_gen_options (default 0) */
    uint64_t capacity;       /* as in lf_gen_options (default 0) */
    lf_contract contract;    /* as in lf_gen_options (default: linearizable); spurious answers at 0.2 */
} lf_gen_small_options;

void lf_gen_small_options_default(lf_gen_small_options *o, lf_type type, lf_gen_small_mode mode);
/* A small history (the size, thread count and corruptions drawn from seed). Same contract as lf_gen_history. */
bool lf_gen_small(uint64_t seed, const lf_gen_small_options *o, lf_history *h);

#ifdef __cplusplus
}
#endif

#endif
