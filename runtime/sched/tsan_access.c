/* linfuzz's runtime for the ThreadSanitizer instrumentation ABI: every shared-memory access of adapter code
 * becomes a scheduling point (docs/scheduling.md, "Instrumentation").
 *
 * Adapter sources are compiled with -fsanitize=thread (clang or gcc) but linked without the TSan runtime:
 * the compiler inserts a call before every load and store (__tsan_readN / __tsan_writeN, the access itself
 * stays in the code) and replaces every atomic operation with a call (__tsan_atomicN_*, which must perform
 * it). This file implements all of them:
 *   - free-running (the calling thread is not controlled: lf_sched_self == NULL): nothing for plain accesses;
 *     atomics are performed with exactly the memory order asked for, so weak-memory behaviour is preserved;
 *   - controlled: a scheduling point first (the strategy may hand the baton on), then the access; under the
 *     run's memory model: sc performs atomics sequentially consistent (only one thread runs, so that is what
 *     they are anyway), a weak model (weak_memory.h: tso, c11) performs them and chooses what they read, and
 *     sees every plain access too; a read-modify-write or store that changed memory counts as progress for
 *     the spin detection.
 * The list follows compiler-rt's tsan_interface.h and tsan_interface_atomic.h; the symbols clang 14 and
 * gcc 12 emit for the bundled adapters are a subset (nm on the objects, docs/scheduling.md).
 * Not built into the ThreadSanitizer build (LINFUZZ_TSAN), where the real runtime owns these symbols. */
#include <stdint.h>
#include <string.h>

#include "sched/sched_internal.h"

typedef int lf_morder; /* __tsan_memory_order: relaxed 0, consume 1, acquire 2, release 3, acq_rel 4, seq_cst 5 */

#define RET_PC ((uintptr_t)__builtin_return_address(0))
#define LIKELY_FREE(th) __builtin_expect((th) == NULL, 1)

/* libFuzzer's inline coverage counters (the __sancov_cntrs section) are bytes that the instrumented code
 * increments with plain loads and stores, which the TSan pass (running after the coverage pass) instruments
 * too. They are not the adapter's memory: no scheduling points for them. */
extern uint8_t __start___sancov_cntrs[] __attribute__((weak, visibility("hidden")));
extern uint8_t __stop___sancov_cntrs[] __attribute__((weak, visibility("hidden")));

/* Likewise the stack-depth tracking's thread-local word (-fsanitize-coverage=stack-depth): libFuzzer's, or
 * the no-op stand-in of runtime/sched/sancov_stubs.c. */
extern _Thread_local uintptr_t __sancov_lowest_stack;

static inline bool coverage_counter(const void *addr, unsigned size) {
    if (size == 1) return (const uint8_t *)addr >= __start___sancov_cntrs && (const uint8_t *)addr < __stop___sancov_cntrs;
    return size == sizeof(uintptr_t) && addr == (const void *)&__sancov_lowest_stack;
}

static inline void point(lf_sched_event_kind kind, const void *addr, unsigned size, uintptr_t pc) {
    lf_sched_thread *th = lf_sched_self;
    if (LIKELY_FREE(th) || coverage_counter(addr, size)) return;
    lf_sched_point(th, kind, addr, size, pc);
}

/* The run's weak memory model for an access at addr, or NULL: sc, a released run, or the thread's own stack
 * (nobody else reads it; docs/memory-models.md). */
static inline lf_wm *weak_of(lf_sched_thread *th, const volatile void *addr) {
    lf_wm *wm = th->wm;
    if (__builtin_expect(wm == NULL, 1) || lf_sched_released(th->sched)) return NULL;
    if ((uintptr_t)addr - th->stack_lo < th->stack_hi - th->stack_lo) return NULL;
    return wm;
}

/* A plain load: a point, then (weak model) the value the load may read is put into memory for it. */
static inline void read_point(const void *addr, unsigned size, uintptr_t pc) {
    lf_sched_thread *th = lf_sched_self;
    if (LIKELY_FREE(th) || coverage_counter(addr, size)) return;
    lf_sched_point(th, LF_EV_READ, addr, size, pc);
    lf_wm *wm = weak_of(th, addr);
    if (wm) lf_wm_plain_read(wm, th->index, addr, size, pc);
}

