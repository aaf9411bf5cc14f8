/* History model: the operations of one concurrent object, as recorded (call/return stamps per thread).
 *
 * Every engine, format and tool works on lf_history. One op is 64 bytes (a cache line) so that a million-op
 * history fits comfortably in memory next to the checkers' own structures. The type and method tables here are
 * the single source of truth for names, arities and allowed results (see docs/formats.md).
 *
 * Custom types (docs/custom-types.md). Besides the nine built-in types, a history may be of a type that an
 * adapter or a file declares: h->type is LF_TYPE_CUSTOM and h->custom describes it (a name, up to
 * LF_CUSTOM_MAX_METHODS methods with their arity, allowed results and flags, and optionally a sequential
 * specification). An op's method is then an index into h->custom->methods. Built-in code paths never look
 * at h->custom; generic code reaches both kinds through lf_history_method and lf_history_type_name. */
#ifndef LINFUZZ_HISTORY_H
#define LINFUZZ_HISTORY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum lf_type {
    LF_TYPE_REGISTER,
    LF_TYPE_CAS_REGISTER,
    LF_TYPE_SET,
    LF_TYPE_STACK,
    LF_TYPE_QUEUE,
    LF_TYPE_PQUEUE,
    LF_TYPE_KV,
    LF_TYPE_COUNTER,
    LF_TYPE_DEQUE,
    LF_TYPE_COUNT, /* the number of built-in types */
    LF_TYPE_CUSTOM = 32 /* a declared type: lf_history.custom describes it */
} lf_type;

typedef enum lf_method {
    LF_M_WRITE, LF_M_READ, LF_M_CAS,            /* register, cas-register */
    LF_M_ADD, LF_M_REMOVE, LF_M_CONTAINS,       /* set */
    LF_M_PUSH, LF_M_POP, LF_M_PEEK,             /* stack (peek is shared with queue, pqueue) */
    LF_M_ENQ, LF_M_DEQ,                         /* queue */
    LF_M_INSERT, LF_M_POLL,                     /* pqueue (min first) */
    LF_M_PUT, LF_M_GET, LF_M_DELETE,            /* kv (get is shared with counter) */
    LF_M_INC,                                   /* counter */
    LF_M_PUSH_FRONT, LF_M_PUSH_BACK, LF_M_POP_FRONT, LF_M_POP_BACK, LF_M_PEEK_FRONT, LF_M_PEEK_BACK,
    /* bulk (all or nothing) and burst (as many as possible) ops of queue and stack: several values in one
     * atomic step (rte_ring's *_bulk and *_burst calls); lf_op.count and docs/contracts.md */
    LF_M_ENQ_BULK, LF_M_ENQ_BURST, LF_M_DEQ_BULK, LF_M_DEQ_BURST,       /* queue */
    LF_M_PUSH_BULK, LF_M_PUSH_BURST, LF_M_POP_BULK, LF_M_POP_BURST,     /* stack */
    LF_M_COUNT
} lf_method;

/* Kind of an argument or result. Arguments are INT or NIL. */
typedef enum lf_kind {
    LF_K_NONE = 0, /* no result (methods without "->") */
    LF_K_INT,
    LF_K_NIL,
    LF_K_EMPTY,
    LF_K_TRUE,
    LF_K_FALSE,
    LF_K_OK,
    LF_K_FAIL,
    LF_K_PENDING, /* the op has no response: ret is meaningless and the result unknown */
    LF_K_FULL,    /* a bounded container refused an insert (push, enq, insert, push_front/back): no effect */
    LF_K_COUNT
} lf_kind;

#define LF_KBIT(k) (1u << (k))

/* What an op does to the abstract state, as the monitors and minimiser see it. */
typedef enum lf_role {
    LF_ROLE_INSERT,  /* write, add, push, enq, insert, put, push_front/back, inc */
    LF_ROLE_REMOVE,  /* remove, pop, deq, poll, delete, pop_front/back */
    LF_ROLE_OBSERVE, /* read, contains, peek, get: never changes the state */
    LF_ROLE_UPDATE   /* cas: may change the state depending on it */
} lf_role;

typedef struct lf_method_info {
    lf_type type;
    lf_method method;
    const char *name;
    uint8_t nargs;    /* exact number of arguments */
    uint16_t results; /* LF_KBIT mask of allowed result kinds; LF_KBIT(LF_K_NONE) = no "->" part */
    lf_role role;
} lf_method_info;

