/* A bank of two accounts: a custom type (docs/custom-types.md) with its own specification, in a correct and a
 * known-buggy version.
 *
 * Type "bank": accounts 0 and 1 start with BANK_OPENING each;
 *   transfer FROM AMOUNT -> ok|fail   moves AMOUNT from account FROM to the other one when FROM holds at least
 *                                     AMOUNT (ok), else changes nothing (fail);
 *   balance ACCOUNT -> int            the account's balance (an observer).
 * The spec below is that, as an lf_spec (state: both balances); fuzz_bank and fuzz_bank_read_before_lock
 * check against it, and `--spec self` checks against the adapter's own serial runs instead (both adapters are
 * deterministic and offer a state fingerprint).
 *
 * bank: each account has its own lock; a transfer takes both locks in account order (no deadlock), then reads,
 * checks and writes. Linearizable: the point is inside the locked section.
 *
 * bank_read_before_lock (known buggy): a transfer reads both balances first, decides and computes the new
 * balances from those reads, and only then locks and writes them. Two concurrent transfers read the same
 * balances, and the second write overwrites the first: a transfer that answered ok is lost (money moved once
 * for two oks), or a transfer succeeds on funds another one already took. Serially it behaves exactly like the
 * correct bank, so its own serial runs are a valid specification too: the self-spec finds the bug as well. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "linfuzz/adapter.h"
#include "linfuzz/spec.h"

#define BANK_OPENING 10

enum { BANK_TRANSFER, BANK_BALANCE };

/* ---- the specification ---- */

typedef struct bank_state {
    int64_t balance[2];
} bank_state;

static void bank_spec_init(void *ctx, void *state) {
    (void)ctx;
    bank_state s = {{BANK_OPENING, BANK_OPENING}};
    memcpy(state, &s, sizeof s);
}

static bool bank_spec_step(void *ctx, const void *state, const lf_op *op, void *next) {
    (void)ctx;
    bank_state s;
    memcpy(&s, state, sizeof s);
    bool pending = lf_op_pending(op);
    if (op->arg[0] < 0 || op->arg[0] > 1) return false; /* no such account: nothing is legal */
    int from = (int)op->arg[0];
    if (op->method == BANK_TRANSFER) {
        bool ok = op->arg[1] >= 0 && s.balance[from] >= op->arg[1];
        if (!pending && (op->res_kind == LF_K_OK) != ok) return false;
        if (ok) {
            s.balance[from] -= op->arg[1];
            s.balance[1 - from] += op->arg[1];
        }
    } else if (op->method == BANK_BALANCE) {
        if (!pending && op->res != s.balance[from]) return false;
    } else {
        return false;
    }
    memcpy(next, &s, sizeof s);
    return true;
}

static bool bank_spec_observer(const lf_op *op) { return op->method == BANK_BALANCE; }

static int bank_spec_describe_state(void *ctx, const void *state, char *buf, size_t len) {
    (void)ctx;
    bank_state s;
    memcpy(&s, state, sizeof s);
    return snprintf(buf, len, "{%lld %lld}", (long long)s.balance[0], (long long)s.balance[1]);
}

static const lf_spec bank_spec = {
    .name = "bank",
    .state_size = sizeof(bank_state),
    .init = bank_spec_init,
    .step = bank_spec_step,
    .observer = bank_spec_observer,
    .describe_state = bank_spec_describe_state,
};

static const lf_method_decl bank_methods[] = {
    [BANK_TRANSFER] = {"transfer", 2, LF_KBIT(LF_K_OK) | LF_KBIT(LF_K_FAIL), 0},
    [BANK_BALANCE] = {"balance", 1, LF_KBIT(LF_K_INT), LF_MF_OBSERVER},
};

const lf_type_desc lf_bank_type = {"bank", bank_methods, 2, &bank_spec};

/* transfer: from 0..1, amount 1..6 (a few transfers drain an account: fails happen); balance: 0..1 */
static const lf_arg_range bank_args[][LF_CUSTOM_MAX_ARGS] = {
    [BANK_TRANSFER] = {{0, 1}, {1, 6}},
    [BANK_BALANCE] = {{0, 1}, {0, 0}},
};

/* ---- the implementation ---- */

typedef struct bank {
    pthread_mutex_t lock[2];
    int64_t balance[2];
    bool read_before_lock; /* the bug */
} bank;

