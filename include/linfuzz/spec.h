/* Sequential specifications: the executable models that the general checkers (WGL, hitting families)
 * replay operations against. A user checks a type of their own by filling in one lf_spec; the built-in
 * types of history.h each have one (lf_spec_builtin). docs/writing-a-spec.md explains how to write one.
 *
 * Model. A spec is a deterministic state machine. The checker opens one *instance* per history (or per
 * partition of it, when splitting by partition key); the instance owns a private context (value ids,
 * a hash-consing store for big states, ...) and fixes the state size. States are plain byte blocks of
 * that size, copied with memcpy and kept by the checker in its stack and cache, so a state must not point
 * to memory that the next step could change: big states are handles into the context's append-only store.
 *
 * Contract (the checkers' soundness depends on it; tests/unit/test_spec_props.c checks the built-ins):
 *  - step is a function of (state, op method, arguments, result kind and value) only, never of the op's
 *    thread or stamps, and never changes *state;
 *  - step writes every byte of *next (padding included) when it returns true;
 *  - equal(a, b) iff the states behave identically; hash(a) == hash(b) whenever equal(a, b);
 *  - a pending op (res_kind == LF_K_PENDING) has an unknown result: step applies its effect and accepts.
 *    (The checkers let a pending op take effect anywhere after its call, or never.)
 * Threads: the checkers may use two instances of one spec at once on two threads (the frontier sweep beside
 * WGL), but only when env->user is NULL; instances opened with a user pointer (which may be shared memory,
 * like the self-spec's memo of serial replays) are used by the WGL search alone, on the calling thread. */
#ifndef LINFUZZ_SPEC_H
#define LINFUZZ_SPEC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "linfuzz/history.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What an instance is opened for: the ops it will see and the type's parameters. */
typedef struct lf_spec_env {
    const lf_op *ops;  /* the (sub)history's ops; open may scan them, e.g. to give values dense ids */
    size_t n;
    uint8_t init_kind; /* registers: LF_K_INT or LF_K_NIL initial value (history.h: has_init/init) */
    int64_t init;
    const void *user;  /* user-defined specs: anything they need; built-ins ignore it */
    uint64_t capacity; /* bounded containers: the history's capacity (history.h), 0 = unbounded */
    const lf_type_desc *custom; /* custom types: the declaration (names and arities in explanations), or NULL */
} lf_spec_env;

typedef struct lf_spec {
    const char *name;
    size_t state_size; /* bytes of one state when open is NULL (a multiple of 8 keeps copies aligned) */

    /* Optional. Builds the per-history context and sets *state_size (preset to spec->state_size).
     * Returns false when out of memory. */
    bool (*open)(const lf_spec_env *env, void **ctx, size_t *state_size);
    void (*close)(void *ctx);                /* optional: frees what open built */
    size_t (*ctx_bytes)(const void *ctx);    /* optional: bytes held by the context (memory budgets) */

    void (*init)(void *ctx, void *state);    /* the initial state */
    /* Applies op to *state. Returns whether op's recorded result is legal there; when it is, writes the
     * successor state to *next (state and next never alias). Must not change *state. When the context
     * cannot grow (out of memory), step returns false and ctx_failed reports it from then on. */
    bool (*step)(void *ctx, const void *state, const lf_op *op, void *next);
    /* Optional: true once the context ran out of memory, making later step answers unreliable; the
     * checkers then answer unknown instead of trusting a false from step. */
    bool (*ctx_failed)(const void *ctx);

    uint64_t (*hash)(void *ctx, const void *state);            /* optional; NULL hashes the bytes */
    bool (*equal)(void *ctx, const void *a, const void *b);   /* optional; NULL compares the bytes */

    /* Optional P-compositionality ([Horn15]). Return true and the key when the
     * op reads and writes only the state component of that key, false when it observes or changes the
     * whole object (then the checkers never split the history). NULL: never split. Only give keys when
     * the state is a product of independent per-key parts that all start empty/known, and the key comes
     * from the op's arguments (never from a result that a pending op lacks). Each part is checked with a
     * fresh instance of this same spec opened on that part's ops. */
    bool (*partition_key)(const lf_spec_env *env, const lf_op *op, uint64_t *key);

    /* Optional, a search hint: true when op, with its recorded result, leaves every state in which it is
     * legal unchanged (a read, a contains, a failed cas, a pop that saw empty). The checkers may then
     * linearize it as soon as it is possible without trying alternatives. Never true for a pending op, and
     * never true by accident: a wrong true makes the checkers miss linearizations. NULL: no op is. */
    bool (*observer)(const lf_op *op);

    /* Optional, a search hint: true when op is legal in every state of this instance and the state after it
     * does not depend on the state before (a register's write; a kv put when the instance holds one key).
     * Such an op that is overwritten before anything observes it may as well have taken effect just before
     * the op that overwrote it, anywhere in its interval; the frontier sweep (docs/wgl.md) uses that to leave
     * unobserved writes out. Never true by accident (a put into a map of two keys depends on the other key).
     * NULL: no op is. */
    bool (*overwrites)(void *ctx, const lf_op *op);

    /* Optional, for explanations: a short description of a state ("[3 1 4]") or of an op
     * (NULL: lf_op_describe). Return the number of characters written, like snprintf. */
    int (*describe_state)(void *ctx, const void *state, char *buf, size_t len);
    int (*describe_op)(const lf_op *op, char *buf, size_t len);
} lf_spec;

