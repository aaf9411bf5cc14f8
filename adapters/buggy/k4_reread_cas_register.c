/* K4 ([Burckhardt10], Line-Up bug A): a CAS loop whose expected value comes from one read and whose new
 * value is computed from a second read. Re-created on a CAS register (the history model has no event type).
 *
 * The register keeps a read-hit counter (statistics) in the upper 32 bits of the same word as the value
 * (lower 32 bits), as the ManualResetEvent kept its waiter count next to the SET bit. read bumps the counter:
 *     loop { s = load(word); ns = load(word) + HIT;   <- BUG: should be s + HIT
 *            if (CAS(word, s, ns)) return value(s); }
 * It fires only if the word changes between the two loads and changes back before the CAS (ABA, e.g.
 * write(b) then write(a) while the reader sits between its steps): the CAS then succeeds and installs the
 * intermediate value b, although the last completed write was a. A later read returns b: a violation.
 * Values repeat by design in cas-register workloads, which is what makes the ABA possible. Correct twin:
 * hit_count_cas_register, the same code computing ns from s. */
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>

#include "common/fingerprint.h"
#include "common/variants.h"
#include "linfuzz/adapter.h"

#define HIT (UINT64_C(1) << 32)
#define VALUE_MASK (HIT - 1)

typedef struct hit_register {
    _Atomic uint64_t word; /* hits << 32 | value */
    bool reread_bug;
} hit_register;

static void *create_with(size_t max_ops, bool reread_bug) {
    (void)max_ops;
    hit_register *r = malloc(sizeof *r);
    if (!r) return NULL;
    atomic_init(&r->word, 0);
    r->reread_bug = reread_bug;
    return r;
}
LF_VARIANT_CREATE(k4_create, create_with, true)
LF_VARIANT_CREATE(hit_create, create_with, false)
static void hit_destroy(void *obj) { free(obj); }

/* Replaces the value part of the word, keeping the hit counter. */
static uint64_t with_value(uint64_t word, int64_t v) { return (word & ~VALUE_MASK) | ((uint64_t)v & VALUE_MASK); }

static lf_kind hit_op(void *obj, lf_method m, const int64_t *args, int64_t *value) {
    hit_register *r = obj;
    uint64_t s = atomic_load(&r->word);
    switch (m) {
    case LF_M_WRITE:
        while (!atomic_compare_exchange_weak(&r->word, &s, with_value(s, args[0]))) LF_YIELD();
        return LF_K_NONE;
    case LF_M_CAS:
        for (;;) {
            if ((int64_t)(s & VALUE_MASK) != args[0]) return LF_K_FAIL;
            if (atomic_compare_exchange_weak(&r->word, &s, with_value(s, args[1]))) return LF_K_OK;
            LF_YIELD();
        }
    default: /* read */
        for (;;) {
            LF_YIELD();
            uint64_t ns = (r->reread_bug ? atomic_load(&r->word) : s) + HIT;
            LF_YIELD();
            if (atomic_compare_exchange_strong(&r->word, &s, ns)) {
                *value = (int64_t)(s & VALUE_MASK);
                return LF_K_INT;
            }
        }
    }
}

/* The value (the hit count is no result's concern). */
static uint64_t hit_fingerprint(void *obj) {
    return lf_fp_mix(atomic_load(&((hit_register *)obj)->word) & VALUE_MASK);
}

#define CASREG_METHODS (LF_METHOD_BIT(LF_M_WRITE) | LF_METHOD_BIT(LF_M_READ) | LF_METHOD_BIT(LF_M_CAS))

LF_DEFINE_DETERMINISTIC_ADAPTER(
    k4_reread_cas_register, LF_TYPE_CAS_REGISTER, false, CASREG_METHODS, k4_create, hit_destroy, hit_op,
    hit_fingerprint, "K4: read's hit-counter CAS takes expected from one load and the new word from another (ABA)");

LF_DEFINE_DETERMINISTIC_ADAPTER(
    hit_count_cas_register, LF_TYPE_CAS_REGISTER, true, CASREG_METHODS, hit_create, hit_destroy, hit_op,
    hit_fingerprint, "K4's correct twin: CAS register with a read-hit counter, new word computed from the expected");
