/* Concurrency Kit ck_hs as a set, in its single-writer / many-reader mode (CK_HS_MODE_SPMC, direct values).
 *
 * Discipline: ck_hs supports ONE writer concurrent with lock-free readers. ck_hs_set serialises add and remove
 * (writers) with a mutex; ck_hs_set_one_writer gives them to one thread (an exclusive group: the owner is the
 * writer, the way an SPMC table is used), with no lock at all. contains (ck_hs_get) runs lock-free from every
 * thread, concurrently with the writer, which is the concurrency the library promises to make safe. The table
 * starts tiny so runs exercise growth while readers probe; memory it frees with defer=true stays readable
 * (ck/ck_deferred.h). Values are >= 1 and not ~0, the two keys ck_hs reserves (empty, tombstone). */
#include <ck_hs.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "linfuzz/adapter.h"
#include "ck/ck_deferred.h"
#include "common/key_hash.h"

static unsigned long hs_hash(const void *key, unsigned long seed) {
    return (unsigned long)lf_key_hash((uint64_t)(uintptr_t)key ^ seed);
}

static bool hs_equal(const void *a, const void *b) { return a == b; }

typedef struct hs_set {
    ck_hs_t hs;
    pthread_mutex_t writer; /* the single-writer discipline */
} hs_set;

static void *hs_create(size_t max_ops) {
    (void)max_ops;
    hs_set *s = malloc(sizeof *s);
    if (!s) return NULL;
    if (pthread_mutex_init(&s->writer, NULL) != 0) {
        free(s);
        return NULL;
    }
    if (!ck_hs_init(&s->hs, CK_HS_MODE_SPMC | CK_HS_MODE_DIRECT, hs_hash, hs_equal, &lf_ck_deferred_allocator, 8, 0x5eed)) {
        pthread_mutex_destroy(&s->writer);
        free(s);
        return NULL;
    }
    lf_ck_deferred_attach();
    return s;
}

static void hs_destroy(void *obj) {
    hs_set *s = obj;
    ck_hs_destroy(&s->hs);
    pthread_mutex_destroy(&s->writer);
    free(s);
    lf_ck_deferred_detach();
}

static lf_kind hs_op(void *obj, lf_method m, const int64_t *args, int64_t *value) {
    hs_set *s = obj;
    (void)value;
    const void *key = (const void *)(uintptr_t)args[0];
    unsigned long h = CK_HS_HASH(&s->hs, hs_hash, key);
    bool r;
    if (m == LF_M_CONTAINS) {
        r = ck_hs_get(&s->hs, h, key) != NULL;
    } else {
        pthread_mutex_lock(&s->writer);
        LF_YIELD();
        r = m == LF_M_ADD ? ck_hs_put(&s->hs, h, key) : ck_hs_remove(&s->hs, h, key) != NULL;
        pthread_mutex_unlock(&s->writer);
    }
    return r ? LF_K_TRUE : LF_K_FALSE;
}

const lf_adapter lf_adapter_ck_hs_set = {
    .name = "ck_hs_set",
    .summary = "Concurrency Kit ck_hs (SPMC, direct): writers serialised by a mutex, lock-free contains",
    .type = LF_TYPE_SET,
    .linearizable = true,
    .deterministic = true,
    .methods = LF_METHOD_BIT(LF_M_ADD) | LF_METHOD_BIT(LF_M_REMOVE) | LF_METHOD_BIT(LF_M_CONTAINS),
    .create = hs_create,
    .destroy = hs_destroy,
    .op = hs_op,
};
LF_REGISTER_ADAPTER(lf_adapter_ck_hs_set);

/* The single writer, without a lock: add and remove belong to one worker (lf_adapter.exclusive). */
static lf_kind hs_one_writer_op(void *obj, lf_method m, const int64_t *args, int64_t *value) {
    hs_set *s = obj;
    (void)value;
    const void *key = (const void *)(uintptr_t)args[0];
    unsigned long h = CK_HS_HASH(&s->hs, hs_hash, key);
    bool r = m == LF_M_CONTAINS ? ck_hs_get(&s->hs, h, key) != NULL
             : m == LF_M_ADD    ? ck_hs_put(&s->hs, h, key)
                                : ck_hs_remove(&s->hs, h, key) != NULL;
    return r ? LF_K_TRUE : LF_K_FALSE;
}

const lf_adapter lf_adapter_ck_hs_set_one_writer = {
    .name = "ck_hs_set_one_writer",
    .summary = "Concurrency Kit ck_hs (SPMC, direct): one writer thread (add, remove), lock-free contains from all",
    .type = LF_TYPE_SET,
    .linearizable = true,
    .deterministic = true,
    .methods = LF_METHOD_BIT(LF_M_ADD) | LF_METHOD_BIT(LF_M_REMOVE) | LF_METHOD_BIT(LF_M_CONTAINS),
    .exclusive = {LF_METHOD_BIT(LF_M_ADD) | LF_METHOD_BIT(LF_M_REMOVE)},
    .create = hs_create,
    .destroy = hs_destroy,
    .op = hs_one_writer_op,
};
LF_REGISTER_ADAPTER(lf_adapter_ck_hs_set_one_writer);
