/* A ledger of three accounts with a three-argument transfer: a custom type without a specification (checked
 * against its own serial behaviour, docs/custom-types.md), in a correct and a known-buggy version whose bug is
 * a lock-order deadlock, not a wrong result.
 *
 * Type "ledger" (accounts 0, 1 and 2 start with LEDGER_OPENING each):
 *   transfer FROM TO AMOUNT -> ok|fail   moves AMOUNT from FROM to TO when FROM holds at least AMOUNT and
 *                                        FROM != TO (ok), else changes nothing (fail)
 *   balance ACCOUNT -> int               the account's balance (an observer)
 * No model is written: both adapters are deterministic and fingerprint the balances, so their serial runs are
 * the specification.
 *
 * ledger: one mutex per account; a transfer locks its two accounts in account order (lowest number first), so
 * two transfers never wait for each other in a cycle. Linearizable.
 *
 * ledger_lock_order (known buggy): a transfer locks FROM first, then TO. transfer 0 1 and transfer 1 0 at
 * once each hold the lock the other waits for: a deadlock. Every run that returns is linearizable; the bug is
 * a run that never returns, found as a STUCK entry (docs/fuzzing.md: in controlled mode the scheduler sees
 * every worker blocked at once). */
#include <pthread.h>
#include <stdlib.h>

#include "linfuzz/adapter.h"

#define LEDGER_ACCOUNTS 3
#define LEDGER_OPENING 10

enum { LEDGER_TRANSFER, LEDGER_BALANCE };

static const lf_method_decl ledger_methods[] = {
    [LEDGER_TRANSFER] = {"transfer", 3, LF_KBIT(LF_K_OK) | LF_KBIT(LF_K_FAIL), 0},
    [LEDGER_BALANCE] = {"balance", 1, LF_KBIT(LF_K_INT), LF_MF_OBSERVER},
};

static const lf_type_desc ledger_type = {"ledger", ledger_methods, 2, NULL};

/* transfer: from and to 0..2 (from == to sometimes: it fails), amount 1..6; balance: 0..2 */
static const lf_arg_range ledger_args[][LF_CUSTOM_MAX_ARGS] = {
    [LEDGER_TRANSFER] = {{0, LEDGER_ACCOUNTS - 1}, {0, LEDGER_ACCOUNTS - 1}, {1, 6}},
    [LEDGER_BALANCE] = {{0, LEDGER_ACCOUNTS - 1}},
};

typedef struct ledger {
    pthread_mutex_t lock[LEDGER_ACCOUNTS];
    int64_t balance[LEDGER_ACCOUNTS];
    bool lock_from_first; /* the bug */
} ledger;

static void *ledger_create_mode(bool lock_from_first) {
    ledger *l = calloc(1, sizeof *l);
    if (!l) return NULL;
    for (int i = 0; i < LEDGER_ACCOUNTS; i++) {
        pthread_mutex_init(&l->lock[i], NULL);
        l->balance[i] = LEDGER_OPENING;
    }
    l->lock_from_first = lock_from_first;
    return l;
}

static void *ledger_create(size_t max_ops) {
    (void)max_ops;
    return ledger_create_mode(false);
}

static void *ledger_buggy_create(size_t max_ops) {
    (void)max_ops;
    return ledger_create_mode(true);
}

static void ledger_destroy(void *obj) {
    ledger *l = obj;
    for (int i = 0; i < LEDGER_ACCOUNTS; i++) pthread_mutex_destroy(&l->lock[i]);
    free(l);
}

static int account(int64_t a) { return a >= 0 && a < LEDGER_ACCOUNTS ? (int)a : 0; }

static lf_kind ledger_op(void *obj, lf_method method, const int64_t *args, int64_t *value) {
    ledger *l = obj;
    int from = account(args[0]);
    if ((unsigned)method == LEDGER_BALANCE) {
        pthread_mutex_lock(&l->lock[from]);
        *value = l->balance[from];
        pthread_mutex_unlock(&l->lock[from]);
        return LF_K_INT;
    }
    int to = account(args[1]);
    int64_t amount = args[2];
    if (from == to) return LF_K_FAIL;
    /* the correct order is the accounts' order; the buggy one is the transfer's direction */
    int first = l->lock_from_first || from < to ? from : to, second = first == from ? to : from;
    pthread_mutex_lock(&l->lock[first]);
    pthread_mutex_lock(&l->lock[second]); /* ledger_lock_order: waits for a transfer the other way round */
    lf_kind k = LF_K_FAIL;
    if (l->balance[from] >= amount) {
        l->balance[from] -= amount;
        l->balance[to] += amount;
        k = LF_K_OK;
    }
    pthread_mutex_unlock(&l->lock[second]);
    pthread_mutex_unlock(&l->lock[first]);
    return k;
}

static uint64_t ledger_fingerprint(void *obj) {
    ledger *l = obj;
    uint64_t h = 0x6c6564676572ull;
    for (int i = 0; i < LEDGER_ACCOUNTS; i++) h = (h ^ (uint64_t)l->balance[i]) * 0x9e3779b97f4a7c15ull;
    return h;
}

const lf_adapter lf_adapter_ledger = {
    .name = "ledger",
    .summary = "three accounts, one lock each; transfer(from, to, amount) locks both in account order (custom type "
               "of three-argument transfers, no spec)",
    .type = LF_TYPE_CUSTOM,
    .custom = &ledger_type,
    .arg_ranges = ledger_args,
    .linearizable = true,
    .deterministic = true,
    .create = ledger_create,
    .destroy = ledger_destroy,
    .op = ledger_op,
    .fingerprint = ledger_fingerprint,
};
LF_REGISTER_ADAPTER(lf_adapter_ledger);

const lf_adapter lf_adapter_ledger_lock_order = {
    .name = "ledger_lock_order",
    .summary = "ledger whose transfer locks its source account first: two transfers the opposite way deadlock",
    .type = LF_TYPE_CUSTOM,
    .custom = &ledger_type,
    .arg_ranges = ledger_args,
    .linearizable = false,
    .deterministic = true,
    .create = ledger_buggy_create,
    .destroy = ledger_destroy,
    .op = ledger_op,
    .fingerprint = ledger_fingerprint,
};
LF_REGISTER_ADAPTER(lf_adapter_ledger_lock_order);
