/* Concurrency Kit ck_hs as a set, in its single-writer / many-reader mode (CK_HS_MODE_SPMC, direct values).
 *
 * Discipline: ck_hs supports ONE writer concurrent with lock-free readers. add and remove (writers) are
 * therefore serialised by a mutex; contains (ck_hs_get) runs lock-free, concurrently with the writer, which
 * is the concurrency the library promises to make safe. The table starts tiny so runs exercise growth while
 * readers probe. Memory that ck_hs frees with defer=true (old maps after a grow) may still be read by
 * concurrent readers; the allocator below parks it until the last ck_hs object is destroyed, when no reader
 * can exist (ck_malloc callbacks carry no context, hence the global list). Values are >= 1 and not ~0, the
 * two keys ck_hs reserves (empty, tombstone). */
#include <ck_hs.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "linfuzz/adapter.h"

typedef struct deferred_block {
    struct deferred_block *next;
} deferred_block;

static pthread_mutex_t deferred_lock = PTHREAD_MUTEX_INITIALIZER;
static deferred_block *deferred; /* blocks whose free was deferred */
static unsigned live_objects;

static void *hs_malloc(size_t size) {
    /* Room in front for the deferred-list link, keeping the caller's block 16-byte aligned. */
    char *p = malloc(size + 16);
    return p ? p + 16 : NULL;
}

static void hs_free(void *p, size_t size, bool defer) {
    (void)size;
    if (!p) return;
    deferred_block *b = (deferred_block *)((char *)p - 16);
    if (!defer) {
        free(b);
        return;
    }
    pthread_mutex_lock(&deferred_lock);
    b->next = deferred;
    deferred = b;
    pthread_mutex_unlock(&deferred_lock);
}

static void *hs_realloc(void *p, size_t old_size, size_t new_size, bool defer) {
    void *q = hs_malloc(new_size);
    if (!q) return NULL;
    if (p) memcpy(q, p, old_size < new_size ? old_size : new_size);
    hs_free(p, old_size, defer);
    return q;
}

static struct ck_malloc hs_allocator = {.malloc = hs_malloc, .realloc = hs_realloc, .free = hs_free};

static unsigned long hs_hash(const void *key, unsigned long seed) {
    uint64_t x = (uint64_t)(uintptr_t)key ^ seed;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return (unsigned long)(x ^ (x >> 31));
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
    if (!ck_hs_init(&s->hs, CK_HS_MODE_SPMC | CK_HS_MODE_DIRECT, hs_hash, hs_equal, &hs_allocator, 8, 0x5eed)) {
        pthread_mutex_destroy(&s->writer);
        free(s);
        return NULL;
    }
    pthread_mutex_lock(&deferred_lock);
    live_objects++;
    pthread_mutex_unlock(&deferred_lock);
    return s;
}

static void hs_destroy(void *obj) {
    hs_set *s = obj;
    ck_hs_destroy(&s->hs);
    pthread_mutex_destroy(&s->writer);
    free(s);
    pthread_mutex_lock(&deferred_lock);
    deferred_block *list = --live_objects == 0 ? deferred : NULL;
    if (list) deferred = NULL;
    pthread_mutex_unlock(&deferred_lock);
    while (list) {
        deferred_block *next = list->next;
        free(list);
        list = next;
    }
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