/* Plain accesses: a point before the compiler's own load or store. A store counts as progress; a weak model
 * captures its value at the thread's next callback. */
static inline void write_point(const void *addr, unsigned size, uintptr_t pc) {
    lf_sched_thread *th = lf_sched_self;
    if (LIKELY_FREE(th) || coverage_counter(addr, size)) return;
    lf_sched_point(th, LF_EV_WRITE, addr, size, pc);
    lf_sched_progressed(th, addr);
    lf_wm *wm = weak_of(th, addr);
    if (wm) lf_wm_plain_write(wm, th->index, (void *)(uintptr_t)addr, size, pc);
}

#define PLAIN(N)                                                                              \
    void __tsan_read##N(void *a) { read_point(a, N, RET_PC); }                                \
    void __tsan_write##N(void *a) { write_point(a, N, RET_PC); }                              \
    void __tsan_read##N##_pc(void *a, void *pc) { read_point(a, N, (uintptr_t)pc); }          \
    void __tsan_write##N##_pc(void *a, void *pc) { write_point(a, N, (uintptr_t)pc); }        \
    void __tsan_volatile_read##N(void *a) { read_point(a, N, RET_PC); }                       \
    void __tsan_volatile_write##N(void *a) { write_point(a, N, RET_PC); }
#define UNALIGNED(N)                                                                          \
    void __tsan_unaligned_read##N(void *a) { read_point(a, N, RET_PC); }                      \
    void __tsan_unaligned_write##N(void *a) { write_point(a, N, RET_PC); }                    \
    void __tsan_unaligned_volatile_read##N(void *a) { read_point(a, N, RET_PC); }             \
    void __tsan_unaligned_volatile_write##N(void *a) { write_point(a, N, RET_PC); }

/* The prototypes, for -Wmissing-prototypes and to document the ABI in one place. */
#define PLAIN_DECL(N)                                                                         \
    void __tsan_read##N(void *a);                                                             \
    void __tsan_write##N(void *a);                                                            \
    void __tsan_read##N##_pc(void *a, void *pc);                                              \
    void __tsan_write##N##_pc(void *a, void *pc);                                             \
    void __tsan_volatile_read##N(void *a);                                                    \
    void __tsan_volatile_write##N(void *a);
#define UNALIGNED_DECL(N)                                                                     \
    void __tsan_unaligned_read##N(void *a);                                                   \
    void __tsan_unaligned_write##N(void *a);                                                  \
    void __tsan_unaligned_volatile_read##N(void *a);                                          \
    void __tsan_unaligned_volatile_write##N(void *a);
PLAIN_DECL(1) PLAIN_DECL(2) PLAIN_DECL(4) PLAIN_DECL(8) PLAIN_DECL(16)
UNALIGNED_DECL(2) UNALIGNED_DECL(4) UNALIGNED_DECL(8) UNALIGNED_DECL(16)
PLAIN(1) PLAIN(2) PLAIN(4) PLAIN(8) PLAIN(16)
UNALIGNED(2) UNALIGNED(4) UNALIGNED(8) UNALIGNED(16)

void __tsan_init(void);
void __tsan_func_entry(void *call_pc);
void __tsan_func_exit(void);
void __tsan_read_range(void *a, unsigned long size);
void __tsan_write_range(void *a, unsigned long size);
void __tsan_vptr_read(void **vptr_p);
void __tsan_vptr_update(void **vptr_p, void *new_val);
void *__tsan_memcpy(void *dst, const void *src, unsigned long size);
void *__tsan_memmove(void *dst, const void *src, unsigned long size);
void *__tsan_memset(void *dst, int c, unsigned long size);
void __tsan_atomic_thread_fence(lf_morder mo);
void __tsan_atomic_signal_fence(lf_morder mo);

