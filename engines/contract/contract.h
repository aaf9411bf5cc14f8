/* Checking histories against contracts weaker than linearizability (docs/contracts.md), inside the checking
 * library: lf_check hands every history whose contract is not the default here.
 *
 * A contract is an order (exact, k-relaxed, per-producer, bag) and a full/empty mode (exact, lagging,
 * quiescent). A history satisfies order O with lagging (quiescent) full/empty answers iff
 *   1. the history without its full and empty answers satisfies O with exact full/empty answers, and
 *   2. every full or empty answer passes the count rule (count_rule.c).
 * So part 2 is a log-linear sweep, and part 1 goes to the monitors (exact order; bag and per-producer, pool
 * monitor) or to the general checkers with the spec of the relaxed order (engines/spec/spec_relaxed.c). */
#ifndef LINFUZZ_CONTRACT_H
#define LINFUZZ_CONTRACT_H

#include <stdbool.h>
#include <stddef.h>

#include "budget/deadline.h"
#include "linfuzz/check.h"
#include "linfuzz/history.h"
#include "linfuzz/spec.h"

/* The specs of the relaxed orders (spec/spec_relaxed.c), over the ops lf_contract_spec_ops gives them. */
extern const lf_spec lf_spec_k_relaxed, lf_spec_per_producer, lf_spec_bag;

/* The engines of lf_check (engines/check/checker.c), run on a prepared history: the contract module is below the
 * check module, so lf_check passes them in. */
typedef void (*lf_check_engines_fn)(const lf_history *h, const lf_check_options *o, double deadline, lf_result *r,
                                    bool classify_levels);

/* Checks h (a stack or queue with a contract other than the default) under o, by the absolute deadline (0: none),
 * with engines for what goes to the usual engines. r must be initialised. */
void lf_contract_check(const lf_history *h, const lf_check_options *o, double deadline, lf_result *r,
                       lf_check_engines_fn engines);

/* Part 2 alone, for a lagging or quiescent history: a violation (with the first answer that fails, by return
 * stamp, as culprit) or linearizable (every answer passes). Returns false when memory or time runs out (dl, NULL
 * for none, charged in every loop and sort: lf_deadline_expired tells which; r untouched). h must be valid. */
bool lf_count_rule_check(const lf_history *h, lf_deadline *dl, lf_result *r);

/* What an op counts in the count rule: the values it put in or took out (a pending op: the most it could have),
 * and for a full or empty answer the values it needed (0: the op is not such an answer). */
typedef struct lf_count_role {
    bool insert, remove;  /* an insert, or a remove (peeks are neither) */
    uint64_t moved;       /* values inserted or taken (successful or pending ops) */
    uint64_t needed;      /* a full or empty answer: fewer than this many values (or free places) were there */
} lf_count_role;
lf_count_role lf_count_role_of(const lf_history *h, const lf_op *op);

/* The spec of contract c's order (NULL for the exact order), and a copy of ops for it: the parameters of the order
 * travel in the ops (a k-relaxed remove or peek gets K in arg[1], a per-producer insert a dense id of its thread),
 * so that a step depends on the op alone, as linfuzz/spec.h requires. NULL when out of memory or time (dl, NULL:
 * none). */
const lf_spec *lf_contract_spec(const lf_contract *c);
lf_op *lf_contract_spec_ops(const lf_contract *c, const lf_op *ops, size_t n, lf_deadline *dl);

#endif