/* An open spec: what the checkers hold while checking one (sub)history. */
typedef struct lf_spec_inst {
    const lf_spec *spec;
    void *ctx;
    size_t state_size;
    const lf_type_desc *custom; /* env->custom at open: describes ops of custom types without a describe_op */
} lf_spec_inst;

/* The built-in spec of a history type (every built-in lf_type has one), or NULL. */
const lf_spec *lf_spec_builtin(lf_type t);
/* The spec of h's type: the built-in one, or the custom type's (h->custom->spec), or NULL when a custom
 * type has none (check it against an adapter's serial behaviour instead: linfuzz/selfspec.h). */
const lf_spec *lf_spec_of_history(const lf_history *h);
/* env for h's type parameters and all of its ops. */
void lf_spec_env_of_history(const lf_history *h, lf_spec_env *env);

/* Opens spec on env. Returns false when out of memory (inst is then closed). */
bool lf_spec_open(const lf_spec *spec, const lf_spec_env *env, lf_spec_inst *inst);
void lf_spec_close(lf_spec_inst *inst);
size_t lf_spec_ctx_bytes(const lf_spec_inst *inst);
bool lf_spec_failed(const lf_spec_inst *inst);

uint64_t lf_spec_hash_bytes(const void *p, size_t n);

static inline void lf_spec_init(const lf_spec_inst *in, void *state) { in->spec->init(in->ctx, state); }
static inline bool lf_spec_step(const lf_spec_inst *in, const void *state, const lf_op *op, void *next) {
    return in->spec->step(in->ctx, state, op, next);
}
uint64_t lf_spec_hash(const lf_spec_inst *in, const void *state);
bool lf_spec_equal(const lf_spec_inst *in, const void *a, const void *b);
/* Whether op only observes under spec (see lf_spec.observer); false for pending ops. */
static inline bool lf_spec_observer(const lf_spec *spec, const lf_op *op) {
    return spec->observer && !lf_op_pending(op) && spec->observer(op);
}
/* Whether op overwrites the whole state of the instance (see lf_spec.overwrites); pending ops included. */
static inline bool lf_spec_overwrites(const lf_spec_inst *in, const lf_op *op) {
    return in->spec->overwrites && in->spec->overwrites(in->ctx, op);
}
/* The observer test of the built-in specs: observing methods, and ops whose result says nothing changed
 * (false, fail, empty). */
bool lf_spec_builtin_observer(const lf_op *op);
/* Describes op with the spec's describe_op, or with the custom type's declaration, or lf_op_describe. */
int lf_spec_describe_op(const lf_spec_inst *in, const lf_op *op, char *buf, size_t len);
/* Describes a state, or writes "" when the spec cannot. */
int lf_spec_describe_state(const lf_spec_inst *in, const void *state, char *buf, size_t len);

/* Partition key of op under spec; false when the op observes the whole object or spec never splits. */
static inline bool lf_spec_partition_key(const lf_spec *spec, const lf_spec_env *env, const lf_op *op,
                                         uint64_t *key) {
    return spec->partition_key && spec->partition_key(env, op, key);
}

#ifdef __cplusplus
}
#endif

#endif