/* ---- custom types ---- */

#define LF_CUSTOM_MAX_METHODS 16 /* methods of one custom type */
#define LF_CUSTOM_MAX_ARGS 4     /* arguments of one method (lf_op holds four) */
#define LF_CUSTOM_NAME_MAX 32    /* longest type or method name */

/* Method flags. */
#define LF_MF_OBSERVER 1u /* never changes the state (with any result): a read, a balance, a size */
#define LF_MF_NONDET 2u   /* its result may legitimately differ between serial runs from the same state */
#define LF_MF_BLOCKS 4u   /* may block (wait for another thread) in some states: a lock, a semaphore */
/* reads and writes only the part of the state named by its first argument (a key): when every op of a
 * history is keyed, parts of different keys are independent ([Horn15] P-compositionality), so they may be
 * checked apart and dropped whole by the minimiser. Only when the state is a product of per-key parts that
 * all start as in a fresh object; never for an op that sees more than its key (size, iteration, transfers). */
#define LF_MF_KEYED 8u
#define LF_MF_ALL (LF_MF_OBSERVER | LF_MF_NONDET | LF_MF_BLOCKS | LF_MF_KEYED)

/* One method as generic code sees it, for built-in and custom types alike. */
typedef struct lf_method_decl {
    const char *name;  /* [a-z][a-z0-9_]*, at most LF_CUSTOM_NAME_MAX characters */
    uint8_t nargs;     /* exact number of arguments, 0..LF_CUSTOM_MAX_ARGS */
    uint16_t results;  /* LF_KBIT mask of allowed result kinds; LF_KBIT(LF_K_NONE) alone: no "->" part */
    uint8_t flags;     /* LF_MF_* */
} lf_method_decl;

struct lf_spec;

/* A custom type. Adapters declare one as a constant; readers build one from a file's declaration. */
typedef struct lf_type_desc {
    const char *name;              /* [a-z][a-z0-9_-]*, at most LF_CUSTOM_NAME_MAX, not a built-in type's name */
    const lf_method_decl *methods; /* methods[i] is method i (lf_op.method == i) */
    size_t n_methods;              /* 1..LF_CUSTOM_MAX_METHODS, distinct names */
    const struct lf_spec *spec;    /* optional sequential specification (linfuzz/spec.h); NULL: none */
} lf_type_desc;

/* The most values of one bulk or burst op (the values fill lf_op.arg). */
#define LF_BULK_MAX 4

/* One operation. Arguments and result are 64-bit integers unless their kind says otherwise.
 *
 * Bulk and burst ops (lf_method_is_bulk) carry several values, as in the text format (docs/formats.md):
 *   count    n, the values offered (an insert) or asked for (a remove): 1..LF_BULK_MAX (0 for every other op);
 *   arg[i]   i < n: the values an insert offers, in order; for a remove the values it returned, in the order it
 *            returned them (i < res); the other slots are 0 and no value is nil (arg_nil is 0);
 *   result   enq_bulk/push_bulk: none (all n inserted) or full (none); enq_burst/push_burst: LF_K_INT, res the
 *            number inserted (the first res of the n, 0..n); deq_bulk/pop_bulk: LF_K_INT with res == n, or empty;
 *            deq_burst/pop_burst: LF_K_INT, res the number returned (1..n), or empty (none). */
typedef struct lf_op {
    uint64_t call;
    uint64_t ret;      /* meaningless when res_kind == LF_K_PENDING */
    int64_t arg[LF_CUSTOM_MAX_ARGS]; /* arg[i] meaningful when the method has argument i and it is not nil;
                                      * the others are 0 (built-in methods have at most two) */
    int64_t res;       /* meaningful when res_kind == LF_K_INT */
    uint32_t thread;
    uint8_t method;    /* lf_method; for custom types the index of the method in the type's declaration */
    uint8_t arg_nil;   /* bit i set: argument i is nil */
    uint8_t res_kind;  /* lf_kind */
    uint8_t count;     /* bulk and burst ops: n (see above); 0 for every other op */
} lf_op;

/* Whether method m (of a stack or queue) is a bulk or burst op, an insert of several values, a remove of
 * several, all or nothing (bulk) or as many as possible (burst). */