/* Instrumented modules call this from a constructor; nothing to set up. */
void __tsan_init(void) {}
/* Function entry and exit: a controlled thread keeps the call sites of the instrumented functions it is in
 * (the event hook sees them: root causing attributes an access made in a helper to the call in the op's
 * function). Nothing for a free-running thread. */
void __tsan_func_entry(void *call_pc) {
    lf_sched_thread *th = lf_sched_self;
    if (LIKELY_FREE(th)) return;
    if (th->n_calls == th->library_at) lf_sched_opaque_sync(th); /* an uninstrumented library calls back */
    if (th->n_calls < LF_SCHED_MAX_CALLS) th->calls[th->n_calls] = (uintptr_t)call_pc;
    th->n_calls++;
}
void __tsan_func_exit(void) {
    lf_sched_thread *th = lf_sched_self;
    if (LIKELY_FREE(th)) return;
    if (th->n_calls) th->n_calls--;
    if (th->n_calls == th->library_at) lf_sched_opaque_sync(th); /* ... and its callback returns to it */
}

void __tsan_read_range(void *a, unsigned long size) { point(LF_EV_READ, a, (unsigned)(size > 255 ? 255 : size), RET_PC); }
void __tsan_write_range(void *a, unsigned long size) { write_point(a, (unsigned)(size > 255 ? 255 : size), RET_PC); }
void __tsan_vptr_read(void **vptr_p) { point(LF_EV_READ, vptr_p, sizeof *vptr_p, RET_PC); }
void __tsan_vptr_update(void **vptr_p, void *new_val) {
    (void)new_val;
    write_point(vptr_p, sizeof *vptr_p, RET_PC);
}
/* Newer compilers replace memcpy/memmove/memset intrinsics with these and expect them to do the work. */
void *__tsan_memcpy(void *dst, const void *src, unsigned long size) {
    point(LF_EV_READ, src, (unsigned)(size > 255 ? 255 : size), RET_PC);
    write_point(dst, (unsigned)(size > 255 ? 255 : size), RET_PC);
    return memcpy(dst, src, size);
}
void *__tsan_memmove(void *dst, const void *src, unsigned long size) {
    point(LF_EV_READ, src, (unsigned)(size > 255 ? 255 : size), RET_PC);
    write_point(dst, (unsigned)(size > 255 ? 255 : size), RET_PC);
    return memmove(dst, src, size);
}
void *__tsan_memset(void *dst, int c, unsigned long size) {
    write_point(dst, (unsigned)(size > 255 ? 255 : size), RET_PC);
    return memset(dst, c, size);
}

/* ---- atomics ---- */

/* The free-running path performs each atomic with the order asked for; the builtins want constants, hence
 * the switches. Consume is performed as acquire (what every compiler does). A load's order has no release
 * part and a store's no acquire part: an order the C11 rules do not allow there is weakened accordingly. */
static inline lf_morder store_order(lf_morder mo) { return mo == 1 || mo == 2 ? 0 : mo == 4 ? 3 : mo; }

static inline lf_sched_thread *controlled(void) { return lf_sched_self; }

