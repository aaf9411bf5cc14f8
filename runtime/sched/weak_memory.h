/* Weak memory models of controlled runs (docs/memory-models.md): sc, tso (x86 store buffers) and c11 (per-word
 * store histories with vector clocks, RC11's coherence windows). The model decides what each modelled access
 * of the running thread reads and keeps real memory showing what that thread must see; every choice it makes
 * comes from a chooser (the fuzz case's weak bytes through a generator, or a test enumerating them), so a run
 * is a function of its schedule and its choices.
 *
 * It knows nothing of threads or of the scheduler: its caller says which thread runs (switch_in/switch_out)
 * and calls it from that thread only, at the start of every callback (lf_wm_enter) and for every access. The
 * litmus tests (tests/unit/test_litmus.c) drive it directly that way. Memory is real memory: accesses are
 * made at their addresses, as the instrumented program makes them.
 *
 * Not thread-safe: one thread at a time, as in a controlled run. */
#ifndef LINFUZZ_WEAK_MEMORY_H
#define LINFUZZ_WEAK_MEMORY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "runtime/memory_model.h"

/* Read-modify-write operations (lf_wm_rmw). */
typedef enum lf_wm_rmw_op { LF_RMW_XCHG, LF_RMW_ADD, LF_RMW_SUB, LF_RMW_AND, LF_RMW_OR, LF_RMW_XOR, LF_RMW_NAND } lf_wm_rmw_op;

/* What a choice is about (the chooser may treat them differently). */
typedef enum lf_wm_choice_kind {
    LF_WM_CHOOSE_READ,  /* c11: which element of the window a load reads (0: the newest) */
    LF_WM_CHOOSE_RMW,   /* c11: which element an RMW reads and writes after (0: the newest) */
    LF_WM_CHOOSE_STORE, /* c11: before how many of the newest elements a store goes in mo (0: appended) */
    LF_WM_CHOOSE_DELAY, /* tso: scheduling points a buffered store waits (0: drains at the next point) */
} lf_wm_choice_kind;

/* Returns an option in 0..n-1 (n >= 2); 0 is always the sequentially consistent one. */
typedef unsigned (*lf_wm_chooser)(void *ctx, lf_wm_choice_kind kind, unsigned n);

typedef struct lf_wm lf_wm;

lf_wm *lf_wm_create(void);
void lf_wm_destroy(lf_wm *w);

/* Starts a run of `threads` threads (<= LF_WM_MAX_THREADS) under model m; nobody runs yet. Memory as it is
 * now happens-before every access of the run. */
void lf_wm_run_begin(lf_wm *w, lf_memory_model m, unsigned threads);
/* Ends the run: pending captures and overlays are resolved, every store buffer drained (call with no thread
 * running, after lf_wm_switch_out). Memory then holds the final state. */
void lf_wm_run_end(lf_wm *w, lf_wm_stats *st);
lf_memory_model lf_wm_model(const lf_wm *w);
/* The run was released to free running (the scheduler's watchdog or budget): each thread calls this once, from
 * itself, when it goes on freely. The thread whose view memory shows keeps it (its buffered stores are in
 * memory: they count as drained); another thread's buffered stores are written to memory; a stale value shown
 * to the thread is replaced by the newest if memory still holds it. Touches only the thread's own state and
 * memory, so threads may call it concurrently. */
void lf_wm_release_thread(lf_wm *w, unsigned t);
/* Ends a released run without touching memory (the threads did, lf_wm_release_thread). */
void lf_wm_abandon(lf_wm *w, lf_wm_stats *st);

void lf_wm_set_chooser(lf_wm *w, lf_wm_chooser fn, void *ctx);
void lf_wm_set_observer(lf_wm *w, lf_wm_observer fn, void *ctx);
/* The fixes of the next runs (n <= LF_WM_MAX_FIXES; n = 0: none). */
void lf_wm_set_fixes(lf_wm *w, const lf_wm_fix *fixes, unsigned n);

/* Thread t gets / gives up the processor (tso: its buffered stores are put into / taken out of memory). */
void lf_wm_switch_in(lf_wm *w, unsigned t);
void lf_wm_switch_out(lf_wm *w, unsigned t);