static inline bool lf_method_is_bulk(unsigned m) { return m >= LF_M_ENQ_BULK && m <= LF_M_POP_BURST; }
static inline bool lf_method_is_bulk_insert(unsigned m) {
    return m == LF_M_ENQ_BULK || m == LF_M_ENQ_BURST || m == LF_M_PUSH_BULK || m == LF_M_PUSH_BURST;
}
static inline bool lf_method_is_burst(unsigned m) {
    return m == LF_M_ENQ_BURST || m == LF_M_DEQ_BURST || m == LF_M_PUSH_BURST || m == LF_M_POP_BURST;
}
/* The number of values a finished bulk or burst op moved (inserted or removed): 0 for full, empty and pending
 * answers (a pending op moved at most count). */
static inline unsigned lf_bulk_moved(const lf_op *op) {
    if (lf_method_is_bulk_insert(op->method))
        return op->res_kind == LF_K_NONE ? op->count : op->res_kind == LF_K_INT ? (unsigned)op->res : 0;
    return op->res_kind == LF_K_INT ? (unsigned)op->res : 0;
}

/* ---- contracts (docs/contracts.md) ----
 *
 * What a history of a stack or queue promises, when it is weaker than linearizability with respect to its type.
 * A contract has two independent parts: the order in which values come out, and how exact the full and empty
 * answers are. The zero contract is linearizability (the default everywhere: nothing changes for a history or an
 * adapter that names none). Written in the text format as one header line, e.g. "contract k-relaxed 4". */
typedef enum lf_order {
    LF_ORDER_EXACT = 0,     /* the type's own order: FIFO (queue), LIFO (stack) */
    LF_ORDER_K_RELAXED,     /* "k-relaxed K": a remove or peek may take any of the K oldest (queue) or newest (stack)
                             * values: the out-of-order relaxation of [Henzinger13]; K = 1 is the type's own order */
    LF_ORDER_PER_PRODUCER,  /* "per-producer", queue only: FIFO among the values each thread inserted; a remove takes
                             * the oldest value of any one thread */
    LF_ORDER_BAG,           /* "bag": a remove or peek may take any value inside (a pool) */
    LF_ORDER_COUNT
} lf_order;

typedef enum lf_full_empty {
    LF_FULL_EMPTY_EXACT = 0, /* full and empty answers are linearized with the rest */
    LF_FULL_EMPTY_LAGGING,   /* "lagging-full-empty": they may lag behind operations in flight (counted: an insert
                              * counts for removes once it returned, a remove frees room once it returned, and each
                              * counts against the other side from its call): DPDK's rings, rte_stack */
    LF_FULL_EMPTY_QUIESCENT, /* "quiescent-full-empty": as lagging, but a returned insert (remove) counts only from
                              * the first moment after its return when no insert (remove) is in flight: Vyukov's
                              * bounded queue, DPDK's RTS rings */
    LF_FULL_EMPTY_WEAK,      /* "weak-full-empty": counted over the whole answer instead of at one moment of it: an
                              * empty answer holds unless values certainly stayed inside throughout (inserted by
                              * inserts that returned before its call, more than removes called by its return could
                              * take): a remove that scans slots one by one (Scal's k-FIFO) */
    LF_FULL_EMPTY_UNCHECKED, /* "unchecked-full-empty": full and empty answers promise nothing (only the values are
                              * checked): a pool whose per-thread caches hide values from other threads (DPDK's
                              * mempool with caches) */
    LF_FULL_EMPTY_COUNT
} lf_full_empty;

#define LF_CONTRACT_MAX_K 65536u /* the largest K of "k-relaxed K" */

typedef struct lf_contract {
    uint8_t order;      /* lf_order */
    uint8_t full_empty; /* lf_full_empty */
    uint32_t k;         /* LF_ORDER_K_RELAXED: 1..LF_CONTRACT_MAX_K; 0 otherwise */
} lf_contract;

/* Whether c is the default contract (linearizability). */
static inline bool lf_contract_is_default(const lf_contract *c) {
    return c->order == LF_ORDER_EXACT && c->full_empty == LF_FULL_EMPTY_EXACT;
}
/* Whether a and b are the same contract. */
static inline bool lf_contract_equal(const lf_contract *a, const lf_contract *b) {
    return a->order == b->order && a->full_empty == b->full_empty && a->k == b->k;
}
/* Whether histories of type t may have contract c (the default: every type; the others: stack and queue, and
 * per-producer only queue); with a message naming what is wrong when not. */