#define DEFINE_ATOMICS(N, T)                                                                                   \
    T __tsan_atomic##N##_load(const volatile T *a, lf_morder mo);                                             \
    void __tsan_atomic##N##_store(volatile T *a, T v, lf_morder mo);                                          \
    T __tsan_atomic##N##_exchange(volatile T *a, T v, lf_morder mo);                                          \
    T __tsan_atomic##N##_fetch_add(volatile T *a, T v, lf_morder mo);                                         \
    T __tsan_atomic##N##_fetch_sub(volatile T *a, T v, lf_morder mo);                                         \
    T __tsan_atomic##N##_fetch_and(volatile T *a, T v, lf_morder mo);                                         \
    T __tsan_atomic##N##_fetch_or(volatile T *a, T v, lf_morder mo);                                          \
    T __tsan_atomic##N##_fetch_xor(volatile T *a, T v, lf_morder mo);                                         \
    T __tsan_atomic##N##_fetch_nand(volatile T *a, T v, lf_morder mo);                                        \
    int __tsan_atomic##N##_compare_exchange_strong(volatile T *a, T *c, T v, lf_morder mo, lf_morder fmo);    \
    int __tsan_atomic##N##_compare_exchange_weak(volatile T *a, T *c, T v, lf_morder mo, lf_morder fmo);      \
    T __tsan_atomic##N##_compare_exchange_val(volatile T *a, T c, T v, lf_morder mo, lf_morder fmo);          \
                                                                                                               \
    T __tsan_atomic##N##_load(const volatile T *a, lf_morder mo) {                                            \
        lf_sched_thread *th = controlled();                                                                   \
        if (LIKELY_FREE(th)) {                                                                                \
            switch (mo) {                                                                                      \
            case 0:                                                                                            \
            case 3: return __atomic_load_n(a, __ATOMIC_RELAXED);                                               \
            case 1:                                                                                            \
            case 2:                                                                                            \
            case 4: return __atomic_load_n(a, __ATOMIC_ACQUIRE);                                               \
            default: return __atomic_load_n(a, __ATOMIC_SEQ_CST);                                             \
            }                                                                                                  \
        }                                                                                                      \
        lf_sched_point(th, LF_EV_READ, (const void *)a, N / 8, RET_PC);                                       \
        lf_wm *wm = weak_of(th, a);                                                                           \
        if (wm) return (T)lf_wm_load(wm, th->index, a, N / 8, mo, RET_PC);                                    \
        return __atomic_load_n(a, __ATOMIC_SEQ_CST);                                                           \
    }                                                                                                          \
    void __tsan_atomic##N##_store(volatile T *a, T v, lf_morder mo) {                                         \
        lf_sched_thread *th = controlled();                                                                   \
        if (LIKELY_FREE(th)) {                                                                                \
            switch (store_order(mo)) {                                                                         \
            case 0: __atomic_store_n(a, v, __ATOMIC_RELAXED); return;                                          \
            case 3: __atomic_store_n(a, v, __ATOMIC_RELEASE); return;                                          \
            default: __atomic_store_n(a, v, __ATOMIC_SEQ_CST); return;                                         \
            }                                                                                                  \
        }                                                                                                      \
        lf_sched_point(th, LF_EV_WRITE, (const void *)a, N / 8, RET_PC);                                      \
        lf_wm *wm = weak_of(th, a);                                                                           \
        if (wm) {                                                                                              \
            T before = *a;                                                                                     \
            lf_wm_store(wm, th->index, a, N / 8, (uint64_t)v, mo, RET_PC);                                    \
            if (before != v) lf_sched_progressed(th, (const void *)a);                                         \
            return;                                                                                            \
        }                                                                                                      \
        if (__atomic_exchange_n(a, v, __ATOMIC_SEQ_CST) != v) lf_sched_progressed(th, (const void *)a);       \
    }                                                                                                          \
    RMW(N, T, exchange, LF_RMW_XCHG, __atomic_exchange_n(a, v, ORDER), old != v)                                           \
    RMW(N, T, fetch_add, LF_RMW_ADD, __atomic_fetch_add(a, v, ORDER), v != 0)                                             \
    RMW(N, T, fetch_sub, LF_RMW_SUB, __atomic_fetch_sub(a, v, ORDER), v != 0)                                             \
    RMW(N, T, fetch_and, LF_RMW_AND, __atomic_fetch_and(a, v, ORDER), (T)(old & v) != old)                                \
    RMW(N, T, fetch_or, LF_RMW_OR, __atomic_fetch_or(a, v, ORDER), (T)(old | v) != old)                                  \
    RMW(N, T, fetch_xor, LF_RMW_XOR, __atomic_fetch_xor(a, v, ORDER), v != 0)                                             \
    RMW(N, T, fetch_nand, LF_RMW_NAND, __atomic_fetch_nand(a, v, ORDER), (T) ~(old & v) != old)                            \
    int __tsan_atomic##N##_compare_exchange_strong(volatile T *a, T *c, T v, lf_morder mo, lf_morder fmo) {   \
        return cas_##N(a, c, v, mo, fmo, RET_PC);                                                              \
    }                                                                                                          \
    int __tsan_atomic##N##_compare_exchange_weak(volatile T *a, T *c, T v, lf_morder mo, lf_morder fmo) {     \
        /* performed strong: a spurious failure is allowed, never required */                                 \
        return cas_##N(a, c, v, mo, fmo, RET_PC);                                                              \
    }                                                                                                          \
    T __tsan_atomic##N##_compare_exchange_val(volatile T *a, T c, T v, lf_morder mo, lf_morder fmo) {         \
        cas_##N(a, &c, v, mo, fmo, RET_PC);                                                                    \
        return c;                                                                                              \
    }

