/* libcritnib (Debian's libcritnib-dev, 1.1): an ordered map of uintptr_t keys with lock-free reads and a global
 * write lock, used as its manual page (libcritnib(3)) describes, and a misuse twin.
 *
 * Contract (libcritnib(3) and critnib.c's "CONCURRENCY ISSUES"): writers (critnib_insert, critnib_remove) take
 * the library's write lock; readers (critnib_get, critnib_find_le) take nothing, and "the result of get() or
 * find_le() is a value that was current at any point between the call start and end": every operation is
 * linearizable. critnib_insert(c, key, value, 0) inserts only when the key is absent (else EEXIST); with update
 * != 0 it overwrites.
 *
 * Type "ordered_map" (a custom type without a spec: the adapter's own serial runs are its specification, the
 * self-spec of docs/custom-types.md); keys 0..3, values 1..3 (critnib's values are pointers, 0 is "absent"):
 *   insert K V -> true|false    critnib_insert(K, V, update 0): true when inserted, false when K was present
 *   remove K -> int|nil         critnib_remove: the value K had, nil when absent
 *   get K -> int|nil            critnib_get (an observer)
 *   find_le K -> int|nil        critnib_find_le: the value of the largest key <= K (an observer)
 *
 * critnib_map: the library's own put-if-absent (update 0). Linearizable.
 * critnib_map_get_then_insert (misuse): insert as critnib_get, then critnib_insert(update 1) when get saw
 * nothing: a check-then-act made of two library calls, each atomic, the pair not. Two inserts of one key both
 * answer true, and the second value overwrites the first. The library is not instrumented: only the wrappers of
 * its functions (cmake/linfuzz_fuzz_target.cmake, linfuzz_wrap_library_calls) make a scheduling point between
 * the two calls (docs/scheduling.md). */
#include <critnib.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>

#include "linfuzz/adapter.h"

enum { CN_INSERT, CN_REMOVE, CN_GET, CN_FIND_LE };

static const lf_method_decl cn_methods[] = {
    [CN_INSERT] = {"insert", 2, LF_KBIT(LF_K_TRUE) | LF_KBIT(LF_K_FALSE), 0},
    [CN_REMOVE] = {"remove", 1, LF_KBIT(LF_K_INT) | LF_KBIT(LF_K_NIL), 0},
    [CN_GET] = {"get", 1, LF_KBIT(LF_K_INT) | LF_KBIT(LF_K_NIL), LF_MF_OBSERVER},
    [CN_FIND_LE] = {"find_le", 1, LF_KBIT(LF_K_INT) | LF_KBIT(LF_K_NIL), LF_MF_OBSERVER},
};

static const lf_type_desc cn_type = {"ordered_map", cn_methods, 4, NULL};

static const lf_arg_range cn_args[][LF_CUSTOM_MAX_ARGS] = {
    [CN_INSERT] = {{0, 3}, {1, 3}},
    [CN_REMOVE] = {{0, 3}},
    [CN_GET] = {{0, 3}},
    [CN_FIND_LE] = {{0, 3}},
};

/* The object is the critnib itself, as a user's adapter has it. */
static void *cn_create(size_t max_ops) {
    (void)max_ops;
    return critnib_new();
}

static void cn_destroy(void *obj) { critnib_delete(obj); }

static lf_kind value_of(void *v, int64_t *value) {
    if (!v) return LF_K_NIL;
    *value = (int64_t)(uintptr_t)v;
    return LF_K_INT;
}

/* remove, get, find_le: one library call each */
static lf_kind cn_read_or_remove(critnib *c, unsigned method, uintptr_t key, int64_t *value) {
    if (method == CN_REMOVE) return value_of(critnib_remove(c, key), value);
    if (method == CN_GET) return value_of(critnib_get(c, key), value);
    return value_of(critnib_find_le(c, key), value);
}

static lf_kind cn_op(void *obj, lf_method method, const int64_t *args, int64_t *value) {
    uintptr_t key = (uintptr_t)args[0];
    if ((unsigned)method != CN_INSERT) return cn_read_or_remove(obj, (unsigned)method, key, value);
    int rc = critnib_insert(obj, key, (void *)(uintptr_t)args[1], 0); /* the library's put-if-absent */
    if (rc == ENOMEM) abort();
    return rc == 0 ? LF_K_TRUE : LF_K_FALSE;
}

static lf_kind cn_misuse_op(void *obj, lf_method method, const int64_t *args, int64_t *value) {
    uintptr_t key = (uintptr_t)args[0];
    if ((unsigned)method != CN_INSERT) return cn_read_or_remove(obj, (unsigned)method, key, value);
    void *v = (void *)(uintptr_t)args[1];
    if (critnib_get(obj, key)) return LF_K_FALSE;
    /* the window: no load or store of the adapter between the two calls, only the wrappers' points */
    if (critnib_insert(obj, key, v, 1) != 0) abort(); /* ENOMEM */
    return LF_K_TRUE;
}

/* The map's contents (keys 0..3, the only ones the runs use). */
static uint64_t cn_fingerprint(void *obj) {
    uint64_t h = 0x637269746e6962ull;
    for (uintptr_t k = 0; k <= 3; k++) h = (h ^ (uint64_t)(uintptr_t)critnib_get(obj, k)) * 0x9e3779b97f4a7c15ull;
    return h;
}

const lf_adapter lf_adapter_critnib_map = {
    .name = "critnib_map",
    .summary = "libcritnib ordered map: insert (critnib_insert, no update), remove, get, find_le (custom type, "
               "self-spec)",
    .type = LF_TYPE_CUSTOM,
    .custom = &cn_type,
    .arg_ranges = cn_args,
    .linearizable = true,
    .deterministic = true,
    .create = cn_create,
    .destroy = cn_destroy,
    .op = cn_op,
    .fingerprint = cn_fingerprint,
};
LF_REGISTER_ADAPTER(lf_adapter_critnib_map);

const lf_adapter lf_adapter_critnib_map_get_then_insert = {
    .name = "critnib_map_get_then_insert",
    .summary = "libcritnib misuse: insert as critnib_get, then critnib_insert with update: two inserts of a key "
               "both succeed",
    .type = LF_TYPE_CUSTOM,
    .custom = &cn_type,
    .arg_ranges = cn_args,
    .linearizable = false,
    .deterministic = true,
    .create = cn_create,
    .destroy = cn_destroy,
    .op = cn_misuse_op,
    .fingerprint = cn_fingerprint,
};
LF_REGISTER_ADAPTER(lf_adapter_critnib_map_get_then_insert);