static void *bank_create_mode(bool read_before_lock) {
    bank *b = calloc(1, sizeof *b);
    if (!b) return NULL;
    pthread_mutex_init(&b->lock[0], NULL);
    pthread_mutex_init(&b->lock[1], NULL);
    b->balance[0] = b->balance[1] = BANK_OPENING;
    b->read_before_lock = read_before_lock;
    return b;
}

static void *bank_create(size_t max_ops) {
    (void)max_ops;
    return bank_create_mode(false);
}

static void *bank_buggy_create(size_t max_ops) {
    (void)max_ops;
    return bank_create_mode(true);
}

static void bank_destroy(void *obj) {
    bank *b = obj;
    pthread_mutex_destroy(&b->lock[0]);
    pthread_mutex_destroy(&b->lock[1]);
    free(b);
}

#define LOAD(x) __atomic_load_n(&(x), __ATOMIC_RELAXED)
#define STORE(x, v) __atomic_store_n(&(x), (v), __ATOMIC_RELAXED)

static lf_kind bank_op(void *obj, lf_method method, const int64_t *args, int64_t *value) {
    unsigned m = (unsigned)method; /* an index into bank_methods */
    bank *b = obj;
    int from = args[0] ? 1 : 0, to = 1 - from;
    int64_t amount = args[1];
    /* Balances are read and written with relaxed atomics: the buggy transfer reads them without a lock, which
     * is a logic error here, not undefined behaviour. */
    if (m == BANK_BALANCE) {
        pthread_mutex_lock(&b->lock[from]);
        *value = LOAD(b->balance[from]);
        pthread_mutex_unlock(&b->lock[from]);
        return LF_K_INT;
    }
    if (b->read_before_lock) {
        int64_t have_from = LOAD(b->balance[from]), have_to = LOAD(b->balance[to]); /* before locking: the bug */
        LF_YIELD();
        if (have_from < amount) return LF_K_FAIL;
        pthread_mutex_lock(&b->lock[0]);
        pthread_mutex_lock(&b->lock[1]);
        LF_YIELD();
        STORE(b->balance[from], have_from - amount);
        STORE(b->balance[to], have_to + amount);
        pthread_mutex_unlock(&b->lock[1]);
        pthread_mutex_unlock(&b->lock[0]);
        return LF_K_OK;
    }
    pthread_mutex_lock(&b->lock[0]); /* account order: no deadlock */
    pthread_mutex_lock(&b->lock[1]);
    LF_YIELD();
    lf_kind k = LF_K_FAIL;
    if (LOAD(b->balance[from]) >= amount) {
        STORE(b->balance[from], LOAD(b->balance[from]) - amount);
        LF_YIELD();
        STORE(b->balance[to], LOAD(b->balance[to]) + amount);
        k = LF_K_OK;
    }
    pthread_mutex_unlock(&b->lock[1]);
    pthread_mutex_unlock(&b->lock[0]);
    return k;
}

static uint64_t bank_fingerprint(void *obj) {
    bank *b = obj;
    return ((uint64_t)LOAD(b->balance[0]) * 0x9e3779b97f4a7c15ull) ^ ((uint64_t)LOAD(b->balance[1]) + 0x632be59bd9b4e019ull);
}

const lf_adapter lf_adapter_bank = {
    .name = "bank",
    .summary = "two accounts, one lock each; transfer locks both in order, then checks and moves (custom type with a spec)",
    .type = LF_TYPE_CUSTOM,
    .custom = &lf_bank_type,
    .arg_ranges = bank_args,
    .linearizable = true,
    .deterministic = true,
    .create = bank_create,
    .destroy = bank_destroy,
    .op = bank_op,
    .fingerprint = bank_fingerprint,
};
LF_REGISTER_ADAPTER(lf_adapter_bank);

const lf_adapter lf_adapter_bank_read_before_lock = {
    .name = "bank_read_before_lock",
    .summary = "bank whose transfer reads both balances before locking, then writes values computed from them: "
               "concurrent transfers are lost",
    .type = LF_TYPE_CUSTOM,
    .custom = &lf_bank_type,
    .arg_ranges = bank_args,
    .linearizable = false,
    .deterministic = true,
    .create = bank_buggy_create,
    .destroy = bank_destroy,
    .op = bank_op,
    .fingerprint = bank_fingerprint,
};
LF_REGISTER_ADAPTER(lf_adapter_bank_read_before_lock);