/* A read-modify-write: free-running with the order asked for, controlled as a point + seq_cst. CHANGED is an
 * expression of old and v: whether memory changed (progress for the spin detection). */
#define RMW(N, T, NAME, WOP, OP, CHANGED)                                                                      \
    T __tsan_atomic##N##_##NAME(volatile T *a, T v, lf_morder mo) {                                           \
        lf_sched_thread *th = controlled();                                                                   \
        T old;                                                                                                 \
        if (LIKELY_FREE(th)) {                                                                                \
            switch (mo) {                                                                                      \
            case 0: { enum { ORDER = __ATOMIC_RELAXED }; return OP; }                                          \
            case 1:                                                                                            \
            case 2: { enum { ORDER = __ATOMIC_ACQUIRE }; return OP; }                                          \
            case 3: { enum { ORDER = __ATOMIC_RELEASE }; return OP; }                                          \
            case 4: { enum { ORDER = __ATOMIC_ACQ_REL }; return OP; }                                          \
            default: { enum { ORDER = __ATOMIC_SEQ_CST }; return OP; }                                         \
            }                                                                                                  \
        }                                                                                                      \
        lf_sched_point(th, LF_EV_RMW, (const void *)a, N / 8, RET_PC);                                        \
        lf_wm *wm = weak_of(th, a);                                                                           \
        if (wm) {                                                                                              \
            old = (T)lf_wm_rmw(wm, th->index, a, N / 8, WOP, (uint64_t)v, mo, RET_PC);                        \
        } else {                                                                                               \
            enum { ORDER = __ATOMIC_SEQ_CST };                                                                 \
            old = OP;                                                                                          \
        }                                                                                                      \
        if (CHANGED) lf_sched_progressed(th, (const void *)a);                                                                  \
        return old;                                                                                            \
    }

/* Compare-exchange: success and failure orders as asked (the failure order made valid and no stronger than
 * the success order, as C11 requires); performed strong. */
#define DEFINE_CAS(N, T)                                                                                       \
    static int cas_##N(volatile T *a, T *c, T v, lf_morder mo, lf_morder fmo, uintptr_t pc) {                 \
        lf_sched_thread *th = controlled();                                                                   \
        if (LIKELY_FREE(th)) {                                                                                \
            (void)fmo;                                                                                         \
            switch (mo) {                                                                                      \
            case 0: return __atomic_compare_exchange_n(a, c, v, 0, __ATOMIC_RELAXED, __ATOMIC_RELAXED);        \
            case 1:                                                                                            \
            case 2: return __atomic_compare_exchange_n(a, c, v, 0, __ATOMIC_ACQUIRE, __ATOMIC_ACQUIRE);        \
            case 3: return __atomic_compare_exchange_n(a, c, v, 0, __ATOMIC_RELEASE, __ATOMIC_RELAXED);        \
            case 4: return __atomic_compare_exchange_n(a, c, v, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE);        \
            default: return __atomic_compare_exchange_n(a, c, v, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);       \
            }                                                                                                  \
        }                                                                                                      \
        lf_sched_point(th, LF_EV_RMW, (const void *)a, N / 8, pc);                                            \
        T expected = *c;                                                                                       \
        int ok;                                                                                                \
        lf_wm *wm = weak_of(th, a);                                                                           \
        if (wm) {                                                                                              \
            uint64_t seen = (uint64_t)expected;                                                                \
            ok = lf_wm_cas(wm, th->index, a, N / 8, &seen, (uint64_t)v, mo, fmo, pc);                          \
            if (!ok) *c = (T)seen;                                                                             \
        } else {                                                                                               \
            ok = __atomic_compare_exchange_n(a, c, v, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);                  \
        }                                                                                                      \
        if (ok && expected != v) lf_sched_progressed(th, (const void *)a);                                                      \
        return ok;                                                                                             \
    }

