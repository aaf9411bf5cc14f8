/* Standardisation of unambiguous container histories (set, stack, queue, pqueue, deque), [Lee25]:
 * classify ops per value, check unambiguity, rank stamps (invocations before responses at equal stamps),
 * well-match (artificial removes after everything), tune intervals (add first, remove last among a value's
 * ops) and check the empty-returning ops. The per-type monitors then run on the result. */
#ifndef LINFUZZ_STANDARDIZE_H
#define LINFUZZ_STANDARDIZE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "budget/deadline.h"
#include "linfuzz/check.h"
#include "linfuzz/history.h"

enum {
    STD_DROP = 0, /* not part of the standardised history (pending observers, unobserved pending adds) */
    STD_ADD,      /* push, enq, insert, successful set add */
    STD_REM,      /* pop, deq, poll, successful set remove (or an artificial remove) */
    STD_OTHER,    /* peek of a value, contains -> true, add -> false */
    STD_EMPTY,    /* pop/deq/poll/peek -> empty */
    STD_ABSENT,   /* set: contains -> false, remove -> false ("v is not in the set") */
};

#define STD_ARTIFICIAL UINT32_MAX

typedef struct lf_std {
    lf_type type;
    uint32_t n_ops;    /* original ops (indices 0..n_ops-1) plus artificial removes (n_ops..n_total-1) */
    uint32_t n_total;
    uint32_t n_values;
    uint32_t n_stamps; /* tuned stamps are 1..n_stamps, distinct */
    uint8_t *kind;     /* STD_* per op */
    uint32_t *val;     /* dense value id per op (ADD/REM/OTHER/ABSENT) */
    uint32_t *inv, *res; /* tuned stamps (kind != STD_DROP) */
    uint32_t *add_op;  /* per value: its add, or UINT32_MAX (set values seen only as absent) */
    uint32_t *rem_op;  /* per value: its remove (real or artificial) */
    uint32_t *at;      /* per tuned stamp 1..n_stamps: the event there, op << 1 | is_response */
    uint32_t *others_next; /* scratch of the tuning sweep; freed after standardisation */
    bool has_other;    /* some STD_OTHER op (peeks): selects the monitors' general paths */
    bool has_absent;
    int64_t *value_of; /* per value id: the value (for messages) */
    uint8_t *value_nil;
    lf_deadline *dl;   /* the time budget of standardisation and of the monitor run on it (NULL: none) */
} lf_std;

/* Builds the standardised history of h (a set, stack, queue, pqueue or deque history), charging dl (NULL:
 * none), which the monitor run on it charges too. Returns LF_LINEARIZABLE when the monitors may proceed on *s;
 * LF_VIOLATION or LF_UNKNOWN ("unsupported: ...", or the time budget) with r filled in otherwise. *s must be
 * freed with lf_std_free in every case. */
lf_verdict lf_standardize(const lf_history *h, lf_deadline *dl, lf_std *s, lf_result *r);
void lf_std_free(lf_std *s);

/* Critical interval of value v: partitions [lo, hi) (tuned stamps); false when empty. */
static inline bool lf_std_ci(const lf_std *s, uint32_t v, uint32_t *lo, uint32_t *hi) {
    if (s->add_op[v] == UINT32_MAX) return false;
    *lo = s->res[s->add_op[v]];
    *hi = s->inv[s->rem_op[v]];
    return *lo < *hi;
}

/* "push 7 (op 12, t3 [40,52])"-style description of op i of the standardised history into buf. */
void lf_std_describe(const lf_std *s, const lf_history *h, uint32_t i, char *buf, size_t len);
/* Description of value v ("7" or "nil"). */
void lf_std_value_str(const lf_std *s, uint32_t v, char *buf, size_t len);
/* Records op i as a culprit when it is a real op. */
void lf_std_culprit(const lf_std *s, lf_result *r, uint32_t i);

/* Ranks stamps of the ops with keep[i] (invocations before responses at equal stamps): on return
 * call_rank[i] < ret_rank[i], all distinct, in 1..2*kept. Pending ops get ret_rank = UINT32_MAX.
 * Shared with the register monitor. Returns false when out of memory or out of time (dl expired). */
bool lf_rank_stamps(const lf_history *h, const uint8_t *keep, lf_deadline *dl, uint32_t *call_rank,
                    uint32_t *ret_rank);

#endif
