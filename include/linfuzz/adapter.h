/* Adapter interface: how the runner drives one concurrent data structure under test.
 *
 * An adapter is one constant struct: a name, the specification type it claims to implement (lf_type), whether
 * it is expected to be linearizable, create/destroy, and a single `op` entry point that performs one method
 * call. The runner calls `op` concurrently from several threads on one object; everything else is called from
 * one thread with no op in flight. docs/writing-an-adapter.md has a complete example.
 *
 * An adapter may also declare a type of its own (`custom`: its name and methods, optionally a spec), and say
 * that its serial runs are deterministic, so that linfuzz can check it against its own serial behaviour
 * without any spec (the self-spec, linfuzz/selfspec.h). docs/custom-types.md shows both. */
#ifndef LINFUZZ_ADAPTER_H
#define LINFUZZ_ADAPTER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "linfuzz/history.h"
#include "linfuzz/sync.h" /* lf_mutex_lock & co.: locks and waits that are scheduling points (controlled mode) */

#ifdef __cplusplus
extern "C" {
#endif

/* LF_YIELD(): a point where the harness may inject a busy-wait or sched_yield to widen race windows. Put it
 * between the shared-memory steps of an operation (after a load whose value is acted on later, before a CAS,
 * inside a lock). It compiles to nothing unless the file is built with LINFUZZ_HARNESS, so the same source can
 * be used outside the fuzzer at no cost. */
#ifdef LINFUZZ_HARNESS
void lf_yield_point(void);
#define LF_YIELD() lf_yield_point()
#else
#define LF_YIELD() ((void)0)
#endif

/* LF_OPAQUE_SYNC(): the code around here synchronises where linfuzz cannot see it, so the weak memory models
 * of controlled runs (docs/memory-models.md) would miss that synchronisation: a barrier in inline assembly, a
 * call into compiled code that is neither instrumented nor reached through linfuzz's library wrappers (those,
 * the functions of the shared libraries given to linfuzz_add_fuzz_target, are fences already, with the
 * library's callbacks). Put it where the adapter's own loads and stores rely on that synchronisation (a node's
 * fields written before the opaque publication, read after the opaque receipt): it is a seq_cst fence in every
 * model. Nothing outside the harness or in free runs. */
#ifdef LINFUZZ_HARNESS
void lf_opaque_sync(void);
#define LF_OPAQUE_SYNC() lf_opaque_sync()
#else
#define LF_OPAQUE_SYNC() ((void)0)
#endif

/* Bit of method m in lf_adapter.methods. */
#define LF_METHOD_BIT(m) (UINT32_C(1) << (m))

/* Exclusive method groups an adapter may declare (lf_adapter.exclusive). */
#define LF_MAX_GROUPS 4
/* Custom types: the values a fuzz case or a stress workload passes as one argument, lo..hi inclusive. */
typedef struct lf_arg_range {
    int64_t lo, hi;
} lf_arg_range;

/* Performs one call of method m (a method of the adapter's type) with args[0..nargs-1] on obj.
 * Returns the result kind as the history records it: LF_K_NONE for methods without a result (write, push, enq,
 * insert, put, inc), LF_K_INT with the value stored in *value, or LF_K_EMPTY/TRUE/FALSE/OK/FAIL/NIL.
 * Values inserted by the runner are always >= 1, so an adapter may use 0 internally as "no value". */
typedef lf_kind (*lf_adapter_op_fn)(void *obj, lf_method m, const int64_t *args, int64_t *value);

/* Performs one bulk or burst call (lf_method_is_bulk(m), stacks and queues: docs/contracts.md) of n values, 1..
 * LF_BULK_MAX: an insert offers in[0..n), in order; a remove asks for n and writes the values it took to
 * out[0..*moved), in the order it took them (a queue's front first, a stack's top first). Returns the result kind
 * as the history records it (history.h): a bulk insert LF_K_NONE (all inserted) or LF_K_FULL (none), a burst insert
 * LF_K_INT, a remove LF_K_INT (values taken) or LF_K_EMPTY (none); *moved is the number inserted or taken. Values
 * the runner offers to a bulk op are >= 2^32 (never those of single ops). */
typedef lf_kind (*lf_adapter_bulk_fn)(void *obj, lf_method m, unsigned n, const int64_t *in, int64_t *out,
                                      unsigned *moved);

typedef struct lf_adapter {
    const char *name;    /* unique, [a-z0-9_-]: used on the command line */
    const char *summary; /* one line: the algorithm, and for a known-buggy adapter the bug */
    lf_type type;        /* the specification its histories are checked against */
    bool linearizable;   /* expected verdict: false for the known-buggy and relaxed adapters */
    uint32_t methods;    /* LF_METHOD_BIT mask of the methods `op` implements (a subset of the type's) */
    /* A fresh, empty object. max_ops is an upper bound on the calls the run will make (sizes pools that
     * never reuse memory during a run). Returns NULL when out of memory. */
    void *(*create)(size_t max_ops);
    /* Frees the object and everything it allocated. No thread is inside the object any more. */
    void (*destroy)(void *obj);
    lf_adapter_op_fn op;
    /* Optional (NULL = nothing to do): called by every worker thread before its first and after its last op
     * on obj, e.g. to register the thread with an RCU library. */
    void (*thread_enter)(void *obj);
    void (*thread_leave)(void *obj);

    /* ---- optional: what real structures need (docs/writing-an-adapter.md); all zero = none ---- */

    /* Bounded containers (stack, queue, pqueue, deque): the object holds at most `capacity` values and an
     * insert into a full one returns LF_K_FULL, changing nothing. Recorded histories carry the capacity, and
     * the checkers hold the adapter to it exactly: full only when `capacity` values are inside, a
     * successful insert only when fewer are. 0: unbounded (LF_K_FULL is then never a legal answer). */
    uint64_t capacity;
    /* Per-thread roles: each non-zero mask (LF_METHOD_BIT) is a group of methods that only one thread
     * calls, the group's owner: a work-stealing deque's push_back/pop_back (its owner) against pop_front
     * (the thieves, every thread), a single-producer queue's enq, a single-consumer queue's deq. In a run
     * with T workers, group g belongs to worker g % T; methods in no group are called by every worker. The
     * serial prefix and drain run on the controlling thread while no worker runs (every call of a group is
     * still ordered after the previous one by happens-before). Groups must be disjoint. */
    uint32_t exclusive[LF_MAX_GROUPS];
    /* Methods that may wait for another thread (LF_METHOD_BIT mask): a blocking deq waits for a value, a
     * blocking enq for room. They are never used to drain the object, and a call that never returns is
     * reported as STUCK (as is any call that never returns) rather than hanging the run. */
    uint32_t may_block;
    /* ---- optional: custom types and the self-spec (docs/custom-types.md) ---- */
    /* type == LF_TYPE_CUSTOM: the adapter's own type (name, methods, optionally a spec); `op` then receives
     * the method's index in it, and `methods` may be 0 (every declared method). Must outlive the program. */
    const lf_type_desc *custom;
    /* Custom types: the range of each argument of each method, arg_ranges[method][argument] (NULL: every
     * argument in 0..keys-1, with keys the fuzz case's key domain, 1..16). Only the entries of arguments a
     * method has are read; give the array one row per method up to the last one with arguments. */
    const lf_arg_range (*arg_ranges)[LF_CUSTOM_MAX_ARGS];
    /* Serial runs from a fresh object always give the same results (and fingerprints): the adapter may be
     * its own specification (--spec self; the default for a custom type without a spec). */
    bool deterministic;
    /* Serial replays must run each op on the thread that recorded it (thread-local state: registration,
     * handles): the self-spec then hands ops to one worker thread per recorded thread. */
    bool thread_affine;
    /* Optional: a hash of obj's abstract state (equal hashes promise equal behaviour from then on; called
     * with no op in flight). The self-spec merges states by it and checks determinism with it. */
    uint64_t (*fingerprint)(void *obj);
    /* Required when a method is declared LF_MF_BLOCKS: whether calling it now (serially, no op in flight)
     * would block. The self-spec asks before calling it in a serial replay and never calls it then. */
    bool (*would_block)(void *obj, lf_method m, const int64_t *args);
    /* ---- optional: a contract weaker than linearizability (docs/contracts.md) ---- */
    /* Stacks and queues: what the structure promises, when it is less than linearizability with respect to its
     * type: the order in which values come out (k-relaxed, per-producer, bag) and how exact its full and empty
     * answers are (lagging, quiescent). Every history recorded from the adapter carries it (its text's 'contract'
     * line), and everything that checks them (fuzz targets, repro, show, triage, stress, check --adapter)
     * holds the adapter to it. All zero: linearizable. E.g. a DPDK MP/MC ring:
     *     .contract = {.full_empty = LF_FULL_EMPTY_LAGGING}
     * a k-FIFO queue with segments of 4: .contract = {.order = LF_ORDER_K_RELAXED, .k = 4}. */
    lf_contract contract;
    /* ---- optional: bulk and burst calls (stacks and queues) ----
     * Required when `methods` names a bulk or burst method (enq_bulk, deq_burst, ...): performs those calls. */
    lf_adapter_bulk_fn bulk_op;
} lf_adapter;

/* ---- registration: one line in the adapter's own file ----
 *
 *     const lf_adapter my_queue_adapter = { .name = "my_queue", ... };
 *     LF_REGISTER_ADAPTER(my_queue_adapter);
 *
 * puts a pointer to the adapter into the linker section "lf_adapters"; every program the file is linked into
 * (the `linfuzz` command, a fuzz target built with linfuzz_add_fuzz_target, a test) finds it there. No list to
 * edit anywhere else. Link adapter files as object files (a CMake OBJECT library, or the sources themselves),
 * not from a static archive, whose unreferenced members the linker would drop. */
#define LF_REGISTER_ADAPTER(var)                                                                              \
    __attribute__((used, section("lf_adapters"), aligned(sizeof(void *)))) static const lf_adapter *const  \
        lf_registered_##var = &(var)

/* ---- the adapters linked into this program (runtime/runner/registry.c) ----
 * Ordered: the adapters expected to be linearizable first, then the known-buggy ones, each by name. */
size_t lf_adapter_count(void);
/* The i-th adapter, or NULL when i >= lf_adapter_count(). */
const lf_adapter *lf_adapter_at(size_t i);
/* The adapter called name, or NULL. */
const lf_adapter *lf_adapter_find(const char *name);

/* Whether a's declaration is consistent (name, methods of its type, disjoint exclusive groups within its
 * methods, blocking methods among them, a capacity only for stack, queue, pqueue and deque); when it is
 * not, err says what is wrong, naming the adapter. Every linfuzz program checks its adapters with it. */
bool lf_adapter_check(const lf_adapter *a, char *err, size_t errlen);
/* The methods worker t of a run with `threads` workers may call: those outside every exclusive group and
 * those of the groups it owns (group g belongs to worker g % threads), in lf_method order. Returns their
 * number (0: this worker has nothing to call). */
unsigned lf_adapter_thread_methods(const lf_adapter *a, unsigned t, unsigned threads, lf_method out[LF_M_COUNT]);
/* The worker that owns method m in a run with `threads` workers, or -1 when every worker may call it. */
int lf_adapter_method_owner(const lf_adapter *a, lf_method m, unsigned threads);
/* ---- an adapter's type (runtime/runner/adapter_type.c) ---- */
/* Method m of the adapter's type (its declaration for custom types), or NULL. */
const lf_method_decl *lf_adapter_method(const lf_adapter *a, unsigned m);
/* "queue", or the custom type's name. */
const char *lf_adapter_type_name(const lf_adapter *a);
/* An empty history of the adapter's type. */
void lf_adapter_history_init(lf_history *h, const lf_adapter *a);

#ifdef __cplusplus
}
#endif

#endif