DEFINE_CAS(8, uint8_t)
DEFINE_CAS(16, uint16_t)
DEFINE_CAS(32, uint32_t)
DEFINE_CAS(64, uint64_t)
DEFINE_ATOMICS(8, uint8_t)
DEFINE_ATOMICS(16, uint16_t)
DEFINE_ATOMICS(32, uint32_t)
DEFINE_ATOMICS(64, uint64_t)

/* 128-bit atomics (double-width CAS, e.g. Concurrency Kit's generation-counted pointers): where the target
 * has a 16-byte compare-and-swap (x86-64 with -mcx16), every operation is a CAS loop on it. */
#if defined(__SIZEOF_INT128__) && defined(__GCC_HAVE_SYNC_COMPARE_AND_SWAP_16)
typedef unsigned __int128 u128;

static inline u128 cas128(volatile u128 *a, u128 expected, u128 desired) {
    return __sync_val_compare_and_swap(a, expected, desired);
}
static inline u128 load128(volatile u128 *a) { return cas128(a, 0, 0); }

u128 __tsan_atomic128_load(const volatile u128 *a, lf_morder mo);
void __tsan_atomic128_store(volatile u128 *a, u128 v, lf_morder mo);
u128 __tsan_atomic128_exchange(volatile u128 *a, u128 v, lf_morder mo);
u128 __tsan_atomic128_fetch_add(volatile u128 *a, u128 v, lf_morder mo);
u128 __tsan_atomic128_fetch_sub(volatile u128 *a, u128 v, lf_morder mo);
u128 __tsan_atomic128_fetch_and(volatile u128 *a, u128 v, lf_morder mo);
u128 __tsan_atomic128_fetch_or(volatile u128 *a, u128 v, lf_morder mo);
u128 __tsan_atomic128_fetch_xor(volatile u128 *a, u128 v, lf_morder mo);
u128 __tsan_atomic128_fetch_nand(volatile u128 *a, u128 v, lf_morder mo);
int __tsan_atomic128_compare_exchange_strong(volatile u128 *a, u128 *c, u128 v, lf_morder mo, lf_morder fmo);
int __tsan_atomic128_compare_exchange_weak(volatile u128 *a, u128 *c, u128 v, lf_morder mo, lf_morder fmo);
u128 __tsan_atomic128_compare_exchange_val(volatile u128 *a, u128 c, u128 v, lf_morder mo, lf_morder fmo);

/* The point of a 128-bit operation (controlled threads only); kind READ or RMW. Under a weak model the
 * operation reads the newest values of both words (docs/memory-models.md): *wm is then set, and the
 * operation goes between lf_wm_direct_begin and weak128_end. */
static inline lf_sched_thread *point128(lf_sched_event_kind kind, const volatile u128 *a, uintptr_t pc, int mo,
                                        lf_wm **wm) {
    lf_sched_thread *th = controlled();
    *wm = NULL;
    if (!LIKELY_FREE(th)) {
        lf_sched_point(th, kind, (const void *)a, 16, pc);
        *wm = weak_of(th, a);
        if (*wm) lf_wm_direct_begin(*wm, th->index, (volatile void *)(uintptr_t)a, 16, mo);
    }
    return th;
}
static inline void weak128_end(lf_wm *wm, lf_sched_thread *th, volatile u128 *a, int mo, bool wrote, uintptr_t pc) {
    if (wm) lf_wm_direct_end(wm, th->index, a, 16, mo, wrote, pc);
}