bool lf_contract_valid(lf_type t, const lf_contract *c, char *err, size_t errlen);
/* The contract's text: "linearizable", "k-relaxed 4", "bag lagging-full-empty", ... (its words in the text format's
 * contract line, order first). Returns the number of characters of the whole text, like snprintf. */
int lf_contract_format(char *buf, size_t len, const lf_contract *c);
/* Parses the words of a contract line (without "contract"): each of "linearizable", "k-relaxed K",
 * "per-producer", "bag", "lagging-full-empty", "quiescent-full-empty", "weak-full-empty", "unchecked-full-empty",
 * at most one order and one full/empty word. On error, false with a message. */
bool lf_contract_parse_words(const char *const *words, const size_t *lens, int n, lf_contract *out, char *err,
                             size_t errlen);
/* The same from one string of space-separated words ("k-relaxed 4 lagging-full-empty"). */
bool lf_contract_parse(const char *text, lf_contract *out, char *err, size_t errlen);

typedef struct lf_history {
    lf_type type;
    bool has_init;     /* registers: an "init" line was given; without one, init_kind is LF_K_INT and init 0 */
    uint8_t init_kind; /* LF_K_INT or LF_K_NIL */
    int64_t init;
    /* Bounded containers (stack, queue, pqueue, deque): they hold at most `capacity` values, an insert into a
     * full one answers LF_K_FULL and changes nothing, and an insert into one that is not full must succeed.
     * 0: unbounded (then no op may answer full). The text format's "capacity N" line. */
    uint64_t capacity;
    /* What the history promises (docs/contracts.md); zero: linearizability. The text format's "contract" line. */
    lf_contract contract;
    lf_op *ops;
    size_t n, cap;
    /* type == LF_TYPE_CUSTOM: the type's declaration. Either a descriptor that outlives the history (an
     * adapter's constant, a registered type), or one the history owns (custom_owned == custom, built by a
     * reader; freed by lf_history_free, duplicated by lf_history_copy/select). NULL for built-in types. */
    const lf_type_desc *custom;
    lf_type_desc *custom_owned;
} lf_history;

/* ---- type and method tables ---- */
const char *lf_type_name(lf_type t);
bool lf_type_from_name(const char *name, size_t len, lf_type *out);
/* The method of type t called name, or NULL. */
const lf_method_info *lf_method_lookup(lf_type t, const char *name, size_t len);
const lf_method_info *lf_method_info_of(lf_type t, lf_method m);
const char *lf_method_name(lf_method m);
const char *lf_kind_name(lf_kind k); /* "nil", "empty", "true", ... ("int" for LF_K_INT) */

static inline bool lf_op_pending(const lf_op *op) { return op->res_kind == LF_K_PENDING; }
static inline bool lf_arg_is_nil(const lf_op *op, int i) { return (op->arg_nil >> i) & 1u; }
/* Whether a and b are the same call: method, arguments and their nil flags (unused arguments are 0), and the
 * count of a bulk op (whose args are the values a remove returned: equal only when they returned the same). */
static inline bool lf_op_same_call(const lf_op *a, const lf_op *b) {
    if (a->method != b->method || a->arg_nil != b->arg_nil || a->count != b->count) return false;
    for (int i = 0; i < LF_CUSTOM_MAX_ARGS; i++)
        if (a->arg[i] != b->arg[i]) return false;
    return true;
}
/* Makes a finished op pending (its return unseen: a cut history, a snapshot): no return stamp, no result, and for a
 * bulk or burst remove none of the values it returned (a pending op has no outputs). */
static inline void lf_op_make_pending(lf_op *op) {
    op->res_kind = LF_K_PENDING;
    op->res = 0;
    op->ret = 0;
    if (lf_method_is_bulk(op->method) && !lf_method_is_bulk_insert(op->method))
        for (int i = 0; i < LF_CUSTOM_MAX_ARGS; i++) op->arg[i] = 0;
}
/* Real-time order: a precedes b iff a returned strictly before b was called. */
static inline bool lf_precedes(const lf_op *a, const lf_op *b) {
    return !lf_op_pending(a) && a->ret < b->call;
}

/* ---- custom type declarations ---- */

/* Checks a declaration: names, method count, arities, result masks, flags, distinct method names. On error
 * writes a message ("method 2 'x': ...") and returns false. */
