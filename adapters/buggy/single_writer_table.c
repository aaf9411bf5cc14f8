/* A key-value table with one writer and lock-free readers (the single-writer hash tables of Concurrency Kit's
 * ck_ht and of many caches), and a known-buggy version that reads and writes a slot's two words unprotected.
 *
 * The table is an array of slots, each a key (stored as key + 1: 0 is a free slot) and a value. One worker owns
 * put and delete (lf_adapter.exclusive); every worker may get. put replaces the value of a present key in place,
 * else it fills the first free slot (a slot a delete freed, else a new one at the end: `used` grows after the
 * slot is filled); delete frees the key's slot. get scans the slots in use for the key and returns its value.
 *
 * Bug (single_writer_table_torn): a slot's key and value are two stores for the writer and two loads for a
 * reader, with nothing that tells a reader the slot changed in between. When a delete frees a slot and a put
 * reuses it for another key, a reader can see the new key with the old value (the put stored the key, not yet
 * the value), or the old key with the new value (it loaded the key before the delete and the value after the
 * put): get returns a value its key never had (values the runner puts are new). Neither side alone is the
 * fix: with the writer's two stores atomic, a reader still loads the old key, then the new value; with a
 * reader's two loads atomic, it still sees the new key with the old value. Both must be, at once (what
 * `linfuzz rootcause` names as one cause of two regions, docs/rootcause.md). Correct twin: single_writer_table,
 * each slot under a sequence lock (odd while the writer is inside; a reader reads the sequence, the key, the
 * value and the sequence again, and retries the slot when it changed). */
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

#include "linfuzz/adapter.h"
#include "common/variants.h"

typedef struct sw_slot {
    _Atomic uint64_t sequence; /* odd while the writer updates the slot; unused by the torn version */
    _Atomic int64_t key;       /* 0: free */
    _Atomic int64_t value;
} sw_slot;

typedef struct sw_table {
    _Atomic size_t used; /* slots [0, used) have been filled once */
    size_t capacity;     /* at least one slot per call: every put may add a key */
    bool versioned;      /* false: the bug */
    sw_slot slots[];
} sw_table;

static void *create_with(size_t max_ops, bool versioned) {
    size_t capacity = max_ops ? max_ops : 1;
    sw_table *t = malloc(sizeof *t + capacity * sizeof t->slots[0]);
    if (!t) return NULL;
    atomic_init(&t->used, 0);
    t->capacity = capacity;
    t->versioned = versioned;
    for (size_t i = 0; i < capacity; i++) {
        atomic_init(&t->slots[i].sequence, 0);
        atomic_init(&t->slots[i].key, 0);
        atomic_init(&t->slots[i].value, 0);
    }
    return t;
}
LF_VARIANT_CREATE(torn_create, create_with, false)
LF_VARIANT_CREATE(versioned_create, create_with, true)
static void sw_destroy(void *obj) { free(obj); }

/* The writer's side (one thread). */
static void begin_update(sw_table *t, sw_slot *s) {
    if (t->versioned) atomic_store(&s->sequence, atomic_load(&s->sequence) + 1);
}
static void end_update(sw_table *t, sw_slot *s) {
    if (t->versioned) atomic_store(&s->sequence, atomic_load(&s->sequence) + 1);
}

static sw_slot *find_slot(sw_table *t, int64_t key, size_t used) {
    for (size_t i = 0; i < used; i++)
        if (atomic_load(&t->slots[i].key) == key) return &t->slots[i];
    return NULL;
}

static void sw_put(sw_table *t, int64_t key, int64_t value) {
    size_t used = atomic_load(&t->used);
    sw_slot *s = find_slot(t, key, used);
    if (s) { /* one store: a reader sees the old value or the new one */
        atomic_store(&s->value, value);
        return;
    }
    s = find_slot(t, 0, used);
    bool fresh = !s;
    if (fresh) {
        if (used == t->capacity) abort(); /* more puts than calls: cannot happen */
        s = &t->slots[used];
    }
    begin_update(t, s);
    atomic_store(&s->key, key); /* THE BUG (torn): a reader may see the new key before the new value */
    LF_YIELD();
    atomic_store(&s->value, value);
    end_update(t, s);
    if (fresh) atomic_store(&t->used, used + 1);
}

static bool sw_delete(sw_table *t, int64_t key) {
    sw_slot *s = find_slot(t, key, atomic_load(&t->used));
    if (!s) return false;
    begin_update(t, s);
    atomic_store(&s->key, 0);
    end_update(t, s);
    return true;
}

/* A reader's view of one slot: its key and value as they were at one moment (torn: two loads). */
static void read_slot(sw_table *t, sw_slot *s, int64_t *key, int64_t *value) {
    for (;;) {
        uint64_t seq = t->versioned ? atomic_load(&s->sequence) : 0;
        if (seq & 1) continue; /* the writer is inside: it runs on (a spin, docs/scheduling.md) */
        *key = atomic_load(&s->key); /* THE BUG (torn): the value below may belong to another key */
        LF_YIELD();
        *value = atomic_load(&s->value);
        if (!t->versioned || atomic_load(&s->sequence) == seq) return;
    }
}

static lf_kind sw_get(sw_table *t, int64_t key, int64_t *value) {
    size_t used = atomic_load(&t->used);
    for (size_t i = 0; i < used; i++) {
        int64_t k, v;
        read_slot(t, &t->slots[i], &k, &v);
        if (k == key) {
            *value = v;
            return LF_K_INT;
        }
    }
    return LF_K_NIL;
}

static lf_kind sw_op(void *obj, lf_method m, const int64_t *args, int64_t *value) {
    sw_table *t = obj;
    int64_t stored_key = args[0] + 1; /* (0 is a free slot) */
    if (m == LF_M_PUT) {
        sw_put(t, stored_key, args[1]);
        return LF_K_NONE;
    }
    if (m == LF_M_DELETE) return sw_delete(t, stored_key) ? LF_K_TRUE : LF_K_FALSE;
    return sw_get(t, stored_key, value);
}

#define SW_TABLE_FIELDS                                                                                            \
    .type = LF_TYPE_KV, .methods = LF_METHOD_BIT(LF_M_PUT) | LF_METHOD_BIT(LF_M_GET) | LF_METHOD_BIT(LF_M_DELETE), \
    .exclusive = {LF_METHOD_BIT(LF_M_PUT) | LF_METHOD_BIT(LF_M_DELETE)}, .destroy = sw_destroy, .op = sw_op,        \
    .deterministic = true /* serially both are a correct map */

LF_DEFINE_VARIANT(single_writer_table_torn, false, torn_create,
                  "single-writer key-value table whose slots' key and value are written and read unprotected",
                  SW_TABLE_FIELDS);
LF_DEFINE_VARIANT(single_writer_table, true, versioned_create,
                  "single_writer_table_torn's correct twin: each slot under a sequence lock", SW_TABLE_FIELDS);