/* Applies f(old, v) atomically; returns old. */
#define RMW128(NAME, NEW)                                                                                      \
    u128 __tsan_atomic128_##NAME(volatile u128 *a, u128 v, lf_morder mo) {                                    \
        lf_wm *wm;                                                                                             \
        lf_sched_thread *th = point128(LF_EV_RMW, a, RET_PC, mo, &wm);                                         \
        u128 old = load128(a), seen;                                                                           \
        while ((seen = cas128(a, old, (NEW))) != old) old = seen;                                              \
        weak128_end(wm, th, a, mo, true, RET_PC);                                                              \
        if (th && (u128)(NEW) != old) lf_sched_progressed(th, (const void *)a);                                \
        return old;                                                                                            \
    }
RMW128(exchange, v)
RMW128(fetch_add, old + v)
RMW128(fetch_sub, old - v)
RMW128(fetch_and, old & v)
RMW128(fetch_or, old | v)
RMW128(fetch_xor, old ^ v)
RMW128(fetch_nand, ~(old & v))

u128 __tsan_atomic128_load(const volatile u128 *a, lf_morder mo) {
    lf_wm *wm;
    lf_sched_thread *th = point128(LF_EV_READ, a, RET_PC, mo, &wm);
    u128 v = load128((volatile u128 *)a);
    weak128_end(wm, th, (volatile u128 *)a, mo, false, RET_PC);
    return v;
}
void __tsan_atomic128_store(volatile u128 *a, u128 v, lf_morder mo) {
    lf_wm *wm;
    lf_sched_thread *th = point128(LF_EV_WRITE, a, RET_PC, mo, &wm);
    u128 old = load128(a), seen;
    while ((seen = cas128(a, old, v)) != old) old = seen;
    weak128_end(wm, th, a, mo, true, RET_PC);
    if (th && old != v) lf_sched_progressed(th, (const void *)a);
}
static int cas_128(volatile u128 *a, u128 *c, u128 v, int mo, uintptr_t pc) {
    lf_wm *wm;
    lf_sched_thread *th = point128(LF_EV_RMW, a, pc, mo, &wm);
    u128 expected = *c, seen = cas128(a, expected, v);
    *c = seen;
    weak128_end(wm, th, a, mo, seen == expected, pc);
    if (th && seen == expected && expected != v) lf_sched_progressed(th, (const void *)a);
    return seen == expected;
}
int __tsan_atomic128_compare_exchange_strong(volatile u128 *a, u128 *c, u128 v, lf_morder mo, lf_morder fmo) {
    (void)fmo;
    return cas_128(a, c, v, mo, RET_PC);
}
int __tsan_atomic128_compare_exchange_weak(volatile u128 *a, u128 *c, u128 v, lf_morder mo, lf_morder fmo) {
    (void)fmo;
    return cas_128(a, c, v, mo, RET_PC);
}
u128 __tsan_atomic128_compare_exchange_val(volatile u128 *a, u128 c, u128 v, lf_morder mo, lf_morder fmo) {
    (void)fmo;
    cas_128(a, &c, v, mo, RET_PC);
    return c;
}
#endif

void __tsan_atomic_thread_fence(lf_morder mo) {
    lf_sched_thread *th = controlled();
    if (LIKELY_FREE(th)) {
        switch (mo) {
        case 0: return;
        case 1:
        case 2: __atomic_thread_fence(__ATOMIC_ACQUIRE); return;
        case 3: __atomic_thread_fence(__ATOMIC_RELEASE); return;
        case 4: __atomic_thread_fence(__ATOMIC_ACQ_REL); return;
        default: __atomic_thread_fence(__ATOMIC_SEQ_CST); return;
        }
    }
    lf_sched_point(th, LF_EV_FENCE, NULL, 0, RET_PC);
    if (th->wm && !lf_sched_released(th->sched))
        lf_wm_fence(th->wm, th->index, mo, RET_PC);
    else
        __atomic_thread_fence(__ATOMIC_SEQ_CST);
}

void __tsan_atomic_signal_fence(lf_morder mo) {
    (void)mo;
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
}
