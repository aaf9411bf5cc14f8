/* A map with put_if_absent and compare_and_delete: a custom type without any specification, checked against
 * its own serial behaviour (the self-spec, docs/custom-types.md), in a correct and a known-buggy version.
 *
 * Type "map" (keys and values are integers; a fresh map is empty):
 *   put_if_absent KEY VALUE -> nil|int   when KEY is absent, maps it to VALUE and answers nil; else answers the
 *                                        value KEY has (and changes nothing)
 *   compare_and_delete KEY VALUE -> true|false   removes KEY when it maps to VALUE
 *   get KEY -> int|nil                   KEY's value, nil when absent (an observer)
 * Nobody wrote a model of it: both adapters are marked deterministic and fingerprint their contents, so their
 * own serial runs are the specification (and `linfuzz adapters` says "no spec"). Every method touches only its
 * key (declared keyed): histories are checked key by key, and the minimiser drops whole keys.
 *
 * pia_map: a hash table of 8 buckets, each a linked list under its own mutex; every method works under its
 * bucket's lock. Linearizable.
 *
 * pia_map_unlocked_check (known buggy): put_if_absent looks for the key under the lock, releases it, and when
 * it found none, locks again and inserts without looking again (check-then-act). Two concurrent put_if_absent of one key
 * both answer nil and both insert; get and compare_and_delete then see the first entry of the list, and after
 * deleting it the other one reappears. Serially it behaves like pia_map, so its serial runs are a valid
 * specification, and the violation has no serial explanation at all (Line-Up's first level). */
#include <pthread.h>
#include <stdlib.h>

#include "linfuzz/adapter.h"

enum { MAP_PUT_IF_ABSENT, MAP_COMPARE_AND_DELETE, MAP_GET };

static const lf_method_decl map_methods[] = {
    [MAP_PUT_IF_ABSENT] = {"put_if_absent", 2, LF_KBIT(LF_K_NIL) | LF_KBIT(LF_K_INT), LF_MF_KEYED},
    [MAP_COMPARE_AND_DELETE] = {"compare_and_delete", 2, LF_KBIT(LF_K_TRUE) | LF_KBIT(LF_K_FALSE), LF_MF_KEYED},
    [MAP_GET] = {"get", 1, LF_KBIT(LF_K_INT) | LF_KBIT(LF_K_NIL), LF_MF_OBSERVER | LF_MF_KEYED},
};

static const lf_type_desc map_type = {"map", map_methods, 3, NULL};

/* keys 0..2 (they collide in the buckets too), values 1..3 (compare_and_delete sometimes matches) */
static const lf_arg_range map_args[][LF_CUSTOM_MAX_ARGS] = {
    [MAP_PUT_IF_ABSENT] = {{0, 2}, {1, 3}},
    [MAP_COMPARE_AND_DELETE] = {{0, 2}, {1, 3}},
    [MAP_GET] = {{0, 2}, {0, 0}},
};

#define MAP_BUCKETS 8

typedef struct map_node {
    int64_t key, value;
    struct map_node *next;
} map_node;

typedef struct pia_map {
    pthread_mutex_t lock[MAP_BUCKETS];
    map_node *head[MAP_BUCKETS];
    bool unlocked_check; /* the bug */
} pia_map;

static unsigned bucket_of(int64_t key) { return (unsigned)((uint64_t)key * 0x9e3779b97f4a7c15ull >> 61); }

static void *map_create_mode(bool unlocked_check) {
    pia_map *m = calloc(1, sizeof *m);
    if (!m) return NULL;
    for (int i = 0; i < MAP_BUCKETS; i++) pthread_mutex_init(&m->lock[i], NULL);
    m->unlocked_check = unlocked_check;
    return m;
}

static void *map_create(size_t max_ops) {
    (void)max_ops;
    return map_create_mode(false);
}

static void *map_buggy_create(size_t max_ops) {
    (void)max_ops;
    return map_create_mode(true);
}

static void map_destroy(void *obj) {
    pia_map *m = obj;
    for (int i = 0; i < MAP_BUCKETS; i++) {
        for (map_node *n = m->head[i], *next; n; n = next) {
            next = n->next;
            free(n);
        }
        pthread_mutex_destroy(&m->lock[i]);
    }
    free(m);
}

