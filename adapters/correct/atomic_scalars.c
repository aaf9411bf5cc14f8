/* Single-word atomics: register (load/store), CAS register (compare-exchange) and counter (fetch-add).
 *
 * Each operation is one sequentially consistent atomic instruction, which is its linearization point. They
 * are the simplest lock-free adapters and the fastest: useful to measure the recorder's own overhead. */
#include <stdatomic.h>
#include <stdlib.h>

#include "common/fingerprint.h"
#include "common/variants.h"
#include "linfuzz/adapter.h"

typedef struct scalar_object {
    _Atomic int64_t word;
} scalar_object;

static void *scalar_create(size_t max_ops) {
    (void)max_ops;
    scalar_object *o = malloc(sizeof *o);
    if (o) atomic_init(&o->word, 0);
    return o;
}

static void scalar_destroy(void *obj) { free(obj); }

static lf_kind register_op(void *obj, lf_method m, const int64_t *args, int64_t *value) {
    scalar_object *o = obj;
    switch (m) {
    case LF_M_WRITE: atomic_store(&o->word, args[0]); return LF_K_NONE;
    case LF_M_CAS: {
        int64_t expected = args[0];
        return atomic_compare_exchange_strong(&o->word, &expected, args[1]) ? LF_K_OK : LF_K_FAIL;
    }
    default: /* read */ *value = atomic_load(&o->word); return LF_K_INT;
    }
}

static lf_kind counter_op(void *obj, lf_method m, const int64_t *args, int64_t *value) {
    scalar_object *o = obj;
    (void)args;
    if (m == LF_M_INC) {
        atomic_fetch_add(&o->word, 1);
        return LF_K_NONE;
    }
    *value = atomic_load(&o->word);
    return LF_K_INT;
}

static uint64_t scalar_fingerprint(void *obj) {
    return lf_fp_mix((uint64_t)atomic_load(&((scalar_object *)obj)->word));
}

LF_DEFINE_DETERMINISTIC_ADAPTER(atomic_register, LF_TYPE_REGISTER, true,
                                LF_METHOD_BIT(LF_M_WRITE) | LF_METHOD_BIT(LF_M_READ), scalar_create, scalar_destroy,
                                register_op, scalar_fingerprint, "register as one atomic word (store / load)");

LF_DEFINE_DETERMINISTIC_ADAPTER(atomic_cas_register, LF_TYPE_CAS_REGISTER, true,
                                LF_METHOD_BIT(LF_M_WRITE) | LF_METHOD_BIT(LF_M_READ) | LF_METHOD_BIT(LF_M_CAS),
                                scalar_create, scalar_destroy, register_op, scalar_fingerprint,
                                "CAS register as one atomic word (store / load / compare-exchange)");

LF_DEFINE_DETERMINISTIC_ADAPTER(atomic_counter, LF_TYPE_COUNTER, true,
                                LF_METHOD_BIT(LF_M_INC) | LF_METHOD_BIT(LF_M_GET), scalar_create, scalar_destroy,
                                counter_op, scalar_fingerprint, "counter as one atomic word (fetch-add / load)");