bool lf_type_desc_check(const lf_type_desc *d, char *err, size_t errlen);
/* Whether two declarations are the same type: name and methods (names, arities, results, flags) equal.
 * The spec pointer is not compared. */
bool lf_type_desc_equal(const lf_type_desc *a, const lf_type_desc *b);
/* A deep copy in one allocation (names included), which lf_type_desc_free releases; NULL when out of memory. */
lf_type_desc *lf_type_desc_dup(const lf_type_desc *d);
void lf_type_desc_free(lf_type_desc *d);
/* Writes "method NAME NARGS [-> KIND|KIND...] [observer] [nondet] [blocks] [keyed]" for method m (no newline), the
 * declaration line of the text format; returns chars written like snprintf. */
int lf_method_decl_format(char *buf, size_t len, const lf_method_decl *m);

/* Registered custom types: what readers attach to a file's declaration when it matches (so a history read
 * from a file gets the registered type's spec), and what `linfuzz check` knows by name. The fuzzing layer
 * registers every linked adapter's type. A descriptor must outlive the process. Registering a name again
 * with an equal declaration is a no-op (true); with a different one, false with a message. Thread-safe. */
bool lf_type_register(const lf_type_desc *d, char *err, size_t errlen);
/* The registered type called name, or NULL. */
const lf_type_desc *lf_type_find(const char *name, size_t len);

/* ---- building histories ---- */
void lf_history_init(lf_history *h, lf_type type);
/* A history of custom type d (which must outlive the history; check it with lf_type_desc_check). */
void lf_history_init_custom(lf_history *h, const lf_type_desc *d);
/* Makes h (of any type) of the type of src, borrowing src's descriptor when it has one; ops untouched.
 * For histories filled in place across runs. False when out of memory (copying an owned descriptor). */
bool lf_history_set_type_of(lf_history *h, const lf_history *src);

/* ---- generic access, built-in and custom types alike ---- */
/* The type's name: "queue", or the custom type's name. */
const char *lf_history_type_name(const lf_history *h);
/* Method m of h's type, or NULL when the type has none (built-in types: as lf_method_info_of, with
 * LF_MF_OBSERVER for the observing methods). */
const lf_method_decl *lf_history_method(const lf_history *h, unsigned m);
/* The method of h's type called name: its index in *m, or false. */
bool lf_history_method_lookup(const lf_history *h, const char *name, size_t len, unsigned *m);
/* Number of method indices of h's type (LF_M_COUNT for built-in types; some indices are not methods of the
 * type, lf_history_method says which). */
unsigned lf_history_method_count(const lf_history *h);
/* "t3 [12,15] transfer 0 5 -> ok", exact for every type. */
int lf_history_describe_op(const lf_history *h, const lf_op *op, char *buf, size_t len);
void lf_history_free(lf_history *h);
/* Appends a copy of op; returns false only when memory runs out. */
bool lf_history_push(lf_history *h, const lf_op *op);
bool lf_history_copy(lf_history *dst, const lf_history *src);
/* dst := the ops of src selected by keep[i] (in order); type and init are copied. */
bool lf_history_select(lf_history *dst, const lf_history *src, const bool *keep);

/* Structural validation (well-formedness, not linearizability): known method for the type, argument and
 * result kinds allowed, call <= ret, each thread sequential (prev.ret < next.call), nothing after a
 * thread's pending op. On failure writes a message naming the op (by index) into err and returns the index
 * of the offending op; returns SIZE_MAX when the history is well-formed. */
size_t lf_history_validate(const lf_history *h, char *err, size_t errlen);

/* Writes a one-op description such as "t3 [12,15] pop -> 7" (no newline) of an op of type t.
 * Returns chars written. */
int lf_op_describe_typed(char *buf, size_t len, lf_type t, const lf_op *op);
/* The same without the type: exact for every method except "get", which is printed as kv's get (one
 * argument); describe counter ops with lf_op_describe_typed. */
int lf_op_describe(char *buf, size_t len, const lf_op *op);

/* Whether histories of type t may have a capacity (stack, queue, pqueue, deque). */
bool lf_type_boundable(lf_type t);

/* Whether some op of h is a bulk or burst op (lf_method_is_bulk): the linear-time monitors decide none. */
bool lf_history_has_bulk(const lf_history *h);

/* True when every value is inserted at most once (the monitors' precondition; see the format spec). */
bool lf_history_unambiguous(const lf_history *h);

#ifdef __cplusplus
}
#endif

#endif