/* The start of every callback of thread t, before anything else: the plain store of its previous callback is
 * captured, a stale value it read is replaced by the newest, fences asked for are made. Then one scheduling
 * point passes (tso: buffered stores whose delay is over drain). */
void lf_wm_enter(lf_wm *w, unsigned t);

/* Atomic operations of thread t on addr (size 1, 2, 4 or 8, naturally aligned): performed by the model, which
 * returns what they read. pc: the access site. */
uint64_t lf_wm_load(lf_wm *w, unsigned t, const volatile void *addr, unsigned size, int mo, uintptr_t pc);
void lf_wm_store(lf_wm *w, unsigned t, volatile void *addr, unsigned size, uint64_t v, int mo, uintptr_t pc);
uint64_t lf_wm_rmw(lf_wm *w, unsigned t, volatile void *addr, unsigned size, lf_wm_rmw_op op, uint64_t v, int mo,
                   uintptr_t pc);
/* Compare-exchange: true and the store made when the value read equals *expected; else false with *expected
 * set to the value read (never equal to the expected one). */
bool lf_wm_cas(lf_wm *w, unsigned t, volatile void *addr, unsigned size, uint64_t *expected, uint64_t desired,
               int mo, int fail_mo, uintptr_t pc);
void lf_wm_fence(lf_wm *w, unsigned t, int mo, uintptr_t pc);

/* An atomic operation the caller performs on memory itself, on `size` bytes that need not lie in one word (a
 * 16-byte compare-exchange): the model treats it as a read-modify-write of every word it touches that reads
 * the newest values (before: drain / acquire; after: release, new elements from memory). */
void lf_wm_direct_begin(lf_wm *w, unsigned t, volatile void *addr, unsigned size, int mo);
void lf_wm_direct_end(lf_wm *w, unsigned t, volatile void *addr, unsigned size, int mo, bool wrote, uintptr_t pc);

/* Plain accesses: called before the program makes the access itself. A read may find an older value put in
 * memory for it (until t's next lf_wm_enter); a write is captured at t's next lf_wm_enter. Accesses that
 * cross a word are not modelled (the cells they touch are adopted). */
void lf_wm_plain_read(lf_wm *w, unsigned t, const void *addr, unsigned size, uintptr_t pc);
void lf_wm_plain_write(lf_wm *w, unsigned t, void *addr, unsigned size, uintptr_t pc);

/* Synchronisation the model does not see the inside of, made by thread t: an acquire-release read-modify-write
 * of a location of its own, obj (a lock, condition variable or semaphore: unlock releases to the next lock;
 * the recorder's counter, whose call and return stamps order every operation after the ones that returned
 * before it was called); tso: a locked instruction, it drains. */
void lf_wm_sync_object(lf_wm *w, unsigned t, const void *obj);
/* Synchronisation of unknown strength (LF_OPAQUE_SYNC(): a compiled library's barriers): a seq_cst fence that
 * drains (tso). */
void lf_wm_sync(lf_wm *w, unsigned t);
/* Thread t's buffered stores drain (tso; nothing in c11): a system call that waits (sched_yield, a sleep: it
 * serialises on x86), an allocator call (free: no store may land in memory handed to another thread). */
void lf_wm_drain(lf_wm *w, unsigned t);
/* A spinning thread waits for the others: tso drains every buffer (buffered stores must become visible). */
void lf_wm_spin(lf_wm *w, unsigned t);
/* Thread t ends (its buffer drains). */
void lf_wm_thread_end(lf_wm *w, unsigned t);

/* The weak choices of a run drawn from (chance, seed): with probability chance/256 an option other than 0,
 * uniformly; never more than 8 stale reads of one cell in a row by one thread (the model enforces that). */
typedef struct lf_wm_random {
    uint8_t chance;
    uint64_t state;
} lf_wm_random;
void lf_wm_random_init(lf_wm_random *r, uint8_t chance, uint64_t seed);
unsigned lf_wm_random_choose(void *ctx, lf_wm_choice_kind kind, unsigned n);

#endif
