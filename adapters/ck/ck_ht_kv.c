/* Concurrency Kit ck_ht as a key-value map, in its single-writer / many-reader mode with direct keys and values
 * (CK_HT_MODE_DIRECT), as ck_ht(3) describes it: one writer thread (put = ck_ht_set_spmc, which replaces the
 * value of a present key; delete = ck_ht_remove_spmc) and lock-free readers (get = ck_ht_get_spmc) from every
 * thread. The writer's methods belong to one worker (lf_adapter.exclusive). Keys 0 and UINTPTR_MAX are reserved
 * by ck_ht ("undefined behavior"): the adapter stores key + 1. The table starts tiny so runs exercise growth;
 * memory it frees with defer=true stays readable (ck/ck_deferred.h). ck_ht's functions are in libck.so, not
 * instrumented: each call is one step, with a point at its call and its return. */
#include <ck_ht.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "linfuzz/adapter.h"
#include "ck/ck_deferred.h"
#include "common/key_hash.h"

/* In direct mode ck_ht_hash_direct hands the callback the address of the key and its size. */
static void ht_hash(ck_ht_hash_t *h, const void *key, size_t length, uint64_t seed) {
    uintptr_t k = 0;
    memcpy(&k, key, length < sizeof k ? length : sizeof k);
    h->value = lf_key_hash((uint64_t)k ^ seed);
}

static void *ht_create(size_t max_ops) {
    (void)max_ops;
    ck_ht_t *ht = malloc(sizeof *ht);
    if (!ht) return NULL;
    if (!ck_ht_init(ht, CK_HT_MODE_DIRECT, ht_hash, &lf_ck_deferred_allocator, 2, 0x5eed)) {
        free(ht);
        return NULL;
    }
    lf_ck_deferred_attach();
    return ht;
}

static void ht_destroy(void *obj) {
    ck_ht_destroy(obj);
    free(obj);
    lf_ck_deferred_detach();
}

static lf_kind ht_op(void *obj, lf_method m, const int64_t *args, int64_t *value) {
    ck_ht_t *ht = obj;
    uintptr_t key = (uintptr_t)args[0] + 1; /* never 0 (reserved) */
    ck_ht_hash_t h;
    ck_ht_hash_direct(&h, ht, key);
    ck_ht_entry_t entry;
    if (m == LF_M_PUT) {
        ck_ht_entry_set_direct(&entry, h, key, (uintptr_t)args[1]);
        if (!ck_ht_set_spmc(ht, h, &entry)) abort(); /* the table could not grow: out of memory */
        return LF_K_NONE;
    }
    ck_ht_entry_key_set_direct(&entry, key);
    if (m == LF_M_GET) {
        if (!ck_ht_get_spmc(ht, h, &entry)) return LF_K_NIL;
        *value = (int64_t)ck_ht_entry_value_direct(&entry);
        return LF_K_INT;
    }
    return ck_ht_remove_spmc(ht, h, &entry) ? LF_K_TRUE : LF_K_FALSE;
}

const lf_adapter lf_adapter_ck_ht_kv = {
    .name = "ck_ht_kv",
    .summary = "Concurrency Kit ck_ht (SPMC, direct) as a map: one writer thread (put, delete), lock-free get",
    .type = LF_TYPE_KV,
    .linearizable = true,
    .deterministic = true,
    .methods = LF_METHOD_BIT(LF_M_PUT) | LF_METHOD_BIT(LF_M_GET) | LF_METHOD_BIT(LF_M_DELETE),
    .exclusive = {LF_METHOD_BIT(LF_M_PUT) | LF_METHOD_BIT(LF_M_DELETE)},
    .create = ht_create,
    .destroy = ht_destroy,
    .op = ht_op,
};
LF_REGISTER_ADAPTER(lf_adapter_ck_ht_kv);