/* The first node of key in bucket b, or NULL. Called with the bucket's lock held. */
static map_node *find(pia_map *m, unsigned b, int64_t key) {
    for (map_node *n = m->head[b]; n; n = n->next)
        if (n->key == key) return n;
    return NULL;
}

static lf_kind map_op(void *obj, lf_method m_, const int64_t *args, int64_t *value) {
    unsigned method = (unsigned)m_; /* an index into map_methods */
    pia_map *m = obj;
    int64_t key = args[0], val = args[1];
    unsigned b = bucket_of(key);
    if (method == MAP_PUT_IF_ABSENT && m->unlocked_check) {
        pthread_mutex_lock(&m->lock[b]); /* the check, safe for memory but not kept for the act */
        map_node *seen = find(m, b, key);
        int64_t seen_value = seen ? seen->value : 0;
        pthread_mutex_unlock(&m->lock[b]);
        if (seen) {
            *value = seen_value;
            return LF_K_INT;
        }
        LF_YIELD(); /* the window: another put_if_absent of the key may insert here */
        map_node *n = malloc(sizeof *n);
        if (!n) abort();
        pthread_mutex_lock(&m->lock[b]);
        n->key = key;
        n->value = val;
        n->next = m->head[b];
        m->head[b] = n; /* no second look: the bug */
        pthread_mutex_unlock(&m->lock[b]);
        return LF_K_NIL;
    }
    pthread_mutex_lock(&m->lock[b]);
    LF_YIELD();
    lf_kind k;
    map_node *n = find(m, b, key);
    if (method == MAP_GET) {
        if (n) *value = n->value;
        k = n ? LF_K_INT : LF_K_NIL;
    } else if (method == MAP_PUT_IF_ABSENT) {
        if (n) {
            *value = n->value;
            k = LF_K_INT;
        } else {
            map_node *fresh = malloc(sizeof *fresh);
            if (!fresh) abort();
            fresh->key = key;
            fresh->value = val;
            fresh->next = m->head[b];
            m->head[b] = fresh;
            k = LF_K_NIL;
        }
    } else { /* compare_and_delete */
        k = LF_K_FALSE;
        if (n && n->value == val) {
            map_node **link = &m->head[b];
            while (*link != n) link = &(*link)->next;
            *link = n->next;
            free(n);
            k = LF_K_TRUE;
        }
    }
    pthread_mutex_unlock(&m->lock[b]);
    return k;
}

/* Order-independent hash of the entries (key, value), duplicates included (a correct map has none). */
static uint64_t map_fingerprint(void *obj) {
    pia_map *m = obj;
    uint64_t sum = 0, count = 0;
    for (int i = 0; i < MAP_BUCKETS; i++)
        for (map_node *n = m->head[i]; n; n = n->next) {
            uint64_t h = (uint64_t)n->key * 0xff51afd7ed558ccdull ^ ((uint64_t)n->value + 0x9e3779b97f4a7c15ull);
            h ^= h >> 33;
            h *= 0xc4ceb9fe1a85ec53ull;
            sum += h ^ (h >> 29);
            count++;
        }
    return sum ^ (count << 56);
}

const lf_adapter lf_adapter_pia_map = {
    .name = "pia_map",
    .summary = "hash map, one mutex per bucket: put_if_absent, compare_and_delete, get (custom type, no spec)",
    .type = LF_TYPE_CUSTOM,
    .custom = &map_type,
    .arg_ranges = map_args,
    .linearizable = true,
    .deterministic = true,
    .create = map_create,
    .destroy = map_destroy,
    .op = map_op,
    .fingerprint = map_fingerprint,
};
LF_REGISTER_ADAPTER(lf_adapter_pia_map);

const lf_adapter lf_adapter_pia_map_unlocked_check = {
    .name = "pia_map_unlocked_check",
    .summary = "pia_map whose put_if_absent checks for the key, then locks and inserts without checking again: "
               "two inserts of one key both succeed",
    .type = LF_TYPE_CUSTOM,
    .custom = &map_type,
    .arg_ranges = map_args,
    .linearizable = false,
    .deterministic = true,
    .create = map_buggy_create,
    .destroy = map_destroy,
    .op = map_op,
    .fingerprint = map_fingerprint,
};
LF_REGISTER_ADAPTER(lf_adapter_pia_map_unlocked_check);
